// df-pn (solver/dfpn.cpp, Algorithm::DFPN) against the reference search: the same answers, keys
// and proofs.
#include <gtest/gtest.h>

#include "solver/solver.h"
#include "solver/verify.h"
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

} // namespace
} // namespace fived::solver
