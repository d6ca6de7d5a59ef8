#include "movegen/movegen.h"

#include <array>
#include <bit>
#include <cstdlib>
#include <span>
#include <type_traits>

#include "movegen/action.h"
#include "movegen/geometry.h"

namespace fived::movegen {

namespace {

enum GenType {
    ALL,      // every pseudo-legal move
    CAPTURES, // only moves that capture (for the attack test; no en passant, no castling)
};

// The moves of the piece on square sq of board b, which stands at (l, v) (the last board of
// timeline l), one walk family a member function over the same context (as Popeye's
// pieces/walks/): riders, leapers (with castling), pawns and brawns (with en passant and
// promotion, in emit()). Each move goes to sink(const Move&), which returns false to stop early;
// the members return false when it did. Local: b is taken alone, as if no other board existed
// (only the moves that stay on b; no en passant, which reads the board before).
template <GenType Type, bool Local, class Sink>
class PieceWalk {
public:
    PieceWalk(const Multiverse& m, const Board& board, int l_, int v_, int sq_, Sink& s) :
        mv(m), b(board), l(l_), v(v_), sq(sq_), sink(s), p(board.piece_on(sq_)), pt(type_of(p)),
        us(color_of(p)), x(file_of(Square(sq_))), y(rank_of(Square(sq_))), W(m.width()),
        H(m.height()), from(l_, v_, sq_) { }

    PieceType                          type() const { return pt; }
    [[gnu::always_inline]] inline bool riders(std::uint8_t axesMask);
    [[gnu::always_inline]] inline bool leapers(std::span<const Delta> leaps);
    [[gnu::always_inline]] inline bool pawns();

private:
    const Board* other(int l2, int v2) const {
        if constexpr (Local)
            return nullptr;
        else
            return mv.board_if(l2, v2);
    }
    bool on_board(int x2, int y2) const { return x2 >= 0 && x2 < W && y2 >= 0 && y2 < H; }
    [[gnu::always_inline]] inline bool emit(
        int l2, int v2, int x2, int y2, Piece target, std::uint8_t flags);
    [[gnu::always_inline]] inline bool leap(const Delta& d);
    bool                               castling();
    [[gnu::always_inline]] inline bool pawn_capture(int l2, int v2, int x2, int y2);
    bool                               en_passant(int fy);

    const Multiverse& mv;
    const Board&      b;
    const int         l, v, sq;
    Sink&             sink;
    const Piece       p;
    const PieceType   pt;
    const Color       us;
    const int         x, y, W, H;
    const Vec4        from;
};

// Emits a move to (l2, v2, x2, y2) whose target square holds `target` (not friendly); a pawn-like
// piece reaching its last rank, once per promotion.
template <GenType Type, bool Local, class Sink>
bool PieceWalk<Type, Local, Sink>::emit(
    int l2, int v2, int x2, int y2, Piece target, std::uint8_t flags) {
    if (target != NO_PIECE) flags |= MF_CAPTURE;
    if (Type == CAPTURES && !(flags & MF_CAPTURE)) return true;
    Move      m{from, Vec4(l2, v2, make_square(x2, y2)), NO_PIECE_TYPE, flags};
    const int lastRank = us == WHITE ? H - 1 : 0;
    if (is_pawnlike(pt) && y2 == lastRank) {
        for (int i = 0; i < mv.rules().promotionCount; ++i) {
            m.promotion = mv.rules().promotions[std::size_t(i)];
            if (!sink(m)) return false;
        }
        return true;
    }
    return sink(m);
}

// Riders: slide along each allowed unit direction until blocked or off the multiverse.
template <GenType Type, bool Local, class Sink>
bool PieceWalk<Type, Local, Sink>::riders(std::uint8_t axesMask) {
    // Local: only the directions within the board (the others meet no board).
    const std::span<const Delta> dirs =
        Local ? std::span<const Delta>(PlaneDirs) : std::span<const Delta>(UnitDirs);
    for (const Delta& d : dirs) {
        if (!(axesMask & (1 << d.axes))) continue;
        if (d.dt > 0 && d.dl == 0) continue; // the future of a last board never exists
        if (d.dt == 0 && d.dl == 0) {
            for (int k = 1;; ++k) {
                const int x2 = x + k * d.dx, y2 = y + k * d.dy;
                if (!on_board(x2, y2)) break;
                const Piece t = b.piece_on(make_square(x2, y2));
                if (t != NO_PIECE && color_of(t) == us) break;
                if (!emit(l, v, x2, y2, t, MF_NONE)) return false;
                if (t != NO_PIECE) break;
            }
        } else {
            for (int k = 1;; ++k) {
                const int x2 = x + k * d.dx, y2 = y + k * d.dy;
                if (!on_board(x2, y2)) break;
                const int    l2 = l + k * d.dl, v2 = v + 2 * k * d.dt;
                const Board* tb = other(l2, v2);
                if (!tb) break;
                const Piece t = tb->piece_on(make_square(x2, y2));
                if (t != NO_PIECE && color_of(t) == us) break;
                if (!emit(l2, v2, x2, y2, t, MF_NONE)) return false;
                if (t != NO_PIECE) break;
            }
        }
    }
    return true;
}

// A leaper's one displacement: only the target matters.
template <GenType Type, bool Local, class Sink>
bool PieceWalk<Type, Local, Sink>::leap(const Delta& d) {
    const int x2 = x + d.dx, y2 = y + d.dy;
    if (!on_board(x2, y2)) return true;
    const int    l2 = l + d.dl, v2 = v + 2 * d.dt;
    const Board* tb = (d.dl == 0 && d.dt == 0) ? &b : other(l2, v2);
    if (!tb) return true;
    const Piece t = tb->piece_on(make_square(x2, y2));
    if (t != NO_PIECE && color_of(t) == us) return true;
    return emit(l2, v2, x2, y2, t, MF_NONE);
}

// Leapers (kings, knights and their kin), then a king's castling.
template <GenType Type, bool Local, class Sink>
bool PieceWalk<Type, Local, Sink>::leapers(std::span<const Delta> leaps) {
    for (const Delta& d : leaps)
        if ((!Local || (d.dl == 0 && d.dt == 0)) && !leap(d)) return false;
    if (Type == ALL && pt == KING && (b.unmoved & square_bb(sq))) return castling();
    return true;
}

// Castling (RULES.md §2.4): physical, unmoved king K, first piece along the rank an unmoved own
// rook at least three files away, the king's, crossed and target squares not attacked from this
// board.
template <GenType Type, bool Local, class Sink>
bool PieceWalk<Type, Local, Sink>::castling() {
    for (int dir : {-1, 1}) {
        int rx = x + dir;
        while (rx >= 0 && rx < W && b.empty(make_square(rx, y)))
            rx += dir;
        if (rx < 0 || rx >= W || std::abs(rx - x) < 3) continue;
        const int rs = make_square(rx, y);
        if (b.piece_on(rs) != make_piece(us, ROOK) || !(b.unmoved & square_bb(rs))) continue;
        if (attacked_on_board(b, W, H, sq, ~us)
            || attacked_on_board(b, W, H, make_square(x + dir, y), ~us)
            || attacked_on_board(b, W, H, make_square(x + 2 * dir, y), ~us))
            continue;
        if (!emit(l, v, x + 2 * dir, y, NO_PIECE, MF_CASTLE)) return false;
    }
    return true;
}

// A pawn-like capture onto (l2, v2, x2, y2), if an enemy stands there.
template <GenType Type, bool Local, class Sink>
bool PieceWalk<Type, Local, Sink>::pawn_capture(int l2, int v2, int x2, int y2) {
    if (!on_board(x2, y2)) return true;
    const Board* tb = (l2 == l && v2 == v) ? &b : other(l2, v2);
    if (!tb) return true;
    const Piece t = tb->piece_on(make_square(x2, y2));
    if (t == NO_PIECE || color_of(t) == us) return true;
    return emit(l2, v2, x2, y2, t, MF_NONE);
}

// Pawns and brawns (RULES.md §2.3). Forward: White y+1 and ℓ-1, Black y-1 and ℓ+1.
template <GenType Type, bool Local, class Sink>
bool PieceWalk<Type, Local, Sink>::pawns() {
    const int  fy = forward_y(us), fl = forward_l(us);
    const bool unmoved = b.unmoved & square_bb(sq);
    if (Type == ALL) {
        // Steps along y (single and double), within the board.
        if (on_board(x, y + fy) && b.empty(make_square(x, y + fy))) {
            if (!emit(l, v, x, y + fy, NO_PIECE, MF_NONE)) return false;
            if (unmoved && on_board(x, y + 2 * fy) && b.empty(make_square(x, y + 2 * fy)))
                if (!emit(l, v, x, y + 2 * fy, NO_PIECE, MF_DOUBLE)) return false;
        }
        // Steps along ℓ (single and double), to the same square at the same v.
        const Board* b1 = other(l + fl, v);
        if (b1 && b1->empty(sq)) {
            if (!emit(l + fl, v, x, y, NO_PIECE, MF_NONE)) return false;
            const Board* b2 = other(l + 2 * fl, v);
            if (unmoved && b2 && b2->empty(sq))
                if (!emit(l + 2 * fl, v, x, y, NO_PIECE, MF_DOUBLE)) return false;
        }
    }
    // Captures (geometry.h): within the board, across T-L, and the brawn's own.
    for (const PawnCapture& c : PawnCaptures)
        if (!pawn_capture(l + fl * c.fl, v + 2 * c.dt, x + c.dx, y + fy * c.fy)) return false;
    if (pt == BRAWN)
        for (const PawnCapture& c : BrawnCaptures)
            if (!pawn_capture(l + fl * c.fl, v + 2 * c.dt, x + c.dx, y + fy * c.fy)) return false;
    if (Type == ALL && !Local && v - 1 >= mv.start_v(l)) return en_passant(fy);
    return true;
}

// En passant (§2.5): the opponent's move that produced this board from its predecessor on the
// same timeline was a double step of a pawn or brawn next to us.
template <GenType Type, bool Local, class Sink>
bool PieceWalk<Type, Local, Sink>::en_passant(int fy) {
    const Board& prev = mv.board(l, v - 1);
    for (int dx : {-1, 1}) {
        const int ex = x + dx;
        if (!on_board(ex, y + 2 * fy) || !on_board(ex, y + fy)) continue;
        const int capSq = make_square(ex, y), midSq = make_square(ex, y + fy),
                  origSq   = make_square(ex, y + 2 * fy);
        const Piece victim = b.piece_on(capSq);
        if (victim == NO_PIECE || color_of(victim) == us || !is_pawnlike(type_of(victim))) continue;
        if (prev.piece_on(origSq) != victim || !(prev.unmoved & square_bb(origSq))
            || !prev.empty(midSq) || !prev.empty(capSq))
            continue;
        if (!b.empty(origSq) || !b.empty(midSq)) continue;
        if (!emit(l, v, ex, y + fy, NO_PIECE, MF_CAPTURE | MF_ENPASSANT)) return false;
    }
    return true;
}

// Generates the moves of the piece on square sq of board b at (l, v) (PieceWalk): its walk
// family. Returns false if the sink stopped.
template <GenType Type, bool Local = false, class Sink>
bool gen_piece(const Multiverse& mv, const Board& b, int l, int v, int sq, Sink&& sink) {
    PieceWalk<Type, Local, std::remove_reference_t<Sink>> walk(mv, b, l, v, sq, sink);
    if (const std::uint8_t axesMask = rider_axes(walk.type())) return walk.riders(axesMask);
    if (const std::span<const Delta> leaps = leaps_of(walk.type()); !leaps.empty())
        return walk.leapers(leaps);
    if (is_pawnlike(walk.type())) return walk.pawns();
    return true;
}

bool tip_is_playable_by(const Multiverse& mv, int l, Color c) {
    return Color(mv.end_v(l) & 1) == c;
}

// Is the first piece along direction d (within the board) from (x, y) a piece of `by` that
// captures that many steps along it?
bool line_attacker_on_board(
    const Board& b, int width, int height, int x, int y, const Delta& d, Color by) {
    for (int k = 1;; ++k) {
        const int x2 = x + k * d.dx, y2 = y + k * d.dy;
        if (x2 < 0 || x2 >= width || y2 < 0 || y2 >= height) return false;
        const Piece p = b.piece_on(make_square(x2, y2));
        if (p == NO_PIECE) continue;
        return color_of(p) == by && captures_along(type_of(p), d.axes, k);
    }
}
} // namespace

bool attacked_on_board(const Board& b, int width, int height, int sq, Color by) {
    const int x = file_of(Square(sq)), y = rank_of(Square(sq));
    auto      at = [&](int x2, int y2) -> PieceType {
        if (x2 < 0 || x2 >= width || y2 < 0 || y2 >= height) return NO_PIECE_TYPE;
        const Piece p = b.piece_on(make_square(x2, y2));
        return p != NO_PIECE && color_of(p) == by ? type_of(p) : NO_PIECE_TYPE;
    };
    // The backward tables of geometry.h at dt = dl = 0.
    if (for_each_pawn_attacker(by, 0, 0, x, y, [&](int x2, int y2, bool brawnOnly) {
            const PieceType pt = at(x2, y2);
            return brawnOnly ? pt == BRAWN : is_pawnlike(pt);
        }))
        return true;
    if (const PlaneOffsets* knights = knight_leaps_by_tl(0, 0))
        for (int i = 0; i < knights->n; ++i)
            if (at(x - knights->xy[std::size_t(i)][0], y - knights->xy[std::size_t(i)][1])
                == KNIGHT)
                return true;
    for (const Delta& d : PlaneDirs)
        if (line_attacker_on_board(b, width, height, x, y, d, by)) return true;
    return false;
}

int royal_attacked_on_board(const Board& b, int width, int height, Color us) {
    for (Bitboard r = b.royals(us); r; r &= r - 1)
        if (attacked_on_board(b, width, height, std::countr_zero(r), ~us))
            return std::countr_zero(r);
    return -1;
}

namespace {
// [from][to]: the index into PlaneDirs of the line from one square to the other, or -1.
constexpr auto PlaneDirTo = [] {
    std::array<std::array<std::int8_t, 64>, 64> t{};
    for (int a = 0; a < 64; ++a)
        for (int b = 0; b < 64; ++b) {
            t[std::size_t(a)][std::size_t(b)] = -1;
            const int dx = b % 8 - a % 8, dy = b / 8 - a / 8;
            if (a == b || (dx != 0 && dy != 0 && dx != dy && dx != -dy)) continue;
            for (std::size_t i = 0; i < PlaneDirs.size(); ++i)
                if (PlaneDirs[i].dx == (dx > 0) - (dx < 0)
                    && PlaneDirs[i].dy == (dy > 0) - (dy < 0))
                    t[std::size_t(a)][std::size_t(b)] = std::int8_t(i);
        }
    return t;
}();
} // namespace

bool royal_attacked_on_board_after(
    const Board& before, const Board& after, int width, int height, Color us) {
    const Color    them    = ~us;
    const Bitboard royals  = after.royals(us);
    const Bitboard vacated = before.pieces() & ~after.pieces();
    if (royals != before.royals(us) || (after.pieces(them) & ~before.pieces(them)))
        return royal_attacked_on_board(after, width, height, us) >= 0;
    for (Bitboard r = royals; r; r &= r - 1) {
        const int rsq = std::countr_zero(r), x = file_of(Square(rsq)), y = rank_of(Square(rsq));
        for (Bitboard e = vacated; e; e &= e - 1) {
            const int dir = PlaneDirTo[std::size_t(rsq)][std::size_t(std::countr_zero(e))];
            if (dir >= 0
                && line_attacker_on_board(
                    after, width, height, x, y, PlaneDirs[std::size_t(dir)], them))
                return true;
        }
    }
    return false;
}

namespace {
// The moves of the pieces on the squares `from` of timeline l's last board, piece by piece, handed
// to sink(m) until it returns false; false if it did.
template <class Sink>
bool board_moves(const Multiverse& mv, int l, Bitboard from, Sink&& sink) {
    const int    v = mv.end_v(l);
    const Board& b = mv.board(l, v);
    for (Bitboard bb = b.pieces(Color(v & 1)) & from; bb; bb &= bb - 1)
        if (!gen_piece<ALL>(mv, b, l, v, std::countr_zero(bb), sink)) return false;
    return true;
}
} // namespace

void generate_board_moves(const Multiverse& mv, int l, std::vector<Move>& out, Bitboard from) {
    board_moves(mv, l, from, [&](const Move& m) {
        out.push_back(m);
        return true;
    });
}

bool find_board_move(
    const Multiverse& mv, int l, Bitboard from, absl::FunctionRef<bool(const Move&)> found) {
    return !board_moves(mv, l, from, [&](const Move& m) { return !found(m); });
}

bool restamp_action(Multiverse& mv, std::span<Move> action) {
    std::vector<MoveUndo> undo;
    bool                  ok = true;
    for (Move& m : action) {
        const int l     = m.from.l();
        bool      found = false;
        if (l >= mv.min_l() && l <= mv.max_l() && mv.end_v(l) == m.from.v())
            find_board_move(mv, l, square_bb(m.from.sq()), [&](const Move& g) {
                if (!(g == m)) return false;
                m     = g;
                found = true;
                return true;
            });
        if (!found) {
            ok = false;
            break;
        }
        do_action(mv, {&m, 1}, undo);
    }
    undo_action(mv, undo);
    return ok;
}

bool find_local_move(const Multiverse& mv, const Board& b, int l, int v, Color us, Bitboard from,
    absl::FunctionRef<bool(const Move&)> found) {
    for (Bitboard bb = b.pieces(us) & from; bb; bb &= bb - 1)
        if (!gen_piece<ALL, true>(
                mv, b, l, v, std::countr_zero(bb), [&](const Move& m) { return !found(m); }))
            return true;
    return false;
}

void generate_moves(const Multiverse& mv, Color us, std::vector<Move>& out) {
    for (int l = mv.min_l(); l <= mv.max_l(); ++l)
        if (tip_is_playable_by(mv, l, us)) generate_board_moves(mv, l, out);
}

namespace {
// Every capture of a royal of us from the tips of ~us, or the first. With `filtered`, a tip is
// generated only when the fast test finds an attack from it (most tips have none, and generating
// every capture of every piece costs much more than the test).
template <bool StopAtFirst, bool Filtered>
bool scan_royal_attacks(const Multiverse& mv, Color us, std::vector<Move>* out) {
    const Color them  = ~us;
    bool        found = false;
    for (int l = mv.min_l(); l <= mv.max_l(); ++l) {
        if (!tip_is_playable_by(mv, l, them)) continue;
        if (Filtered && !tip_attacks_royal(mv, l, us)) continue;
        const int    v = mv.end_v(l);
        const Board& b = mv.board(l, v);
        for (Bitboard bb = b.pieces(them); bb; bb &= bb - 1) {
            const int  sq = std::countr_zero(bb);
            const bool go = gen_piece<CAPTURES>(mv, b, l, v, sq, [&](const Move& m) {
                const Piece t = mv.board(m.to.l(), m.to.v()).piece_on(m.to.sq());
                if (!is_royal(type_of(t))) return true;
                found = true;
                if (out) out->push_back(m);
                return !StopAtFirst;
            });
            if (!go) return true;
        }
    }
    return found;
}
} // namespace

bool royal_capture_from_board(const Multiverse& mv, int l, int v, Color us, Move* found) {
    const Board& b   = mv.board(l, v);
    bool         hit = false;
    for (Bitboard bb = b.pieces(~us); bb && !hit; bb &= bb - 1)
        gen_piece<CAPTURES>(mv, b, l, v, std::countr_zero(bb), [&](const Move& m) {
            const Board& target = m.is_physical() ? b : mv.board(m.to.l(), m.to.v());
            if (!is_royal(type_of(target.piece_on(m.to.sq())))) return true;
            if (found) *found = m;
            hit = true;
            return false;
        });
    return hit;
}

bool royal_attacked_reference(const Multiverse& mv, Color us) {
    return scan_royal_attacks<true, false>(mv, us, nullptr);
}

void royal_attacks(const Multiverse& mv, Color us, std::vector<Move>& out) {
    scan_royal_attacks<false, true>(mv, us, &out);
}

namespace {
// Calls f(us) with every mandatory board passed (active timelines whose last board is at the
// present, §5.4), us = the side to move; restores mv.
template <class F>
auto with_mandatory_passed(Multiverse& mv, F f) {
    const int   present = mv.present_v();
    const Color us      = Color(present & 1);
    // Pass every mandatory board: active timelines whose last board is at the present.
    MoveUndo undo;
    mv.make_passes(present, undo);
    const auto result = f(us);
    mv.unmake_passes(undo);
    return result;
}
} // namespace

bool in_check_at_turn_start(Multiverse& mv) {
    return with_mandatory_passed(mv, [&](Color us) { return royal_attacked(mv, us); });
}

void turn_start_checks(Multiverse& mv, std::vector<Move>& out) {
    with_mandatory_passed(mv, [&](Color us) {
        royal_attacks(mv, us, out);
        return true;
    });
}

} // namespace fived::movegen
