#pragma once
// A game tree of resolved actions. The reader builds one from a Document (every node replayed,
// equal variations merged); the solver builds one from a proof; the writer prints one as
// canonical Branched 5DPGN (NOTATION.md §7). Nodes are an index arena, parents before children,
// so nothing walks the tree recursively.

#include <string>
#include <utility>
#include <vector>

#include "movegen/multiverse.h"
#include "notation/syntax.h"

namespace fived::notation {

enum class Outcome : std::uint8_t {
    NONE,
    WHITE_WINS, // 1-0
    BLACK_WINS, // 0-1
    DRAW,       // 1/2-1/2
};

// (The small fields come first: a tree read from a big text holds millions of nodes.)
struct TreeNode {
    int     parent = -1;            // -1 for the root
    Mark    mark   = Mark::NONE;    // `#`/`*` on the action's last move (engine-computed)
    Outcome result = Outcome::NONE; // a decided leaf: the result token written after it
    // An evaluation symbol written after the action's last move (`!`, `?`, ...): set by tools
    // that annotate (solve --problemist); the reader does not keep them, so the canonical form
    // (fmt) has none (NOTATION.md §7).
    Evaluation                 evaluation = Evaluation::NONE;
    std::vector<movegen::Move> action; // from the parent's position, standard order; empty at root
    std::vector<int>           children; // the main line is the LAST child
    std::string                comment;  // written after the action as {comment}; may be empty
};

struct GameTree {
    // Headers written after the fixed ones of NOTATION.md §7 (e.g. {"Puzzle", "mate-in-2"}),
    // in this order.
    std::vector<std::pair<std::string, std::string>> headers;
    movegen::Multiverse                              start; // the position at the root
    std::vector<TreeNode>                            nodes; // nodes[0] is the root
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
// and tests; walks that visit many nodes should make/unmake instead.
movegen::Multiverse position_at(const GameTree& tree, int node);

} // namespace fived::notation
