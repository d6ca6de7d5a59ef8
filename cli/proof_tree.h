#pragma once
// A read solution tree as the solver's SolutionTree, and the grouping comment that `solve`
// writes and `verify` reads: one place for both sides of `{K defences share this answer: ...}`.
// Shared by the command line and the solve fuzz target.

#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "notation/tree.h"
#include "solver/verify.h"

namespace fived::cli {

// `K defences share this answer: D1; D2; ...` (D: full notation, as notation::format_action
// prints them).
std::string group_comment(const std::vector<std::string>& defences);

// Reads a group out of a node's comment: the phrase `K defences share this answer`, then
// optionally `:` and the defences separated by `;` up to the end of the comment. Returns false
// when the comment has no group (size and list untouched); K must be at least 1.
bool parse_group_comment(std::string_view comment, int& size, std::vector<std::string>& list);

// The tree below game node `top` as a SolutionTree (children in the tree's order; a node's
// group from its comment). Returns false when it would hold more than maxNodes nodes.
bool solution_below(const notation::GameTree& gt, int top, solver::SolutionTree& out,
    std::size_t maxNodes = std::numeric_limits<std::size_t>::max());

} // namespace fived::cli
