#pragma once
// The solver's public API: options, results, solve(), the Solver class (iterative deepening on
// the mate length, the oneTBB arena, limits and progress, the keys, the solution tree) and the
// composer's analysis used by `fived verify`; check_proof() comes with verify.h.
// Files: driver.cpp (the driver and this API), proof_tree.cpp (keys and tree), analysis.cpp
// (analyse), search.cpp (the AND/OR search), split.cpp (its parallel split), dfpn.cpp (df-pn),
// tt.cpp (the table), verify.cpp (the proof check), bench.cpp (the bench suite).
//
// Determinism. The search proper may run on many threads; which child decides a node, and so
// the node count and the table contents, depend on the schedule. Everything reported is
// computed from exact booleans in a fixed order, so it does not:
//   * the mate length: the first bound 1, 2, ... whose root search answers YES;
//   * the keys: the root actions, in standard order, whose defender node is lost within N - 1
//     (all of them with allKeys, else the first one);
//   * the tree: built afterwards; at each attacker node the shortest mate is chosen and, among
//     equally short ones, the answer to the first sibling defence if it is one, else the first
//     the search meets in its fixed order (Solver::Impl::build_or).
// A limit (time, nodes) or a stop makes the result UNKNOWN, never MATE. A MATE result is
// re-checked by check_proof() (without the table) before it is reported.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "movegen/multiverse.h"
#include "solver/search_settings.h"
#include "solver/value.h"
#include "solver/verify.h"

namespace fived::solver {

class CoreSource; // cpu_share.h

enum class Result : std::uint8_t {
    MATE,
    NO_MATE, // no mate within maxMate (exact)
    UNKNOWN, // a limit was hit or an internal check failed
};
const char* result_name(Result r); // "mate", "no-mate", "unknown"

enum class Algorithm : std::uint8_t {
    REFERENCE, // depth-bounded AND/OR depth-first search (parallel with threads > 1)
    DFPN,      // df-pn with the same bound (serial); keys, tree and checks as above
};

// The search's settings (nodeLimit, actionLimit, streamAbove, splitDefender, narrowBudget,
// classCuts, classChecks) and their defaults are SearchSettings' (search_settings.h).
struct SolveOptions : SearchSettings {
    Algorithm   algorithm  = Algorithm::REFERENCE;
    int         minMate    = 1;
    int         maxMate    = 3; // bounds minMate..maxMate are searched, shortest first
    int         threads    = 1;
    std::size_t hashMb     = 16;
    std::size_t ttClusters = 0; // tests: exact cluster count, overrides hashMb
    double      timeLimit  = 0; // seconds from timeFrom (below), 0 = none

    // Where timeLimit counts from; the default (the clock's epoch) is the Solver's construction.
    // A later phase of one command (the threat and tries of `solve --problemist`) passes the
    // command's start, so that --time bounds the whole command, not each of its searches anew.
    std::chrono::steady_clock::time_point timeFrom{};

    bool allKeys     = false;
    bool buildTree   = true;
    bool verifyTree  = true;  // re-check a mate tree without the table
    bool progress    = false; // progress lines on stderr
    int  splitHeight = 3;     // plies left at which nodes split (threads > 1)
    // With threads > 1, split over as many workers as the machine has cores left by the other
    // processes (cpu_share.h), so that a busy machine does not make the search slower than one
    // thread; fixedThreads: over every thread, always. `cores`: where the readings come from
    // (tests); nullptr = this machine.
    bool        fixedThreads = false;
    CoreSource* cores        = nullptr;
    std::size_t maxTreeNodes = 2'000'000;
    // Tree answers: defences are taken in chunks of this many, each built by one searcher with
    // the chunk's recent answers tried first (RecentActions; >= 1). A chunk starts with no hint
    // and finds its answers again by search: with 1,024, cwmtt-ctp2 --at -3 (25,528 defences)
    // searched 347 answers afresh (about 65 ms each, 22 s of its 28 s tree), with 8,192 (and 32
    // recent actions) 75. Chunks are fixed by this number, not by the threads, so the tree does not
    // depend on them.
    std::size_t answerChunk = 8192;
    // A share of the root (`fived solve --shard`): when set, the attacker's first actions are
    // these (legal actions of the root, as legal_actions() lists them) instead of all of them: each
    // bound n asks of each whether its defender node is lost within n - 1, so MATE is the shortest
    // mate by one of them (the keys and the tree are among them) and NO_MATE means that none of
    // them mates within maxMate. The reference search only: the root's other actions are skipped,
    // so the share is searched in the order of the whole solve (SearchContext::rootShare). nullptr
    // = the whole root.
    const std::vector<std::vector<Move>>* rootActions = nullptr;
    // A share of a root too wide to list (`fived solve --shard`, split root-hash): with
    // rootActions null and rootHashParts > 0, the root actions a with action_part(a,
    // rootHashParts) == rootHashPart (0-based) are the share, searched as above.
    int rootHashParts = 0, rootHashPart = 0;
    // Polled every 20 ms while a question runs; once true, the search stops as at a limit
    // (the CLI sets it from SIGINT / SIGTERM). nullptr = none.
    const std::atomic<bool>* interrupt = nullptr;
};

struct SolveResult {
    Result result     = Result::UNKNOWN;
    int    mateIn     = 0; // MATE: the shortest mate length
    int    noMateUpTo = 0; // largest bound proven without mate
    // UNKNOWN with the reference search stopped at a bound n >= 2: that bound, how many of the
    // attacker's first actions were found not to mate within it, and how many it has (0: too
    // many to list; then an action met twice by a thrashing enumeration counts twice).
    int                            stoppedAt   = 0;
    std::uint64_t                  keysRefuted = 0;
    std::uint64_t                  keysInAll   = 0;
    std::vector<std::vector<Move>> keys; // standard order (a wide root: see Searcher::answers)
    SolutionTree                   tree; // MATE and buildTree
    bool                           treeBuilt    = false;
    bool                           verified     = false; // the tree passed check_proof()
    std::uint64_t                  nodes        = 0;
    std::uint64_t                  classesCut   = 0; // classes of actions refuted at once
    std::uint64_t                  splits       = 0; // nodes split over threads (split.cpp)
    std::uint64_t                  streamSplits = 0; // of them, wide attacker nodes split by shares
    std::uint64_t                  defenceSplits = 0; // and wide defender nodes split by shares
    std::uint64_t                  countSplits = 0; // narrow candidates' counts split (narrow.cpp)
    double                         ms          = 0;
    int                            hashfull    = 0; // per mille
    bool                           limitHit    = false;
    bool                           noMemory    = false; // the table could not be allocated
    bool                           internal    = false; // error is an internal failure (a bug)
    std::string error;                   // why UNKNOWN (or why a MATE has no tree): names the limit
    Limit       limitKind = Limit::NONE; // the limit `error` names, if it names one
};

// A solver bound to one puzzle position (attacker = side to move). Owns the table, the task
// arena and the searchers; several questions may be asked in a row and share the table.
class Solver {
public:
    Solver(const Multiverse& root, const SolveOptions& opt);
    ~Solver();
    Solver(const Solver&)            = delete;
    Solver& operator=(const Solver&) = delete;

    // Iterative deepening from opt.minMate to opt.maxMate.
    SolveResult solve();

    // Questions at the position reached by `path` (actions from the root). Each returns false
    // if a limit stopped it.
    // The attacker (to move) actions that mate within r, standard order, at most max of them.
    bool mating_actions(std::span<const std::vector<Move>> path, int r,
        std::vector<std::vector<Move>>& out, std::size_t max = SIZE_MAX);
    // The defender (to move) actions after which no mate within k follows, at most max.
    bool refutations(std::span<const std::vector<Move>> path, int k,
        std::vector<std::vector<Move>>& out, std::size_t max = SIZE_MAX);
    // Attacker to move after path: does a mate within r exist?
    Value mate_within(std::span<const std::vector<Move>> path, int r);
    // Defender to move after path: is it mated within k attacker actions, whatever it does?
    Value mated_within(std::span<const std::vector<Move>> path, int k);
    // All legal actions after path, standard order; false if there are more than max (out
    // holds the first max) or a limit stopped the listing (limit_reason() says which).
    bool legal_actions(std::span<const std::vector<Move>> path, std::vector<std::vector<Move>>& out,
        std::size_t max = SIZE_MAX);

    std::uint64_t nodes() const;
    bool          limit_hit() const;
    // False if the transposition table could not be allocated (every question then fails).
    bool table_ok() const;
    // Which limit stopped the search ("time limit of S s reached", "node limit of N reached",
    // "interrupted", the action limit); empty if none did.
    std::string limit_reason() const;
    // The limit limit_reason() names; Limit::NONE if none.
    Limit limit_kind() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl;
};

// Convenience: one solve.
SolveResult solve(const Multiverse& root, const SolveOptions& opt);

// The composer's verdict on a puzzle with a claimed solution of length n (Popeye-style).
struct Analysis {
    bool        complete = true;  // false if a limit stopped it
    bool        noMemory = false; // the table could not be allocated
    std::string why;              // which limit (limit_reason())
    // The keys of mate in n, standard order: all of them, or (keysCapped) MaxKeys of them (a
    // mate in one on many timelines can have millions: cwmtt-100-timelines one action before
    // its end, more than 90,000 met in 30 s).
    static constexpr std::size_t   MaxKeys = 1000;
    std::vector<std::vector<Move>> keys;
    bool                           keysCapped = false;
    int                            shortest   = 0; // shortest mate length (<= n), 0 if none
    // Defences (paths from the root) after which the attacker has two or more answers
    // mating within the remaining length.
    std::vector<std::vector<std::vector<Move>>> duals;
    // Tries: attacker first actions defeated by exactly one defence, with that refutation.
    std::vector<std::pair<std::vector<Move>, std::vector<Move>>> tries;
};
// tree: the claimed solution (its defender nodes are where duals are looked for).
Analysis analyse(const Multiverse& root, const SolutionTree& tree, int n, const SolveOptions& opt,
    bool withTries);

} // namespace fived::solver
