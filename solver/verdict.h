#pragma once
// verify's verdict on a claimed solution, decided apart from how it is written
// (report/verify_report.h writes it): from the proof check (check_proof(), verify.h) and the
// composer's analysis (analyse(), solver.h), whether the tree is a solution tree at all, its
// cooks, whether the proof and the claim are decided, and the verdict. Functions of movegen
// types and the solver's results only; the texts and exit statuses are the writer's.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "movegen/tree.h"
#include "solver/solver.h"
#include "solver/verify.h"

namespace fived::solver {

// Every node of the tree has at most one child: a line of play, e.g. a game.
bool single_line(const SolutionTree& t);

// A single line from the root that leaves defences unanswered, in a file with no header that
// marks a puzzle position (marksPuzzle: a Prelude or Puzzle header): a game, no solution tree.
bool game_not_tree(const SolutionTree& t, const ProofReport& rep, bool marksPuzzle);

// The keys (of the analysis) that are not keys of the tree: its cooks, in the keys' order.
// Keys compare as actions (standard order on both sides), not by the position they reach: two
// keys that transpose are two solutions (issue 14).
std::vector<std::vector<Move>> cooks_of(
    const SolutionTree& t, std::span<const std::vector<Move>> keys);

// What verify decides.
struct Verdict {
    enum class Kind : std::uint8_t {
        PROOF_UNKNOWN, // the proof check stopped before it decided
        NOT_A_TREE,    // game_not_tree()
        INCOMPLETE,    // the proof is incomplete
        UNKNOWN,       // the analysis was cut short (or not run)
        WRONG_CLAIM,   // the shortest mate is not the claimed one
        SOUND,         // one key, no cook, the mate as long as the tree's
        COOKED,        // else
    };
    Kind kind         = Kind::PROOF_UNKNOWN;
    bool proofDecided = false; // the walk finished or found a problem before it stopped
    bool decided      = false; // the analysis is complete
    bool claimDecided = false; // the analysis decides the claim
    bool claimHolds   = true;  // (when undecided: not refuted)
    bool sound        = false;
};

// The verdict on a tree of length n (the proof's, else the claim's) with `claimed` (0: none),
// its proof check `rep`, the analysis `an` and the number of its cooks.
Verdict judge(const ProofReport& rep, const Analysis& an, bool notATree, std::size_t cooks,
    int claimed, int n);

} // namespace fived::solver
