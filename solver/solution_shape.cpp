// The shape of a solution as fived writes it (solver/solution_shape.h): the key's threat, the
// order and grouping of a node's children, the summary's counts.
#include "solver/solution_shape.h"

#include <algorithm>

#include "movegen/action.h"
#include "movegen/movegen.h"

namespace fived::solver {

Threat threat_of(
    const Multiverse& puzzle, std::span<const Move> key, int n, const SolveOptions& base) {
    Threat th;
    if (n < 2) return th;
    Multiverse                     p = puzzle.fork();
    std::vector<movegen::MoveUndo> u;
    movegen::do_action(p, key, u);
    if (movegen::in_check_at_turn_start(p)) {
        th.kind = Threat::Kind::CHECKING_KEY;
        return th;
    }
    movegen::MoveUndo pass;
    p.make_passes(p.present_v(), pass);
    if (p.to_move() != puzzle.to_move()) {
        th.kind = Threat::Kind::NO_PASS;
        return th;
    }
    SolveOptions o      = base;
    o.maxMate           = n - 1;
    o.minMate           = 1;
    o.allKeys           = false;
    o.buildTree         = false;
    o.progress          = false;
    const SolveResult t = solve(p, o);
    if (t.result == Result::MATE && !t.keys.empty()) {
        th.kind   = Threat::Kind::MATE;
        th.action = t.keys[0];
        th.mateIn = t.mateIn;
        th.position.emplace(std::move(p));
    } else if (t.result == Result::NO_MATE) {
        th.kind = Threat::Kind::ZUGZWANG;
    } else {
        th.kind  = Threat::Kind::UNKNOWN;
        th.error = t.error;
    }
    return th;
}

std::vector<WrittenChild> written_children(
    const SolutionTree& sol, int node, std::span<const int> heights, std::size_t groupThreshold) {
    const std::vector<int>&   kids = sol.nodes[std::size_t(node)].children;
    std::vector<WrittenChild> out;
    if (kids.empty()) return out;
    // Grouping of defences sharing one immediately mating answer.
    std::vector<std::vector<int>> groups(kids.size());
    std::vector<bool>             hidden(kids.size(), false);
    if (groupThreshold && kids.size() > groupThreshold) {
        auto answer_of = [&](int c) -> const movegen::TreeNode* {
            const auto& n = sol.nodes[std::size_t(c)];
            if (n.children.size() != 1) return nullptr;
            const auto& a = sol.nodes[std::size_t(n.children[0])];
            return a.children.empty() ? &a : nullptr;
        };
        for (std::size_t i = 0; i < kids.size(); ++i) {
            const movegen::TreeNode* ai = answer_of(kids[i]);
            if (!ai || hidden[i]) continue;
            std::vector<std::size_t> same{i};
            for (std::size_t j = i + 1; j < kids.size(); ++j) {
                const movegen::TreeNode* aj = answer_of(kids[j]);
                if (aj && !hidden[j] && aj->action == ai->action) same.push_back(j);
            }
            if (same.size() < 2) continue;
            for (std::size_t j : same) {
                groups[i].push_back(kids[j]);
                if (j != i) hidden[j] = true;
            }
        }
    }
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < kids.size(); ++i)
        if (!hidden[i]) order.push_back(i);
    // Main line last: the last child of maximal length.
    std::size_t mainPos = 0;
    for (std::size_t p = 0; p < order.size(); ++p)
        if (heights[std::size_t(kids[order[p]])] >= heights[std::size_t(kids[order[mainPos]])])
            mainPos = p;
    std::rotate(order.begin() + std::ptrdiff_t(mainPos),
        order.begin() + std::ptrdiff_t(mainPos) + 1, order.end());
    for (std::size_t i : order)
        out.push_back({kids[i], std::move(groups[i])});
    return out;
}

SolutionCounts count_solution(const SolutionTree& sol) {
    SolutionCounts c;
    for (std::size_t i = 1; i < sol.nodes.size(); ++i) {
        c.defences += sol.depth(int(i)) % 2 == 0;
        c.mates += sol.nodes[i].mate();
    }
    return c;
}

} // namespace fived::solver
