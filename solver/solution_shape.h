#pragma once
// The shape of a solution as fived writes it, decided apart from its text (report/solution.h
// turns it into a notation tree and comments): the key's threat (the attacker's mate if the
// defender could pass), the order in which a node's children are written (the main line last),
// which defences share one immediately mating answer (a defence group), and the counts of the
// problemist summary. Functions of movegen types and the solver's tree only; the names of the
// actions are the writer's.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "movegen/multiverse.h"
#include "solver/solver.h"

namespace fived::solver {

// The threat of a key (Popeye's "threat:"): the attacker's mate if the defender could pass.
// In 5D chess a pass is the defender's mandatory boards copied unchanged (RULES.md §5.4, the
// construction of "in check"); a key that gives check has no threat.
struct Threat {
    enum class Kind : std::uint8_t {
        NONE,         // a mate in 1: no threat is asked
        CHECKING_KEY, // the key gives check
        NO_PASS,      // the defender cannot pass: no threat
        MATE,         // `action` at `position` mates in `mateIn`
        ZUGZWANG,     // no mate follows a pass
        UNKNOWN,      // the search stopped: `error` (empty: a limit)
    };
    Kind                               kind = Kind::NONE;
    std::optional<movegen::Multiverse> position; // MATE: after the key and the pass
    std::vector<Move>                  action;   // MATE: the threat
    int                                mateIn = 0;
    std::string                        error;
};

// The threat of `key` at `puzzle`, a mate in n: searched (base's limits) for a mate in n - 1.
Threat threat_of(
    const Multiverse& puzzle, std::span<const Move> key, int n, const SolveOptions& base);

// A child of a solution node as it is written.
struct WrittenChild {
    int node = 0; // the child in the tree
    // Two or more: the defences (tree nodes, this one first) that share this child's immediately
    // mating answer, written once as this child; empty: no group.
    std::vector<int> group;
};

// The children of `node` in the order they are written: the longest line last (the main line:
// the last child of maximal height, heights from SolutionTree::heights()), and, at a node with
// more than groupThreshold children (0: never), the defences that share one immediately mating
// answer written once, as the first of them, which carries the group.
std::vector<WrittenChild> written_children(
    const SolutionTree& sol, int node, std::span<const int> heights, std::size_t groupThreshold);

// The counts of a solution's summary: defences (nodes at even depth but the root) and mates.
struct SolutionCounts {
    std::size_t defences = 0, mates = 0;
};
SolutionCounts count_solution(const SolutionTree& sol);

} // namespace fived::solver
