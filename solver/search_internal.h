#pragma once
// What the reference search's files (search.cpp, narrow.cpp, stream.cpp, split.cpp, dfpn.cpp)
// share beyond search.h: bounds, heights and the Searcher's member templates used in more than
// one of them. Internal, not installed.

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "movegen/action.h"
#include "movegen/actions.h"
#include "movegen/types.h"
#include "solver/search.h"

namespace fived::solver {
namespace detail {

// Bounds used for facts that hold for every bound (no legal action at all).
constexpr int AllBounds = 250;

// Plies left below a node: an attacker node with bound r has 2r - 1 (it ends with the
// attacker's mating action), a defender node with bound k has 2k.
inline int height(bool orNode, int bound) { return orNode ? 2 * bound - 1 : 2 * bound; }

} // namespace detail

// f() searched within `budget` more nodes (see search.h).
template <class F>
Value Searcher::within(std::uint64_t budget, F f) {
    const std::uint64_t outer = budgetEnd;
    const std::uint64_t mine  = std::min(outer, totalNodes + budget);
    if (outer == NoBudget) budgetOut = false; // left set by a search that stopped
    budgetEnd     = mine;
    const Value v = f();
    budgetEnd     = outer;
    if (v == Value::ABORT && budgetOut && mine < outer
        && !ctx.stop.load(std::memory_order_relaxed)) {
        budgetOut = false; // this budget ran out, not an enclosing one
        return Value::OPEN;
    }
    return v;
}

// f(a) with `a` made, if it is one of the legal actions at `ply` (see search.h).
template <class F>
bool Searcher::with_if_legal(int ply, const std::vector<Move>& a, F f) {
    if (!movegen::starts_from_playable_boards(mv, a)) return false;
    bool                   legal  = false;
    movegen::ActionSearch& search = onlySearches[std::size_t(ply)];
    search.reset_only(mv, a);
    search.for_each([&](std::span<const Move> b) {
        if (!detail::same_action(b, a)) return true;
        legal = true;
        f(b);
        return false;
    });
    return legal;
}

} // namespace fived::solver
