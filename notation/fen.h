#pragma once
// 5DFEN of positions and Shad's MD5 state hash.
//
// A board is written `[rows:L:T:colour]` (NOTATION.md §7): rows from the top rank down, runs of
// empty squares as one number, `*` exactly on unmoved P W K R, the timeline label canonical
// (`-0`/`+0` for the middle timelines of an even game, otherwise no `+`). Boards are listed by
// timeline ascending (`-0` before `+0`), then turn, then colour (White first).
//
// Shad's hashing proposal (seed 001, "Hashing"): the MD5 digest, as 32 lower-case hex digits,
// of the 5DFEN strings of all boards concatenated in that order without whitespace; a single
// board hashes its own 5DFEN string. The MD5 itself is libmd's (Debian package libmd-dev).

#include <string>
#include <string_view>

#include "movegen/multiverse.h"

namespace fived::notation {

// `[rows:L:T:colour]` of the board at (l, v), which must exist.
std::string board_fen(const movegen::Multiverse& mv, int l, int v);

// Every board of the position, one `[...]` per line (each line ends with '\n').
std::string fen_of(const movegen::Multiverse& mv);
// The headers a reader needs, besides the boards of fen_of(), to read the position back as
// it is (`fived fen X | fived status -`): `[Size "WxH"]` unless the boards are 8x8 (the size a
// file without the header has) and `[Promotions "..."]` unless pawns promote to a queen only.
// The parity is in the boards' timeline labels. Empty for a standard 8x8 position.
std::string fen_headers(const movegen::Multiverse& mv);
// Only the boards given in the set-up (not produced by a move), in the same form: the 5DFEN
// block of a record whose moves replay the rest.
std::string initial_fen(const movegen::Multiverse& mv);

// Shad's full-state hash of the position: MD5 over all boards' 5DFEN, lower-case hex.
std::string state_hash(const movegen::Multiverse& mv);
// Shad's single-board hash of the board at (l, v).
std::string board_hash(const movegen::Multiverse& mv, int l, int v);
// MD5 of arbitrary bytes, 32 lower-case hex digits.
std::string md5_hex(std::string_view bytes);

} // namespace fived::notation
