#include "movegen/actions.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <span>

#include "movegen/movegen.h"
#include "movegen/rules.h"

namespace fived::movegen {

ActionSearch::ActionSearch(Multiverse& m, bool reference) { reset(m, reference); }

void ActionSearch::reset(Multiverse& m, bool reference) {
    // 0. Forget the previous position. Every buffer is cleared or assigned, never shrunk, so a
    //    reused search allocates only when this position needs more room than earlier ones.
    forget(m, reference);
    const int n = mv->timeline_count();
    state.assign(std::size_t(n), PASSED);
    startEnd.resize(std::size_t(n));
    for (int l = mv->min_l(); l <= mv->max_l(); ++l)
        startEnd[std::size_t(l - minL0)] = mv->end_v(l);
    if (referenceCheck ? royal_attacked_reference(*mv, us) : royal_attacked(*mv, us)) {
        rootAttacked = true; // no action can remove it; nothing to enumerate
        return;
    }

    // 1. Generate each playable board's moves and keep the ones that do not, on their own,
    //    create an attack: an attack never goes away within an action, so such a move is in no
    //    legal action. A jump is kept as a hop and/or as a branching departure.
    for (int l = mv->min_l(); l <= mv->max_l(); ++l)
        if (Color(mv->end_v(l) & 1) == us) keep_board_moves(l);
    // 2. Decide the mandatory boards first, then the most constrained timelines (fewest options),
    //    so that a board with no good move fails before the others multiply, and a passed
    //    mandatory board is known early; ties in ℓ order, for determinism. (std::sort with ℓ as
    //    the last key gives stable_sort's order without its temporary buffer, an allocation.)
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        if (a.mandatory != b.mandatory) return a.mandatory;
        if (a.options != b.options) return a.options < b.options;
        return a.l < b.l;
    });
    posOf.assign(std::size_t(n), -1);
    for (const Row& r : rows) {
        posOf[std::size_t(r.l - minL0)] = int(playable.size());
        playable.push_back(r.l);
        mandatory.push_back(r.mandatory);
        optionsAt.push_back(r.options);
        moveBegin.push_back(r.begin);
        moveEnd.push_back(r.end);
    }

    prepare_pass_rule();
    prepare_present_test();
    words = (playable.size() + 64) / 64;
    confWords.assign((playable.size() + 2) * words, 0);
    confFull.assign(playable.size() + 2, 0);
    receivedFrom.assign(std::size_t(n), -1);
    whiteCreated = mv->created(WHITE);
    blackCreated = mv->created(BLACK);
    undoStack.reserve(4 * playable.size() + 8);
    others.reserve(playable.size() + 1);
}

void ActionSearch::forget(Multiverse& m, bool reference) {
    assert(!visitor); // not from inside this search's own enumeration
    mv              = &m;
    referenceCheck  = reference;
    presentV        = mv->present_v();
    us              = Color(presentV & 1);
    minL0           = mv->min_l();
    nodes_          = 0;
    aborted_        = false;
    rootAttacked    = false;
    deferredRewinds = 0;
    shareCounter    = nullptr;
    unitBase        = 0;
    unitPerAction   = 0;
    rows.clear();
    optionsAt.clear();
    playable.clear();
    mandatory.clear();
    moveBegin.clear();
    moveEnd.clear();
    allMoves.clear();
    moveKinds.clear();
    passedMandatory.clear();
    others.clear();
    deferred.clear();
    order.clear();
    undoStack.clear();
}

// Step 1 of reset() for the playable board of timeline l.
void ActionSearch::keep_board_moves(int l) {
    state[std::size_t(l - minL0)] = OPEN;
    gen.clear();
    // reset_only(): only the pieces an allowed move starts from can make a move to keep.
    // `wanted`: how many allowed moves start on this board.
    Bitboard    from   = only_.empty() ? ~Bitboard(0) : 0;
    std::size_t wanted = 0;
    for (const Move& mm : only_)
        if (mm.from.l() == l && mm.from.v() == mv->end_v(l)) {
            from |= square_bb(mm.from.sq());
            ++wanted;
        }
    bool restricted = !only_.empty();
    if (!preferOnly_ && restricted && from) {
        // reset_only(): the allowed moves from this board, found among its pieces' moves,
        // which are generated only up to the last of them.
        find_board_move(*mv, l, from, [&](const Move& mm) {
            if (std::find(only_.begin(), only_.end(), mm) == only_.end()) return false;
            gen.push_back(mm);
            return --wanted == 0;
        });
    } else if (from) {
        generate_board_moves(*mv, l, gen, from);
    }
    if (preferOnly_) {
        // reset_prefer(): the board keeps the preferred moves it has, else all its moves.
        const bool kept = std::any_of(gen.begin(), gen.end(), [&](const Move& mm) {
            return std::find(only_.begin(), only_.end(), mm) != only_.end();
        });
        if (!kept) {
            restricted = false;
            gen.clear();
            generate_board_moves(*mv, l, gen, ~Bitboard(0));
        }
    }
    Row row{l, mv->is_active(l) && mv->end_v(l) == presentV, allMoves.size(), 0, 1};
    for (const Move& mm : gen) {
        if (restricted && std::find(only_.begin(), only_.end(), mm) == only_.end()) continue;
        MoveUndo     u;
        std::uint8_t kinds = 0;
        if (mm.is_physical()) {
            mv->make_move(mm, u);
            if (!attacked_after(u)) kinds |= KIND_PHYSICAL;
            mv->unmake_move(u);
        } else {
            const int tl = mm.to.l();
            if (mm.to.v() == mv->end_v(tl) && Color(mv->end_v(tl) & 1) == us) {
                mv->make_move(mm, u);
                if (!attacked_after(u)) kinds |= KIND_HOP;
                mv->unmake_move(u);
            }
            // A branching arrival whose board attacks a royal of the mover on itself is an
            // attack on whichever new timeline it lands: no action holds that jump.
            mv->make_departure(mm, u);
            if (!attacked_after(u)
                && (referenceCheck
                    || royal_attacked_on_board(mv->arrival_board(mm), mv->width(), mv->height(), us)
                        < 0))
                kinds |= KIND_BRANCH;
            mv->unmake_move(u);
        }
        if (!kinds) continue;
        allMoves.push_back(mm);
        moveKinds.push_back(kinds);
        row.options += bit_count(kinds);
    }
    row.end = allMoves.size();
    rows.push_back(row);
}

void ActionSearch::prepare_pass_rule() {
    // 3. For the pass rule. A passed mandatory board leaves the present on the mover unless a
    //    later timeline hops onto it, or a branching jump rewinds the present: its new timeline
    //    starts before the present (target v < present), or it reactivates a timeline that ends
    //    before the present (possible only if such an inactive timeline exists).
    bool inactiveBehind = false;
    for (int l = mv->min_l(); l <= mv->max_l(); ++l)
        inactiveBehind |= !mv->is_active(l) && mv->end_v(l) < presentV;
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
                const int target = posOf[std::size_t(allMoves[k].to.l() - minL0)];
                lastHopSource[std::size_t(target)] =
                    std::max(lastHopSource[std::size_t(target)], int(i));
            }
        }
        rewindFrom[i] = rewind || rewindFrom[i + 1];
    }
}

void ActionSearch::prepare_present_test() {
    // 4. For the optimistic present test: per position whether it can change its board at all,
    //    and per suffix how many positions can still branch and the lowest branch target.
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
}

void ActionSearch::reset_only(Multiverse& m, std::span<const Move> only) {
    only_ = only;
    reset(m);
    only_ = {};
}

void ActionSearch::reset_prefer(Multiverse& m, std::span<const Move> prefer) {
    only_       = prefer;
    preferOnly_ = true;
    reset(m);
    only_       = {};
    preferOnly_ = false;
}

bool ActionSearch::attacked_after(const MoveUndo& u, AttackInfo* info, bool acrossOnly) const {
    if (referenceCheck) {
        if (!royal_attacked_reference(*mv, us)) return false;
        // The reference test names no attack: blame every position (no backjump).
        if (info) *info = AttackInfo{INT32_MIN, 0, INT32_MIN, 0, false};
        return true;
    }
    // The boards a move adds are the last boards of the timelines its undo record names.
    if (attacked_via_board(*mv, us, u.timelineA, info, acrossOnly)) return true;
    return u.hasB && attacked_via_board(*mv, us, u.timelineB, info, acrossOnly);
}

bool ActionSearch::present_passed() const { return Color(mv->present_v() & 1) != us; }

void ActionSearch::share(std::atomic<std::uint32_t>* counter, std::uint32_t units) {
    shareCounter = counter;
    shareAt      = 0;
    double n     = 1;
    while (shareAt + 1 < playable.size()) {
        n *= std::max(optionsAt[shareAt], 1);
        if (n >= units) break;
        ++shareAt;
    }
}

bool ActionSearch::claim() {
    if (shareClaimed < shareUnit)
        shareClaimed = shareCounter->fetch_add(1, std::memory_order_relaxed);
    const bool mine = shareClaimed == shareUnit++;
    if (mine && unitBase) nodeLimit = nodes_ + unitBase;
    return mine;
}

bool ActionSearch::for_each(absl::FunctionRef<bool(std::span<const Move>)> visit) {
    assert(mv && !visitor); // reset() first; not re-entrant
    aborted_ = false;
    // An attack standing before any move can never be removed (see the header).
    if (rootAttacked) return true;
    shareUnit    = 0;
    shareClaimed = -1;
    // No playable board: the one (empty) action is a single share.
    if (shareCounter && playable.empty() && !claim()) return true;
    visitor      = &visit;
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
    const int initMin = mv->init_min_l(), initMax = mv->init_max_l();
    for (int c = cNow; c <= cMax; ++c) {
        const int          w     = whiteCreated + (us == WHITE ? c : 0);
        const int          b     = blackCreated + (us == BLACK ? c : 0);
        const ActiveWindow win   = active_window(initMin, initMax, w, b);
        const int          lo    = std::max(minL0, win.lo);
        const int          hi    = std::min(minL0 + int(state.size()) - 1, win.hi);
        int                stuck = INT32_MAX, theirs = INT32_MAX;
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
        // New timelines: the mover's k-th created timeline overall is active iff k ≤ (the
        // opponent's count) + 1, so of the c made now the first max(0, min(c, opp + 1 - own))
        // are active.
        const int own       = us == WHITE ? whiteCreated : blackCreated;
        const int opp       = us == WHITE ? blackCreated : whiteCreated;
        const int activeNew = std::max(0, std::min(c, opp + 1 - own));
        if (activeNew > 0) {
            if (cNow > 0) theirs = std::min(theirs, minDeferredStart);
            if (c > cNow) theirs = std::min(theirs, minFutureStart);
        }
        if (stuck == INT32_MAX || theirs < stuck) return true;
    }
    return false;
}

void ActionSearch::add_creator(std::uint64_t* conf, int l, int v) const {
    const int li = l - minL0;
    if (li < 0 || li >= int(state.size())) return; // a new timeline: only made at the leaf
    if (v <= startEnd[std::size_t(li)]) return;    // a board from before the action
    set_bit(conf, posOf[std::size_t(li)]);
    if (state[std::size_t(li)] == RECEIVED) set_bit(conf, receivedFrom[std::size_t(li)]);
}

void ActionSearch::add_attack(std::uint64_t* conf, const AttackInfo& a) const {
    if (a.la == INT32_MIN) { // unknown attack (reference mode): every position is to blame
        std::fill(conf, conf + words, ~std::uint64_t(0));
        return;
    }
    add_creator(conf, a.la, a.va);
    add_creator(conf, a.lk, a.vk);
    if (!a.ride) return;
    const int dl = a.lk - a.la, dt = (a.vk - a.va) / 2;
    const int k  = std::max(std::abs(dl), std::abs(dt));
    const int ul = (dl > 0) - (dl < 0), ut = (dt > 0) - (dt < 0);
    for (int j = 1; j < k; ++j)
        add_creator(conf, a.la + j * ul, a.va + 2 * j * ut);
}

// Depth-first search with conflict-directed backjumping. Returns false iff the visitor stopped
// the enumeration. On return, row i of the conflict table names the DFS positions above i whose
// decisions explain why this subtree holds no (further) legal action; confFull[i] means "not
// explained" (the subtree yielded actions, or failed for a reason not traced to positions).
// When a child's explanation does not involve position i, no other choice at i can help, and
// the remaining choices are skipped.
// Earlier passed boards that an option at position i could still change (by hopping onto them):
// a conflict that involves one of them is not independent of the choice made at i.
bool ActionSearch::alterable(std::size_t i, const std::uint64_t* c) const {
    for (std::size_t k = moveBegin[i]; k < moveEnd[i]; ++k) {
        if (!(moveKinds[k] & KIND_HOP)) continue;
        const int li = allMoves[k].to.l() - minL0;
        if (state[std::size_t(li)] == PASSED && test_bit(c, posOf[std::size_t(li)])) return true;
    }
    return false;
}

// After a child of position i returns: 1 = skip the remaining choices at i (backjump), 0 = go on.
int ActionSearch::absorb(std::size_t i) {
    std::uint64_t* conf = row(i);
    if (confFull[i + 1]) {
        confFull[i] = 1;
        return 0;
    }
    const std::uint64_t* c = row(i + 1);
    // Shared: the searches must meet the same subtrees at shareAt, so none backjumps there.
    const bool shared = shareCounter && i <= shareAt;
    if (!shared && !test_bit(c, int(i)) && !alterable(i, c)) {
        if (!confFull[i]) std::copy(c, c + words, conf);
        return 1;
    }
    for (std::size_t w = 0; w < words; ++w)
        conf[w] |= c[w];
    return 0;
}

// The pass at position i. A passed mandatory board keeps the present on the mover unless a later
// timeline hops onto it or some branching jump rewinds the present (directly, or by reactivating
// a timeline that ends earlier). Returns -1 if the visitor stopped, 1 to backjump, 0 otherwise.
int ActionSearch::try_pass(std::size_t i) {
    TimelineState& myState = state[std::size_t(playable[i] - minL0)];
    if (!mandatory[i] || lastHopSource[i] > int(i) || rewindFrom[i + 1]) {
        myState = PASSED;
        if (mandatory[i]) passedMandatory.push_back(int(i));
        const bool go = dfs(i + 1);
        if (mandatory[i]) passedMandatory.pop_back();
        myState = OPEN;
        if (!go) return -1;
        if (absorb(i)) return 1;
    } else if (deferredRewinds > 0) {
        // The pass is possible only thanks to an earlier rewinding jump: not traced.
        myState = PASSED;
        passedMandatory.push_back(int(i));
        const bool go = dfs(i + 1);
        passedMandatory.pop_back();
        myState = OPEN;
        if (!go) return -1;
        confFull[i] = 1;
    } else if (mandatory[i]) {
        confFull[i] = 1; // the pass is excluded for a reason that depends on earlier choices
    }

    return 0;
}

// One option at position i has just been made (its undo record is on top of undoStack): if it
// creates an attack, the attack's creators join row i's conflict set; otherwise the positions
// after i are searched and their conflicts absorbed. Returns -1 if the visitor stopped, 1 to
// backjump (skip the remaining options at i), 0 to go on with the next option.
int ActionSearch::descend(std::size_t i) {
    AttackInfo attack;
    if (attacked_after(undoStack.back(), &attack, true)) {
        add_attack(row(i), attack);
        return 0;
    }
    if (!dfs(i + 1)) return -1;
    return absorb(i);
}

bool ActionSearch::dfs(std::size_t i) {
    // With unit budgets, the nodes above the subtrees (which every share walks) are not charged.
    if (++nodes_ > nodeLimit && !(unitBase && i <= shareAt)) {
        aborted_ = true;
        return false;
    }
    std::uint64_t* conf = row(i);
    std::fill(conf, conf + words, 0);
    confFull[i] = 0;
    if ((!passedMandatory.empty() || !deferred.empty()) && !present_feasible(i)) {
        confFull[i] = 1;
        return true;
    }
    if (i == playable.size()) {
        confFull[i] = 1;
        return leaf();
    }
    const int      p        = playable[i];
    TimelineState& myState  = state[std::size_t(p - minL0)];
    const bool     claiming = shareCounter && i == shareAt;
    if (myState == RECEIVED) {
        // No decision here: the hop that landed on this board decided it.
        if (claiming && !claim()) return true;
        if (!dfs(i + 1)) return false;
        std::copy(row(i + 1), row(i + 1) + words, conf);
        confFull[i] = confFull[i + 1];
        return true;
    }
    assert(myState == OPEN);

    // 1. Pass (first on optional boards; on mandatory boards after the moves, since a passed
    //    mandatory board needs a rewind and is rarely part of a legal action).
    if (!mandatory[i] && (!claiming || claim())) {
        const int r = try_pass(i);
        if (r < 0) return false;
        if (r > 0) return true;
    }

    // 2. Moves from this board.
    for (std::size_t k = moveBegin[i]; k < moveEnd[i]; ++k) {
        if (claiming && !claim()) continue;
        const Move&        m     = allMoves[k];
        const std::uint8_t kinds = moveKinds[k];
        undoStack.emplace_back();
        if (m.is_physical()) {
            mv->make_move(m, undoStack.back());
            myState              = MOVED;
            const std::size_t at = insert_in_standard_order(others, m, us);
            const int         r  = descend(i);
            others.erase(others.begin() + std::ptrdiff_t(at));
            myState = OPEN;
            mv->unmake_move(undoStack.back());
            undoStack.pop_back();
            if (r != 0) return r > 0;
            continue;
        }
        const int      l2          = m.to.l();
        const int      li2         = l2 - minL0;
        const bool     isTip       = m.to.v() == startEnd[std::size_t(li2)];
        TimelineState& targetState = state[std::size_t(li2)];
        // 2a. Hop: a non-branching jump onto a playable board that has not been used.
        if (kinds & KIND_HOP) {
            if (targetState == OPEN || targetState == PASSED) {
                const TimelineState saved = targetState;
                mv->make_move(m, undoStack.back());
                myState                        = MOVED;
                targetState                    = RECEIVED;
                receivedFrom[std::size_t(li2)] = int(i);
                const std::size_t at           = insert_in_standard_order(others, m, us);
                const int         r            = descend(i);
                others.erase(others.begin() + std::ptrdiff_t(at));
                targetState = saved;
                myState     = OPEN;
                mv->unmake_move(undoStack.back());
                if (r != 0) {
                    undoStack.pop_back();
                    return r > 0;
                }
            } else {
                // The target was used by an earlier decision.
                set_bit(conf, posOf[std::size_t(li2)]);
                if (targetState == RECEIVED) set_bit(conf, receivedFrom[std::size_t(li2)]);
            }
        }
        // 2b. Branching jump: onto a historical board, or onto a last board that is replaced
        //     in this action, possibly by a later hop (checked at the leaf, when every timeline
        //     is decided).
        if (kinds & KIND_BRANCH) {
            mv->make_departure(m, undoStack.back());
            myState = DEPARTED;
            deferred.push_back({m, isTip});
            const int rewinds = (kinds & KIND_REWIND) ? 1 : 0;
            deferredRewinds += rewinds;
            const int r = descend(i);
            deferredRewinds -= rewinds;
            deferred.pop_back();
            myState = OPEN;
            mv->unmake_move(undoStack.back());
            if (r != 0) {
                undoStack.pop_back();
                return r > 0;
            }
        }
        undoStack.pop_back();
    }
    if (mandatory[i] && (!claiming || claim())) return try_pass(i) >= 0;
    return true;
}

bool ActionSearch::emit(std::span<const Move> branching) {
    if (unitBase) nodeLimit += unitPerAction;
    out = others; // kept in standard order (rules.h)
    out.insert(out.end(), branching.begin(), branching.end());
    return (*visitor)(std::span<const Move>(out));
}

bool ActionSearch::leaf() {
    if (deferred.empty()) return !present_passed() || emit({});
    // Every deferred jump onto a start-of-turn last board needs that timeline replaced before
    // the jump executes: by a non-deferred move, or by an earlier deferred departure.
    for (const Deferred& d : deferred)
        if (d.ontoTip && state[std::size_t(d.move.to.l() - minL0)] == PASSED) return true;
    placed.assign(deferred.size(), 0);
    order.clear();
    orderIdx.clear();
    arrivalL.clear();
    arrivals.clear();
    for (const Deferred& d : deferred) {
        arrivals.push_back(mv->arrival_board(d.move));
        compute_board_key(arrivals.back());
    }
    ++leafNo;
    leafKept     = 0;
    leafLongest  = 0;
    leafLastMask = 0;
    return arrive();
}

namespace {
constexpr std::size_t ConflictSlots = 4096; // a power of two
constexpr std::size_t MaxRunIndex   = 15;   // deferred indices packed in 4 bits
constexpr int         ConflictProbe = 8;

// A run of deferred indices (oldest first), then last: 4 bits each after a 4-bit length.
std::uint64_t pack_run(std::span<const int> run, int last) {
    std::uint64_t key = run.size() + 1;
    int           at  = 4;
    for (const int j : run) {
        key |= std::uint64_t(j) << at;
        at += 4;
    }
    return key | std::uint64_t(last) << at;
}

std::size_t conflict_slot(std::uint64_t run, std::uint64_t leaf) {
    std::uint64_t h = (run ^ (leaf * 0x9E3779B97F4A7C15ull)) * 0xBF58476D1CE4E5B9ull;
    return std::size_t(h >> 40) & (ConflictSlots - 1);
}
} // namespace

// The entry kept for a run at this leaf, if any.
const ActionSearch::Conflict* ActionSearch::kept_run(std::uint64_t run) const {
    if (leafKept == 0) return nullptr;
    const std::size_t slot = conflict_slot(run, leafNo);
    for (int p = 0; p < ConflictProbe; ++p) {
        const Conflict& c = conflicts[(slot + std::size_t(p)) & (ConflictSlots - 1)];
        if (c.leaf != leafNo) break;
        if (c.run == run) return &c;
    }
    return nullptr;
}

// Is placing deferred jump j next known to attack, from a run learned earlier in this leaf?
// (A run kept as safe is the whole window of j: then j is safe here too.)
// Runs are learned only for indices up to MaxRunIndex; a larger j (a leaf with more deferred
// jumps than the mask has bits) was never learned, and shifting the mask by it is undefined.
bool ActionSearch::learned_run(int j) const {
    if (j > int(MaxRunIndex) || !(leafLastMask >> j & 1)) return false;
    const std::size_t longest = std::min(orderIdx.size(), std::size_t(leafLongest));
    for (std::size_t n = 1; n <= longest; ++n)
        if (const Conflict* c = kept_run(pack_run(std::span(orderIdx).last(n), j)))
            return c->attacked;
    return false;
}

// After the arrival on top of order was attacked: remember the run if the attack lies between
// new boards only (its two ends are new timelines; a ride between them crosses only new ones).
void ActionSearch::learn_run(const AttackInfo& a) {
    if (a.la == INT32_MIN || deferred.size() > MaxRunIndex) return;
    auto slot_of = [&](int l) {
        for (std::size_t k = 0; k < arrivalL.size(); ++k)
            if (arrivalL[k] == l) return int(k);
        return -1;
    };
    const int sa = slot_of(a.la), sk = slot_of(a.lk);
    if (sa < 0 || sk < 0) return;
    // The run's boards: slots min(sa, sk) .. top; the top one is the arrival just made.
    const std::span<const int> below(orderIdx.data(), orderIdx.size() - 1);
    const std::uint64_t        run =
        pack_run(below.subspan(std::size_t(std::min(sa, sk))), orderIdx.back());
    remember(run, true);
}

void ActionSearch::remember(std::uint64_t run, bool attacked) {
    if (conflicts.empty()) conflicts.resize(ConflictSlots);
    const std::size_t slot = conflict_slot(run, leafNo);
    for (int p = 0; p < ConflictProbe; ++p) {
        Conflict& c = conflicts[(slot + std::size_t(p)) & (ConflictSlots - 1)];
        if (c.leaf != leafNo || c.run == run) {
            leafKept += c.leaf != leafNo;
            if (attacked) {
                const int before = int(run & 15) - 1;
                leafLongest      = std::max(leafLongest, before);
                leafLastMask |= 1u << (run >> (4 + 4 * before) & 15);
            }
            c = {run, leafNo, attacked};
            return;
        }
    }
}

// Is the arrival on top of order attacked? An attack that involves its board N depends only on
// the boards within LineRuns::window() timelines of N. When those are all new boards of this
// leaf, the answer depends only on which deferred jumps made them, so an answer "no" is kept
// under those jumps' indices for the leaf's later orders (a "yes" then is a run between new
// boards, which learn_run() keeps in a more general form).
bool ActionSearch::arrival_attacked() {
    if (referenceCheck) return attacked_after(undoStack.back(), nullptr, true);
    const int           ln = arrivalL.back();
    const LineRuns      runs(*mv, ln, mv->end_v(ln));
    const std::size_t   reach = std::size_t(runs.window());
    const bool          kept  = orderIdx.size() > reach && deferred.size() <= MaxRunIndex;
    const std::uint64_t key =
        kept ? pack_run(std::span(orderIdx).last(reach + 1).first(reach), orderIdx.back()) : 0;
    if (kept) {
        if (const Conflict* c = kept_run(key); c && !c->attacked) return false;
    }
    AttackInfo attack;
    if (attacked_via_board(*mv, us, ln, &attack, true, &runs)) {
        learn_run(attack);
        return true;
    }
    if (kept) remember(key, false);
    return false;
}

// Makes the deferred branching arrivals in every valid order, one more at each level. An attack
// after an arrival holds for every order with that prefix, so the prefix is abandoned.
bool ActionSearch::arrive() {
    if (++nodes_ > nodeLimit) {
        aborted_ = true;
        return false;
    }
    if (order.size() == deferred.size()) return !present_passed() || emit(order);
    for (std::size_t j = 0; j < deferred.size(); ++j) {
        if (placed[j]) continue;
        const Deferred& d = deferred[j];
        // Onto a board whose timeline only a deferred departure replaces: that jump comes first.
        if (d.ontoTip && state[std::size_t(d.move.to.l() - minL0)] == DEPARTED) {
            bool ready = false;
            for (const Move& m : order)
                ready |= m.from.l() == d.move.to.l();
            if (!ready) continue;
        }
        if (learned_run(int(j))) continue;
        undoStack.emplace_back();
        mv->make_arrival(d.move, arrivals[j], undoStack.back());
        bool go = true;
        orderIdx.push_back(int(j));
        arrivalL.push_back(undoStack.back().timelineA);
        if (!arrival_attacked()) {
            placed[j] = 1;
            order.push_back(d.move);
            go = arrive();
            order.pop_back();
            placed[j] = 0;
        }
        orderIdx.pop_back();
        arrivalL.pop_back();
        mv->unmake_move(undoStack.back());
        undoStack.pop_back();
        if (!go) return false;
    }
    return true;
}

bool is_checkmate(Multiverse& mv) { return in_check_at_turn_start(mv) && !exists_legal_action(mv); }

Verdict verdict(Multiverse& mv) {
    if (exists_legal_action(mv)) return Verdict::Ongoing;
    return in_check_at_turn_start(mv) ? Verdict::Checkmate : Verdict::Stalemate;
}

const char* verdict_name(Verdict v) {
    switch (v) {
        case Verdict::Checkmate: return "checkmate";
        case Verdict::Stalemate: return "stalemate";
        default: return "ongoing";
    }
}

} // namespace fived::movegen
