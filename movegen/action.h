#pragma once
// An action made on a multiverse: its moves made in order, undone in reverse order. The undo
// records are the caller's: one vector used as a stack, so nested actions (a path, a tree walk)
// share it, and a vector reused from action to action allocates nothing once it is large
// enough (STYLE.md §2.5).

#include <cstddef>
#include <span>
#include <vector>

#include "movegen/multiverse.h"

namespace fived::movegen {

// Makes the moves of `action` on mv, in order, pushing one undo record per move onto `undo`.
inline void do_action(Multiverse& mv, std::span<const Move> action, std::vector<MoveUndo>& undo) {
    for (const Move& m : action) {
        undo.emplace_back();
        mv.make_move(m, undo.back());
    }
}

// Unmakes moves from the top of `undo` until it holds `base` records (default: all of them).
inline void undo_action(Multiverse& mv, std::vector<MoveUndo>& undo, std::size_t base = 0) {
    while (undo.size() > base) {
        mv.unmake_move(undo.back());
        undo.pop_back();
    }
}

} // namespace fived::movegen
