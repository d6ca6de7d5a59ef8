// The puzzle corpus (tests/data/puzzles; the tests named Shared* read the GPL/AGPL games left in
// ../shared): each solved with its claimed length and not shorter, streamed and on 2 threads.
#include <algorithm>

#include <gtest/gtest.h>

#include "solver/solver.h"
#include "solver/verify.h"
#include "tests/solver/search_test_util.h"

namespace fived::solver {
namespace {

using movegen::Multiverse;
using namespace searchtest;

struct PuzzleCase {
    const char*              id;
    int                      mateIn; // 0: no mate within bound
    int                      bound;
    std::vector<std::string> keys; // every key (empty: only the count is checked)
    std::size_t              keyCount;
};

const std::vector<PuzzleCase>& puzzles() {
    static const std::vector<PuzzleCase> list = {
        {"rook-tactics-1-5x5", 1, 1, {"(0T3)Re1e5"}, 1},
        {"std-qe2-qh5-mate-in-1", 1, 1, {"(0T3)Qe2h5"}, 1},
        {"narik-temporal-knight-mate", 1, 1, {"(0T2)Nb2>>x(0T1)b4"}, 1},
        {"timeline-tactitian-issue-1", 1, 1, {"(+0T3)Qd4>>(+0T1)b4"}, 1},
        {"advanced-branching-2", 1, 1, {}, 6},
        // RULES.md §2.3: the key is the brawn double step; ftxi's (0T3)Wd3>>(0T2)d4 uses a
        // non-capturing brawn move backwards in time that the rules do not have (§7 #1).
        {"brawn-tactics-1", 1, 1, {"(0T3)We1e3"}, 1},
        {"standard-mate-1-custom8x8", 1, 3, {"(0T2)Qd1f3"}, 1},
        {"rook-tactics-6x6-two-rooks", 2, 2, {"(0T2)Rb1f1", "(0T2)Rb1b5"}, 2},
        {"rook-tactics-5x5-pawn-timeline", 1, 2, {"(1T3)Rd1d5", "(1T3)Re1e4"}, 2},
        {"narik-knight-underpromotion", 1, 1, {"(0T1)Pb3b4=N"}, 1},
        // Claimed mate-in-4 (unverified source): as transcribed there is none.
        {"brawn-tactics-2", 0, 4, {}, 0},
        // Disputed mate-in-2: none in either reading (here: after the move pair).
        {"underpromotion-puzzle-brawns", 0, 3, {}, 0},
    };
    return list;
}

class PuzzleTest : public ::testing::TestWithParam<std::size_t> { };

TEST_P(PuzzleTest, SolvedWithTheClaimedLengthAndNotShorter) {
    const PuzzleCase& c    = puzzles()[GetParam()];
    auto              root = load_text(puzzle_text(c.id));
    ASSERT_TRUE(root);
    const SolveResult r = solve(*root, options(c.bound));
    if (c.mateIn == 0) {
        EXPECT_EQ(r.result, Result::NO_MATE);
        SolveOptions po = options(c.bound);
        po.algorithm    = Algorithm::DFPN;
        EXPECT_EQ(solve(*root, po).result, Result::NO_MATE);
        SolveOptions so = options(c.bound);
        so.streamAbove  = 1;
        EXPECT_EQ(solve(*root, so).result, Result::NO_MATE) << "streamed";
        return;
    }
    ASSERT_EQ(r.result, Result::MATE) << r.error;
    EXPECT_EQ(r.mateIn, c.mateIn);
    EXPECT_EQ(r.noMateUpTo, c.mateIn - 1);
    if (!c.keys.empty()) {
        EXPECT_EQ(key_texts(*root, r), c.keys);
    }
    EXPECT_EQ(r.keys.size(), c.keyCount);
    ASSERT_TRUE(r.treeBuilt);
    Multiverse        scratch = root->fork();
    const ProofReport rep     = check_proof(scratch, r.tree);
    EXPECT_TRUE(rep.complete);
    EXPECT_EQ(rep.length, c.mateIn);
    // 2 threads agree.
    SolveOptions o        = options(c.bound, 2);
    o.splitHeight         = 1;
    o.splitDefender       = true;
    const SolveResult two = solve(*root, o);
    EXPECT_EQ(two.result, r.result);
    EXPECT_EQ(two.mateIn, r.mateIn);
    EXPECT_EQ(two.keys, r.keys);
    expect_same_tree(two.tree, r.tree, c.id); // its defences built in parallel
    // Every node searched without listing (streamAbove 1: each node with two or more actions
    // streams), on 1 and 2 threads: the same answer and keys (sorted, as a streamed root gives
    // them), and a tree that passes the proof check.
    auto sorted = [](std::vector<std::vector<Move>> k) {
        std::sort(k.begin(), k.end());
        return k;
    };
    for (const int threads : {1, 2}) {
        SCOPED_TRACE("streamed, threads " + std::to_string(threads));
        SolveOptions so      = options(c.bound, threads);
        so.streamAbove       = 1;
        so.splitHeight       = 1;
        const SolveResult st = solve(*root, so);
        ASSERT_EQ(st.result, r.result) << st.error;
        EXPECT_EQ(st.mateIn, r.mateIn);
        EXPECT_EQ(sorted(st.keys), sorted(r.keys));
        EXPECT_TRUE(st.verified);
    }
}

// The indices of the cases whose file is in tests/data (shared = false) or in ../shared.
std::vector<std::size_t> puzzle_indices(bool shared) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < puzzles().size(); ++i)
        if (shared_only(puzzles()[i].id) == shared) out.push_back(i);
    return out;
}

std::string puzzle_test_name(const ::testing::TestParamInfo<std::size_t>& param) {
    std::string s = puzzles()[param.param].id;
    std::replace(s.begin(), s.end(), '-', '_');
    return s;
}

INSTANTIATE_TEST_SUITE_P(
    Data, PuzzleTest, ::testing::ValuesIn(puzzle_indices(false)), puzzle_test_name);
INSTANTIATE_TEST_SUITE_P(
    Shared, PuzzleTest, ::testing::ValuesIn(puzzle_indices(true)), puzzle_test_name);

} // namespace
} // namespace fived::solver
