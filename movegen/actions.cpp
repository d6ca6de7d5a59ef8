#include "movegen/actions.h"

#include <algorithm>
#include <cassert>

#include "movegen/movegen.h"

namespace fived::movegen {

ActionSearch::ActionSearch(Multiverse& m) : mv(m) {
    presentV    = mv.present_v();
    us          = Color(presentV & 1);
    minL0       = mv.min_l();
    const int n = mv.timeline_count();
    state.assign(std::size_t(n), PASSED);
    startEnd.resize(std::size_t(n));
    for (int l = mv.min_l(); l <= mv.max_l(); ++l) {
        startEnd[std::size_t(l - minL0)] = mv.end_v(l);
        if (Color(mv.end_v(l) & 1) != us) continue;
        playable.push_back(l);
        mandatory.push_back(mv.is_active(l) && mv.end_v(l) == presentV);
        state[std::size_t(l - minL0)] = OPEN;
        moveBegin.push_back(allMoves.size());
        generate_board_moves(mv, l, allMoves);
        moveEnd.push_back(allMoves.size());
    }
    jumpsFrom.assign(playable.size() + 1, 0);
    for (std::size_t i = playable.size(); i-- > 0;) {
        bool jump = false;
        for (std::size_t k = moveBegin[i]; k < moveEnd[i] && !jump; ++k)
            jump = !allMoves[k].is_physical();
        jumpsFrom[i] = jump || jumpsFrom[i + 1];
    }
    undoStack.reserve(4 * playable.size() + 8);
}

bool ActionSearch::attacked() const { return royal_attacked(mv, us); }

bool ActionSearch::present_passed() const { return Color(mv.present_v() & 1) != us; }

bool ActionSearch::for_each(absl::FunctionRef<bool(std::span<const Move>)> visit) {
    visitor = &visit;
    // An attack standing before any move can never be removed (see the header).
    if (attacked()) return true;
    const bool r = dfs(0);
    visitor      = nullptr;
    return r;
}

std::uint64_t ActionSearch::count(std::uint64_t cap) {
    std::uint64_t n = 0;
    if (cap == 0) return 0;
    for_each([&](std::span<const Move>) { return ++n < cap; });
    return n;
}

bool ActionSearch::exists() { return count(1) == 1; }

// Returns false iff the visitor asked to stop.
bool ActionSearch::dfs(std::size_t i) {
    ++nodes_;
    if (i == playable.size()) return leaf();
    const int      p       = playable[i];
    TimelineState& myState = state[std::size_t(p - minL0)];
    if (myState == RECEIVED) return dfs(i + 1);
    assert(myState == OPEN);

    // 1. Pass. A passed mandatory board keeps the present on the mover unless some branching
    //    jump rewinds it, so it needs a jump from this or a later timeline, or one deferred.
    if (!mandatory[i] || jumpsFrom[i + 1] || !deferred.empty()) {
        myState       = PASSED;
        const bool go = dfs(i + 1);
        myState       = OPEN;
        if (!go) return false;
    }

    // 2. Moves from this board.
    for (std::size_t k = moveBegin[i]; k < moveEnd[i]; ++k) {
        const Move& m = allMoves[k];
        undoStack.emplace_back();
        if (m.is_physical()) {
            mv.make_move(m, undoStack.back());
            myState = MOVED;
            others.push_back(m);
            bool go = true;
            if (!attacked()) go = dfs(i + 1);
            others.pop_back();
            myState = OPEN;
            mv.unmake_move(undoStack.back());
            undoStack.pop_back();
            if (!go) return false;
            continue;
        }
        const int      l2          = m.to.l();
        const bool     isTip       = m.to.v() == startEnd[std::size_t(l2 - minL0)];
        TimelineState& targetState = state[std::size_t(l2 - minL0)];
        // 2a. Hop: a non-branching jump onto a playable board that has not been used.
        if (isTip && (targetState == OPEN || targetState == PASSED)) {
            const TimelineState saved = targetState;
            mv.make_move(m, undoStack.back());
            myState     = MOVED;
            targetState = RECEIVED;
            others.push_back(m);
            bool go = true;
            if (!attacked()) go = dfs(i + 1);
            others.pop_back();
            targetState = saved;
            myState     = OPEN;
            mv.unmake_move(undoStack.back());
            if (!go) {
                undoStack.pop_back();
                return false;
            }
        }
        // 2b. Branching jump: onto a historical board, or onto a last board that is replaced
        //     in this action (checked at the leaf, when every timeline is decided).
        if (!isTip || targetState != PASSED) {
            mv.make_departure(m, undoStack.back());
            myState = DEPARTED;
            deferred.push_back({m, isTip});
            bool go = true;
            if (!attacked()) go = dfs(i + 1);
            deferred.pop_back();
            myState = OPEN;
            mv.unmake_move(undoStack.back());
            if (!go) {
                undoStack.pop_back();
                return false;
            }
        }
        undoStack.pop_back();
    }
    return true;
}

bool ActionSearch::leaf() {
    if (deferred.empty()) {
        if (!present_passed()) return true;
        out = others;
    } else {
        // Every deferred jump onto a start-of-turn last board needs that timeline replaced
        // before the jump executes: by a non-deferred move, or by an earlier deferred departure.
        for (const Deferred& d : deferred)
            if (d.ontoTip && state[std::size_t(d.move.to.l() - minL0)] == PASSED) return true;
        perm.resize(deferred.size());
        for (std::size_t k = 0; k < perm.size(); ++k)
            perm[k] = int(k);
        do {
            bool valid = true;
            for (std::size_t a = 0; a < perm.size() && valid; ++a) {
                const Deferred& d = deferred[std::size_t(perm[a])];
                if (!d.ontoTip || state[std::size_t(d.move.to.l() - minL0)] != DEPARTED) continue;
                // The target's timeline is replaced only by a deferred departure: it must come
                // earlier in the order.
                valid = false;
                for (std::size_t b = 0; b < a; ++b)
                    if (deferred[std::size_t(perm[b])].move.from.l() == d.move.to.l()) valid = true;
            }
            if (!valid) continue;
            const std::size_t base  = undoStack.size();
            bool              legal = true;
            for (int idx : perm) {
                undoStack.emplace_back();
                mv.make_arrival(deferred[std::size_t(idx)].move, undoStack.back());
                if (attacked()) {
                    legal = false;
                    break;
                }
            }
            legal   = legal && present_passed();
            bool go = true;
            if (legal) {
                out = others;
                std::sort(out.begin(), out.end(), [&](const Move& a, const Move& b) {
                    return us == WHITE ? a.to.l() < b.to.l() : a.to.l() > b.to.l();
                });
                for (int idx : perm)
                    out.push_back(deferred[std::size_t(idx)].move);
                go = (*visitor)(std::span<const Move>(out));
            }
            while (undoStack.size() > base) {
                mv.unmake_move(undoStack.back());
                undoStack.pop_back();
            }
            if (!go) return false;
        } while (std::next_permutation(perm.begin(), perm.end()));
        return true;
    }
    std::sort(out.begin(), out.end(), [&](const Move& a, const Move& b) {
        return us == WHITE ? a.to.l() < b.to.l() : a.to.l() > b.to.l();
    });
    return (*visitor)(std::span<const Move>(out));
}

std::uint64_t count_legal_actions(Multiverse& mv, std::uint64_t cap) {
    ActionSearch s(mv);
    return s.count(cap);
}

bool exists_legal_action(Multiverse& mv) {
    ActionSearch s(mv);
    return s.exists();
}

Verdict verdict(Multiverse& mv) {
    if (exists_legal_action(mv)) return Verdict::Ongoing;
    return in_check_at_turn_start(mv) ? Verdict::Checkmate : Verdict::Stalemate;
}

std::uint64_t perft(Multiverse& mv, int depth) {
    if (depth <= 0) return 1;
    ActionSearch s(mv);
    if (depth == 1) return s.count();
    std::uint64_t total = 0;
    // The visitor runs with the action made on mv.
    s.for_each([&](std::span<const Move>) {
        total += perft(mv, depth - 1);
        return true;
    });
    return total;
}

} // namespace fived::movegen
