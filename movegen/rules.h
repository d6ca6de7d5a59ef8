#pragma once
// Rules of 5D chess that several parts of the engine need, each defined once here (RULES.md §3-4):
// activity, the index of the next new timeline, the standard order of an action.

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

#include "movegen/types.h"

namespace fived::movegen {

// Activity (RULES.md §4.1): with W timelines created by White and B by Black, timelines whose
// index lies within a = min(W, B) + (W != B) of the initial range are active.
constexpr int activity_radius(int whiteCreated, int blackCreated) {
    return std::min(whiteCreated, blackCreated) + (whiteCreated != blackCreated ? 1 : 0);
}

// The timelines `c` has created (W and B of RULES.md §4.1), from the initial range
// [initMinL, initMaxL] and the range [minL, maxL] now: White's lie above, Black's below.
constexpr int timelines_created(Color c, int initMinL, int initMaxL, int minL, int maxL) {
    return c == WHITE ? maxL - initMaxL : initMinL - minL;
}

// The active window (RULES.md §4.1): the indices within activity_radius() of the initial range.
// The active timelines are those of the multiverse inside it.
struct ActiveWindow {
    int            lo, hi;
    constexpr bool holds(int l) const { return l >= lo && l <= hi; }
};
constexpr ActiveWindow active_window(
    int initMinL, int initMaxL, int whiteCreated, int blackCreated) {
    const int a = activity_radius(whiteCreated, blackCreated);
    return {initMinL - a, initMaxL + a};
}

// Would every timeline `mover` creates from now on be inactive, and leave the activity of every
// other timeline as it is (RULES.md §4.1)? Exactly when the mover has created more timelines than
// the opponent: then the radius is the opponent's count + 1 however many the mover adds, and
// the mover's next timeline lies beyond it (checked against activity_radius() below).
constexpr bool further_timelines_inactive(Color mover, int whiteCreated, int blackCreated) {
    return mover == WHITE ? whiteCreated > blackCreated : blackCreated > whiteCreated;
}
static_assert([] {
    for (int mine = 0; mine < 12; ++mine)
        for (int theirs = 0; theirs < 12; ++theirs) {
            bool inactive = true; // the mover's (mine + n)-th is inactive, the radius unchanged
            for (int n = 1; n < 12; ++n)
                inactive = inactive && mine + n > activity_radius(mine + n, theirs)
                    && activity_radius(mine + n, theirs) == activity_radius(mine, theirs);
            if (inactive != further_timelines_inactive(WHITE, mine, theirs)
                || inactive != further_timelines_inactive(BLACK, theirs, mine))
                return false;
        }
    return true;
}());

// The index of the k-th (from 0) new timeline `mover` creates from a multiverse whose timelines
// span [minL, maxL] (RULES.md §3.3): White max ℓ + 1 + k, Black min ℓ - 1 - k.
constexpr int nth_new_timeline(Color mover, int minL, int maxL, int k) {
    return mover == WHITE ? maxL + 1 + k : minL - 1 - k;
}
// The index the next new timeline created by `mover` gets.
constexpr int next_timeline_index(Color mover, int minL, int maxL) {
    return nth_new_timeline(mover, minL, maxL, 0);
}
// The inverse of nth_new_timeline(): which of the mover's new timelines ℓ is (k from 0);
// negative when ℓ is not beyond [minL, maxL] on the mover's side.
constexpr int new_timeline_number(Color mover, int minL, int maxL, int l) {
    return mover == WHITE ? l - maxL - 1 : minL - 1 - l;
}
static_assert(new_timeline_number(WHITE, -2, 3, nth_new_timeline(WHITE, -2, 3, 4)) == 4
    && new_timeline_number(BLACK, -2, 3, nth_new_timeline(BLACK, -2, 3, 4)) == 4
    && new_timeline_number(WHITE, -2, 3, -3) < 0 && new_timeline_number(BLACK, -2, 3, 4) < 0);

// The standard order of an action (NOTATION.md §6): its physical moves and hops by arrival ℓ,
// ascending for White and descending for Black, then its branching jumps in the order they are
// made. The non-branching moves arrive on distinct timelines (each playable board takes one move
// or one arrival), so the order among them is total.
constexpr bool standard_before(Color mover, const Move& a, const Move& b) {
    return mover == WHITE ? a.to.l() < b.to.l() : a.to.l() > b.to.l();
}
// The index, in ascending ℓ, of the i-th of n arrival timelines in that order: code that holds
// an action's non-branching moves by ascending arrival timeline emits them in standard order
// with it, without sorting.
constexpr int nth_in_standard_order(Color mover, int i, int n) {
    return mover == WHITE ? i : n - 1 - i;
}
// Sorts the non-branching moves in place (std::sort needs no buffer).
inline void sort_standard_order(std::span<Move> nonBranching, Color mover) {
    std::sort(nonBranching.begin(), nonBranching.end(),
        [mover](const Move& a, const Move& b) { return standard_before(mover, a, b); });
}
// Inserts a non-branching move into moves kept in standard order; returns its index (for an
// erase in LIFO order). Allocates nothing once the vector's capacity suffices.
inline std::size_t insert_in_standard_order(std::vector<Move>& moves, const Move& m, Color mover) {
    const auto        at    = std::upper_bound(moves.begin(), moves.end(), m,
                  [mover](const Move& a, const Move& b) { return standard_before(mover, a, b); });
    const std::size_t index = std::size_t(at - moves.begin());
    moves.insert(at, m);
    return index;
}

} // namespace fived::movegen
