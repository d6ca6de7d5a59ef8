// The search's limits: nodes, listed actions and time give an unknown result that says how far
// the search got.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>

#include <gtest/gtest.h>

#include "solver/solver.h"
#include "tests/solver/search_test_util.h"

namespace fived::solver {
namespace {

using movegen::Multiverse;
using namespace searchtest;

TEST(Solver, NodeLimitGivesUnknown) {
    auto root = load_text(embedded()[2].pgn);
    ASSERT_TRUE(root);
    for (int t : {1, 2}) {
        SolveOptions o      = options(2, t);
        o.nodeLimit         = 5;
        const SolveResult r = solve(*root, o);
        EXPECT_EQ(r.result, Result::UNKNOWN);
        EXPECT_TRUE(r.limitHit);
        EXPECT_EQ(r.limitKind, Limit::NODES);
        EXPECT_EQ(r.error, "node limit of 5 reached");
        EXPECT_TRUE(r.keys.empty());
    }
}

// Mate in 2 from the standard start (20 actions, no mate in 2) with `threads`, the options then
// changed by `set`.
SolveResult solve_standard(int threads, const std::function<void(SolveOptions&)>& set) {
    static const std::optional<Multiverse> root =
        load_text("[Board \"Standard\"]\n[Mode \"5D\"]\n");
    EXPECT_TRUE(root);
    SolveOptions o = options(2, threads);
    set(o);
    return root ? solve(*root, o) : SolveResult{};
}

TEST(Solver, UnknownSaysHowManyKeysItRefuted) {
    // 400 nodes end the search at bound 2 after some of its keys (13 with one thread), not all.
    for (int t : {1, 2}) {
        const SolveResult r = solve_standard(t, [](SolveOptions& o) { o.nodeLimit = 400; });
        EXPECT_EQ(r.result, Result::UNKNOWN);
        EXPECT_EQ(r.stoppedAt, 2);
        EXPECT_EQ(r.keysInAll, 20u);
        EXPECT_GT(r.keysRefuted, 0u);
        EXPECT_LT(r.keysRefuted, 20u);
        if (t == 1) {
            EXPECT_EQ(r.keysRefuted, 13u); // one thread: deterministic
        }
        // Streamed (the root not listed): the refuted keys without their number.
        const SolveResult st = solve_standard(t, [](SolveOptions& o) {
            o.nodeLimit   = 400;
            o.streamAbove = 5;
        });
        EXPECT_EQ(st.stoppedAt, 2);
        EXPECT_EQ(st.keysInAll, 0u);
        EXPECT_GT(st.keysRefuted, 0u);
        // Decided: nothing stopped.
        const SolveResult all = solve_standard(t, [](SolveOptions&) {});
        EXPECT_EQ(all.result, Result::NO_MATE);
        EXPECT_EQ(all.stoppedAt, 0);
    }
}

TEST(Solver, ActionLimitGivesUnknownWithItsReason) {
    // A limit of 10 listed actions stops the search at the first node it lists (mate in 2: the
    // root), with the reason; 20 is enough for the root and every defender node of mate in 1
    // and 2.
    for (int t : {1, 2}) {
        const SolveResult r = solve_standard(t, [](SolveOptions& o) { o.actionLimit = 10; });
        EXPECT_EQ(r.result, Result::UNKNOWN);
        EXPECT_TRUE(r.limitHit);
        EXPECT_NE(r.error.find("more than 10 legal actions"), std::string::npos) << r.error;
        EXPECT_EQ(r.limitKind, Limit::ACTIONS);
        const SolveResult ok = solve_standard(t, [](SolveOptions& o) { o.actionLimit = 20; });
        EXPECT_EQ(ok.result, Result::NO_MATE);
        EXPECT_FALSE(ok.limitHit);
        EXPECT_EQ(ok.limitKind, Limit::NONE);
    }
}

TEST(Solver, AnalysisNamesTheActionLimitItHit) {
    // Rook Tactics II (mate in 2): its tree, then the composer's analysis with room for 3
    // listed actions per position, fewer than the puzzle position has.
    const Embedded* e = nullptr;
    for (const Embedded& x : embedded())
        if (x.mateIn == 2) e = &x;
    ASSERT_NE(e, nullptr);
    auto root = load_text(e->pgn);
    ASSERT_TRUE(root);
    const SolveResult r = solve(*root, options(2));
    ASSERT_EQ(r.result, Result::MATE);
    SolveOptions   o    = options(2);
    const Analysis full = analyse(*root, r.tree, 2, o, false);
    EXPECT_TRUE(full.complete);
    EXPECT_TRUE(full.why.empty());
    o.actionLimit        = 3;
    const Analysis tight = analyse(*root, r.tree, 2, o, false);
    EXPECT_FALSE(tight.complete);
    EXPECT_NE(tight.why.find("more than 3 legal actions"), std::string::npos) << tight.why;
}

// The analysis asks for the keys, the duals and the refutations of tries at nodes that can be
// too wide to list: tools-princess-checkmate one action before its end (black mates in one;
// millions of actions, 21,372 keys), and the embedded puzzles with every node of more than one
// action taken as wide (streamAbove 1). A wide node is asked of the search that does not list
// it: the answers are those of the listing analysis (streamAbove 0), and no action limit is
// hit. The keys stop at Analysis::MaxKeys: tools-defended-pawn-checkmate (listed, 1,632 keys)
// and the princess give that many keys of the solver's, sorted, and say they stopped.
TEST(Solver, AnalysisOfAWideNodeAsksTheSearchThatDoesNotListIt) {
    for (const char* game : {"tools-princess-checkmate", "tools-defended-pawn-checkmate"}) {
        SCOPED_TRACE(game);
        auto position = game_position(game, 1);
        ASSERT_TRUE(position);
        SolveOptions o      = options(1);
        o.allKeys           = true;
        o.actionLimit       = 100'000;
        const SolveResult r = solve(*position, o);
        ASSERT_EQ(r.result, Result::MATE);
        ASSERT_GT(r.keys.size(), Analysis::MaxKeys);
        const Analysis a = analyse(*position, r.tree, 1, o, false);
        EXPECT_TRUE(a.complete) << a.why;
        EXPECT_EQ(a.shortest, 1);
        EXPECT_TRUE(a.keysCapped);
        ASSERT_EQ(a.keys.size(), Analysis::MaxKeys);
        EXPECT_TRUE(std::is_sorted(a.keys.begin(), a.keys.end()));
        EXPECT_EQ(std::adjacent_find(a.keys.begin(), a.keys.end()), a.keys.end());
        for (const auto& k : a.keys)
            EXPECT_NE(std::find(r.keys.begin(), r.keys.end(), k), r.keys.end());
    }
    auto princess = game_position("tools-princess-checkmate", 1);
    ASSERT_TRUE(princess);
    SolveOptions o = options(1);
    o.actionLimit  = 100'000;
    o.streamAbove  = 0; // listed: more actions than the limit
    EXPECT_FALSE(analyse(*princess, {}, 1, o, false).complete);

    int compared = 0;
    for (const Embedded& e : embedded()) {
        if (e.mateIn < 2) continue;
        auto root = load_text(e.pgn);
        ASSERT_TRUE(root);
        SolveOptions      listed = options(e.mateIn);
        const SolveResult s      = solve(*root, listed);
        ASSERT_EQ(s.result, Result::MATE) << e.id;
        listed.streamAbove    = 0;
        SolveOptions streamed = listed;
        streamed.streamAbove  = 1;
        const Analysis a      = analyse(*root, s.tree, e.mateIn, listed, true);
        const Analysis b      = analyse(*root, s.tree, e.mateIn, streamed, true);
        ASSERT_TRUE(a.complete && b.complete) << e.id << ": " << a.why << b.why;
        EXPECT_EQ(b.keys, a.keys) << e.id;
        EXPECT_FALSE(a.keysCapped || b.keysCapped) << e.id;
        EXPECT_EQ(b.shortest, a.shortest) << e.id;
        EXPECT_EQ(b.duals, a.duals) << e.id;
        EXPECT_EQ(b.tries, a.tries) << e.id;
        compared += !a.duals.empty() + !a.tries.empty();
    }
    EXPECT_GT(compared, 0); // duals or tries to compare
}

TEST(Solver, TimeLimitGivesUnknown) {
    auto root = load_text("[Board \"Standard\"]\n[Mode \"5D\"]\n");
    ASSERT_TRUE(root);
    SolveOptions o      = options(4);
    o.timeLimit         = 0.05;
    const SolveResult r = solve(*root, o);
    EXPECT_EQ(r.result, Result::UNKNOWN);
    EXPECT_TRUE(r.limitHit); // a search that ignored the limit would run into ctest's timeout
    EXPECT_EQ(r.limitKind, Limit::TIME);
}

TEST(Solver, InterruptGivesUnknownWithItsKind) {
    auto root = load_text("[Board \"Standard\"]\n[Mode \"5D\"]\n");
    ASSERT_TRUE(root);
    const std::atomic<bool> yes{true};
    SolveOptions            o = options(4);
    o.interrupt               = &yes;
    const SolveResult r       = solve(*root, o);
    EXPECT_EQ(r.result, Result::UNKNOWN);
    EXPECT_TRUE(r.limitHit);
    EXPECT_EQ(r.limitKind, Limit::INTERRUPTED);
    EXPECT_EQ(r.error, "interrupted");
}

// A later phase of one command (solve --problemist: the threat, the tries) passes the command's
// start as timeFrom: once the time is up, its searches stop at once instead of each counting
// --time anew. Every embedded mate is found when the limit is a day away from now; with the
// same day counted from a day ago, none is.
TEST(Solver, TimeCountedFromAnEarlierStartStopsAtOnce) {
    using Clock    = std::chrono::steady_clock;
    const auto day = std::chrono::hours(24);
    for (const Embedded& e : embedded()) {
        if (e.mateIn == 0) continue;
        auto root = load_text(e.pgn);
        ASSERT_TRUE(root);
        SolveOptions o = options(e.bound);
        o.timeLimit    = std::chrono::duration<double>(day).count();
        o.timeFrom     = Clock::now();
        EXPECT_EQ(solve(*root, o).result, Result::MATE) << e.id;
        o.timeFrom          = Clock::now() - day;
        const SolveResult r = solve(*root, o);
        EXPECT_EQ(r.result, Result::UNKNOWN) << e.id;
        EXPECT_TRUE(r.limitHit) << e.id;
        EXPECT_NE(r.error.find("time limit of 86400 s reached"), std::string::npos)
            << e.id << ": " << r.error;
        EXPECT_EQ(r.limitKind, Limit::TIME) << e.id;
        const Analysis a = analyse(*root, {}, e.bound, o, true);
        EXPECT_FALSE(a.complete) << e.id;
    }
}

} // namespace
} // namespace fived::solver
