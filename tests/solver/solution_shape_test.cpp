// The shape of a written solution (solver/solution_shape.h): the key's threat, the order of a
// node's children (main line last), defence groups, and the summary's counts.
#include <gtest/gtest.h>

#include "movegen/tree.h"
#include "notation/format.h"
#include "solver/solution_shape.h"
#include "tests/solver/search_test_util.h"

namespace fived::solver {
namespace {

using movegen::Move;
using movegen::Multiverse;
using movegen::Vec4;
using namespace searchtest;

// King and queen against king on a 6x6 board (tests/cli/shard-data/queen-mate-2.5dpgn).
constexpr const char* QueenMate2 = "[Board \"custom\"]\n[Size \"6x6\"]\n[k5/6/2K3/6/3Q2/6:0:1:w]\n";

// A distinct action for a hand-built tree (only equality matters here).
std::vector<Move> act(int square) { return {Move{Vec4(0, 2, square), Vec4(0, 2, square + 1)}}; }

TEST(SolutionShape, ThreatOfAQuietKeyIsItsMate) {
    auto root = load_text(QueenMate2);
    ASSERT_TRUE(root);
    const SolveResult r = solve(*root, options(2));
    ASSERT_EQ(r.result, Result::MATE);
    ASSERT_FALSE(r.keys.empty());
    Threat th = threat_of(*root, r.keys[0], r.mateIn, options(2));
    ASSERT_EQ(th.kind, Threat::Kind::MATE);
    EXPECT_EQ(th.mateIn, 1);
    ASSERT_TRUE(th.position);
    EXPECT_EQ(notation::format_action(*th.position, th.action), "(0T2)Qb2b5");
    // A mate in 1 has no threat to ask.
    EXPECT_EQ(threat_of(*root, r.keys[0], 1, options(2)).kind, Threat::Kind::NONE);
}

TEST(SolutionShape, CheckingKeyHasNoThreat) {
    auto root = load_text(embedded()[2].pgn); // rook-tactics-2: its first key checks
    ASSERT_TRUE(root);
    const SolveResult r = solve(*root, options(2));
    ASSERT_EQ(r.result, Result::MATE);
    EXPECT_EQ(threat_of(*root, r.keys[0], r.mateIn, options(2)).kind, Threat::Kind::CHECKING_KEY);
}

TEST(SolutionShape, GroupsDefencesSharingAnAnswerAndWritesTheMainLineLast) {
    // Below the key (node 1): defences 2, 3, 4, 5. Defences 2 and 4 are answered by the same
    // mate, 3 by another, and 5 goes on (its line is the longest).
    SolutionTree t;
    const int    key = t.add(0, act(0));
    const int    d2  = t.add(key, act(10));
    const int    d3  = t.add(key, act(12));
    const int    d4  = t.add(key, act(14));
    const int    d5  = t.add(key, act(16));
    t.add(d2, act(30));
    const int a3 = t.add(d3, act(32));
    t.add(d4, act(30));
    const int a5 = t.add(d5, act(34));
    const int d6 = t.add(a5, act(36));
    t.add(d6, act(38));
    const std::vector<int> h = t.heights();

    // No grouping: every defence, in order, the longest (d5) last.
    std::vector<WrittenChild> kids = written_children(t, key, h, 0);
    ASSERT_EQ(kids.size(), 4U);
    EXPECT_EQ(kids[0].node, d2);
    EXPECT_EQ(kids[3].node, d5);
    for (const WrittenChild& k : kids)
        EXPECT_TRUE(k.group.empty());

    // Grouping above 3 defences: d2 stands for d2 and d4.
    kids = written_children(t, key, h, 3);
    ASSERT_EQ(kids.size(), 3U);
    EXPECT_EQ(kids[0].node, d2);
    EXPECT_EQ(kids[0].group, (std::vector<int>{d2, d4}));
    EXPECT_EQ(kids[1].node, d3);
    EXPECT_TRUE(kids[1].group.empty());
    EXPECT_EQ(kids[2].node, d5);
    // The threshold is "more than": 4 defences are not grouped at 4.
    EXPECT_EQ(written_children(t, key, h, 4).size(), 4U);
    // A leaf has no children to write.
    EXPECT_TRUE(written_children(t, a3, h, 0).empty());

    const SolutionCounts c = count_solution(t);
    EXPECT_EQ(c.defences, 5U); // d2..d5 and d6
    EXPECT_EQ(c.mates, 0U);    // none of this tree's leaves is marked
}

} // namespace
} // namespace fived::solver
