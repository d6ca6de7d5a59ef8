#pragma once
// The start position of a built-in variant, for the movegen, hypercuboid and allocation tests,
// and the random generator of the random-game tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "movegen/action.h"
#include "movegen/actions.h"
#include "movegen/fen_rows.h"
#include "movegen/movegen.h"
#include "movegen/multiverse.h"
#include "movegen/variants.h"

namespace fived::movegen::testing {

inline Multiverse variant_start(const char* name) {
    const VariantDef* v = find_variant(name);
    EXPECT_NE(v, nullptr) << name;
    Multiverse  mv(variant_rules(*v));
    std::string err;
    EXPECT_TRUE(setup_variant(*v, mv, err)) << err;
    return mv;
}

// The grid of the 5DFEN rows of a width x height board (a `*` anywhere ignored); rows that do
// not parse fail the test.
inline FenGrid fen_grid(const char* rows, int width, int height) {
    FenGrid      g;
    FenRowsError e;
    EXPECT_TRUE(parse_fen_rows(rows, width, height, g, e, false)) << e.message;
    return g;
}

// The xorshift64 generator of the random-game tests: deterministic, seeded by the test.
struct XorShift {
    std::uint64_t state;
    std::uint64_t operator()() {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        return state;
    }
};

// The next action of a random game steered towards checks and jumps, so that positions with few
// legal actions, many timelines and branching arrivals come up: one of the first `among` legal
// actions, a checking one with probability 1/2, else one with a jump with probability 1/2 of
// the rest. Empty when there is no legal action.
template <class Rng>
std::vector<Move> steered_random_action(Multiverse& mv, std::size_t among, Rng& next) {
    std::vector<std::vector<Move>> all, jumps, checks;
    ActionSearch                   s(mv);
    s.set_node_limit(200000);
    s.for_each([&](std::span<const Move> a) {
        all.emplace_back(a.begin(), a.end());
        if (std::any_of(a.begin(), a.end(), [](const Move& m) { return !m.is_physical(); }))
            jumps.push_back(all.back());
        if (in_check_at_turn_start(mv)) checks.push_back(all.back());
        return all.size() < among;
    });
    if (all.empty()) return {};
    const auto r = next() % 4;
    if (r < 2 && !checks.empty()) return checks[next() % checks.size()];
    if (r < 3 && !jumps.empty()) return jumps[next() % jumps.size()];
    return all[next() % all.size()];
}

// The positions of steered random games (steered_random_action() among the first 50 actions):
// for each variant named, `games` games of at most `plies` actions, visit(mv, name) before each
// action (the visitor leaves mv as it found it). Stops at a fatal test failure.
template <class Rng, class Visit>
void for_each_game_position(
    std::initializer_list<const char*> names, int games, int plies, Rng& next, Visit visit) {
    for (const char* name : names)
        for (int game = 0; game < games; ++game) {
            Multiverse            mv = variant_start(name);
            std::vector<MoveUndo> undo;
            for (int ply = 0; ply < plies; ++ply) {
                visit(mv, name);
                if (::testing::Test::HasFatalFailure()) return;
                const std::vector<Move> chosen = steered_random_action(mv, 50, next);
                if (chosen.empty()) break;
                do_action(mv, chosen, undo);
            }
        }
}

} // namespace fived::movegen::testing
