#include "movegen/mate.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <utility>

#include "movegen/geometry.h"
#include "movegen/movegen.h"

namespace fived::movegen {

void MateInOneSearch::attack_squares(const Multiverse& mv) {
    const Color us = mv.to_move(), them = ~us;
    const int   minL = mv.min_l(), maxL = mv.max_l();
    const int   w = mv.width(), h = mv.height();
    const int   nL = maxL - minL + 1;
    squares.assign(std::size_t(nL), 0);
    branchSquares.assign(std::size_t(nL), 0);
    // The boards an action may create on timeline ℓ: end + 1 (the mover's move) and end + 2
    // (the defender's pass); an attack runs over boards of the attacker's colour only.
    auto created = [&](int l, int v) {
        return l >= minL && l <= maxL && (v == mv.end_v(l) + 1 || v == mv.end_v(l) + 2)
            && Color(v & 1) == us;
    };
    auto on = [&](int x, int y) { return x >= 0 && x < w && y >= 0 && y < h; };
    // From a royal of the defender on (l, v, x, y), every unit direction and leap: the squares
    // of created boards it reaches. A rider passes over existing boards (fixed for every action:
    // boards never change) while their square is empty, and over created boards whatever they
    // hold (their contents are what the cut compares); it stops where no board can be.
    auto from = [&](int l, int v, int x, int y) {
        for (const Delta& d : UnitDirs)
            for (int j = 1;; ++j) {
                const int ll = l + j * d.dl, vv = v + 2 * j * d.dt;
                const int xx = x + j * d.dx, yy = y + j * d.dy;
                if (!on(xx, yy) || vv < 0) break;
                if (created(ll, vv)) {
                    squares[std::size_t(ll - minL)] |= square_bb(make_square(xx, yy));
                    continue;
                }
                const Board* b = mv.board_if(ll, vv);
                if (!b || !b->empty(make_square(xx, yy))) break;
            }
        // Knight leaps (a king's or a pawn's steps are the riders' first step).
        for (const Delta& d : KnightLeaps) {
            const int ll = l + d.dl, vv = v + 2 * d.dt;
            const int xx = x + d.dx, yy = y + d.dy;
            if (on(xx, yy) && created(ll, vv))
                squares[std::size_t(ll - minL)] |= square_bb(make_square(xx, yy));
        }
    };
    // The royals: on every existing board of the attacker's colour, and on the boards an action
    // may create (where the last board's royals stand: an action captures no royal).
    Bitboard anyRoyal = 0;
    for (int l = minL; l <= maxL; ++l) {
        for (int v = mv.start_v(l); v <= mv.end_v(l); ++v) {
            const Bitboard r = mv.board(l, v).royals(them);
            anyRoyal |= r;
            if (Color(v & 1) != us) continue;
            for (Bitboard b = r; b; b &= b - 1) {
                const int sq = std::countr_zero(b);
                from(l, v, sq & 7, sq >> 3);
            }
        }
        const int end = mv.end_v(l);
        for (int v = end + 1; v <= end + 2; ++v) {
            if (Color(v & 1) != us) continue;
            for (Bitboard b = mv.board(l, end).royals(them); b; b &= b - 1) {
                const int sq = std::countr_zero(b);
                from(l, v, sq & 7, sq >> 3);
            }
        }
    }
    // An action that creates timelines: their boards copy existing ones, so royals may stand on
    // any royal square of any board, at any time. Lines from there: k timelines away, offset k
    // in x and y (or a knight's leap), at any board time.
    int playable = 0;
    for (int l = minL; l <= maxL; ++l)
        playable += Color(mv.end_v(l) & 1) == us;
    for (int l = minL; l <= maxL; ++l) {
        Bitboard& to = branchSquares[std::size_t(l - minL)];
        to           = squares[std::size_t(l - minL)];
        for (int n = 1; n <= playable; ++n)
            for (const int lNew : {maxL + n, minL - n})
                for (Bitboard b = anyRoyal; b; b &= b - 1) {
                    const int sq = std::countr_zero(b), rx = sq & 7, ry = sq >> 3;
                    const int k = std::abs(l - lNew);
                    to |= line_sources(sq, k) & mv.valid_squares();
                    for (const Delta& d : KnightLeaps)
                        if (std::abs(d.dl) == k && on(rx + d.dx, ry + d.dy))
                            to |= square_bb(make_square(rx + d.dx, ry + d.dy));
                }
    }
}

bool MateInOneSearch::for_each_mate(Multiverse&    mv,
    absl::FunctionRef<bool(std::span<const Move>)> mate, absl::FunctionRef<bool()> tested) {
    using Verdict = HypercuboidSearch::Verdict;
    stats_        = Stats{};
    // The quiet cut pays where actions multiply: with at least QuietCutBoards playable boards.
    // Below, the squares cost more than the actions they would save (measured on the suite's
    // small positions), and each quiet action is left out alone.
    int playable = 0;
    for (int l = mv.min_l(); l <= mv.max_l(); ++l)
        playable += Color(mv.end_v(l) & 1) == mv.to_move();
    const bool quietCut = playable >= QuietCutBoards;
    if (quietCut) attack_squares(mv);
    const int timelines = mv.timeline_count();
    return attacker.for_each_cut(
        mv,
        [&](std::span<const Move> a, std::vector<int>& keep) {
            if (!tested()) return Verdict::STOP;
            ++stats_.actions;
            // Only an action that gives check can mate; the cheap test first (the existence
            // test builds every board's moves). One that does not leaves out every action
            // whose boards agree with its own on the squares of the lines to the defender's
            // royals (attack_squares()): none of those gives check either.
            if (!in_check_at_turn_start(mv)) {
                if (!quietCut) return Verdict::NEXT;
                ++stats_.quietCuts;
                return mv.timeline_count() > timelines ? Verdict::CUT_ON_ALT_SQUARES
                                                       : Verdict::CUT_ON_SQUARES;
            }
            if (defender.exists(mv, &escape)) {
                for (const Move& m : escape) {
                    const int lo = std::min(m.from.l(), m.to.l());
                    const int hi = std::max(m.from.l(), m.to.l());
                    for (int l = lo; l <= hi; ++l)
                        keep.push_back(l);
                }
                ++stats_.cuts;
                return Verdict::CUT;
            }
            return mate(a) ? Verdict::NEXT : Verdict::STOP;
        },
        squares, mv.min_l(), branchSquares);
}

bool MateInOneSearch::find(Multiverse& mv, std::vector<Move>* key) {
    bool found = false;
    for_each_mate(
        mv,
        [&](std::span<const Move> a) {
            if (key) key->assign(a.begin(), a.end());
            found = true;
            return false;
        },
        [] { return true; });
    return found;
}

} // namespace fived::movegen
