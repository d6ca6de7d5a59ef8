// The legal-action search (movegen/actions.h): counts of known positions, perft, branching jumps
// in number, the incremental check test against the reference, verdicts.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "movegen/action.h"
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
    Multiverse    mv(r);
    std::string   err;
    auto          grid  = [](const char* rows) { return testing::fen_grid(rows, 1, 1); };
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

// One 8x8 board at (0T1b), Black to move, from its 5DFEN rows: no other board, so the position is
// the chess position on it.
Multiverse one_black_board(const char* rows) {
    Multiverse  mv(GameRules{});
    std::string err;
    EXPECT_TRUE(mv.add_initial_board(0, to_v(1, BLACK), testing::fen_grid(rows, 8, 8), err)) << err;
    EXPECT_TRUE(mv.finish_setup(err)) << err;
    return mv;
}

Move king_move(int fromX, int fromY, int toX, int toY) {
    return Move{Vec4(0, to_v(1, BLACK), make_square(fromX, fromY)),
        Vec4(0, to_v(1, BLACK), make_square(toX, toY))};
}

// RULES.md §5.5 on one board: the black king in h8, mated by a queen in g7 guarded by the king in
// g6; stalemated by the queen in f7; in check from f6, with two escapes (g8, h7; g7 is guarded).
TEST(Actions, VerdictsOfOneBoardPositions) {
    struct Case {
        const char*   rows;
        bool          inCheck;
        std::uint64_t actions;
        Verdict       verdict;
        const char*   name;
    };
    for (const Case& c : {Case{"7k/6Q1/6K1/8/8/8/8/8", true, 0, Verdict::Checkmate, "checkmate"},
             Case{"7k/5Q2/6K1/8/8/8/8/8", false, 0, Verdict::Stalemate, "stalemate"},
             Case{"7k/8/5Q2/8/8/8/8/K7", true, 2, Verdict::Ongoing, "ongoing"}}) {
        SCOPED_TRACE(c.rows);
        Multiverse mv = one_black_board(c.rows);
        EXPECT_EQ(mv.to_move(), BLACK);
        EXPECT_EQ(in_check_at_turn_start(mv), c.inCheck);
        EXPECT_EQ(count_legal_actions(mv), c.actions);
        EXPECT_EQ(exists_legal_action(mv), c.actions > 0);
        EXPECT_EQ(is_checkmate(mv), c.verdict == Verdict::Checkmate);
        EXPECT_EQ(verdict(mv), c.verdict);
        EXPECT_STREQ(verdict_name(verdict(mv)), c.name);
    }
    // The two escapes from the check, and reset_only(): the legality of one action alone.
    Multiverse                     check = one_black_board("7k/8/5Q2/8/8/8/8/K7");
    std::vector<std::vector<Move>> actions;
    ActionSearch                   search(check);
    EXPECT_TRUE(search.for_each([&](std::span<const Move> a) {
        actions.emplace_back(a.begin(), a.end());
        return true;
    }));
    std::sort(actions.begin(), actions.end());
    const std::vector<std::vector<Move>> escapes = {
        {king_move(7, 7, 6, 7)}, {king_move(7, 7, 7, 6)}};
    std::vector<std::vector<Move>> sorted = escapes;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(actions, sorted);
    const Move into = king_move(7, 7, 6, 6);
    search.reset_only(check, std::span<const Move>(&into, 1));
    EXPECT_EQ(search.count(), 0u) << "Kg7 stays in check";
    search.reset_only(check, escapes[0]);
    EXPECT_EQ(search.count(), 1u);
}

// NOTATION.md §6: the actions come in standard order: physical moves and hops sorted by arrival
// timeline, ascending for White and descending for Black, then the branching jumps (in Standard -
// Two Timelines, a jump onto the T1 board of a timeline the action has already moved on). Each
// action there uses the two playable boards: one move on each, or one hop that uses both.
TEST(Actions, StandardOrderByArrivalTimeline) {
    Multiverse mv              = make("Standard - Two Timelines");
    auto       expect_in_order = [](Multiverse& pos, bool ascending) {
        std::vector<std::vector<Move>> actions;
        ActionSearch(pos).for_each([&](std::span<const Move> a) {
            actions.emplace_back(a.begin(), a.end());
            return true;
        });
        std::size_t           hops = 0, branching = 0;
        std::vector<MoveUndo> undo;
        for (const std::vector<Move>& a : actions) {
            EXPECT_TRUE(a.size() == 1 || a.size() == 2) << a.size();
            bool branched = false;
            int  lastL    = 0;
            for (std::size_t i = 0; i < a.size(); ++i) {
                const bool branches = pos.is_branching(a[i]);
                hops += !a[i].is_physical() && !branches;
                branching += branches;
                if (!branches) {
                    EXPECT_FALSE(branched) << "a physical move or hop after a branching jump";
                    if (i > 0) {
                        EXPECT_TRUE(ascending ? lastL < a[i].to.l() : lastL > a[i].to.l());
                    }
                    lastL = a[i].to.l();
                }
                branched |= branches;
                do_action(pos, std::span<const Move>(&a[i], 1), undo);
            }
            undo_action(pos, undo);
        }
        EXPECT_GT(hops, 0u);
        EXPECT_GT(branching, 0u);
        return actions.size();
    };
    EXPECT_EQ(expect_in_order(mv, true), 484u);
    std::vector<Move> first;
    ActionSearch(mv).for_each([&](std::span<const Move> a) {
        first.assign(a.begin(), a.end());
        return !(a.size() == 2 && a[0].is_physical() && a[1].is_physical());
    });
    ASSERT_EQ(first.size(), 2u);
    std::vector<MoveUndo> undo;
    do_action(mv, first, undo);
    ASSERT_EQ(mv.to_move(), BLACK);
    EXPECT_GT(expect_in_order(mv, false), 100u);
    undo_action(mv, undo);
}

// The node limit stops an enumeration and says so; reset() clears it, keeping the limit.
TEST(Actions, NodeLimitAbortsTheEnumeration) {
    Multiverse   mv = make("Standard - Two Timelines");
    ActionSearch search(mv);
    search.set_node_limit(50);
    std::size_t seen = 0;
    EXPECT_FALSE(search.for_each([&](std::span<const Move>) {
        ++seen;
        return true;
    }));
    EXPECT_TRUE(search.aborted());
    EXPECT_LT(seen, 484u);
    search.set_node_limit(UINT64_MAX);
    search.reset(mv);
    EXPECT_FALSE(search.aborted());
    EXPECT_EQ(search.count(), 484u);
    EXPECT_FALSE(search.aborted());
}

// share(): two searches on one counter, in two threads, enumerate disjoint shares whose union is
// the whole enumeration.
TEST(Actions, SharedEnumerationSplitsTheActions) {
    Multiverse                     mv = make("Standard - Two Timelines");
    std::vector<std::vector<Move>> whole;
    ActionSearch(mv).for_each([&](std::span<const Move> a) {
        whole.emplace_back(a.begin(), a.end());
        return true;
    });
    ASSERT_EQ(whole.size(), 484u);
    std::atomic<std::uint32_t>     counter{0};
    std::vector<std::vector<Move>> shares[2];
    std::vector<std::thread>       threads;
    for (int t = 0; t < 2; ++t)
        threads.emplace_back([&, t] {
            Multiverse   own = mv.fork();
            ActionSearch search(own);
            search.share(&counter, 8);
            search.for_each([&](std::span<const Move> a) {
                shares[t].emplace_back(a.begin(), a.end());
                return true;
            });
        });
    for (std::thread& th : threads)
        th.join();
    std::vector<std::vector<Move>> both = shares[0];
    both.insert(both.end(), shares[1].begin(), shares[1].end());
    EXPECT_EQ(both.size(), whole.size()) << "each action exactly once";
    std::sort(both.begin(), both.end());
    std::sort(whole.begin(), whole.end());
    EXPECT_EQ(both, whole);
}

} // namespace
} // namespace fived::movegen
