#pragma once
// The canonical writer of Branched 5DPGN (NOTATION.md §7).
//
// Output: headers one per line in a fixed order (Event Site Date Round White Black Result, then
// Board, Mode, Size, Timeline, Puzzle, Promotions when not the default, then the other keys as
// given); the 5DFEN of the initial boards when the start is not a built-in variant; a blank
// line; the game tree. Actions are written in standard order, each line of play with a full
// serial `Nw.`/`Nb.` where it starts and `N.`/`/` inside; side variations in parentheses before
// the main line (the last child), one space of indentation per open parenthesis; `#`/`*` on the
// last move of an action as the tree records them; a node's comment after its action; a leaf's
// result after it. Comments never nest in output and header values never contain `"`.
//
// The tree is replayed by make/unmake on one multiverse (the writer needs each position to spell
// the moves), iteratively, so trees of any depth can be written.

#include <string>
#include <utility>
#include <vector>

#include "notation/game.h"
#include "notation/headers.h"
#include "notation/tree.h"

namespace fived::notation {

// The canonical text of a whole tree.
std::string write_tree(const GameTree& tree, MoveStyle style = MoveStyle::FULL);

// The shortest spelling of move m in the current (possibly mid-action) state of mv that the
// reader resolves back to m with the default ReadOptions (NOTATION.md §5, last paragraph):
// `e3`, `exd5`, `Nbd2`, `(L1)Qxf7`, `N>>e3`, `Q>>(T1)f7`. Falls back to format_move().
// `scratch` holds the candidate buffers.
std::string format_move_short(
    const movegen::Multiverse& mv, const movegen::Move& m, ReplayScratch& scratch);

} // namespace fived::notation
