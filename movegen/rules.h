#pragma once
// Rules of 5D chess that several parts of the engine need, each defined once here (RULES.md §3-4):
// activity, the index of the next new timeline.

#include <algorithm>

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

} // namespace fived::movegen
