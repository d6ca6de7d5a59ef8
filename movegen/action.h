#pragma once
// An action made on a multiverse: its moves made in order, undone in reverse order. The undo
// records are the caller's: one vector used as a stack, so nested actions (a path, a tree walk)
// share it, and a vector reused from action to action allocates nothing once it is large
// enough (STYLE.md §2.5).

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

#include "movegen/multiverse.h"

namespace fived::movegen {

// Does each move of `action` start from a piece of the side to move on the last board of its
// timeline? Every move of a legal action does (an action moves each board once, from the board
// the turn started with), so an action that fails this is not legal here: a cheap test before
// the legality test of a remembered action (a killer).
inline bool starts_from_playable_boards(const Multiverse& mv, std::span<const Move> action) {
    const Color us = mv.to_move();
    for (const Move& m : action) {
        const int l = m.from.l();
        if (!mv.has_timeline(l) || mv.end_v(l) != m.from.v()) return false;
        const Piece p = mv.board(l, m.from.v()).piece_on(m.from.sq());
        if (p == NO_PIECE || color_of(p) != us) return false;
    }
    return true;
}

// Does move m move on, land on or pass across timeline l: does its span of timelines (from the
// lower of its source's and target's ℓ to the higher) hold l? A move that does not reads no
// board of l (a line between two timelines crosses every timeline between them).
inline bool spans_timeline(const Move& m, int l) {
    return l >= std::min(m.from.l(), m.to.l()) && l <= std::max(m.from.l(), m.to.l());
}
inline bool touches_any(std::span<const Move> action, std::span<const int> ls) {
    for (const Move& m : action)
        for (const int l : ls)
            if (spans_timeline(m, l)) return true;
    return false;
}

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
