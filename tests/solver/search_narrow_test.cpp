// The node budgets at defender nodes (Searcher::narrow_checks_first) and the narrow rounds:
// the same answers with any budget, refutations found in budgeted checks, and the memory of how
// each candidate fared at siblings (CandidateHistory).
#include <tuple>

#include <gtest/gtest.h>

#include "solver/history.h"
#include "solver/solver.h"
#include "tests/solver/search_test_util.h"

namespace fived::solver {
namespace {

using movegen::Multiverse;
using namespace searchtest;

// The budgets only change the order in which defences are searched: the same answer, keys and a
// proof that checks, with budgets off, tiny (every defender node with k >= 2 goes through
// budget-stopped searches) and the default, on 1 and 2 threads (where the candidates are counted
// on both, Searcher::count_narrow(), where `countsSplit`). The positions have defender nodes with k
// >= 2: no mate in 4 / 3, and positions of real games solved with --mate 3.
void expect_budgets_keep_the_answer(
    const std::vector<std::tuple<const char*, std::size_t, int>>& games, bool countsSplit) {
    struct Case {
        std::string id;
        Multiverse  root;
        int         bound;
    };
    std::vector<Case> cases;
    for (const auto& [id, back, bound] : games) {
        auto root = load_text(puzzle_text(id), true, back);
        ASSERT_TRUE(root) << id;
        cases.push_back({id, std::move(*root), bound});
    }
    std::uint64_t countSplits = 0;
    for (const Case& c : cases) {
        SolveOptions o        = options(c.bound);
        o.narrowBudget        = 0;
        o.hashMb              = 16;
        const SolveResult ref = solve(c.root, o);
        ASSERT_NE(ref.result, Result::UNKNOWN) << c.id << ": " << ref.error;
        for (const std::uint64_t budget :
            {std::uint64_t(1), std::uint64_t(40), SolveOptions{}.narrowBudget})
            for (const int threads : {1, 2}) {
                SCOPED_TRACE(c.id + ", budget " + std::to_string(budget) + ", threads "
                    + std::to_string(threads));
                o.narrowBudget      = budget;
                o.threads           = threads;
                const SolveResult r = solve(c.root, o);
                EXPECT_EQ(r.result, ref.result) << r.error;
                EXPECT_EQ(r.mateIn, ref.mateIn);
                EXPECT_EQ(r.noMateUpTo, ref.noMateUpTo);
                EXPECT_EQ(r.keys, ref.keys);
                if (r.result == Result::MATE) {
                    EXPECT_TRUE(r.verified);
                }
                if (threads == 1) {
                    EXPECT_EQ(r.countSplits, 0u);
                }
                countSplits += r.countSplits;
            }
    }
    if (countsSplit) {
        EXPECT_GT(countSplits, 0u);
    }
}

TEST(Solver, NodeBudgetsDoNotChangeTheAnswer) {
    expect_budgets_keep_the_answer(
        {{"brawn-tactics-2", 0, 4}, {"underpromotion-puzzle-brawns", 0, 3}}, true);
}

// Real games from chess-in-5d and 5d-chess-js (AGPL-3.0, in ../shared).
TEST(SharedSolver, NodeBudgetsDoNotChangeTheAnswer) {
    expect_budgets_keep_the_answer(
        {{"tutorial-scholars-mate-checkmate", 5, 3}, {"std-qe2-qh5-checkmate", 5, 3}}, false);
}

// A move named by its two ends (ℓ, v, x, y) -> (ℓ, v, x, y).
struct MoveEnds {
    int  l, v, x, y, tl, tv, tx, ty;
    bool of(const Move& m) const {
        return m.from.l() == l && m.from.v() == v && m.from.x() == x && m.from.y() == y
            && m.to.l() == tl && m.to.v() == tv && m.to.x() == tx && m.to.y() == ty;
    }
};

// slavrick samet --at -5 (Black to mate in 3), after the one-move key `key`: with the default
// node budgets the defender refutes it within `nodeLimit` nodes, without budgets (the listed
// order) it does not, and the two-move defence `refutation` is followed by no mate in 2 (checked
// by a search whose defender nodes all have k <= 1: no budgets).
void expect_narrow_check_refutes(
    const MoveEnds& key, const MoveEnds (&refutation)[2], std::uint64_t nodeLimit) {
    auto root = game_position("slavrick-aquababyvssamet-6-12-2021", 5);
    ASSERT_TRUE(root);
    SolveOptions o = options(3);
    o.hashMb       = 16;
    std::vector<std::vector<Move>> roots;
    Solver(*root, o).legal_actions({}, roots);
    std::vector<std::vector<Move>> path;
    for (const auto& a : roots)
        if (a.size() == 1 && key.of(a[0])) path.push_back(a);
    ASSERT_EQ(path.size(), 1u);

    o.nodeLimit = nodeLimit;
    Solver budgeted(*root, o);
    EXPECT_EQ(budgeted.mated_within(path, 2), Value::NO);
    o.narrowBudget = 0;
    o.classCuts    = false; // the refutation by classes (r = 2) also decides it within the limit
    Solver plain(*root, o);
    EXPECT_EQ(plain.mated_within(path, 2), Value::ABORT) << "the node limit";

    std::vector<std::vector<Move>> defences;
    Solver(*root, options(3)).legal_actions(path, defences);
    std::vector<Move> found;
    for (const auto& d : defences)
        if (d.size() == 2 && refutation[0].of(d[0]) && refutation[1].of(d[1])) found = d;
    ASSERT_FALSE(found.empty());
    path.push_back(found);
    o.nodeLimit = 0;
    EXPECT_EQ(Solver(*root, o).mate_within(path, 2), Value::NO);
}

// The key (1T7)Qf6>>(0T7)e5 (the 325th of the search's order, the first it could not refute
// within 60 s before the budgets): the killer of that ply is a quiet defence after which Black
// has over 66,000 actions. The refutation (-2T8)Nf3xe5 (1T8)Qa5d8 gives check and leaves Black
// 960; the budgets find a refutation in 47,384 nodes, while in the listed order the search is
// still on its first defence at 150,000.
TEST(Solver, NarrowCheckRefutesWhereTheFirstDefenceIsWide) {
    expect_narrow_check_refutes({1, 15, 5, 5, 0, 15, 4, 4},
        {{-2, 16, 5, 2, -2, 16, 4, 4}, {1, 16, 0, 4, 1, 16, 3, 7}}, 150'000);
}

// The later rounds of narrow checks (Searcher::NarrowRounds, up to 64 times the first). The key
// (1T15)Nb8>>(0T15)d8 (the 1,345th of the search's order): none of its 36 checking defences
// (about 1,300 attacker actions each) refutes within 4,000 or 32,000 nodes, and in the listed
// order the quiet killer took 2.9M nodes. The check (-2T16)b2b4 (1T16)Qa5d8 refutes in 54,438
// nodes, in a round past those budgets (the third when the rounds grew by 8, after 288,016
// nodes in the first two).
TEST(Solver, NarrowCheckRefutesInALaterRound) {
    expect_narrow_check_refutes({1, 15, 1, 7, 0, 15, 3, 7},
        {{-2, 16, 1, 1, -2, 16, 1, 3}, {1, 16, 0, 4, 1, 16, 3, 7}}, 600'000);
}

// A defender node too wide to list (Searcher::narrow_checks_streamed). cwmtt-ctp1 --at -5
// (White to mate in 3, 8 keys): after the second key, (2T4)Qb4>(1T4)b3 (-2T4)Qb4>(0T4)b2, the
// defender's first defences in the enumeration's order leave White a wide node, and without
// budgets the search was still on the first of them after 585,000 nodes (the case was unknown
// after 60 s). With them, the refutation of the first key, completed with a choice on the boards
// it does not play on, is tried within budgets first and refutes: no mate in 3, within the limit.
TEST(SharedSolver, StreamedDefenderTriesCompletedRefutationsFirst) {
    auto root = game_position("cwmtt-ctp1", 5);
    ASSERT_TRUE(root);
    SolveOptions o      = options(3);
    o.hashMb            = 16;
    o.buildTree         = false;
    o.nodeLimit         = 300'000;
    const SolveResult r = solve(*root, o);
    EXPECT_EQ(r.result, Result::NO_MATE) << r.error;
    EXPECT_EQ(r.noMateUpTo, 3);
    o.narrowBudget = 0;
    EXPECT_EQ(solve(*root, o).result, Result::UNKNOWN) << "the node limit";
}

} // namespace
} // namespace fived::solver

// The narrow rounds' memory of how each candidate fared at siblings: a refutation scores 2 and
// records the round it took (the lead, while the score is positive), a failure scores -1; the
// least recently touched of more than Slots candidates is forgotten.
TEST(CandidateHistory, ScoresLeadsAndForgetsTheLeastRecent) {
    using fived::solver::CandidateHistory;
    CandidateHistory h;
    EXPECT_EQ(h.score(11), 0);
    EXPECT_EQ(h.lead(11), 0);
    h.add(11, 2, 2);
    EXPECT_EQ(h.score(11), 2);
    EXPECT_EQ(h.lead(11), 2);
    h.add(11, -1);
    EXPECT_EQ(h.score(11), 1);
    EXPECT_EQ(h.lead(11), 2) << "a failure keeps the round of the last refutation";
    h.add(11, -1);
    EXPECT_EQ(h.score(11), 0);
    EXPECT_EQ(h.lead(11), 0) << "no lead without a positive score";
    h.add(11, 2, 1);
    EXPECT_EQ(h.lead(11), 1) << "the last refutation's round";
    h.add(13, -1);
    EXPECT_EQ(h.score(13), -1);
    EXPECT_EQ(h.lead(13), 0);
    // Slots - 2 more ids fill the memory; touching 11 again makes 13 the least recent, which
    // the next new id replaces.
    for (std::uint64_t id = 101; id < 101 + CandidateHistory::Slots - 2; id += 1)
        h.add(id, 2, 3);
    h.add(11, 2, 1);
    h.add(999, -1);
    EXPECT_EQ(h.score(13), 0) << "forgotten";
    EXPECT_EQ(h.score(11), 4);
    EXPECT_EQ(h.score(999), -1);
    for (std::uint64_t id = 101; id < 101 + CandidateHistory::Slots - 2; id += 1)
        EXPECT_EQ(h.score(id), 2) << id;
}
