#include "movegen/actions.h"

#include <algorithm>
#include <bit>
#include <cassert>

#include "movegen/movegen.h"

namespace fived::movegen {

ActionSearch::ActionSearch(Multiverse& m, bool reference) : mv(m), referenceCheck(reference) {
    presentV    = mv.present_v();
    us          = Color(presentV & 1);
    minL0       = mv.min_l();
    const int n = mv.timeline_count();
    state.assign(std::size_t(n), PASSED);
    startEnd.resize(std::size_t(n));
    for (int l = mv.min_l(); l <= mv.max_l(); ++l)
        startEnd[std::size_t(l - minL0)] = mv.end_v(l);
    if (referenceCheck ? royal_attacked_reference(mv, us) : royal_attacked(mv, us)) {
        rootAttacked = true; // no action can remove it; nothing to enumerate
        return;
    }

    // 1. Generate each playable board's moves and keep the ones that do not, on their own,
    //    create an attack: an attack never goes away within an action, so such a move is in no
    //    legal action. A jump is kept as a hop and/or as a branching departure.
    struct Row {
        int         l;
        bool        mandatory;
        std::size_t begin, end;
        int         options;
    };
    std::vector<Row>  rows;
    std::vector<Move> gen;
    for (int l = mv.min_l(); l <= mv.max_l(); ++l) {
        if (Color(mv.end_v(l) & 1) != us) continue;
        state[std::size_t(l - minL0)] = OPEN;
        gen.clear();
        generate_board_moves(mv, l, gen);
        Row row{l, mv.is_active(l) && mv.end_v(l) == presentV, allMoves.size(), 0, 1};
        for (const Move& mm : gen) {
            MoveUndo     u;
            std::uint8_t kinds = 0;
            if (mm.is_physical()) {
                mv.make_move(mm, u);
                if (!attacked_after(u)) kinds |= KIND_PHYSICAL;
                mv.unmake_move(u);
            } else {
                const int tl = mm.to.l();
                if (mm.to.v() == mv.end_v(tl) && Color(mv.end_v(tl) & 1) == us) {
                    mv.make_move(mm, u);
                    if (!attacked_after(u)) kinds |= KIND_HOP;
                    mv.unmake_move(u);
                }
                mv.make_departure(mm, u);
                if (!attacked_after(u)) kinds |= KIND_BRANCH;
                mv.unmake_move(u);
            }
            if (!kinds) continue;
            allMoves.push_back(mm);
            moveKinds.push_back(kinds);
            row.options += std::popcount(kinds);
        }
        row.end = allMoves.size();
        rows.push_back(row);
    }

    // 2. Decide the mandatory boards first, then the most constrained timelines (fewest options),
    //    so that a board with no good move fails before the others multiply, and a passed
    //    mandatory board is known early; ties in ℓ order, for determinism.
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        if (a.mandatory != b.mandatory) return a.mandatory;
        return a.options < b.options;
    });
    std::vector<int> position(std::size_t(n), -1);
    for (const Row& r : rows) {
        position[std::size_t(r.l - minL0)] = int(playable.size());
        playable.push_back(r.l);
        mandatory.push_back(r.mandatory);
        moveBegin.push_back(r.begin);
        moveEnd.push_back(r.end);
    }

    // 3. For the pass rule. A passed mandatory board leaves the present on the mover unless a
    //    later timeline hops onto it, or a branching jump rewinds the present: its new timeline
    //    starts before the present (target v < present), or it reactivates a timeline that ends
    //    before the present (possible only if such an inactive timeline exists).
    bool inactiveBehind = false;
    for (int l = mv.min_l(); l <= mv.max_l(); ++l)
        inactiveBehind |= !mv.is_active(l) && mv.end_v(l) < presentV;
    for (std::size_t k = 0; k < allMoves.size(); ++k)
        if ((moveKinds[k] & KIND_BRANCH) && (inactiveBehind || allMoves[k].to.v() < presentV))
            moveKinds[k] |= KIND_REWIND;
    lastHopSource.assign(playable.size(), -1);
    rewindFrom.assign(playable.size() + 1, 0);
    for (std::size_t i = playable.size(); i-- > 0;) {
        bool rewind = false;
        for (std::size_t k = moveBegin[i]; k < moveEnd[i]; ++k) {
            rewind |= (moveKinds[k] & KIND_REWIND) != 0;
            if (moveKinds[k] & KIND_HOP) {
                const int target = position[std::size_t(allMoves[k].to.l() - minL0)];
                lastHopSource[std::size_t(target)] =
                    std::max(lastHopSource[std::size_t(target)], int(i));
            }
        }
        rewindFrom[i] = rewind || rewindFrom[i + 1];
    }
    // 4. For the optimistic present test: per position whether it can change its board at all,
    //    and per suffix how many positions can still branch and the lowest branch target.
    posOf = std::move(position);
    canMove.assign(playable.size(), 0);
    branchersFrom.assign(playable.size() + 1, 0);
    minTargetFrom.assign(playable.size() + 1, INT32_MAX);
    for (std::size_t i = playable.size(); i-- > 0;) {
        bool branch    = false;
        int  minTarget = INT32_MAX;
        for (std::size_t k = moveBegin[i]; k < moveEnd[i]; ++k) {
            canMove[i] = 1;
            if (moveKinds[k] & KIND_BRANCH) {
                branch    = true;
                minTarget = std::min(minTarget, allMoves[k].to.v());
            }
        }
        branchersFrom[i] = branchersFrom[i + 1] + (branch ? 1 : 0);
        minTargetFrom[i] = std::min(minTarget, minTargetFrom[i + 1]);
    }
    whiteCreated = mv.max_l() - mv.init_max_l();
    blackCreated = mv.init_min_l() - mv.min_l();
    undoStack.reserve(4 * playable.size() + 8);
}

bool ActionSearch::attacked_after(const MoveUndo& u) const {
    if (referenceCheck) return royal_attacked_reference(mv, us);
    // The boards a move adds are the last boards of the timelines its undo record names.
    if (attacked_via_board(mv, us, u.timelineA)) return true;
    return u.hasB && attacked_via_board(mv, us, u.timelineB);
}

bool ActionSearch::present_passed() const { return Color(mv.present_v() & 1) != us; }

bool ActionSearch::for_each(absl::FunctionRef<bool(std::span<const Move>)> visit) {
    visitor = &visit;
    // An attack standing before any move can never be removed (see the header).
    if (rootAttacked) return true;
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
// Can the present still pass to the opponent, whatever the positions ≥ i decide? Optimistic
// (never false when some completion passes): for every number c of new timelines the action can
// end with, the active range is known (RULES.md §4.1); timelines that will surely end on the
// mover's colour (passed and no hop can come, or nothing to move) give the lowest "stuck" end;
// the present passes only if some active timeline may end on the opponent's colour below it.
bool ActionSearch::present_feasible(std::size_t i) const {
    const int cNow             = int(deferred.size());
    const int cMax             = cNow + branchersFrom[i];
    int       minDeferredStart = INT32_MAX;
    for (const Deferred& d : deferred)
        minDeferredStart = std::min(minDeferredStart, d.move.to.v() + 1);
    const int minFutureStart = minTargetFrom[i] == INT32_MAX ? INT32_MAX : minTargetFrom[i] + 1;
    const int initMin = mv.init_min_l(), initMax = mv.init_max_l();
    for (int c = cNow; c <= cMax; ++c) {
        const int w     = whiteCreated + (us == WHITE ? c : 0);
        const int b     = blackCreated + (us == BLACK ? c : 0);
        const int a     = std::min(w, b) + (w != b ? 1 : 0);
        const int lo    = std::max(minL0, initMin - a);
        const int hi    = std::min(minL0 + int(state.size()) - 1, initMax + a);
        int       stuck = INT32_MAX, theirs = INT32_MAX;
        for (int l = lo; l <= hi; ++l) {
            const std::size_t li  = std::size_t(l - minL0);
            const int         end = startEnd[li];
            const int         pos = posOf[li];
            if (pos < 0) { // not playable: it ends on the opponent's colour already
                theirs = std::min(theirs, end);
                continue;
            }
            const TimelineState st = state[li];
            if (st == MOVED || st == RECEIVED || st == DEPARTED) {
                theirs = std::min(theirs, end + 1);
            } else if (st == PASSED) {
                if (lastHopSource[std::size_t(pos)] >= int(i))
                    theirs = std::min(theirs, end + 1);
                else
                    stuck = std::min(stuck, end);
            } else if (canMove[std::size_t(pos)] || lastHopSource[std::size_t(pos)] >= int(i)) {
                theirs = std::min(theirs, end + 1); // OPEN: may still move
            } else {
                stuck = std::min(stuck, end);
            }
        }
        // New timelines: the first ones created are the active ones (White: up to B+1 of them).
        const int activeNew = std::min(c, (us == WHITE ? blackCreated : whiteCreated) + 1);
        if (activeNew > 0) {
            if (cNow > 0) theirs = std::min(theirs, minDeferredStart);
            if (c > cNow) theirs = std::min(theirs, minFutureStart);
        }
        if (stuck == INT32_MAX || theirs < stuck) return true;
    }
    return false;
}

bool ActionSearch::dfs(std::size_t i) {
    ++nodes_;
    if ((!passedMandatory.empty() || !deferred.empty()) && !present_feasible(i)) return true;
    if (i == playable.size()) return leaf();
    const int      p       = playable[i];
    TimelineState& myState = state[std::size_t(p - minL0)];
    if (myState == RECEIVED) return dfs(i + 1);
    assert(myState == OPEN);

    // 1. Pass. A passed mandatory board keeps the present on the mover unless a later timeline
    //    hops onto it or some branching jump rewinds the present (directly, or by reactivating a
    //    timeline that ends earlier).
    if (!mandatory[i] || lastHopSource[i] > int(i) || rewindFrom[i + 1] || deferredRewinds > 0) {
        myState = PASSED;
        if (mandatory[i]) passedMandatory.push_back(int(i));
        const bool go = dfs(i + 1);
        if (mandatory[i]) passedMandatory.pop_back();
        myState = OPEN;
        if (!go) return false;
    }

    // 2. Moves from this board.
    for (std::size_t k = moveBegin[i]; k < moveEnd[i]; ++k) {
        const Move&        m     = allMoves[k];
        const std::uint8_t kinds = moveKinds[k];
        undoStack.emplace_back();
        if (m.is_physical()) {
            mv.make_move(m, undoStack.back());
            myState = MOVED;
            others.push_back(m);
            bool go = true;
            if (!attacked_after(undoStack.back())) go = dfs(i + 1);
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
        if ((kinds & KIND_HOP) && (targetState == OPEN || targetState == PASSED)) {
            const TimelineState saved = targetState;
            mv.make_move(m, undoStack.back());
            myState     = MOVED;
            targetState = RECEIVED;
            others.push_back(m);
            bool go = true;
            if (!attacked_after(undoStack.back())) go = dfs(i + 1);
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
        if ((kinds & KIND_BRANCH) && (!isTip || targetState != PASSED)) {
            mv.make_departure(m, undoStack.back());
            myState = DEPARTED;
            deferred.push_back({m, isTip});
            const int rewinds = (kinds & KIND_REWIND) ? 1 : 0;
            deferredRewinds += rewinds;
            bool go = true;
            if (!attacked_after(undoStack.back())) go = dfs(i + 1);
            deferredRewinds -= rewinds;
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
                if (attacked_after(undoStack.back())) {
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
