// verify's verdict (solver/verdict.h): cooks, a game that is no solution tree, and the verdict
// from a proof check and an analysis made by hand.
#include <gtest/gtest.h>

#include "movegen/tree.h"
#include "solver/verdict.h"

namespace fived::solver {
namespace {

using movegen::Move;
using movegen::Vec4;

// A distinct action for a hand-built tree (only equality matters here).
std::vector<Move> act(int square) { return {Move{Vec4(0, 2, square), Vec4(0, 2, square + 1)}}; }

TEST(Verdict, JudgesProofClaimAndSoundness) {
    ProofReport rep;
    rep.complete = rep.finished = true;
    Analysis an;
    an.keys     = {act(0)};
    an.shortest = 2;
    using Kind  = Verdict::Kind;
    Verdict v   = judge(rep, an, false, 0, 2, 2);
    EXPECT_EQ(v.kind, Kind::SOUND);
    EXPECT_TRUE(v.sound && v.claimDecided && v.claimHolds);
    EXPECT_EQ(judge(rep, an, false, 1, 0, 2).kind, Kind::COOKED); // a cook
    EXPECT_EQ(judge(rep, an, false, 0, 3, 2).kind, Kind::WRONG_CLAIM);
    // A claim beyond the tree's length with no shorter mate found is not decided.
    an.shortest = 0;
    v           = judge(rep, an, false, 0, 3, 2);
    EXPECT_FALSE(v.claimDecided);
    EXPECT_EQ(v.kind, Kind::COOKED);
    an.complete = false;
    EXPECT_EQ(judge(rep, an, false, 0, 2, 2).kind, Kind::UNKNOWN);
    rep.complete = false;
    rep.problems.push_back({});
    EXPECT_EQ(judge(rep, an, false, 0, 2, 2).kind, Kind::INCOMPLETE);
    EXPECT_EQ(judge(rep, an, true, 0, 2, 2).kind, Kind::NOT_A_TREE);
    rep.problems.clear();
    rep.finished = false;
    EXPECT_EQ(judge(rep, an, false, 0, 2, 2).kind, Kind::PROOF_UNKNOWN);
}

TEST(Verdict, CooksAreTheKeysTheTreeLacksAndAGameIsNoTree) {
    SolutionTree                         t;
    const int                            key = t.add(0, act(0));
    const std::vector<std::vector<Move>> keys{act(2), act(0), act(4)};
    EXPECT_EQ(cooks_of(t, keys), (std::vector<std::vector<Move>>{act(2), act(4)}));
    t.add(key, act(10));
    EXPECT_TRUE(single_line(t));
    ProofReport rep;
    rep.problems.push_back({});
    rep.problems[0].kind = ProofProblem::Kind::MISSING_DEFENCE;
    EXPECT_TRUE(game_not_tree(t, rep, false));
    EXPECT_FALSE(game_not_tree(t, rep, true)); // a header marks a puzzle position
    t.add(key, act(12));
    EXPECT_FALSE(single_line(t));
    EXPECT_FALSE(game_not_tree(t, rep, false));
}

} // namespace
} // namespace fived::solver
