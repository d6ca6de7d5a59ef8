#pragma once
// Core value types of the 5D multiverse: colours, pieces, squares, 4D coordinates and moves.
//
// Coordinates follow RULES.md §1:
//   x (file) and y (rank) on a board of at most 8x8, packed as square = y * 8 + x;
//   v = 2T + (colour == black), the half-step index along a timeline;
//   l = the internal timeline index ℓ (odd: display k -> k; even: +k -> k, -k -> -k-1).
// One step along T is Δv = ±2, so a piece never changes the colour of its board.

#include <bit>
#include <cstdint>

namespace fived::movegen {

using Bitboard = std::uint64_t;
using Key      = std::uint64_t;

// The number of set bits. On the x86-64 baseline that Debian builds for (no POPCNT instruction)
// std::popcount is a call into libgcc (__popcountdi2: 4.5% of a mate-in-one search on 43
// timelines); there the count is done inline. (A function cloned for POPCNT would need the CPU
// probed at every start, which in a VM costs more than the program's own start-up work.)
constexpr int bit_count(std::uint64_t x) {
#if defined(__POPCNT__) || !defined(__x86_64__)
    return std::popcount(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return int((x * 0x0101010101010101ULL) >> 56);
#endif
}

enum Color : std::uint8_t {
    WHITE,
    BLACK,
    COLOR_NB = 2
};
constexpr Color operator~(Color c) { return Color(c ^ 1); }

// The twelve piece kinds of 5D chess (RULES.md §2.2), in the 5DFEN letter order P W K C Q Y S N R B
// U D.
enum PieceType : std::uint8_t {
    NO_PIECE_TYPE,
    PAWN,
    BRAWN,
    KING,
    COMMON_KING,
    QUEEN,
    ROYAL_QUEEN,
    PRINCESS,
    KNIGHT,
    ROOK,
    BISHOP,
    UNICORN,
    DRAGON,
    PIECE_TYPE_NB
};

// A piece: bits 0-3 the type, bit 4 the colour. NO_PIECE (0) is an empty square.
enum Piece : std::uint8_t {
    NO_PIECE = 0
};
constexpr Piece     make_piece(Color c, PieceType pt) { return Piece((c << 4) | pt); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 15); }
constexpr Color     color_of(Piece p) { return Color(p >> 4); }

constexpr bool is_royal(PieceType pt) { return pt == KING || pt == ROYAL_QUEEN; }
constexpr bool is_pawnlike(PieceType pt) { return pt == PAWN || pt == BRAWN; }
// Pieces whose unmoved flag matters: double steps, castling, the en passant origin test.
constexpr bool keeps_unmoved_flag(PieceType pt) {
    return pt == PAWN || pt == BRAWN || pt == KING || pt == ROOK;
}

// 5DFEN letter of a piece kind (upper case) and back. 0 / NO_PIECE_TYPE when unknown.
constexpr char      piece_letter(PieceType pt) { return " PWKCQYSNRBUD"[pt]; }
constexpr PieceType piece_type_from_letter(char upper) {
    for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt)
        if (piece_letter(PieceType(pt)) == upper) return PieceType(pt);
    return NO_PIECE_TYPE;
}

constexpr int MaxBoardSide = 8;
using Square               = std::uint8_t; // y * 8 + x
constexpr Square   make_square(int x, int y) { return Square(y * 8 + x); }
constexpr int      file_of(Square s) { return s & 7; }
constexpr int      rank_of(Square s) { return s >> 3; }
constexpr Bitboard square_bb(int s) { return Bitboard(1) << s; }

// A point of the multiverse: timeline ℓ, half-step v, square.
// bit 0-5: square   bit 6-19: v   bit 20-31: ℓ (two's complement, 12 bits)
class Vec4 {
public:
    constexpr Vec4() = default;
    constexpr Vec4(int l, int v, int sq) :
        data(std::uint32_t(sq & 63) | (std::uint32_t(v & 0x3FFF) << 6)
            | (std::uint32_t(l & 0xFFF) << 20)) { }
    constexpr int           l() const { return std::int32_t(data) >> 20; }
    constexpr int           v() const { return int((data >> 6) & 0x3FFF); }
    constexpr int           t() const { return v() >> 1; }
    constexpr Color         c() const { return Color(v() & 1); }
    constexpr Square        sq() const { return Square(data & 63); }
    constexpr int           x() const { return file_of(sq()); }
    constexpr int           y() const { return rank_of(sq()); }
    constexpr std::uint32_t raw() const { return data; }
    constexpr bool          operator==(const Vec4&) const = default;
    // Boards compare by (ℓ, v); a Vec4 with the square stripped names a board.
    constexpr Vec4 board() const { return Vec4(l(), v(), 0); }

private:
    std::uint32_t data = 0;
};
static_assert(sizeof(Vec4) == 4);

// The engine's limit on timelines (README "Limits"): every timeline, given in a file or created
// by an action, has an internal index ℓ with |ℓ| <= MaxTimelineIndex, the range of Vec4's 12-bit
// ℓ. A file beyond it is refused when read; an action that would create a timeline beyond it
// stops the program (Multiverse::make_arrival()).
constexpr int MaxTimelineIndex = 2047;
static_assert(Vec4(MaxTimelineIndex, 0, 0).l() == MaxTimelineIndex
    && Vec4(-MaxTimelineIndex, 0, 0).l() == -MaxTimelineIndex);

constexpr int to_v(int t, Color c) { return 2 * t + c; }

// Move flags.
enum MoveFlag : std::uint8_t {
    MF_NONE      = 0,
    MF_CAPTURE   = 1, // lands on an enemy piece (or takes en passant)
    MF_ENPASSANT = 2,
    MF_CASTLE    = 4,
    MF_DOUBLE    = 8, // a pawn or brawn double step
};

// A single move (a "semimove" of an action): a piece from one board to a square of the same or
// another board. Whether a cross-board move branches is decided when it is made (RULES.md §3.2).
struct Move {
    Vec4         from;
    Vec4         to;
    PieceType    promotion = NO_PIECE_TYPE; // the piece a pawn/brawn becomes, or none
    std::uint8_t flags     = MF_NONE;

    constexpr bool is_physical() const { return from.l() == to.l() && from.v() == to.v(); }
    constexpr bool is_capture() const { return flags & MF_CAPTURE; }
    constexpr bool operator==(const Move& m) const {
        return from == m.from && to == m.to && promotion == m.promotion;
    }
    // Total order used to sort moves deterministically.
    constexpr bool operator<(const Move& m) const {
        if (from.raw() != m.from.raw()) return key(from) < key(m.from);
        if (to.raw() != m.to.raw()) return key(to) < key(m.to);
        return promotion < m.promotion;
    }

private:
    static constexpr std::int64_t key(Vec4 p) {
        return (std::int64_t(p.l()) << 24) | (std::int64_t(p.v()) << 8) | p.sq();
    }
};

} // namespace fived::movegen
