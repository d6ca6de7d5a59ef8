#pragma once
// The start position of a game (NOTATION.md §4): the headers (Board/Variant, Size,
// Timeline(s), Promotions) and the 5DFEN boards, with their semantic constraints.

#include <optional>
#include <string_view>

#include "movegen/multiverse.h"
#include "notation/syntax.h"

namespace fived::notation {

// Builds the start position. On failure returns nullopt and fills err.
std::optional<movegen::Multiverse> build_start_position(
    const Document& doc, std::string_view file, Diagnostic& err);

} // namespace fived::notation
