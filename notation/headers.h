#pragma once
// The headers of a record as the canonical writer orders them and the reader stores them
// (NOTATION.md §7), shared by the two so that neither includes the other.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "movegen/multiverse.h"

namespace fived::notation {

// The headers the writer computes from the start position (Board, Mode, Size, Timeline(s),
// Promotions): the reader drops them, the writer writes its own.
bool is_computed_header(std::string_view key);
// Event, Site, Date, Round, White, Black, Result: written first, in this order.
bool is_leading_header(std::string_view key);

// The headers in canonical form: the computed ones dropped, Event..Result first, then Puzzle,
// then the rest in their order; later duplicates of a key (compared ignoring case) dropped;
// `"` in values replaced by `'`, line breaks by spaces; keys made of header-key characters. The
// reader stores headers in this form, so that a tree survives a round trip.
std::vector<std::pair<std::string, std::string>> canonical_headers(
    const std::vector<std::pair<std::string, std::string>>& headers);

// The value the canonical writer gives the `Board` header for a start position: the name of the
// built-in variant whose set-up it is exactly (`Standard`, `Standard - Turn Zero`, ...), else
// `Custom` (the record then carries the 5DFEN).
std::string board_header_value(const movegen::Multiverse& start);

} // namespace fived::notation
