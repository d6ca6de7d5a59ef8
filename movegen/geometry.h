#pragma once
// The geometry of the pieces (RULES.md §2.2-§2.3), defined once and used three ways:
//   * forward, by move generation (movegen.cpp): where a piece on a square can go;
//   * backward, by the attack test between two boards (attacks.cpp): which squares of a board
//     (dl timelines and dt turns away) hold a piece that reaches a given square;
//   * within one board, by the same backward tables at dl = dt = 0 (attacked_on_board, castling);
// and by the cuts of mate.cpp: every line and leap from a royal, and on each line the pieces that
// capture along it (capturers_along()).
//
// Displacements are (x, y, T, L) with T in whole turns (Δv = 2·dt). Pawn-like pieces move
// "forward", which depends on their colour: White y + 1 and ℓ - 1, Black y - 1 and ℓ + 1.

#include <array>
#include <cstdint>
#include <span>

#include "movegen/types.h"

namespace fived::movegen {

// A unit direction or a leap in (x, y, T, L).
struct Delta {
    std::int8_t  dx, dy, dt, dl;
    std::uint8_t axes; // number of non-zero components
};

namespace geometry_detail {
constexpr auto make_unit_directions() {
    std::array<Delta, 80> d{};
    int                   n = 0;
    for (int dl = -1; dl <= 1; ++dl)
        for (int dt = -1; dt <= 1; ++dt)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    const int axes = (dx != 0) + (dy != 0) + (dt != 0) + (dl != 0);
                    if (axes == 0) continue;
                    d[std::size_t(n++)] = {std::int8_t(dx), std::int8_t(dy), std::int8_t(dt),
                        std::int8_t(dl), std::uint8_t(axes)};
                }
    return d;
}

// ±2 on one axis, ±1 on another (12 ordered axis pairs × 4 signs = 48).
constexpr auto make_knight_leaps() {
    std::array<Delta, 48> d{};
    int                   n = 0;
    for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b) {
            if (a == b) continue;
            for (int sa : {-2, 2})
                for (int sb : {-1, 1}) {
                    int c[4]            = {0, 0, 0, 0};
                    c[a]                = sa;
                    c[b]                = sb;
                    d[std::size_t(n++)] = {std::int8_t(c[0]), std::int8_t(c[1]), std::int8_t(c[2]),
                        std::int8_t(c[3]), 2};
                }
        }
    return d;
}
} // namespace geometry_detail

// The 80 unit directions: the steps of a king and the lines of the riders.
inline constexpr std::array<Delta, 80> UnitDirs = geometry_detail::make_unit_directions();
// The 48 leaps of a knight.
inline constexpr std::array<Delta, 48> KnightLeaps = geometry_detail::make_knight_leaps();

// Which numbers of used axes a rider may combine along a unit direction (bit n = n axes of x, y,
// T, L); 0 for leapers and pawns.
constexpr std::uint8_t rider_axes(PieceType pt) {
    switch (pt) {
        case ROOK: return 1 << 1;
        case BISHOP: return 1 << 2;
        case UNICORN: return 1 << 3;
        case DRAGON: return 1 << 4;
        case PRINCESS: return (1 << 1) | (1 << 2);
        case QUEEN:
        case ROYAL_QUEEN: return (1 << 1) | (1 << 2) | (1 << 3) | (1 << 4);
        default: return 0;
    }
}

// Kings (royal or common) step one unit in any direction.
constexpr bool steps_like_king(PieceType pt) { return pt == KING || pt == COMMON_KING; }

// The leaps of a leaper (its moves that jump straight to the target): a knight's leaps, a king's
// unit steps; empty for riders and pawns.
constexpr std::span<const Delta> leaps_of(PieceType pt) {
    if (pt == KNIGHT) return KnightLeaps;
    if (steps_like_king(pt)) return UnitDirs;
    return {};
}

// How many directions a piece's captures are generated along (a rider's lines, a leaper's
// leaps, a pawn's or brawn's captures), counted from the tables: what a search of its captures
// forward costs against a backward look from the target (attacks.cpp).
constexpr int capture_directions(PieceType pt);

// Can a piece of type pt capture k steps away along a unit direction using `axes` axes (the
// square between being empty)? Riders at any k along their directions, kings at k = 1.
constexpr bool captures_along(PieceType pt, int axes, int k) {
    return (rider_axes(pt) & (1 << axes)) != 0 || (k == 1 && steps_like_king(pt));
}

// Forward for a pawn-like piece of colour c.
constexpr int forward_y(Color c) { return c == WHITE ? 1 : -1; }
constexpr int forward_l(Color c) { return c == WHITE ? -1 : 1; }

// A capture of a pawn-like piece, relative to its forward direction: it lands dx files, fy
// forward ranks, dt turns and fl forward timelines away (dy = fy · forward_y, dl = fl ·
// forward_l).
struct PawnCapture {
    std::int8_t dx, fy, dt, fl;
};
// Pawns and brawns: diagonally forward on the board, and forward along ℓ one turn either way.
inline constexpr std::array<PawnCapture, 4> PawnCaptures = {
    {{-1, 1, 0, 0}, {1, 1, 0, 0}, {0, 0, -1, 1}, {0, 0, 1, 1}}};
// Brawns also: one forward along ℓ combined with one forward rank or one file, and one forward
// rank combined with one turn either way.
inline constexpr std::array<PawnCapture, 5> BrawnCaptures = {
    {{0, 1, 0, 1}, {-1, 0, 0, 1}, {1, 0, 0, 1}, {0, 1, -1, 0}, {0, 1, 1, 0}}};

// The piece types (bit pt) whose pieces of colour `by`, standing k steps from a square along the
// unit direction d (on square + k·d), capture onto that square when the squares between are
// empty: the riders along d, kings at k = 1, and pawn-like pieces whose capture is the step -d.
// Knights are not among them (their leaps are no unit steps).
constexpr std::uint16_t capturers_along(Color by, const Delta& d, int k) {
    std::uint16_t types = 0;
    for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt)
        if (captures_along(PieceType(pt), d.axes, k)) types |= std::uint16_t(1u << pt);
    if (k != 1) return types;
    auto is_step = [&](const PawnCapture& c) {
        return -d.dx == c.dx && -d.dy == c.fy * forward_y(by) && -d.dt == c.dt
            && -d.dl == c.fl * forward_l(by);
    };
    for (const PawnCapture& c : PawnCaptures)
        if (is_step(c)) types |= std::uint16_t((1u << PAWN) | (1u << BRAWN));
    for (const PawnCapture& c : BrawnCaptures)
        if (is_step(c)) types |= std::uint16_t(1u << BRAWN);
    return types;
}

namespace geometry_detail {
constexpr int count_capture_directions(PieceType pt) {
    if (pt == PAWN) return int(PawnCaptures.size());
    if (pt == BRAWN) return int(PawnCaptures.size() + BrawnCaptures.size());
    int n = int(leaps_of(pt).size());
    for (const Delta& d : UnitDirs)
        n += (rider_axes(pt) & (1 << d.axes)) != 0;
    return n;
}
inline constexpr auto CaptureDirections = [] {
    std::array<std::uint8_t, PIECE_TYPE_NB> t{};
    for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt)
        t[std::size_t(pt)] = std::uint8_t(count_capture_directions(PieceType(pt)));
    return t;
}();
} // namespace geometry_detail

constexpr int capture_directions(PieceType pt) {
    return geometry_detail::CaptureDirections[std::size_t(pt)];
}

// The x-y parts of the moves of one kind that cover a given (dt, dl): the backward view of the
// tables above, for the attack test. For a leap the attacker stands at target - (dx, dy).
struct PlaneOffsets {
    std::uint8_t                              n = 0;
    std::array<std::array<std::int8_t, 2>, 8> xy{};
};

namespace geometry_detail {
constexpr auto make_knight_by_tl() {
    std::array<std::array<PlaneOffsets, 5>, 5> t{};
    for (const Delta& d : KnightLeaps) {
        PlaneOffsets& p = t[std::size_t(d.dt + 2)][std::size_t(d.dl + 2)];
        p.xy[p.n++]     = {d.dx, d.dy};
    }
    return t;
}
// [dt + 1][fl]: the captures with that (dt, fl); brawnOnly the ones only a brawn makes.
struct PawnOffsets {
    std::uint8_t                              n = 0;
    std::array<std::array<std::int8_t, 2>, 4> xy{}; // (dx, fy)
    std::array<bool, 4>                       brawnOnly{};
};
constexpr auto make_pawn_by_tl() {
    std::array<std::array<PawnOffsets, 2>, 3> t{};
    auto                                      add = [&](const PawnCapture& c, bool brawnOnly) {
        PawnOffsets& p = t[std::size_t(c.dt + 1)][std::size_t(c.fl)];
        p.brawnOnly[p.n] = brawnOnly;
        p.xy[p.n++]      = {c.dx, c.fy};
    };
    for (const PawnCapture& c : PawnCaptures)
        add(c, false);
    for (const PawnCapture& c : BrawnCaptures)
        add(c, true);
    return t;
}
inline constexpr auto KnightByTL = make_knight_by_tl();
inline constexpr auto PawnByTL   = make_pawn_by_tl();
} // namespace geometry_detail

namespace geometry_detail {
constexpr auto make_plane_dirs() {
    std::array<Delta, 8> d{};
    int                  n = 0;
    for (const Delta& u : UnitDirs)
        if (u.dt == 0 && u.dl == 0) d[std::size_t(n++)] = u;
    return d;
}
constexpr Bitboard bit_if_on(int x, int y) {
    return x >= 0 && x < MaxBoardSide && y >= 0 && y < MaxBoardSide ? square_bb(make_square(x, y))
                                                                    : 0;
}
// [sq][k]: the squares k steps from sq along the 9 x-y parts of a line through the boards
// (0 or ±k per axis, the square itself included).
constexpr auto make_line_rings() {
    std::array<std::array<Bitboard, MaxBoardSide>, 64> t{};
    for (int sq = 0; sq < 64; ++sq)
        for (int k = 0; k < MaxBoardSide; ++k)
            for (int uy = -1; uy <= 1; ++uy)
                for (int ux = -1; ux <= 1; ++ux)
                    t[std::size_t(sq)][std::size_t(k)] |=
                        bit_if_on(file_of(Square(sq)) - k * ux, rank_of(Square(sq)) - k * uy);
    return t;
}
// [dt + 2][dl + 2][sq]: the squares a knight leaps onto sq from, for that (dt, dl).
constexpr auto make_knight_sources() {
    std::array<std::array<std::array<Bitboard, 64>, 5>, 5> t{};
    for (const Delta& d : KnightLeaps)
        for (int sq = 0; sq < 64; ++sq)
            t[std::size_t(d.dt + 2)][std::size_t(d.dl + 2)][std::size_t(sq)] |=
                bit_if_on(file_of(Square(sq)) - d.dx, rank_of(Square(sq)) - d.dy);
    return t;
}
inline constexpr auto LineRings     = make_line_rings();
inline constexpr auto KnightSources = make_knight_sources();
} // namespace geometry_detail

// The 8 unit directions within one board (dt = dl = 0), in UnitDirs' order.
inline constexpr std::array<Delta, 8> PlaneDirs = geometry_detail::make_plane_dirs();

// Where a piece stands that reaches square sq of a board k turns or timelines away along a line
// through the boards (the x-y part of the line is 0 or ±k per axis): a quick test before the
// line is looked at (a board whose pieces miss this set cannot attack sq along a line). Lines
// along T and L alone have no x-y part, and no length limit: from k = 8 on, only sq itself.
constexpr Bitboard line_sources(int sq, int k) {
    return k < MaxBoardSide ? geometry_detail::LineRings[std::size_t(sq)][std::size_t(k)]
                            : square_bb(sq);
}
// Where a knight stands that leaps onto square sq of a board dt turns and dl timelines away.
constexpr Bitboard knight_sources(int sq, int dt, int dl) {
    if (dt < -2 || dt > 2 || dl < -2 || dl > 2) return 0;
    return geometry_detail::KnightSources[std::size_t(dt + 2)][std::size_t(dl + 2)]
                                         [std::size_t(sq)];
}

// The knight leaps covering (dt, dl); empty unless |dt|, |dl| <= 2.
constexpr const PlaneOffsets* knight_leaps_by_tl(int dt, int dl) {
    if (dt < -2 || dt > 2 || dl < -2 || dl > 2) return nullptr;
    const PlaneOffsets& p = geometry_detail::KnightByTL[std::size_t(dt + 2)][std::size_t(dl + 2)];
    return p.n ? &p : nullptr;
}

// Calls f(x, y) for each square from which a pawn-like piece of colour `by`, standing on a board
// dt turns and dl timelines before the board of square (rx, ry), captures onto that square, with
// the piece types that may stand there (any pawn-like piece, or brawns only); stops when f
// returns true and returns true then.
template <class F>
constexpr bool for_each_pawn_attacker(Color by, int dt, int dl, int rx, int ry, F&& f) {
    const int fl = dl * forward_l(by);
    if (dt < -1 || dt > 1 || fl < 0 || fl > 1) return false;
    const geometry_detail::PawnOffsets& p =
        geometry_detail::PawnByTL[std::size_t(dt + 1)][std::size_t(fl)];
    const int fy = forward_y(by);
    for (int i = 0; i < p.n; ++i)
        if (f(rx - p.xy[std::size_t(i)][0], ry - fy * p.xy[std::size_t(i)][1],
                p.brawnOnly[std::size_t(i)]))
            return true;
    return false;
}

} // namespace fived::movegen
