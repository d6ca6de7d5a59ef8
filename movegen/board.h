#pragma once
// An immutable board of at most 8x8 squares.
//
// A Board is written once, when the move that creates it is made, and never changed afterwards
// (RULES.md §1.2: "a board never changes once it exists"). It keeps bitboards by colour and by
// piece kind, a mailbox for O(1) lookups, the unmoved flags, and its own 64-bit key, computed
// once at creation from the contents (xxHash, see keys.h).

#include <cstring>

#include "movegen/types.h"

namespace fived::movegen {

struct Board {
    Bitboard byColor[COLOR_NB]{};
    Bitboard byType[PIECE_TYPE_NB]{}; // byType[NO_PIECE_TYPE] is unused (always 0)
    Bitboard unmoved = 0;             // squares whose piece has never moved
    Piece    squares[64]{};
    Key      key = 0;

    Piece    piece_on(int s) const { return squares[s]; }
    bool     empty(int s) const { return squares[s] == NO_PIECE; }
    Bitboard pieces() const { return byColor[WHITE] | byColor[BLACK]; }
    Bitboard pieces(Color c) const { return byColor[c]; }
    Bitboard pieces(Color c, PieceType pt) const { return byColor[c] & byType[pt]; }
    Bitboard royals(Color c) const { return byColor[c] & (byType[KING] | byType[ROYAL_QUEEN]); }
    // The pieces that move and capture as pawns (is_pawnlike()).
    Bitboard pawnlikes(Color c) const { return byColor[c] & (byType[PAWN] | byType[BRAWN]); }

    void put(Piece p, int s) {
        squares[s] = p;
        byColor[color_of(p)] |= square_bb(s);
        byType[type_of(p)] |= square_bb(s);
    }
    void remove(int s) {
        const Piece p = squares[s];
        if (p == NO_PIECE) return;
        byColor[color_of(p)] &= ~square_bb(s);
        byType[type_of(p)] &= ~square_bb(s);
        unmoved &= ~square_bb(s);
        squares[s] = NO_PIECE;
    }
    // Contents equality (the key is derived, so it is not compared).
    bool same_contents(const Board& o) const {
        return std::memcmp(squares, o.squares, sizeof squares) == 0 && unmoved == o.unmoved;
    }
};

// Computes b.key from the contents.
void compute_board_key(Board& b);

} // namespace fived::movegen
