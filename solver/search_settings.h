#pragma once
// The search's settings, with their one set of defaults: SolveOptions (solver.h, the public API)
// and SearchContext (search.h, what every searcher of one solve shares) both derive from
// SearchSettings, and the driver copies the one into the other (Solver::Impl), so no setting has
// two defaults. The thread split's height is not here: SolveOptions::splitHeight is the wish,
// SearchContext::splitHeight what the driver makes of it with the threads (0 with one).

#include <cstddef>
#include <cstdint>
#include <span>

namespace fived::movegen {
class Multiverse;
struct Move;
} // namespace fived::movegen

namespace fived::solver {

struct SearchSettings {
    std::uint64_t nodeLimit = 0; // 0 = none
    // Most legal actions a node may list (each costs about 100 bytes per searcher and ply); a
    // node with more stops the search as a limit (SearchContext::actionLimitHit). 0 = none.
    std::size_t actionLimit = 2'000'000;
    // A node of the reference search with more legal actions than this is searched without
    // listing them (Searcher::stream()); 0 = always list. When actionLimit is smaller, it stops
    // the search first.
    std::size_t streamAbove = 10'000;
    // Split defender nodes too (threads > 1). Off by default: in a failing search a defender
    // node is cut by its first refutation, so its other defences are speculative work, and one
    // speculative node of a wide position can take seconds that cancellation cannot interrupt
    // (measured: brawn-tactics-2, no mate in 5, 2 threads: 29 s with, 1.2 s without; 1 thread
    // 2.5 s).
    bool splitDefender = false;
    // Defender nodes with k >= 2: killers within this many nodes, then the narrow checks within
    // growing budgets (Searcher::narrow_checks_first; a streamed node also the ply's refutations
    // completed, Searcher::narrow_checks_streamed); 0 = off (every defence searched in full, in
    // order). 2,500 (rounds of 2,500, 10,000, 40,000, 160,000): session 36 measured 2,000-4,000
    // on the slowest decided rows of scripts/real_positions.py (one thread, nodes to decide:
    // tools-dead-timeline -5, cwmtt-standard -5, slavrick writenwrong and samet -5, cwmtt-ctp1 -5,
    // tools-standard-checkmate-4 and cwmtt-futures -5): 21.5M in all with 4,000, 20.8M with 3,000,
    // 20.0M with 2,500, 21.0M with 2,000; tools-dead-timeline -5, the one near the minute, 10.04M
    // with 4,000 and 9.74M with 2,500 (52.0 s against 53.7 s, whole process, same binary).
    std::uint64_t narrowBudget = 2500;
    // Attacker nodes with r = 2 searched without listing: refute classes of actions at once
    // (Searcher::class_refuted()). Off: every action is searched (tests compare the two).
    bool classCuts = true;
    // Such a node's checks first (stream()), their classes cut too, then the class walk. Off:
    // straight to the walk (tests).
    bool classChecks = true;
    // A wide defender node with one move to go searches its defences in the conflict pass's
    // order first (stream(): each lost defence leaves the ones alike out of that pass). Off:
    // straight to the passes (tests: the pass meets most defences, so it would hide a share of
    // the passes that a split left unsearched).
    bool conflictPass = true;
    // With two or more threads, a wide node (stream()) splits over them by shares of its
    // actions (Searcher::stream_split()): an attacker node from the split's height on, a
    // defender node at any height. Off: such a node is searched by one thread.
    bool splitWide = true;
    // Such a node's shares without a class walk: blocks of shareBlock consecutive positions in
    // the walk's order, each searched by the first of its walkers to reach it (BlockClaims).
    // 1,024: with 64, tools-standard-checkmate-3 --at -5 --mate 3 took
    // 3.4M nodes on 2 threads against 1.38M on one (a share refuted an action with 1M nodes
    // that the serial search refuted with 21, having just refuted its neighbour, of the other
    // share, with 3,902); with 1,024, 1.44M (2.05x faster).
    std::size_t shareBlock = 1024;
    // Tests: the walkers of such a node see the watcher's count (SearchContext::splitWorkers) as
    // 1 in the first walkerFlip blocks, in full in the next walkerFlip, and so on, so that they
    // leave and join as the search goes (Searcher::Shared::stays()). 0: off.
    std::size_t walkerFlip = 0;
    // A class walk (Searcher::walk_patterns()) splits over the threads only where its patterns
    // are at least this many per thread (Searcher::stream_splits(); tests lower it).
    int patternsPerThread = 4;
    // Tests: called with memberHookArg for each action a class walk leaves out as a member of a
    // class the node refuted before (Searcher::ClassStore), the action made on mv.
    using MemberHook = void (*)(
        void* arg, const movegen::Multiverse& mv, int ply, std::span<const movegen::Move> a);
    MemberHook memberHook    = nullptr;
    void*      memberHookArg = nullptr;
};

// The plain AND/OR search: every node listed, no node budgets, no limits (tests that drive a
// Searcher directly).
inline constexpr SearchSettings PlainSearch{.actionLimit = 0, .streamAbove = 0, .narrowBudget = 0};

} // namespace fived::solver
