#pragma once
// A game tree of resolved actions: the shared tree type (movegen/tree.h) with the headers and
// the start position of a file. The reader builds one from a Document (every node replayed,
// equal variations merged); the command line builds one from a solver's proof; the writer
// prints one as canonical Branched 5DPGN (NOTATION.md §7).

#include <string>
#include <utility>
#include <vector>

#include "movegen/multiverse.h"
#include "movegen/tree.h"
#include "notation/syntax.h"

namespace fived::notation {

using movegen::Outcome;
using movegen::TreeNode;

struct GameTree : movegen::Tree {
    // Headers written after the fixed ones of NOTATION.md §7 (e.g. {"Puzzle", "mate-in-2"}),
    // in this order.
    std::vector<std::pair<std::string, std::string>> headers;
    movegen::Multiverse                              start; // the position at the root

    explicit GameTree(movegen::Multiverse startPosition) : start(std::move(startPosition)) { }
};

enum class MoveStyle {
    FULL,  // (0T1)Pe2e3, (0T5)Qb3>>x(0T1)f7
    SHORT, // e3, (L1)Qxf7: the shortest form the reader resolves back to the same move
};

// Structural equality of two trees: the headers, the start positions (rules and every board)
// and the trees node by node, children in order; arena indices may differ. On a difference,
// `why` (if given) receives a description of the first one found.
bool        same_tree(const GameTree& a, const GameTree& b, std::string* why = nullptr);
inline bool operator==(const GameTree& a, const GameTree& b) { return same_tree(a, b); }

// The position after `node` (all actions from the root), on a fork of tree.start. For tools
// and tests; walks that visit many nodes use Tree::walk().
inline movegen::Multiverse position_at(const GameTree& tree, int node) {
    return tree.position_at(tree.start, node);
}

} // namespace fived::notation
