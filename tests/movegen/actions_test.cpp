// The legal-action search (movegen/actions.h): counts of known positions, perft, branching jumps
// in number, the incremental check test against the reference, verdicts.
#include <gtest/gtest.h>

#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "movegen/actions.h"
#include "movegen/fen_rows.h"
#include "movegen/movegen.h"
#include "movegen/picker.h"
#include "tests/movegen/variant_util.h"

namespace fived::movegen {
namespace {

Multiverse make(const char* name) { return testing::variant_start(name); }

// Golden numbers from ALGORITHMS.md / COUNTS.md (independent engines).
TEST(Actions, StartPositionCounts) {
    Multiverse std_ = make("Standard");
    EXPECT_EQ(count_legal_actions(std_), 20u);
    Multiverse tz = make("Standard - Turn Zero");
    EXPECT_EQ(count_legal_actions(tz), 20u);
    Multiverse vso = make("Very Small - Open");
    EXPECT_EQ(count_legal_actions(vso), 9u);
    Multiverse two = make("Standard - Two Timelines");
    EXPECT_EQ(count_legal_actions(two), 484u);
}

TEST(Actions, TurnZeroKnightJumps) {
    // After 1.e3 in Turn Zero, Black has 22 actions: 20 plus two knight jumps to (0T0b).
    Multiverse        mv = make("Standard - Turn Zero");
    std::vector<Move> moves;
    generate_moves(mv, WHITE, moves);
    const Move* e3 = nullptr;
    for (const Move& m : moves)
        if (m.from.sq() == make_square(4, 1) && m.to.sq() == make_square(4, 2)) e3 = &m;
    ASSERT_NE(e3, nullptr);
    MoveUndo u;
    mv.make_move(*e3, u);
    EXPECT_EQ(mv.to_move(), BLACK);
    EXPECT_EQ(count_legal_actions(mv), 22u);
    mv.unmake_move(u);
    EXPECT_TRUE(mv.is_ok());
}

// 33 timelines of 1x1 boards, each with a white rook at T2 whose only move is back to its own
// empty T1 (a branching jump: the rooks on the neighbouring timelines block the L rides, and no
// king is there to be attacked). Every order of the 33 deferred arrivals is its own action (which
// jump makes which new timeline), so the first action found is at the end of an arrival order
// 33 jumps long: past the 32 bits of the learned-run mask (actions.cpp learned_run(), whose
// shift by 32 was undefined; the fen fuzz target's seed-33-branching-jumps runs it under UBSan).
TEST(Actions, ThirtyThreeBranchingJumpsInOneAction) {
    GameRules r;
    r.width = r.height = 1;
    Multiverse  mv(r);
    std::string err;
    auto        grid = [](const char* rows) {
        FenGrid      g;
        FenRowsError e;
        EXPECT_TRUE(parse_fen_rows(rows, 1, 1, g, e, false)) << e.message;
        return g;
    };
    constexpr int Lines = 33;
    for (int l = -Lines / 2; l <= Lines / 2; ++l) {
        EXPECT_TRUE(mv.add_initial_board(l, to_v(1, WHITE), grid("1"), err)) << err;
        EXPECT_TRUE(mv.add_initial_board(l, to_v(1, BLACK), grid("1"), err)) << err;
        EXPECT_TRUE(mv.add_initial_board(l, to_v(2, WHITE), grid("R"), err)) << err;
    }
    ASSERT_TRUE(mv.finish_setup(err)) << err;
    std::vector<Move> moves;
    generate_moves(mv, WHITE, moves);
    ASSERT_EQ(moves.size(), std::size_t(Lines));
    for (const Move& m : moves) {
        EXPECT_EQ(m.to.l(), m.from.l());
        EXPECT_EQ(m.to.v(), to_v(1, WHITE));
    }
    EXPECT_TRUE(exists_legal_action(mv));
    EXPECT_EQ(count_legal_actions(mv, 100), 100u);
    ActionPicker picker;
    picker.reset(mv);
    int found = 0;
    picker.for_each([&](std::span<const Move> action) {
        EXPECT_EQ(action.size(), std::size_t(Lines));
        EXPECT_EQ(mv.timeline_count(), 2 * Lines);
        return ++found < 3;
    });
    EXPECT_EQ(found, 3);
    EXPECT_EQ(mv.timeline_count(), Lines);
    EXPECT_TRUE(mv.is_ok());
}

TEST(Perft, StandardDepth2) {
    Multiverse mv = make("Standard");
    EXPECT_EQ(perft(mv, 1), 20u);
    EXPECT_EQ(perft(mv, 2), 400u);
}

// The incremental attack test used by the action search must agree with generating every
// capture of every piece: compare legal actions position by position over random games (the
// sets where both finish under the cap). The reference search also keeps the branching jumps
// whose arrival board is an attack on itself, which the fast one drops when it lists the moves.
TEST(Actions, IncrementalCheckAgreesWithReference) {
    std::uint64_t seed = 12345;
    auto          next = [&] {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        return seed;
    };
    int                 positions = 0, maxTimelines = 0, arrivalsIntoCheck = 0, comparedSets = 0;
    const std::uint64_t cap     = 300;
    auto                collect = [&](ActionSearch& s, std::vector<std::vector<Move>>& out) {
        out.clear();
        s.for_each([&](std::span<const Move> a) {
            out.emplace_back(a.begin(), a.end());
            return out.size() < cap;
        });
        std::sort(out.begin(), out.end());
    };
    std::vector<std::vector<Move>> fastSet, refSet;
    std::vector<Move>              moves;
    for (const char* name : {"Standard", "Very Small", "Focused - Just Brawns",
             "Misc - Timeline Invasion", "Focused - Just Unicorns", "Misc - Timeline Marauders",
             "Small", "Focused - Just Dragons"}) {
        for (int game = 0; game < 2; ++game) {
            Multiverse            mv = make(name);
            std::vector<MoveUndo> undo;
            for (int ply = 0; ply < 10; ++ply) {
                ActionSearch fast(mv);
                ActionSearch ref(mv, true);
                collect(fast, fastSet);
                collect(ref, refSet);
                const std::uint64_t n = fastSet.size();
                ASSERT_EQ(n, refSet.size()) << name << " game " << game << " ply " << ply;
                if (n < cap) {
                    ASSERT_EQ(fastSet, refSet) << name << " game " << game << " ply " << ply;
                    ++comparedSets;
                }
                moves.clear();
                generate_moves(mv, mv.to_move(), moves);
                for (const Move& m : moves)
                    arrivalsIntoCheck += !m.is_physical()
                        && royal_attacked_on_board(
                               mv.arrival_board(m), mv.width(), mv.height(), mv.to_move())
                            >= 0;
                ASSERT_EQ(
                    royal_attacked(mv, mv.to_move()), royal_attacked_reference(mv, mv.to_move()));
                ASSERT_EQ(
                    royal_attacked(mv, ~mv.to_move()), royal_attacked_reference(mv, ~mv.to_move()));
                ++positions;
                maxTimelines = std::max(maxTimelines, mv.timeline_count());
                if (n == 0 || mv.timeline_count() > 5) break;
                // Play a random legal action; prefer ones with jumps so the multiverse grows.
                std::vector<std::vector<Move>> all, jumps;
                ActionSearch                   s(mv);
                s.for_each([&](std::span<const Move> a) {
                    all.emplace_back(a.begin(), a.end());
                    for (const Move& m : a)
                        if (!m.is_physical()) {
                            jumps.push_back(all.back());
                            break;
                        }
                    return all.size() < cap;
                });
                if (all.empty()) break;
                const std::vector<Move> chosen = (!jumps.empty() && next() % 3 != 0)
                    ? jumps[next() % jumps.size()]
                    : all[next() % all.size()];
                for (const Move& m : chosen) {
                    undo.emplace_back();
                    mv.make_move(m, undo.back());
                }
            }
        }
    }
    EXPECT_GT(positions, 80);
    EXPECT_GT(comparedSets, 40);
    EXPECT_GE(maxTimelines, 4);
    EXPECT_GT(arrivalsIntoCheck, 0) << "no jump landed in check: the filter went untested";
}

} // namespace
} // namespace fived::movegen
