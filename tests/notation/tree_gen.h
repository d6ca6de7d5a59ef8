#pragma once
// Generators of game trees for the notation tests and benchmarks: random legal play from a
// start position, built iteratively with make/unmake (the same way the reader works).
//
//  * random_tree(): actions drawn from ActionSearch (every kind of action: jumps, branching,
//    several moves per action); small trees that exercise the writer's short forms.
//  * knight_shuffle_tree(): big trees of single knight moves, legal by construction, built
//    without any search (for size and depth tests).

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "movegen/actions.h"
#include "movegen/movegen.h"
#include "notation/tree.h"

namespace fived::notation::testing_gen {

struct TreeShape {
    int    maxNodes     = 1000;
    int    maxDepth     = 20;  // actions from the root
    double branchProb   = 0.3; // chance that a node gets a second (and third) child
    int    window       = 24;  // actions are drawn among the first `window` found
    int    maxTimelines = 3;   // positions with more timelines end their line (the action
                               // search there can take long), as do positions in check
    std::uint64_t seed = 1;
};

// Builds tree.nodes below the root at tree.start (the tree must hold only its root).
inline void random_tree(GameTree& tree, const TreeShape& shape) {
    std::mt19937_64                rng(shape.seed);
    movegen::Multiverse            mv = tree.start.fork();
    std::vector<movegen::MoveUndo> undo;
    struct Frame {
        int                                     node;
        int                                     depth;
        std::vector<std::vector<movegen::Move>> pending; // children still to add
        std::size_t                             next     = 0;
        std::size_t                             undoBase = 0;
    };
    // Up to k distinct legal actions of the side to move, drawn from the first `window`.
    auto draw = [&](int k) {
        std::vector<std::vector<movegen::Move>> seen;
        if (mv.timeline_count() > shape.maxTimelines || movegen::in_check_at_turn_start(mv))
            return seen;
        movegen::ActionSearch search(mv);
        search.for_each([&](std::span<const movegen::Move> a) {
            seen.emplace_back(a.begin(), a.end());
            return int(seen.size()) < shape.window;
        });
        std::shuffle(seen.begin(), seen.end(), rng);
        if (int(seen.size()) > k) seen.resize(std::size_t(k));
        return seen;
    };
    std::uniform_real_distribution<double> coin(0, 1);
    auto                                   children_wanted = [&] {
        int k = 1;
        while (k < 3 && coin(rng) < shape.branchProb)
            ++k;
        return k;
    };
    std::vector<Frame> stack;
    stack.push_back({0, 0, draw(children_wanted()), 0, 0});
    while (!stack.empty()) {
        Frame& f = stack.back();
        if (f.next == f.pending.size() || int(tree.nodes.size()) >= shape.maxNodes) {
            while (undo.size() > f.undoBase) {
                mv.unmake_move(undo.back());
                undo.pop_back();
            }
            stack.pop_back();
            continue;
        }
        const std::vector<movegen::Move> action = f.pending[f.next++];
        const int                        parent = f.node, depth = f.depth + 1;
        const std::size_t                base = undo.size();
        for (const movegen::Move& m : action) {
            undo.emplace_back();
            mv.make_move(m, undo.back());
        }
        const int                               id = tree.add(parent, action);
        std::vector<std::vector<movegen::Move>> next;
        if (depth < shape.maxDepth) next = draw(children_wanted());
        stack.push_back({id, depth, std::move(next), 0, base});
    }
}

// A big tree that is built without any search and is legal by construction, from the Standard
// start (tree.start, only the root): a main line of `mainDepth` knight moves cycling Ng1f3 Ng8f6
// Nf3g1 Nf6g8, and before it at every node `sides` (at most 2) side variations of `sideLength`
// moves in which the b-knights go out and back (Nb1a3 / Nb8a6 / Na3b1 / Na6b8, or via c3/c6).
// No piece ever comes near a king, in space or in time.
inline void knight_shuffle_tree(GameTree& tree, int mainDepth, int sides, int sideLength) {
    const int v0   = tree.start.end_v(0); // the board White moves from at the root
    auto      move = [&](int ply, int from, int to) {
        movegen::Move m;
        m.from = movegen::Vec4(0, v0 + ply, from);
        m.to   = movegen::Vec4(0, v0 + ply, to);
        return m;
    };
    auto add = [&](int parent, const movegen::Move& m) { return tree.add(parent, {&m, 1}); };
    // Squares are y * 8 + x: b1 1, a3 16, c3 18, g1 6, f3 21, b8 57, a6 40, c6 42, g8 62, f6 45.
    static constexpr int Main[4][2] = {{6, 21}, {62, 45}, {21, 6}, {45, 62}};
    static constexpr int Out[2][2]  = {{16, 40}, {18, 42}}; // per side variation: White, Black
    int                  at         = 0;
    for (int ply = 0; ply < mainDepth; ++ply) {
        for (int s = 0; s < std::min(sides, 2); ++s) {
            int node     = at;
            int moved[2] = {0, 0}; // moves made by each colour in this side variation
            for (int k = 0; k < sideLength; ++k) {
                const int  c    = (ply + k) % 2; // 0 White, 1 Black
                const int  home = c ? 57 : 1, away = Out[s][c];
                const bool out = moved[c]++ % 2 == 0;
                node           = add(node, move(ply + k, out ? home : away, out ? away : home));
            }
        }
        at = add(at, move(ply, Main[ply % 4][0], Main[ply % 4][1]));
    }
}

} // namespace fived::notation::testing_gen
