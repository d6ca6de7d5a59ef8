#include "movegen/hypercuboid.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <climits>
#include <cstdlib>
#include <cstring>

#include <xxhash.h>

#include "movegen/action.h"
#include "movegen/rules.h"

namespace fived::movegen {

namespace {
// The first set bit of the bitset w in [lo, hi), or -1.
int first_in_range(const std::uint64_t* w, int lo, int hi) {
    for (int i = lo; i < hi;) {
        const int           word = i >> 6;
        const int           end  = std::min(hi, (word + 1) * 64);
        const std::uint64_t top =
            end - word * 64 == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << (end - word * 64)) - 1;
        const std::uint64_t bits = w[word] & top & (~std::uint64_t(0) << (i & 63));
        if (bits) return word * 64 + std::countr_zero(bits);
        i = end;
    }
    return -1;
}

// The set bits of n words.
int count_bits(const std::uint64_t* w, int n) {
    int count = 0;
    for (int i = 0; i < n; ++i)
        count += bit_count(w[i]);
    return count;
}
} // namespace

// --- boxes ---------------------------------------------------------------------------------------

void HypercuboidSearch::slice_all() {
    for (const Axis& ax : axes) {
        std::uint64_t* w = slice.data() + ax.off;
        std::fill(w, w + ax.words, ~std::uint64_t(0));
        if (ax.n & 63) w[ax.words - 1] = (std::uint64_t(1) << (ax.n & 63)) - 1;
    }
}

void HypercuboidSearch::slice_clear(int a) {
    const Axis& ax = axes[std::size_t(a)];
    std::fill(slice.data() + ax.off, slice.data() + ax.off + ax.words, 0);
}

void HypercuboidSearch::slice_set(int a, int e) {
    const Axis& ax = axes[std::size_t(a)];
    slice[std::size_t(ax.off + (e >> 6))] |= std::uint64_t(1) << (e & 63);
}

// Appends the slice (dense, in `slice`) to the learned slices in sparse form: the axes it
// constrains, each with its words. Every slice holds only illegal points, so it may be cut out of
// every box; boxes catch up on the slices learned after them lazily (`applied` word).
void HypercuboidSearch::learn() {
    // [number of constrained axes, offset of the one with the fewest entries, then per
    // constrained axis: its index and its words]. meets() tests the fewest-entries axis first:
    // most boxes miss most slices, and that axis usually says so at once.
    const std::size_t head = learned.size();
    learned.push_back(0);
    learned.push_back(0);
    std::uint64_t n      = 0;
    int           fewest = INT_MAX;
    for (std::size_t a = 0; a < axes.size(); ++a) {
        const Axis& ax    = axes[a];
        const int   count = count_bits(slice.data() + ax.off, ax.words);
        if (count == ax.n) continue; // the slice does not constrain this axis
        ++n;
        if (count < fewest) {
            fewest            = count;
            learned[head + 1] = learned.size() - head;
        }
        learned.push_back(a);
        learned.insert(learned.end(), slice.begin() + ax.off, slice.begin() + ax.off + ax.words);
    }
    learned[head] = n;
    learnedOff.push_back(head);
    ++stats_.slices;
}

// Does the box meet learned slice i?
bool HypercuboidSearch::meets(const std::uint64_t* box, std::size_t i) const {
    const std::uint64_t* sl = learned.data() + learnedOff[i];
    const std::uint64_t  n  = sl[0];
    if (n > 1) {
        const std::uint64_t* f   = sl + sl[1];
        const Axis&          ax  = axes[std::size_t(f[0])];
        bool                 any = false;
        for (int w = 0; w < ax.words; ++w)
            any |= (box[ax.off + w] & f[1 + w]) != 0;
        if (!any) return false;
    }
    sl += 2;
    for (std::uint64_t j = 0; j < n; ++j) {
        const Axis& ax  = axes[std::size_t(*sl++)];
        bool        any = false;
        for (int w = 0; w < ax.words; ++w)
            any |= (box[ax.off + w] & sl[w]) != 0;
        if (!any) return false;
        sl += ax.words;
    }
    return true;
}

// Replaces the box at `at` (the top of the stack) by the pieces of box \ slice i: for each
// axis the slice constrains, the points outside the slice on that axis and inside it on the
// earlier ones. The pieces have applied the slices before `applied`.
void HypercuboidSearch::cut(std::size_t at, std::size_t i, std::uint64_t applied) {
    const std::uint64_t* sl = learned.data() + learnedOff[i];
    const std::uint64_t  n  = sl[0];
    sl += 2;
    // The box meets the slice on every axis it constrains, so each axis where the box has points
    // outside the slice gives a piece. With none the box goes; with one (the usual case where
    // slices nibble at a box) that piece is made in place, without copying the box.
    // Has box b points outside the slice's words w on axis ax?
    auto outside = [](const std::uint64_t* b, const Axis& ax, const std::uint64_t* w) {
        bool any = false;
        for (int k = 0; k < ax.words; ++k)
            any |= (b[ax.off + k] & ~w[k]) != 0;
        return any;
    };
    std::uint64_t* box    = stack.data() + at;
    int            pieces = 0;
    std::uint64_t  only   = 0; // the index of that axis among the constrained ones
    for (std::uint64_t j = 0, k = 0; j < n && pieces < 2; ++j) {
        const Axis& ax = axes[std::size_t(sl[k])];
        if (outside(box, ax, sl + k + 1)) {
            ++pieces;
            only = j;
        }
        k += 1 + std::size_t(ax.words);
    }
    if (pieces == 0) {
        stack.resize(at);
        return;
    }
    if (pieces == 1) {
        for (std::uint64_t j = 0; j <= only; ++j) {
            const Axis& ax = axes[std::size_t(*sl++)];
            for (int w = 0; w < ax.words; ++w)
                box[ax.off + w] &= j < only ? sl[w] : ~sl[w];
            sl += ax.words;
        }
        box[stride] = applied;
        return;
    }
    std::copy(stack.begin() + std::ptrdiff_t(at), stack.begin() + std::ptrdiff_t(at) + stride,
        cur.begin());
    stack.resize(at);
    for (std::uint64_t j = 0; j < n; ++j) {
        const Axis& ax = axes[std::size_t(*sl++)];
        if (outside(cur.data(), ax, sl)) {
            const std::size_t piece = stack.size();
            stack.insert(stack.end(), cur.begin(), cur.end());
            stack.push_back(applied);
            for (int w = 0; w < ax.words; ++w)
                stack[piece + std::size_t(ax.off + w)] &= ~sl[w];
        }
        for (int w = 0; w < ax.words; ++w)
            cur[std::size_t(ax.off + w)] &= sl[w];
        sl += ax.words;
    }
    stats_.maxBoxes =
        std::max<std::uint64_t>(stats_.maxBoxes, stack.size() / std::size_t(stride + 1));
}

// --- points --------------------------------------------------------------------------------------

// Chooses a consistent point of the box: every axis gets a pass or a physical move, or takes
// part in a departure/arrival pair. Axes with neither a pass nor a physical move must be paired;
// the pairing is a matching in the graph of axes that covers them. A backtracking over the pairs
// (match()) finds the usual one quickly: a few such axes, each taking its first free partner. It
// is exponential where no pairing exists (alone, it took 80 % of the time of cwmtt-manyChecks
// --at -3, up to 14 million steps for one box with 16 such axes), so past MatchSteps steps
// CoverMatching decides, in polynomial time. Both are exact: a box without a consistent point is
// dropped only when no matching exists.
bool HypercuboidSearch::take_point(const std::uint64_t* box) {
    const int N = int(axes.size());
    must.clear();
    for (int a = 0; a < N; ++a) {
        const Axis& ax            = axes[std::size_t(a)];
        sameBoard[std::size_t(a)] = -1;
        mate[std::size_t(a)]      = -1;
        if (ax.isNew) { // the pass is entry 0, every other entry a branch
            if (box[ax.off] & 1)
                sameBoard[std::size_t(a)] = 0;
            else
                must.push_back(a);
            point[std::size_t(a)] = sameBoard[std::size_t(a)];
            continue;
        }
        for (int w = 0; w < ax.words && sameBoard[std::size_t(a)] < 0; ++w)
            for (std::uint64_t bits = box[ax.off + w]; bits; bits &= bits - 1) {
                const int       e = w * 64 + std::countr_zero(bits);
                const EntryType t = entry(a, e).type;
                if (t == E_PASS || t == E_PHYS) {
                    sameBoard[std::size_t(a)] = e;
                    break;
                }
            }
        if (sameBoard[std::size_t(a)] < 0) must.push_back(a);
        point[std::size_t(a)] = sameBoard[std::size_t(a)];
    }
    if (must.empty()) return true;

    for (int a = 0; a < N; ++a)
        adj[std::size_t(a)].clear();
    std::fill(pairSeen.begin(), pairSeen.end(), 0);
    liveGroups.clear();
    for (const BranchGroup& g : branchGroups)
        if (in(box, g.srcAxis, g.leave)) liveGroups.push_back(&g);
    for (int a = 0; a < N; ++a) {
        const Axis& ax = axes[std::size_t(a)];
        if (ax.isNew) {
            // By departure: the first branch of each source in the box whose departure is in
            // the box too, in entry order (as a scan of the axis' entries would add them).
            bool branchesIn = (box[ax.off] & ~std::uint64_t(1)) != 0;
            for (int w = 1; w < ax.words && !branchesIn; ++w)
                branchesIn = box[ax.off + w] != 0;
            if (!branchesIn) continue;
            int lastSrc = -1;
            for (const BranchGroup* gp : liveGroups) {
                const BranchGroup& g = *gp;
                if (g.srcAxis == lastSrc) continue;
                const int e = first_in_range(box + ax.off, g.lo, g.hi);
                if (e < 0) continue;
                lastSrc = g.srcAxis;
                adj[std::size_t(a)].push_back(Edge{g.srcAxis, a, e, g.leave});
                adj[std::size_t(g.srcAxis)].push_back(Edge{a, a, e, g.leave});
            }
            continue;
        }
        for (int w = 0; w < ax.words; ++w)
            for (std::uint64_t bits = box[ax.off + w]; bits; bits &= bits - 1) {
                const int    e  = w * 64 + std::countr_zero(bits);
                const Entry& en = entry(a, e);
                if (en.type != E_HOP) continue; // a tip axis: branches are on the new axes
                const int s = en.srcAxis;
                if (!in(box, s, en.leave)) continue;
                const std::size_t lo = std::size_t(std::min(a, s)),
                                  hi = std::size_t(std::max(a, s));
                if (pairSeen[lo * std::size_t(N) + hi]) continue;
                pairSeen[lo * std::size_t(N) + hi] = 1;
                adj[std::size_t(a)].push_back(Edge{s, a, e, en.leave});
                adj[std::size_t(s)].push_back(Edge{a, a, e, en.leave});
            }
    }
    // Fail first: the axes with the fewest partners.
    std::sort(must.begin(), must.end(),
        [&](int x, int y) { return adj[std::size_t(x)].size() < adj[std::size_t(y)].size(); });
    matchSteps   = matchStepsMax;
    const int by = match(0);
    return by >= 0 ? by > 0 : pair_must();
}

// Pairs axis u with e.other along the edge e: the arrival axis takes the arrival entry, the
// other one the departure.
void HypercuboidSearch::pair_along(int u, const Edge& e) {
    const int o                                    = e.other;
    mate[std::size_t(u)]                           = o;
    mate[std::size_t(o)]                           = u;
    point[std::size_t(e.arrivalAxis)]              = e.arrival;
    point[std::size_t(e.arrivalAxis == u ? o : u)] = e.leave;
}

int HypercuboidSearch::match(std::size_t i) {
    if (i == must.size()) return 1;
    const int u = must[i];
    if (mate[std::size_t(u)] >= 0) return match(i + 1);
    if (matchSteps-- <= 0) return -1;
    for (const Edge& e : adj[std::size_t(u)]) {
        const int o = e.other;
        if (mate[std::size_t(o)] >= 0) continue;
        const int savedU = point[std::size_t(u)], savedO = point[std::size_t(o)];
        pair_along(u, e);
        const int by = match(i + 1);
        if (by > 0) return by;
        point[std::size_t(u)] = savedU;
        point[std::size_t(o)] = savedO;
        mate[std::size_t(u)]  = -1;
        mate[std::size_t(o)]  = -1;
        if (by < 0) return by;
    }
    return 0;
}

// The pairing by CoverMatching, over the must axes and the axes with an edge (match() gave up
// and left mate and point as they were); each pair takes the first edge between its axes.
bool HypercuboidSearch::pair_must() {
    ++stats_.matchings;
    const int N = int(axes.size());
    matchVertex.assign(std::size_t(N), -1);
    matchAxis.clear();
    for (int a = 0; a < N; ++a)
        if (!adj[std::size_t(a)].empty()) {
            matchVertex[std::size_t(a)] = int(matchAxis.size());
            matchAxis.push_back(a);
        }
    matcher.reset(int(matchAxis.size()));
    for (const int u : must) {
        if (matchVertex[std::size_t(u)] < 0) return false; // no edge at all
        matcher.require(matchVertex[std::size_t(u)]);
    }
    for (const int a : matchAxis)
        for (const Edge& e : adj[std::size_t(a)])
            if (a < e.other)
                matcher.add_edge(matchVertex[std::size_t(a)], matchVertex[std::size_t(e.other)]);
    if (!matcher.solve()) return false;
    for (const int u : must) {
        if (mate[std::size_t(u)] >= 0) continue; // paired with an earlier must axis
        const int o = matchAxis[std::size_t(matcher.mate(matchVertex[std::size_t(u)]))];
        for (const Edge& e : adj[std::size_t(u)])
            if (e.other == o) {
                pair_along(u, e);
                break;
            }
    }
    return true;
}

// --- problems ------------------------------------------------------------------------------------

bool HypercuboidSearch::active_with(int l, int created) const {
    const int initMin = mv->init_min_l(), initMax = mv->init_max_l();
    int       w = timelines_created(WHITE, initMin, initMax, minL0, maxL0);
    int       b = timelines_created(BLACK, initMin, initMax, minL0, maxL0);
    (us == WHITE ? w : b) += created;
    return active_window(initMin, initMax, w, b).holds(l);
}

// A branching jump onto a start-of-turn last board is a branch only if that board was replaced
// before it: by a move of its own timeline that is not a deferred branching departure, or by the
// departure of an earlier branching jump.
int HypercuboidSearch::unreplaced_tip(int a, const Entry& e) const {
    const int li = e.move.to.l() - minL0;
    if (li < 0 || li > maxL0 - minL0) return -1;
    const int ta = axisOf[std::size_t(li)];
    if (ta < 0 || e.move.to.v() != startEnd[std::size_t(li)]) return -1;
    const Entry& te = entry(ta, point[std::size_t(ta)]);
    return te.type == E_PASS || (te.type == E_LEAVE && mate[std::size_t(ta)] > a) ? ta : -1;
}

// The first branch of the point that fails that, with its slice: the branches onto that board on
// its axis, and the pass of that board's timeline or the branches from it on the later axis.
bool HypercuboidSearch::order_problem() {
    for (int k = 0; k < newAxes; ++k) {
        const int    a = tipAxes + k;
        const Entry& e = entry(a, point[std::size_t(a)]);
        if (e.type != E_BRANCH) continue;
        const int ta = unreplaced_tip(a, e);
        if (ta < 0) continue;
        const int  tl = e.move.to.l(), tv = e.move.to.v();
        const bool pass = entry(ta, point[std::size_t(ta)]).type == E_PASS;
        slice_all();
        const Axis& ax = axes[std::size_t(a)];
        slice_clear(a);
        for (int j = 1; j < ax.n; ++j) {
            const Move& mm = entry(a, j).move;
            if (mm.to.l() == tl && mm.to.v() == tv) slice_set(a, j);
        }
        if (pass) {
            slice_clear(ta);
            slice_set(ta, 0);
        } else {
            const int a2 = mate[std::size_t(ta)];
            slice_clear(a2);
            for (int j = 1; j < ax.n; ++j)
                if (entry(a2, j).srcL == tl) slice_set(a2, j);
        }
        return true;
    }
    return false;
}

// take_point() takes the first branch of each departure and pairs the new axes in any order; most
// such points of a box with many new timelines fail order_problem(), and each failure cuts out
// one pair of axes only (the same branches on every other pair fail alike). So, before the point
// is tested, a branch onto a start-of-turn last board that is not replaced before it is moved: to
// another branch of the same departure in the box onto another board, else by swapping it with
// the later branch that replaces that board, when the box holds each on the other's axis. Any
// point of the box may be tested (the slices hold whatever the point), so this only changes
// which one. In cwmtt-many2 --at -5, a mate-in-one search of 84 axes (42 new ones) that ran for
// minutes of order failures then ends.
void HypercuboidSearch::reorder_branches(const std::uint64_t* box) {
    for (int k = 0; k < newAxes; ++k) {
        const int a = tipAxes + k;
        if (entry(a, point[std::size_t(a)]).type != E_BRANCH) break;
        if (unreplaced_tip(a, entry(a, point[std::size_t(a)])) < 0) continue;
        for (const BranchGroup& g : branchGroups)
            if (point[std::size_t(a)] >= g.lo && point[std::size_t(a)] < g.hi) {
                for (int j = g.lo; j < g.hi; ++j)
                    if (in(box, a, j) && unreplaced_tip(a, entry(a, j)) < 0) {
                        point[std::size_t(a)] = j;
                        break;
                    }
                break;
            }
    }
    // Swaps, each putting one departure before the arrival onto its board; at most newAxes.
    for (int swaps = 0; swaps < newAxes; ++swaps) {
        bool swapped = false;
        for (int k = 0; k < newAxes && !swapped; ++k) {
            const int a = tipAxes + k;
            if (entry(a, point[std::size_t(a)]).type != E_BRANCH) break;
            const int ta = unreplaced_tip(a, entry(a, point[std::size_t(a)]));
            if (ta < 0 || entry(ta, point[std::size_t(ta)]).type != E_LEAVE) continue; // passed
            const int a2 = mate[std::size_t(ta)];
            const int ea = point[std::size_t(a)], eb = point[std::size_t(a2)];
            if (!in(box, a, eb) || !in(box, a2, ea)) continue;
            const int sa           = mate[std::size_t(a)];
            point[std::size_t(a)]  = eb;
            point[std::size_t(a2)] = ea;
            mate[std::size_t(a)]   = ta;
            mate[std::size_t(ta)]  = a;
            mate[std::size_t(a2)]  = sa;
            mate[std::size_t(sa)]  = a2;
            swapped                = true;
        }
        if (!swapped) return;
    }
}

// The present must pass to the opponent (RULES.md §4.2): the smallest end over the active
// timelines must be on the opponent's colour.
bool HypercuboidSearch::present_problem() {
    int c = 0;
    while (c < newAxes && entry(tipAxes + c, point[std::size_t(tipAxes + c)]).type == E_BRANCH)
        ++c;
    int pv = INT32_MAX;
    for (int l = minL0; l <= maxL0; ++l) {
        if (!active_with(l, c)) continue;
        const int li = l - minL0, a = axisOf[std::size_t(li)];
        const int end = startEnd[std::size_t(li)]
            + (a >= 0 && entry(a, point[std::size_t(a)]).type != E_PASS ? 1 : 0);
        pv = std::min(pv, end);
    }
    for (int k = 0; k < c; ++k)
        if (active_with(new_timeline(k), c))
            pv = std::min(pv, entry(tipAxes + k, point[std::size_t(tipAxes + k)]).v);
    if (Color(pv & 1) != us) return false;

    // A passed, active timeline ends at pv on the mover's colour.
    int witness = INT32_MIN;
    for (int l = minL0; l <= maxL0 && witness == INT32_MIN; ++l) {
        const int li = l - minL0, a = axisOf[std::size_t(li)];
        if (a >= 0 && active_with(l, c) && startEnd[std::size_t(li)] == pv
            && entry(a, point[std::size_t(a)]).type == E_PASS)
            witness = l;
    }
    if (witness == INT32_MIN) { // cannot happen; stay sound by cutting the point alone
        slice_point();
        return true;
    }
    // The failure persists for every number c' of new timelines in [m0, m1] as long as no
    // timeline that could end below pv on the opponent's colour becomes active, and no new
    // active timeline starts below pv.
    int m0 = 0;
    while (!active_with(witness, m0))
        ++m0;
    auto stays = [&](int cc) {
        for (int l = minL0; l <= maxL0; ++l)
            if (startEnd[std::size_t(l - minL0)] < pv && active_with(l, cc)) return false;
        for (int k = 0; k < c; ++k)
            if (entry(tipAxes + k, point[std::size_t(tipAxes + k)]).v < pv
                && active_with(new_timeline(k), cc))
                return false;
        return true;
    };
    int m1 = c;
    while (m1 < newAxes && stays(m1 + 1))
        ++m1;

    slice_all();
    const int wa = axisOf[std::size_t(witness - minL0)];
    slice_clear(wa);
    slice_set(wa, 0);
    for (int k = 0; k < newAxes; ++k) {
        const int a = tipAxes + k;
        if (k == m1) {
            slice_clear(a);
            slice_set(a, 0);
            continue;
        }
        const bool needV = k < m1 && active_with(new_timeline(k), m1);
        if (k >= m0 && !needV) continue;
        slice_clear(a);
        if (k >= m0) slice_set(a, 0);
        const Axis& ax = axes[std::size_t(a)];
        for (int j = 1; j < ax.n; ++j)
            if (!needV || entry(a, j).v > pv) slice_set(a, j);
    }
    return true;
}

// Makes the point and looks for an attack, in two stages: first every entry of the playable
// boards' axes (moves, hops, departures; attacks found here do not depend on the new timelines,
// and are found even for points that fail the order or present tests), then the branching
// arrivals in order. The slice: on every board of the attack's path that the action creates, the
// entries that create that board with the same piece (or emptiness) on the path's square there.
// Returns 1 for an attack (slice filled), 0 for none; the made moves stay made (see unmake_all).
int HypercuboidSearch::make_and_check(bool arrivals) {
    AttackInfo info;
    bool       attacked = false;
    auto       made_one = [&]() {
        if (!attacked_after(undo.back(), &info)) return false;
        const int lo = std::min(info.la, info.lk), hi = std::max(info.la, info.lk);
        return std::none_of(
                  readOff.begin(), readOff.end(), [&](int t) { return lo <= t && t <= hi; });
    };
    if (!arrivals) {
        undo.clear();
        made.clear();
        for (int a = 0; a < tipAxes && !attacked; ++a) {
            const Entry& e = entry(a, point[std::size_t(a)]);
            if (e.type == E_PHYS || e.type == E_HOP) {
                undo.emplace_back();
                mv->make_move(e.move, undo.back());
                made.push_back(e.move);
                attacked = made_one();
            } else if (e.type == E_LEAVE && mate[std::size_t(a)] >= tipAxes) {
                const Entry& b =
                    entry(mate[std::size_t(a)], point[std::size_t(mate[std::size_t(a)])]);
                undo.emplace_back();
                mv->make_departure(b.move, undo.back());
                attacked = made_one();
            }
        }
    } else {
        for (int k = 0; k < newAxes && !attacked; ++k) {
            const Entry& e = entry(tipAxes + k, point[std::size_t(tipAxes + k)]);
            if (e.type != E_BRANCH) break;
            undo.emplace_back();
            mv->make_arrival(e.move, undo.back());
            made.push_back(e.move);
            attacked = made_one();
        }
    }
    if (!attacked) return 0;

    // The axis whose entry created board (l, v), or -1 for a board from before the action.
    auto axis_of_board = [&](int l, int v) {
        if (l >= minL0 && l <= maxL0) {
            const int li = l - minL0;
            return v <= startEnd[std::size_t(li)] ? -1 : axisOf[std::size_t(li)];
        }
        // The k-th (from 0) timeline this action creates.
        const int k = new_timeline_number(us, minL0, maxL0, l);
        return tipAxes + k;
    };
    // Keeps on axis a only the entries that create board v with piece p on square sq.
    auto constrain = [&](int a, int v, int sq, Piece p) {
        const Axis& ax = axes[std::size_t(a)];
        for (int j = 0; j < ax.n; ++j) {
            const Entry& e = entry(a, j);
            if (e.type == E_PASS || e.v != v
                || contents[std::size_t(e.board)][std::size_t(sq)] != p)
                slice[std::size_t(ax.off + (j >> 6))] &= ~(std::uint64_t(1) << (j & 63));
        }
    };
    slice_all();
    if (info.inBoard || info.from < 0) {
        const int a = axis_of_board(info.la, info.va);
        if (a >= 0) {
            const Board& b = mv->board(info.la, info.va);
            for (int sq = 0; sq < 64; ++sq)
                constrain(a, info.va, sq, b.piece_on(sq));
        }
    } else if (info.k == 0) {
        for (int c = 0; c < 2; ++c) {
            const int l = c ? info.lk : info.la, v = c ? info.vk : info.va;
            const int sq = c ? info.to : info.from;
            const int a  = axis_of_board(l, v);
            if (a >= 0) constrain(a, v, sq, mv->board(l, v).piece_on(sq));
        }
    } else {
        const int fx = file_of(Square(info.from)), fy = rank_of(Square(info.from));
        for (int j = 0; j <= info.k; ++j) {
            const int l = info.la + j * info.ul, v = info.va + 2 * j * info.ut;
            const int sq = make_square(fx + j * info.ux, fy + j * info.uy);
            const int a  = axis_of_board(l, v);
            if (a >= 0) constrain(a, v, sq, mv->board(l, v).piece_on(sq));
        }
    }
    return 1;
}

void HypercuboidSearch::unmake_all() {
    for (std::size_t i = undo.size(); i-- > 0;)
        mv->unmake_move(undo[i]);
    undo.clear();
}

void HypercuboidSearch::slice_point() {
    slice_all();
    for (std::size_t a = 0; a < axes.size(); ++a) {
        slice_clear(int(a));
        slice_set(int(a), point[a]);
    }
}

bool HypercuboidSearch::point_in_slice() const {
    for (std::size_t a = 0; a < axes.size(); ++a)
        if (!in(slice.data(), int(a), point[a])) return false;
    return true;
}

// The tests in order of cost; the first stage of the attack test comes first because its slices
// (on the playable boards' axes only) are the widest.
// A legal point stays made (the caller unmakes it); an illegal one is unmade and `slice` holds
// its slice.
bool HypercuboidSearch::test_point() {
    bool legal = false;
    if (!(make_and_check(false) || order_problem() || present_problem() || make_and_check(true))) {
        legal = Color(mv->present_v() & 1) != us;
        assert(legal); // present_problem() decided it already
        if (!legal) slice_point();
    }
    if (!legal) unmake_all();
    return legal;
}

// --- the search ----------------------------------------------------------------------------------

bool HypercuboidSearch::exists(Multiverse& m, std::vector<Move>* witness) {
    bool found = false;
    run(m, [&](std::span<const Move> a) {
        if (witness) witness->assign(a.begin(), a.end());
        found = true;
        return Verdict::STOP;
    });
    return found;
}

std::uint64_t HypercuboidSearch::count(Multiverse& m, std::uint64_t cap) {
    std::uint64_t n = 0;
    if (cap == 0) return 0;
    run(m, [&](std::span<const Move>) { return ++n < cap ? Verdict::NEXT : Verdict::STOP; });
    return n;
}

bool HypercuboidSearch::for_each(
    Multiverse& m, absl::FunctionRef<bool(std::span<const Move>)> visit, bool jumps) {
    withJumps = jumps;
    const bool r =
        run(m, [&](std::span<const Move> a) { return visit(a) ? Verdict::NEXT : Verdict::STOP; });
    withJumps = true;
    return r;
}

namespace {

// The share of an entry (only_share()), from what identifies it: its type and the move (a
// physical move, a hop: `m`) or the square a piece leaves.
int share_of_entry(int type, const Move* m, int square, int parts) {
    const std::uint64_t words[3] = {std::uint64_t(type) | std::uint64_t(square + 1) << 8,
        m ? std::uint64_t(m->from.raw()) << 32 | m->to.raw() : 0,
        m ? std::uint64_t(m->promotion) : 0};
    return int(XXH3_64bits(words, sizeof words) % std::uint64_t(std::max(parts, 1)));
}

} // namespace

int HypercuboidSearch::entry_share(std::span<const Move> a, int l, int endV, int parts) {
    for (const Move& m : a) {
        if (m.from.l() == l) {
            if (m.is_physical()) return share_of_entry(E_PHYS, &m, -1, parts);
            return share_of_entry(E_LEAVE, nullptr, m.from.sq(), parts);
        }
        if (m.to.l() == l && m.to.v() == endV) return share_of_entry(E_HOP, &m, -1, parts);
    }
    return share_of_entry(E_PASS, nullptr, -1, parts);
}

unsigned HypercuboidSearch::move_pattern(
    std::span<const Move> a, std::span<const int> ls, std::span<const int> endVs) {
    unsigned pattern = 0;
    for (std::size_t i = 0; i < ls.size(); ++i)
        for (const Move& m : a)
            if (m.from.l() == ls[i] || (m.to.l() == ls[i] && m.to.v() == endVs[i]))
                pattern |= 1u << i;
    return pattern;
}

bool HypercuboidSearch::for_each_cut(Multiverse&                              m,
    absl::FunctionRef<Verdict(std::span<const Move>, std::vector<int>& keep)> visit,
    std::span<const SquareRules> squares, int squaresMinL, std::span<const SquareRules> newSquares,
    const std::atomic<bool>* stop) {
    stopFlag       = stop;
    cutSquares     = squares;
    newCutSquares  = newSquares;
    cutSquaresMinL = squaresMinL;
    const bool r   = run(m, [&](std::span<const Move> a) {
        keep.clear();
        return visit(a, keep);
    });
    cutSquares = newCutSquares = {};
    stopFlag                   = nullptr;
    shareParts                 = 1;
    patternLs.clear();
    patternEndVs.clear();
    return r;
}

// The search. Every legal point is handed to the visitor (with the action made) and then cut out
// of its box alone: boxes are disjoint, so no other box holds it.
bool HypercuboidSearch::run(
    Multiverse& m, absl::FunctionRef<Verdict(std::span<const Move>)> visit) {
    mv     = &m;
    stats_ = Stats{};
    if (!build()) return true;
    // One box per number c of new timelines, fewest first: new axes below c hold the branching
    // arrivals, the others the pass only. Every box keeps that shape under cuts, so "the first c
    // new timelines are created" holds for every point.
    stack.clear();
    learned.clear();
    learnedOff.clear();
    const std::size_t boxWords = std::size_t(stride) + 1; // the box, then its `applied` count
    std::uint32_t     polls    = 0;
    for (int c = newAxes; c >= 0; --c) {
        const std::size_t at = stack.size();
        stack.resize(at + boxWords, 0);
        std::uint64_t* box = stack.data() + at;
        for (int a = 0; a < int(axes.size()); ++a) {
            const Axis&    ax = axes[std::size_t(a)];
            std::uint64_t* w  = box + ax.off;
            if (ax.isNew && ax.l >= c) {
                w[0] = 1;
                continue;
            }
            std::fill(w, w + ax.words, ~std::uint64_t(0));
            if (ax.n & 63) w[ax.words - 1] = (std::uint64_t(1) << (ax.n & 63)) - 1;
            if (ax.isNew) w[0] &= ~std::uint64_t(1);
        }
    }
    if (shareParts > 1) { // only_share(): the other shares' entries of its axis left out
        const int a = shareL >= minL0 && shareL <= maxL0 ? axisOf[std::size_t(shareL - minL0)] : -1;
        if (a < 0) { // no playable board there: every action passes on it
            if (share_of_entry(E_PASS, nullptr, -1, shareParts) != sharePart) stack.clear();
        } else {
            const Axis& ax = axes[std::size_t(a)];
            for (int j = 0; j < ax.n; ++j) {
                const Entry& e     = entry(a, j);
                const bool   moved = e.type == E_PHYS || e.type == E_HOP;
                const int    sq    = e.type == E_LEAVE ? e.square : -1;
                if (share_of_entry(e.type, moved ? &e.move : nullptr, sq, shareParts) == sharePart)
                    continue;
                for (std::size_t at = 0; at < stack.size(); at += boxWords)
                    stack[at + std::size_t(ax.off + j / 64)] &= ~(std::uint64_t(1) << (j % 64));
            }
        }
    }
    for (std::size_t i = 0; i < patternLs.size(); ++i) { // only_pattern()
        const int  l     = patternLs[i];
        const bool moves = patternMoves >> i & 1u;
        const int  a     = l >= minL0 && l <= maxL0 ? axisOf[std::size_t(l - minL0)] : -1;
        if (a < 0) { // no playable board there: every action passes on it
            if (moves) stack.clear();
            continue;
        }
        const Axis& ax = axes[std::size_t(a)];
        for (int j = 0; j < ax.n; ++j) {
            if ((entry(a, j).type != E_PASS) == moves) continue;
            for (std::size_t at = 0; at < stack.size(); at += boxWords)
                stack[at + std::size_t(ax.off + j / 64)] &= ~(std::uint64_t(1) << (j % 64));
        }
    }
    while (!stack.empty()) {
        const std::size_t at      = stack.size() - boxWords;
        std::uint64_t     applied = stack[at + std::size_t(stride)];
        bool              split   = false;
        // Only the last learnedWindow slices (hypercuboid.h); skipping older ones is sound for
        // the reason bound_learned() gives.
        if (applied + learnedWindow < learnedOff.size()) {
            applied = learnedOff.size() - learnedWindow;
            ++stats_.windowed;
        }
        while (applied < learnedOff.size() && !split) {
            if (stopFlag && (++polls & 1023) == 0 && stopFlag->load(std::memory_order_relaxed))
                return false;
            const std::size_t i = std::size_t(applied++);
            if (meets(stack.data() + at, i)) {
                cut(at, i, applied);
                split = true;
            }
        }
        if (split) continue;
        stack[at + std::size_t(stride)] = applied;
        if (!take_point(stack.data() + at)) {
            stack.resize(at);
            continue;
        }
        ++stats_.points;
        reorder_branches(stack.data() + at);
        if (test_point()) {
            // Standard order (rules.h): moves and hops by arrival timeline (the tip axes ascend
            // by ℓ, and a hop is an entry of its arrival's axis), then the branching jumps.
            out.clear();
            for (int i = 0; i < tipAxes; ++i) {
                const int    a = nth_in_standard_order(us, i, tipAxes);
                const Entry& e = entry(a, point[std::size_t(a)]);
                if (e.type == E_PHYS || e.type == E_HOP) out.push_back(e.move);
            }
            for (int k = 0; k < newAxes; ++k) {
                const Entry& e = entry(tipAxes + k, point[std::size_t(tipAxes + k)]);
                if (e.type == E_BRANCH) out.push_back(e.move);
            }
            const Verdict verdict = visit(std::span<const Move>(out));
            unmake_all();
            if (verdict == Verdict::STOP) return false;
            if (verdict != Verdict::NEXT) {
                // Kept like an illegal point's slice: it may meet other boxes too.
                slice_alike(verdict == Verdict::CUT_ON_SQUARES);
                assert(point_in_slice());
                learn();
                cut(at, learnedOff.size() - 1, learnedOff.size());
                bound_learned();
                continue;
            }
            slice_point();
            learn();
            const std::size_t i = learnedOff.size() - 1;
            cut(at, i, i);
            learned.resize(learnedOff[i]);
            learnedOff.pop_back();
            --stats_.slices;
            continue;
        }
        // Every slice contains the point it was derived from (so each cut makes progress);
        // checked here so that a mistake in a slice cannot loop.
        assert(point_in_slice());
        if (!point_in_slice()) slice_point();
        learn();
        cut(at, learnedOff.size() - 1, learnedOff.size());
        bound_learned();
    }
    return true;
}

// Memory stays bounded whatever the width: past learnedCap words the learned slices are
// forgotten and every box on the stack applies the slices from the first again. That is sound:
// a slice only removes points that are illegal (found again by test_point()) or left out by the
// visitor (shown again, and cut again), and a point shown as an action is already cut out of its
// box, which no other box holds; and it ends, as every new slice holds the point it came from.
void HypercuboidSearch::bound_learned() {
    if (learned.size() <= learnedCap) return;
    learned.clear();
    learnedOff.clear();
    for (std::size_t at = std::size_t(stride); at < stack.size(); at += std::size_t(stride) + 1)
        stack[at] = 0;
    ++stats_.forgotten;
}

} // namespace fived::movegen
