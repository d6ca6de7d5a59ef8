#pragma once
// Solution trees and their verification.
//
// A SolutionTree is the solver's proof: nodes[0] is the puzzle position (attacker to move);
// every other node holds the action that leads into it from its parent, in standard order.
// Attacker nodes have one child per key/answer; defender nodes one child per legal defence,
// except where a writer grouped defences that share an immediately mating answer (see below).
// A leaf is a position where the defender is checkmated.
//
// check_proof() is the independent re-check every reported mate goes through (STYLE.md §2.7):
// a plain walk of the tree without the transposition table, using only the rules engine:
//   * every action of the tree is one of the legal actions of its position (matched by its
//     moves, both in standard order, after enumerating the legal actions with ActionSearch);
//   * two children of a node are duplicates only when their actions are equal: two actions that
//     reach the same position (transposed defences, e.g. jumps onto two equal boards) are two
//     defences and are both written and answered, as the solver's tree does (issue 14);
//   * at every defender node every legal defence is present, or "answered": a sibling's answer
//     that mates at once also mates, legally, after the missing defence (this is how a grouped
//     tree, "N defences share this answer", stays checkable);
//   * every leaf is checkmate (in check, no legal action), never stalemate;
//   * no line ends with the attacker to move.
// The length of the proof is the largest number of attacker actions on a line.
//
// Soundness in the composers' sense (key, cooks, duals, tries) needs the search and is done
// by Solver::analyse (parallel.h).

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "movegen/multiverse.h"

namespace fived::solver {

struct SolutionNode {
    int                        parent = -1;
    std::vector<movegen::Move> action;       // from the parent's position; empty at the root
    std::vector<int>           children;     // standard order of their actions
    bool                       mate = false; // the side to move here is checkmated
};

struct SolutionTree {
    std::vector<SolutionNode> nodes; // nodes[0] is the puzzle position

    SolutionTree() { nodes.emplace_back(); }
    int add(int parent, std::span<const movegen::Move> a);
    // Attacker actions on the longest line from the root.
    int length() const;
};

struct ProofProblem {
    enum class Kind : std::uint8_t {
        ILLEGAL_ACTION,  // node's action is not legal in its parent's position
        MISSING_DEFENCE, // `action` is a legal defence at `node` that the tree does not answer
        NOT_MATE,        // a leaf that is not checkmate (detail says what it is)
        NO_ANSWER,       // an attacker node without children
        DUPLICATE,       // two children of one node make the same action
    };
    Kind                       kind = Kind::ILLEGAL_ACTION;
    int                        node = 0;
    std::vector<movegen::Move> action; // MISSING_DEFENCE: the defence
    std::string                detail;
};

struct ProofReport {
    bool                      complete        = false; // no problems
    int                       length          = 0;     // attacker actions on the longest line
    std::size_t               leaves          = 0;     // mate leaves
    std::size_t               defenderNodes   = 0;
    std::size_t               answeredByGroup = 0; // missing defences answered by a sibling
    std::vector<ProofProblem> problems;            // the first few problems, tree order
};

// Walks the tree from `root` (attacker to move). mv is a scratch copy (restored). Stops
// collecting problems after maxProblems.
ProofReport check_proof(
    movegen::Multiverse& mv, const SolutionTree& tree, std::size_t maxProblems = 20);

} // namespace fived::solver
