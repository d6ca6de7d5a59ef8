#pragma once
// Solution trees and their verification.
//
// A SolutionTree is the solver's proof, the shared tree type of movegen/tree.h: nodes[0] is the
// puzzle position (attacker to move); every other node holds the action that leads into it from
// its parent, in standard order. Attacker nodes have one child per key/answer; defender nodes one
// child per legal defence, except where the tree declares a group of defences that share an
// immediately mating answer (a defence's comment, movegen::read_group()).
// A leaf is a position where the defender is checkmated (the solver marks it: TreeNode::mate()).
//
// check_proof() is the independent re-check every reported mate goes through (STYLE.md §2.7):
// a plain walk of the tree without the transposition table, using only the rules engine:
//   * every action of the tree is one of the legal actions of its position (matched by its
//     moves, both in standard order, after enumerating the legal actions with ActionSearch);
//   * two children of a node are duplicates only when their actions are equal: two actions that
//     reach the same position (transposed defences, e.g. jumps onto two equal boards) are two
//     defences and are both written and answered, as the solver's tree does (issue 14);
//   * at every defender node every legal defence is present, or declared by a group and answered:
//     a child that carries a group (its comment `{K defences share this answer: D1; ...}`)
//     covers the defences its list names (or, with a count and no list, K - 1 unnamed ones), and
//     its answer, which must mate at once, also mates, legally, after each covered defence. A
//     defence that is neither written nor declared is missing, even when some answer of the tree
//     would mate after it (issue 11): a composer's tree that leaves a defence out is incomplete;
//   * every leaf is checkmate (in check, no legal action), never stalemate;
//   * no line ends with the attacker to move.
// The length of the proof is the largest number of attacker actions on a line.
//
// With ProofLimits::threads > 1 the children of a defender node with many of them (after a
// key: every defence) are walked in chunks on that many threads, each chunk on a copy of the
// position; their reports are joined in the children's order, so the problems, their order and
// the verdict are the serial walk's.
//
// Bounded work (issue 55): the walk is iterative (an explicit stack; a tree as deep as its input
// allows neither overflows the stack nor recurses), the legal defences of a node are streamed,
// never listed (a game's position can have millions: memory does not grow with them), and the
// walk stops at the first of: maxProblems problems (nothing more would be reported), or a limit
// of ProofLimits (time, work, a position with too many legal actions, an interrupt), polled
// while the defences stream. A walk that stopped says why (ProofReport::limit) or that the
// problems list is full (ProofReport::finished false, limit empty).
//
// Soundness in the composers' sense (key, cooks, duals, tries) needs the search and is done
// by Solver::analyse (parallel.h).

#include <atomic>
#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "movegen/multiverse.h"
#include "movegen/tree.h"

namespace fived::solver {

// The proof is the one tree type; the solver does not depend on the notation, which uses it too.
using SolutionTree = movegen::Tree;

struct ProofProblem {
    enum class Kind : std::uint8_t {
        ILLEGAL_ACTION,  // node's action is not legal in its parent's position
        MISSING_DEFENCE, // `action` is a legal defence at `node` that the tree does not answer
        NOT_MATE,        // a leaf that is not checkmate (detail says what it is)
        NO_ANSWER,       // an attacker node without children
        DUPLICATE,       // two children of one node make the same action
        BAD_GROUP,       // a group without one mating answer, or naming no legal defence
    };
    Kind                       kind = Kind::ILLEGAL_ACTION;
    int                        node = 0;
    std::vector<movegen::Move> action; // MISSING_DEFENCE: the defence
    std::string                detail;
};

// Which limit stopped a search or a walk; NONE when none did. The message that goes with it
// (SolveResult::error, ProofReport::limit) is for people; code that must tell limits apart (a
// node budget to be raised, a deadline that ends everything) reads this.
enum class Limit : std::uint8_t {
    NONE,
    TIME,        // --time
    NODES,       // --nodes (or a caller's node budget)
    ACTIONS,     // a position with more legal actions than --max-actions
    INTERRUPTED, // SIGINT / SIGTERM
};

// The message of a limit, the one text every command prints for it: "time limit of S s reached"
// (value: S), "node limit of N reached", "a position has more than N legal actions
// (--max-actions)" (value: N), "interrupted"; "" for NONE.
std::string limit_message(Limit kind, double value);

// Limits of check_proof(); the defaults are none.
struct ProofLimits {
    // Stop once this clock reaches `deadline` (timeLimit is its length in seconds, for the
    // message). timeLimit 0 = none.
    std::chrono::steady_clock::time_point deadline{};
    double                                timeLimit = 0;
    // Work units: one per tree node and one per legal action met by an enumeration. 0 = none.
    std::uint64_t nodeLimit = 0;
    // Most legal actions enumerated at one position. 0 = none.
    std::size_t actionLimit = 0;
    // Polled with the clock; once true, the walk stops as at a limit.
    const std::atomic<bool>* interrupt = nullptr;
    // Threads for the walk: the subtrees below a defender node with at least parallelKids
    // children are walked in parallel, in chunks of a quarter of that (the report is the one
    // walk's: the problems in the same order). 1 = none. Without a work limit only (nodeLimit
    // 0): a work limit counts one walk's units. (cwmtt-ctp2 --at -3 --mate 2: 25,528 defences.)
    int         threads      = 1;
    std::size_t parallelKids = 256;
    // With threads: the answers of the defences a group declares are tested in batches of this
    // many on the threads (cwmtt-ctp2 --at -3 --mate 2: 25,471 grouped defences).
    std::size_t groupBatch = 512;

    // `seconds` from `start` (0 = none) and the interrupt flag; no work limits.
    static ProofLimits timed(double seconds, std::chrono::steady_clock::time_point start,
        const std::atomic<bool>* interrupt) {
        ProofLimits lim;
        lim.timeLimit = seconds;
        lim.deadline  = start
            + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                std::chrono::duration<double>(seconds));
        lim.interrupt = interrupt;
        return lim;
    }
};

struct ProofReport {
    bool complete = false; // no problems, and the walk finished
    // The walk visited the whole tree. False when it stopped at maxProblems problems (then
    // `limit` is empty and the proof is incomplete) or at a limit (then `limit` names it, and
    // the proof is incomplete only if a problem was found before).
    bool                      finished = false;
    std::string               limit; // why the walk stopped early: "time limit of S s reached", ...
    Limit                     limitKind     = Limit::NONE; // which limit `limit` names
    std::uint64_t             nodes         = 0; // work units spent (ProofLimits::nodeLimit)
    int                       length        = 0; // attacker actions on the longest line of the tree
    std::size_t               leaves        = 0; // mate leaves
    std::size_t               defenderNodes = 0;
    std::size_t               answeredByGroup = 0; // defences not written but declared by a group
    std::vector<ProofProblem> problems; // the first few problems, a node's before its subtree's
};

// Prints an action in the position before it (mv restored), for matching a group's list: the
// command line passes notation::format_action. The solver does not depend on the notation.
using ActionFormatter = std::string (*)(movegen::Multiverse& mv, std::span<const movegen::Move>);

// Walks the tree from `root` (attacker to move). mv is a scratch copy (restored). Stops
// collecting problems after maxProblems. Without a formatter a group's list cannot be matched:
// its count alone declares the group.
ProofReport check_proof(movegen::Multiverse& mv, const SolutionTree& tree,
    std::size_t maxProblems = 20, ActionFormatter format = nullptr, const ProofLimits& limits = {});

// Why `rep` does not prove a mate in exactly `mateIn` ("not a complete proof" with its first
// problem, or "a mate in L, not N"), "" when it does: a written tree read back (solve's
// self-check, a shard's record) must prove the mate it was written for.
std::string proof_mismatch(const ProofReport& rep, int mateIn);

// Whitespace-normalised text of an action, as group lists are compared.
using movegen::normalise_action_text;

} // namespace fived::solver
