#pragma once
// Reader of 5DPGN, 5DFEN and Branched 5DPGN text into the syntax tree of notation/syntax.h.
//
// What is checked here (NOTATION.md §4): the whole grammar and lexical rules 1-7, strictly
// (unconsumed input is an error); header syntax, duplicate keys, the Size header (WxH, at most
// 8x8) and the Timeline(s) header (Odd/Even); every 5DFEN board's fields and rows against the
// Size; 5DFEN timeline labels against the parity (`0` in an even game, `-0`/`+0` in an odd one,
// or both kinds mixed); files a..h and ranks 1..8 in moves (B 6).
//
// What is NOT checked (it needs the position or the rules): whether squares exist on a
// narrower board, timeline labels of moves against the parity, turn numbers against the side
// to move (see check_turn_serials), move resolution, legality, marks. Those errors belong to
// the semantic layer, which reports them with error_status() in the same format.
//
// The parser is iterative: variations nest through an explicit stack and comments through a
// depth counter, so input depth never reaches the call stack; time is linear in the input.

#include <optional>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "movegen/types.h"
#include "notation/syntax.h"

namespace fived::notation {

// Parses a whole document. On failure returns false and fills `err`; `out` is then
// unspecified. `fileName` only labels diagnostics.
bool parse_document(
    std::string_view text, std::string_view fileName, Document& out, Diagnostic& err);

// The same as a status: on failure kInvalidArgument with the message "FILE:LINE:COL: CAUSE"
// and the diagnostic attached as a payload (read it back with diagnostic_of()).
absl::StatusOr<Document> parse_document(std::string_view text, std::string_view fileName);

// The error status for a diagnostic, in the format above. For the semantic layer as well, so
// every notation error looks alike and carries its position.
absl::Status error_status(const Diagnostic& d);

// The diagnostic carried by a status made by error_status() (or a failed parse_document());
// nullopt for an OK status or a status from elsewhere.
std::optional<Diagnostic> diagnostic_of(const absl::Status& status);

// Checks every turn serial against the sub-turn its action is played on, given who moves first
// at the root: a numbered serial `N.`/`Nw.`/`Nb.` must name exactly that sub-turn, counting full
// turns from 1 at the root (a Black-to-move record starts with `1b.`, NOTATION.md §7); `/` is
// "the next sub-turn" and always fits. This is the semantic check of invalid/turn-number-skipped
// and optional/turn-number-repeated-aivsai; it is separate from parse_document() because the
// side to move comes from the position.
absl::Status check_turn_serials(
    const Document& doc, std::string_view fileName, movegen::Color firstToMove);

} // namespace fived::notation
