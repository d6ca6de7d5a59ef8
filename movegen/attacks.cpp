// The fast attack test: is a royal piece of `us` attacked (RULES.md §5.2)?
//
// Attackers stand only on the last boards of ~us's colour ("tips"). A piece on tip A at
// (la, va) can capture onto board K at (lk, vk) only if the displacement in (ℓ, T) fits some
// movement: riders and kings need dl = 0, dt = 0 or |dl| = |dt| (a straight line through the
// boards), knights and pawns need |dl|, |dt| ≤ 2. A ride of k steps crosses the k-1 boards between
// A and K, which must all exist. So for each tip we visit its own past (rides along T), the boards
// up to two timelines and two turns away, and farther only the boards along each of the six
// lines through the other timelines until the first missing board; and we test only the pairs
// (attacker piece on A, royal square on K): the x-y displacement must be 0 or ±k per axis, then
// the path squares on the intermediate boards must be empty.
// The slow reference (every capture of every piece on every tip) is royal_attacked_reference();
// tests compare the two.

#include <algorithm>
#include <bit>
#include <cstdlib>

#include "movegen/geometry.h"
#include "movegen/movegen.h"

namespace fived::movegen {

namespace {

constexpr int sgn(int v) { return (v > 0) - (v < 0); }

// Forward steps worth one backward board test (attacks_from_tip).
constexpr int ForwardFactor = 1;

// Is the path from square a of board (la, va), k steps along (ux, uy, ut, ul), clear?
bool path_clear(
    const Multiverse& mv, int la, int va, int a, int k, int ux, int uy, int ut, int ul) {
    const int ax = file_of(Square(a)), ay = rank_of(Square(a));
    for (int j = 1; j < k; ++j) {
        const Board* b = mv.board_if(la + j * ul, va + 2 * j * ut);
        if (!b || !b->empty(make_square(ax + j * ux, ay + j * uy))) return false;
    }
    return true;
}

enum PairResult {
    NO_ATTACK,
    RIDE, // along the line of boards between A and K
    LEAP, // knight, pawn or a capture within one board: no board in between
};

// Does some piece of `them` on tip A (at la, va) capture onto a royal of `us` on board K, which
// lies dl timelines and dt turns from A? Works from each royal square r backwards: for each
// movement that fits (dl, dt), the attacker square is r minus the x-y part of the move.
// When info is given, the attack found is described in its path fields (from, to, unit, k).
PairResult pair_attacked(const Multiverse& mv, const Board& A, int la, int va, const Board& K,
    int dl, int dt, Color us, AttackInfo* info) {
    const Color    them   = ~us;
    const Bitboard royals = K.royals(us);
    if (!royals) return NO_ATTACK;
    const int W = mv.width(), H = mv.height();
    if (dl == 0 && dt == 0) {
        const int r = royal_attacked_on_board(A, W, H, us);
        if (r < 0) return NO_ATTACK;
        if (info) info->set_path(-1, r, 0, 0, 0, 0, 0, true);
        return LEAP;
    }
    const int      adl = std::abs(dl), adt = std::abs(dt);
    const Bitboard theirs   = A.pieces(them);
    auto           piece_at = [&](int x, int y) -> PieceType {
        if (x < 0 || x >= W || y < 0 || y >= H) return NO_PIECE_TYPE;
        const int s = make_square(x, y);
        return (theirs & square_bb(s)) ? type_of(A.piece_on(s)) : NO_PIECE_TYPE;
    };
    for (Bitboard rb = royals; rb; rb &= rb - 1) {
        const int r  = std::countr_zero(rb);
        const int rx = file_of(Square(r)), ry = rank_of(Square(r));
        // 1. Riders and kings along a straight line through the boards: their pieces on the
        //    ring of the k-th step back (the line's x-y part is 0 or ±k per axis), in descending
        //    square order (the first attack found names the conflict the action search learns).
        if (dl == 0 || dt == 0 || adl == adt) {
            const int k  = std::max(adl, adt);
            const int ut = sgn(dt), ul = sgn(dl);
            for (Bitboard c = theirs & line_sources(r, k); c;) {
                const int from = 63 - std::countl_zero(c);
                c ^= square_bb(from);
                const int ux    = sgn(rx - file_of(Square(from))),
                          uy    = sgn(ry - rank_of(Square(from)));
                const int  axes = (ux != 0) + (uy != 0) + (ut != 0) + (ul != 0);
                const bool fits = captures_along(type_of(A.piece_on(from)), axes, k);
                if (fits && path_clear(mv, la, va, from, k, ux, uy, ut, ul)) {
                    if (info) info->set_path(from, r, ux, uy, ut, ul, k, false);
                    // A ride of two or more steps crosses boards whose squares matter.
                    return k >= 2 ? RIDE : LEAP;
                }
            }
        }
        // 2. Knights and 3. pawns and brawns: the backward tables of geometry.h.
        auto leap = [&](int x, int y) {
            if (info) info->set_path(make_square(x, y), r, 0, 0, 0, 0, 0, false);
            return LEAP;
        };
        const PlaneOffsets* knights = knight_leaps_by_tl(dt, dl);
        if (knights && (A.pieces(them, KNIGHT) & knight_sources(r, dt, dl)))
            for (int i = 0; i < knights->n; ++i) {
                const int x = rx - knights->xy[std::size_t(i)][0];
                const int y = ry - knights->xy[std::size_t(i)][1];
                if (piece_at(x, y) == KNIGHT) return leap(x, y);
            }
        int px = 0, py = 0;
        if (A.pawnlikes(them)
            && for_each_pawn_attacker(them, dt, dl, rx, ry, [&](int x, int y, bool brawnOnly) {
                   const PieceType pt = piece_at(x, y);
                   px                 = x;
                   py                 = y;
                   return brawnOnly ? pt == BRAWN : is_pawnlike(pt);
               }))
            return leap(px, py);
    }
    return NO_ATTACK;
}

bool record(AttackInfo* info, PairResult r, int la, int va, int lk, int vk) {
    if (r == NO_ATTACK) return false;
    if (info) {
        info->la   = la;
        info->va   = va;
        info->lk   = lk;
        info->vk   = vk;
        info->ride = r == RIDE;
    }
    return true;
}

// The attack found by generating a capture forward, described as pair_attacked() describes it.
void describe_capture(const Multiverse& mv, const Move& m, AttackInfo& info) {
    info.la      = m.from.l();
    info.va      = m.from.v();
    info.lk      = m.to.l();
    info.vk      = m.to.v();
    const int dl = info.lk - info.la, dt = (info.vk - info.va) / 2;
    if (dl == 0 && dt == 0) {
        info.ride = false;
        info.set_path(-1, m.to.sq(), 0, 0, 0, 0, 0, true);
        return;
    }
    const PieceType pt = type_of(mv.board(info.la, info.va).piece_on(m.from.sq()));
    const int       dx = m.to.x() - m.from.x(), dy = m.to.y() - m.from.y();
    if (rider_axes(pt) || steps_like_king(pt)) {
        const int k = std::max({std::abs(dx), std::abs(dy), std::abs(dt), std::abs(dl)});
        info.ride   = k >= 2;
        info.set_path(m.from.sq(), m.to.sq(), sgn(dx), sgn(dy), sgn(dt), sgn(dl), k, false);
    } else {
        info.ride = false;
        info.set_path(m.from.sq(), m.to.sq(), 0, 0, 0, 0, 0, false);
    }
}

// attacks_from_tip() by generating the tip's captures (kept out of line: the backward scan is the
// hot loop of dense positions).
[[gnu::noinline]] bool attacks_from_tip_forward(
    const Multiverse& mv, int la, int va, Color us, AttackInfo* info) {
    Move m;
    if (!royal_capture_from_board(mv, la, va, us, &m)) return false;
    if (info) describe_capture(mv, m, *info);
    return true;
}

// Attacks by the pieces of tip (la, va) onto any royal of us; without those within the tip
// itself if !self (the backward scan skips them; the forward one finds every capture).
bool attacks_from_tip(const Multiverse& mv, int la, int va, Color us, AttackInfo* info,
    bool self = true, const LineRuns* known = nullptr) {
    const Board& A = mv.board(la, va);
    if (!A.pieces(~us)) return false;
    // Forward when the tip's few pieces take fewer steps than the boards looked at backwards
    // (its own past, and up to about six boards per timeline along the lines and near it, each
    // a pair test of ~10 steps).
    // A tip alone on its timeline (a new one, at the edge of the multiverse) has no past and
    // usually no line of boards next to it: backwards is a few lookups, whatever its pieces.
    const int bound   = va == mv.start_v(la)
          ? -1
          : ForwardFactor * (6 * mv.timeline_count() + (va - mv.start_v(la)) / 2 + 1);
    int       forward = 0;
    for (Bitboard bb = A.pieces(~us); bb && forward <= bound; bb &= bb - 1)
        forward += capture_directions(type_of(A.piece_on(std::countr_zero(bb))));
    if (forward <= bound) return attacks_from_tip_forward(mv, la, va, us, info);
    auto pair = [&](const Board& K, int dl, int dt) {
        return record(
            info, pair_attacked(mv, A, la, va, K, dl, dt, us, info), la, va, la + dl, va + 2 * dt);
    };
    // Timelines in ascending ℓ (the order decides which attack is reported, and with it the
    // searches' cuts), only as far as some board can be reached.
    const LineRuns runs = known ? *known : LineRuns(mv, la, va);
    const int      lo   = std::max(mv.min_l(), la - runs.reach(false));
    const int      hi   = std::min(mv.max_l(), la + runs.reach(true));
    for (int lk = lo; lk <= hi; ++lk) {
        const int dl = lk - la, adl = std::abs(dl);
        if (dl == 0) {
            // The tip itself and its own past (rides along T).
            for (int vk = self ? va : va - 2; vk >= mv.start_v(la); vk -= 2)
                if (pair(mv.board(la, vk), 0, (vk - va) / 2)) return true;
        } else if (adl <= 2) {
            // dt ∈ {0, ±1, ±2}: lines, knight and pawn offsets.
            for (const int dt : {0, 1, -1, 2, -2})
                if (const Board* K = mv.board_if(lk, va + 2 * dt); K && pair(*K, dl, dt))
                    return true;
        } else {
            // Farther only rides, along a line with no board missing up to the target.
            for (const int dt : {0, adl, -adl})
                if (runs.toward(dl, dt) >= adl && pair(mv.board(lk, va + 2 * dt), dl, dt))
                    return true;
        }
    }
    return false;
}

} // namespace

bool tip_attacks_royal(const Multiverse& mv, int l, Color us) {
    const int v = mv.end_v(l);
    return Color(v & 1) != us && attacks_from_tip(mv, l, v, us, nullptr);
}

bool royal_attacked(const Multiverse& mv, Color us) {
    for (int la = mv.min_l(); la <= mv.max_l(); ++la)
        if (tip_attacks_royal(mv, la, us)) return true;
    return false;
}

LineRuns::LineRuns(const Multiverse& mv, int l, int v) {
    for (int up = 0; up < 2; ++up)
        for (int ut = -1; ut <= 1; ++ut) {
            const int ul = up ? 1 : -1;
            int       r  = 0;
            while (mv.board_exists(l + (r + 1) * ul, v + 2 * (r + 1) * ut))
                ++r;
            len[up][ut + 1] = r;
        }
}

int LineRuns::window() const {
    int longest = 0;
    for (const auto& side : len)
        for (const int r : side)
            longest = std::max(longest, r);
    return std::max(2, longest + 1);
}

bool attacked_via_board(const Multiverse& mv, Color us, int ln, AttackInfo* info, bool acrossOnly,
    const LineRuns* known) {
    const Color them = ~us;
    const int   vn   = mv.end_v(ln);
    if (Color(vn & 1) != them) return false;
    const LineRuns runs = known ? *known : LineRuns(mv, ln, vn);
    // (a) The new board as the attacker's board.
    if (attacks_from_tip(mv, ln, vn, us, info, !acrossOnly, &runs)) return true;
    const Board& N         = mv.board(ln, vn);
    const bool   hasRoyals = N.royals(us) != 0;
    // The tips in ascending ℓ, as far as some tip can reach N: beyond two timelines and two
    // turns only rides, along a line with no board missing between A and N.
    const int lo = std::max(mv.min_l(), ln - runs.reach(false));
    const int hi = std::min(mv.max_l(), ln + runs.reach(true));
    for (int la = lo; la <= hi; ++la) {
        const int va = mv.end_v(la);
        if (la == ln || Color(va & 1) != them) continue;
        const Board& A = mv.board(la, va);
        if (!A.pieces(them)) continue;
        const int  dl = ln - la, dt = (vn - va) / 2;
        const int  k    = std::max(std::abs(dl), std::abs(dt));
        const bool line = dt == 0 || std::abs(dl) == std::abs(dt);
        if (k > 2 && !(line && runs.toward(-dl, -dt) >= k)) continue;
        // (b) The new board as the royal's board.
        if (hasRoyals
            && record(info, pair_attacked(mv, A, la, va, N, dl, dt, us, info), la, va, ln, vn))
            return true;
        // (c) The new board on the path of a ride from A to a board beyond it.
        if (!line) continue;
        const int ul = sgn(dl), ut = sgn(dt);
        for (int j = k + 1;; ++j) {
            const Board* K = mv.board_if(la + j * ul, va + 2 * j * ut);
            if (!K) break;
            if (record(info, pair_attacked(mv, A, la, va, *K, j * ul, j * ut, us, info), la, va,
                    la + j * ul, va + 2 * j * ut))
                return true;
        }
    }
    return false;
}

} // namespace fived::movegen
