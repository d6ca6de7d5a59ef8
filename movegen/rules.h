#pragma once
// Rules of 5D chess that several parts of the engine need, each defined once here (RULES.md §3-4):
// activity, the index of the next new timeline, the standard order of an action.

#include <algorithm>
#include <span>

#include "movegen/types.h"

namespace fived::movegen {

// Activity (RULES.md §4.1): with W timelines created by White and B by Black, timelines whose
// index lies within a = min(W, B) + (W != B) of the initial range are active.
constexpr int activity_radius(int whiteCreated, int blackCreated) {
    return std::min(whiteCreated, blackCreated) + (whiteCreated != blackCreated ? 1 : 0);
}

// The index a new timeline created by `mover` gets (RULES.md §3.3): White max ℓ + 1, Black min ℓ
// - 1.
constexpr int next_timeline_index(Color mover, int minL, int maxL) {
    return mover == WHITE ? maxL + 1 : minL - 1;
}

// The standard order of an action (NOTATION.md §6): its physical moves and hops by arrival ℓ,
// ascending for White and descending for Black, then its branching jumps in the order they are
// made. Sorts the non-branching moves in place; they arrive on distinct timelines (each playable
// board takes one move or one arrival), so the order is total and std::sort needs no buffer.
inline void sort_standard_order(std::span<Move> nonBranching, Color mover) {
    std::sort(nonBranching.begin(), nonBranching.end(), [mover](const Move& a, const Move& b) {
        return mover == WHITE ? a.to.l() < b.to.l() : a.to.l() > b.to.l();
    });
}

} // namespace fived::movegen
