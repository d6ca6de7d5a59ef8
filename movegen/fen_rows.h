#pragma once
// The piece-placement part of a 5DFEN board, "r*nbqk*bnr*/p*p*.../R*NBQK*BNR*" (RULES.md §1.5):
// rows from the top rank down separated by '/', upper case White, lower case Black, digits count
// empty squares (multi-digit allowed), '*' after P W K R marks the piece unmoved.
// It lives in movegen because the built-in variants are written in it; notation/ wraps it with
// file:line:col error reporting.

#include <array>
#include <string>
#include <string_view>

#include "movegen/types.h"

namespace fived::movegen {

// A board's contents, independent of the Board representation.
struct FenGrid {
    int                   width  = 8;
    int                   height = 8;
    std::array<Piece, 64> piece{}; // index y * 8 + x; NO_PIECE where empty
    Bitboard              unmoved = 0;

    bool operator==(const FenGrid&) const = default;
};

struct FenRowsError {
    int         offset = 0; // 0-based character offset into the rows text
    std::string message;    // e.g. "5DFEN row 3 has 9 squares on an 8-wide board"
};

// Parses the rows of a width x height board. Returns false and fills err on a malformed string.
// strict_unmoved: a '*' after a piece other than P W K R is an error (else it is ignored).
bool parse_fen_rows(std::string_view rows, int width, int height, FenGrid& out, FenRowsError& err,
    bool strict_unmoved = true);

// Writes rows in canonical form: runs of empty squares as one number, '*' exactly on unmoved
// P W K R.
std::string write_fen_rows(const FenGrid& grid);

} // namespace fived::movegen
