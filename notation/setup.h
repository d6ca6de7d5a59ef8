#pragma once
// The start position of a game (NOTATION.md §4): the headers (Board/Variant, Size,
// Timeline(s), Promotions) and the 5DFEN boards, with their semantic constraints.

#include <string_view>

#include "absl/status/statusor.h"
#include "movegen/multiverse.h"
#include "notation/syntax.h"

namespace fived::notation {

// Builds the start position. An error is an InvalidArgument status carrying its Diagnostic
// (`FILE:LINE:COL: cause`; read it back with diagnostic_of(), notation/parser.h).
absl::StatusOr<movegen::Multiverse> build_start_position(
    const Document& doc, std::string_view file);

} // namespace fived::notation
