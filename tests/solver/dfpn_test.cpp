// df-pn (solver/dfpn.cpp, Algorithm::DFPN) against the reference search: the same answers, keys
// and proofs.
#include <utility>

#include <gtest/gtest.h>

#include "solver/solver.h"
#include "solver/verify.h"
#include "tests/movegen/variant_util.h"
#include "tests/solver/search_test_util.h"

namespace fived::solver {
namespace {

using movegen::Multiverse;
using namespace searchtest;

// df-pn against the reference search on every embedded position (bounds up to the mate).
TEST(Solver, DfpnAgreesWithTheReference) {
    for (const Embedded& e : embedded()) {
        auto root = load_text(e.pgn);
        ASSERT_TRUE(root);
        const SolveResult ref = solve(*root, options(e.bound));
        SolveOptions      o   = options(e.bound);
        o.algorithm           = Algorithm::DFPN;
        const SolveResult pn  = solve(*root, o);
        EXPECT_EQ(pn.result, ref.result) << e.id;
        EXPECT_EQ(pn.mateIn, ref.mateIn) << e.id;
        EXPECT_EQ(pn.noMateUpTo, ref.noMateUpTo) << e.id;
        EXPECT_EQ(pn.keys, ref.keys) << e.id;
        EXPECT_EQ(pn.verified, ref.verified) << e.id;
    }
}

// The puzzles of tests/data with short mates (lengths as search_puzzles_test.cpp has them from
// their sources): df-pn finds the same shortest mate and every key the reference finds, and its
// tree passes the proof check with that length.
TEST(Dfpn, AgreesWithTheReferenceOnPuzzles) {
    const std::pair<const char*, int> puzzles[] = {{"rook-tactics-1-5x5", 1},
        {"advanced-branching-2", 1}, {"brawn-tactics-1", 1}, {"standard-mate-1-custom8x8", 1},
        {"rook-tactics-6x6-two-rooks", 2}, {"rook-tactics-5x5-pawn-timeline", 1}};
    for (const auto& [id, mateIn] : puzzles) {
        auto root = load_text(puzzle_text(id));
        ASSERT_TRUE(root) << id;
        const SolveResult ref = solve(*root, options(2));
        SolveOptions      o   = options(2);
        o.algorithm           = Algorithm::DFPN;
        const SolveResult pn  = solve(*root, o);
        ASSERT_EQ(ref.result, Result::MATE) << id;
        ASSERT_EQ(pn.result, Result::MATE) << id << ": " << pn.error;
        EXPECT_EQ(ref.mateIn, mateIn) << id;
        EXPECT_EQ(pn.mateIn, mateIn) << id;
        EXPECT_EQ(pn.noMateUpTo, mateIn - 1) << id;
        EXPECT_EQ(key_texts(*root, pn), key_texts(*root, ref)) << id;
        EXPECT_TRUE(pn.verified) << id;
        ASSERT_TRUE(pn.treeBuilt) << id;
        Multiverse        scratch = root->fork();
        const ProofReport rep     = check_proof(scratch, pn.tree);
        EXPECT_TRUE(rep.complete) << id << (rep.problems.empty() ? "" : rep.problems[0].detail);
        EXPECT_EQ(rep.length, mateIn) << id;
    }
}

// Positions of random games steered towards checks (tests/movegen/variant_util.h) in small
// variants, those with at most 4 timelines: df-pn and the reference give the same answer to
// "mate in 1?" and the same keys.
TEST(Dfpn, AgreesWithTheReferenceOnRandomPositions) {
    movegen::testing::XorShift next{31337};
    int                        positions = 0, mates = 0;
    movegen::testing::for_each_game_position(
        {"Very Small - Open", "Focused - Just Rooks", "Focused - Just Knights"}, 3, 12, next,
        [&](Multiverse& mv, const char* name) {
            // (options() asks for every key: the 9th position, 6 timelines, has 532,572 mates
            // in 1 among 5.4M actions, each tested alone, minutes for both algorithms)
            if (mv.timeline_count() > 4) return;
            const SolveResult ref = solve(mv, options(1));
            SolveOptions      o   = options(1);
            o.algorithm           = Algorithm::DFPN;
            const SolveResult pn  = solve(mv, o);
            ASSERT_NE(ref.result, Result::UNKNOWN) << name << ": " << ref.error;
            EXPECT_EQ(pn.result, ref.result) << name;
            EXPECT_EQ(pn.keys, ref.keys) << name;
            EXPECT_EQ(pn.verified, ref.verified) << name;
            ++positions;
            mates += ref.result == Result::MATE;
        });
    EXPECT_GT(positions, 50);
    EXPECT_GT(mates, 0);
}

} // namespace
} // namespace fived::solver
