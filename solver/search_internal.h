#pragma once
// Helpers of the reference search shared by its files (search.cpp, split.cpp, dfpn.cpp);
// internal, not installed.

#include <algorithm>
#include <span>
#include <vector>

#include "movegen/types.h"

namespace fived::solver {
namespace detail {

// Bounds used for facts that hold for every bound (no legal action at all).
constexpr int AllBounds = 250;

// Plies left below a node: an attacker node with bound r has 2r - 1 (it ends with the
// attacker's mating action), a defender node with bound k has 2k.
inline int height(bool orNode, int bound) { return orNode ? 2 * bound - 1 : 2 * bound; }

inline bool same_action(std::span<const movegen::Move> a, const std::vector<movegen::Move>& b) {
    return !b.empty() && std::equal(a.begin(), a.end(), b.begin(), b.end());
}

} // namespace detail
} // namespace fived::solver
