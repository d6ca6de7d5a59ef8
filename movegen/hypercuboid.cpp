#include "movegen/hypercuboid.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <climits>
#include <cstdlib>
#include <cstring>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "movegen/action.h"
#include "movegen/rules.h"

namespace fived::movegen {

namespace {
constexpr int words_for(int bits) { return (bits + 63) / 64; }

// ByteMasks[b]: 0xFF in byte i of the word for each bit i of b (alike()).
constexpr auto ByteMasks = [] {
    std::array<std::uint64_t, 256> m{};
    for (unsigned b = 0; b < 256; ++b)
        for (unsigned i = 0; i < 8; ++i)
            if (b >> i & 1u) m[b] |= std::uint64_t(0xFF) << (8 * i);
    return m;
}();

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

// Every board an entry makes was tested alone when the axes were built (in_board_attack()):
// only attacks between boards are looked for.
bool HypercuboidSearch::attacked_after(const MoveUndo& u, AttackInfo* info) const {
    if (attacked_via_board(*mv, us, u.timelineA, info, true)) return true;
    return u.hasB && attacked_via_board(*mv, us, u.timelineB, info, true);
}

// Is a royal of the mover attacked within one of the boards the move added (`after`, made from
// mv's board (l, v))? Such an entry is dropped when the axes are built: that attack does not
// depend on any other entry. Attacks across boards are left to the search, which cuts them out
// by whole slices: testing every entry up front costs more than the search itself on most
// positions. Where no royal of the mover is attacked within board (l, v) (asked once per board a
// build moves from or onto, `cleanOf`), only the lines the move opened are looked at
// (royal_attacked_on_board_after()).
bool HypercuboidSearch::in_board_attack(int l, int v, const Board& after) {
    auto found = [&] { return in_board_attack_found(l, v, after); };
    return memos ? inBoardAttackMemo.answer(after.squares, us, found) : found();
}

bool HypercuboidSearch::in_board_attack_found(int l, int v, const Board& after) {
    const int    W = mv->width(), H = mv->height();
    const Board& before = mv->board(l, v);
    std::int8_t& clean  = cleanOf[std::size_t((l - minL0) * cleanSpan + v)];
    if (clean < 0) clean = royal_attacked_on_board(before, W, H, us) < 0;
    return clean ? royal_attacked_on_board_after(before, after, W, H, us)
                 : royal_attacked_on_board(after, W, H, us) >= 0;
}

// base: the last board of the timeline whose axis gets the entry (its board is made from it), or
// null (a branch: its board is made from a board of another timeline).
void HypercuboidSearch::add_entry(
    std::vector<Entry>& list, Entry e, const Board& b, const Board* base) {
    e.board   = int(contents.size());
    e.royals  = b.royals(~us);
    e.changed = ~Bitboard(0);
    if (base) {
        e.changed =
            (b.byColor[WHITE] ^ base->byColor[WHITE]) | (b.byColor[BLACK] ^ base->byColor[BLACK]);
        for (int pt = 1; pt < PIECE_TYPE_NB; ++pt)
            e.changed |= b.byType[pt] ^ base->byType[pt];
    }
    Contents& c = contents.emplace_back();
    std::copy(std::begin(b.squares), std::end(b.squares), c.begin());
    list.push_back(e);
}

// Builds the axes and their entries. Returns false if no action can be legal (a royal is
// attacked before any move, or nothing is playable).
bool HypercuboidSearch::build() {
    Multiverse& m = *mv;
    presentV      = m.present_v();
    us            = Color(presentV & 1);
    minL0         = m.min_l();
    maxL0         = m.max_l();
    const int n   = maxL0 - minL0 + 1;
    startEnd.assign(std::size_t(n), 0);
    axisOf.assign(std::size_t(n), -1);
    tipAxes = 0;
    for (int l = minL0; l <= maxL0; ++l) {
        startEnd[std::size_t(l - minL0)] = m.end_v(l);
        if (Color(m.end_v(l) & 1) == us) axisOf[std::size_t(l - minL0)] = tipAxes++;
    }
    if (tipAxes == 0 || (readOff.empty() && royal_attacked(m, us))) return false;
    forget_if_another_game();

    if (perAxis.size() < std::size_t(tipAxes)) perAxis.resize(std::size_t(tipAxes));
    contents.clear();
    cleanSpan = 0;
    for (int l = minL0; l <= maxL0; ++l)
        cleanSpan = std::max(cleanSpan, m.end_v(l) + 1);
    cleanOf.assign(std::size_t(n * cleanSpan), -1);
    localOf.clear(); // alike_by_other_move(): the boards change
    localCache.clear();
    branches.clear();
    for (int a = 0; a < tipAxes; ++a) {
        perAxis[std::size_t(a)].clear();
        perAxis[std::size_t(a)].push_back(Entry{}); // the pass, always entry 0
    }
    for (int l = minL0; l <= maxL0; ++l) {
        const int a = axisOf[std::size_t(l - minL0)];
        if (a < 0) continue;
        const int end = startEnd[std::size_t(l - minL0)];
        gen.clear();
        generate_board_moves(m, l, gen);
        int  leaveSq = -1, leaveIdx = -1;
        bool leaveOk = false;
        // Each entry's board is made aside (not on the multiverse): only its in-board attack
        // and its contents are needed.
        for (const Move& mm : gen) {
            if (!excluded.empty() && touches_any(std::span<const Move>(&mm, 1), excluded)) continue;
            if (mm.is_physical()) {
                const Board after = m.physical_board(mm);
                if (!in_board_attack(l, end, after)) {
                    Entry e;
                    e.type = E_PHYS;
                    e.move = mm;
                    e.v    = end + 1;
                    add_entry(perAxis[std::size_t(a)], e, after, &m.board(l, end));
                }
                continue;
            }
            if (!withJumps) continue;
            // Moves of one piece are contiguous: one departure entry per piece.
            if (mm.from.sq() != leaveSq) {
                leaveSq          = mm.from.sq();
                const Board left = m.departure_board(mm);
                leaveOk          = !in_board_attack(l, end, left);
                if (leaveOk) {
                    Entry e;
                    e.type   = E_LEAVE;
                    e.square = leaveSq;
                    e.v      = end + 1;
                    leaveIdx = int(perAxis[std::size_t(a)].size());
                    add_entry(perAxis[std::size_t(a)], e, left, &m.board(l, end));
                }
            }
            // The departure's board is not attacked within itself (leaveOk): the arrival's
            // decides, for a hop as for a branch (an attack within the new board does not
            // depend on the number the new timeline gets).
            if (!leaveOk) continue;
            const Board arrival = m.arrival_board(mm);
            if (in_board_attack(mm.to.l(), mm.to.v(), arrival)) continue;
            const int  tl = mm.to.l(), tv = mm.to.v();
            const int  ta      = axisOf[std::size_t(tl - minL0)];
            const bool ontoTip = tv == startEnd[std::size_t(tl - minL0)];
            // The two arrival entries differ only in their type (and a branch's source).
            Entry e;
            e.move    = mm;
            e.srcAxis = a;
            e.leave   = leaveIdx;
            e.v       = tv + 1;
            if (ontoTip && ta >= 0) {
                e.type = E_HOP;
                add_entry(perAxis[std::size_t(ta)], e, arrival, &m.board(tl, tv));
            }
            e.type = E_BRANCH;
            e.srcL = l;
            add_entry(branches, e, arrival, nullptr);
        }
    }

    // New-timeline axes: at most one per axis with a branching departure.
    newAxes = 0;
    if (!branches.empty()) {
        std::vector<std::uint8_t>& seen = scratchFlags;
        seen.assign(std::size_t(tipAxes), 0);
        for (const Entry& e : branches)
            if (!seen[std::size_t(e.srcAxis)]) {
                seen[std::size_t(e.srcAxis)] = 1;
                ++newAxes;
            }
    }

    // Flatten.
    axes.clear();
    entries.clear();
    stride = 0;
    for (int a = 0; a < tipAxes; ++a) {
        const auto& list = perAxis[std::size_t(a)];
        Axis        ax;
        ax.first = int(entries.size());
        ax.n     = int(list.size());
        ax.off   = stride;
        ax.words = words_for(ax.n);
        stride += ax.words;
        entries.insert(entries.end(), list.begin(), list.end());
        axes.push_back(ax);
    }
    for (int l = minL0; l <= maxL0; ++l)
        if (axisOf[std::size_t(l - minL0)] >= 0)
            axes[std::size_t(axisOf[std::size_t(l - minL0)])].l = l;
    const int branchFirst = int(entries.size());
    if (newAxes > 0) {
        entries.push_back(Entry{}); // pass
        entries.insert(entries.end(), branches.begin(), branches.end());
    }
    // The branches of one departure are contiguous (generated piece by piece, timeline by
    // timeline), so they are ranges of the new axes' entries, in the order of their sources.
    branchGroups.clear();
    for (int j = 0; j < int(branches.size()); ++j) {
        const Entry& e = branches[std::size_t(j)];
        if (branchGroups.empty() || branchGroups.back().srcAxis != e.srcAxis
            || branchGroups.back().leave != e.leave)
            branchGroups.push_back(BranchGroup{j + 1, j + 2, e.srcAxis, e.leave});
        else
            branchGroups.back().hi = j + 2;
    }
    for (int k = 0; k < newAxes; ++k) {
        Axis ax;
        ax.l     = k;
        ax.isNew = true;
        ax.first = branchFirst;
        ax.n     = int(branches.size()) + 1;
        ax.off   = stride;
        ax.words = words_for(ax.n);
        stride += ax.words;
        axes.push_back(ax);
    }
    const std::size_t N = axes.size();
    point.assign(N, 0);
    mate.assign(N, -1);
    sameBoard.assign(N, -1);
    if (adj.size() < N) adj.resize(N);
    pairSeen.assign(N * N, 0);
    slice.assign(std::size_t(stride), 0);
    cur.assign(std::size_t(stride), 0);
    return true;
}

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
    int w = maxL0 - mv->init_max_l(), b = mv->init_min_l() - minL0;
    (us == WHITE ? w : b) += created;
    const int a = activity_radius(w, b);
    return l >= mv->init_min_l() - a && l <= mv->init_max_l() + a;
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
        const int k = std::abs(l - next_timeline_index(us, minL0, maxL0));
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
    return r;
}

// Only the squares where the two boards differ are looked at: the point's own board keeps the
// rules (SquareRules).
bool HypercuboidSearch::alike(int a, int e, int j, const SquareRules* rules) const {
    if (j == e) return true;
    const Entry& mine  = entry(a, e);
    const Entry& other = entry(a, j);
    if (mine.board < 0 || other.board < 0 || mine.royals != other.royals) return false;
    const Bitboard  mask = rules ? rules->same | rules->watched | rules->shield : ~Bitboard(0);
    const Contents& x    = contents[std::size_t(mine.board)];
    const Contents& y    = contents[std::size_t(other.board)];
    // A square where the boards differ: may entry j's board hold y[sq] there?
    auto allowed = [&](int sq) {
        if (!rules) return false;
        const Bitboard b = square_bb(sq);
        const Piece    p = y[std::size_t(sq)];
        return !(rules->same & b) && !(p == NO_PIECE && (rules->shield & b))
            && !rules->forbids(sq, p, us);
    };
    // Two entries of a timeline's axis: their boards are made from its last board, and differ
    // only where one of them differs from it (a move's few squares).
    if (const Bitboard changed = mine.changed | other.changed;
        changed != ~Bitboard(0) && !compareAll) {
        for (Bitboard w = changed & mask; w; w &= w - 1) {
            const int sq = std::countr_zero(w);
            if (x[std::size_t(sq)] != y[std::size_t(sq)] && !allowed(sq)) return false;
        }
        return true;
    }
    // Eight squares (one byte each) at a time: the bytes that differ, under the mask's bytes.
    static_assert(sizeof(Piece) == 1 && sizeof(Contents) == 64);
    static_assert(std::endian::native == std::endian::little); // byte i = square 8r + i
    for (int r = 0; r < 8; ++r) {
        const auto bits = unsigned(mask >> (8 * r)) & 0xFFu;
        if (!bits) continue;
        std::uint64_t wx, wy;
        std::memcpy(&wx, x.data() + 8 * r, 8);
        std::memcpy(&wy, y.data() + 8 * r, 8);
        std::uint64_t diff = (wx ^ wy) & ByteMasks[bits];
        if (!diff) continue;
        while (diff) {
            const int i = std::countr_zero(diff) / 8;
            diff &= ~(std::uint64_t(0xFF) << (8 * i));
            if (!allowed(8 * r + i)) return false;
        }
    }
    return true;
}

// The squares a piece on sq can reach on its own board, whatever stands between: the lines
// (ranks, files, diagonals: riders, kings, pawns) and the knight's leaps. A local move has no
// other shape (unicorns and dragons have none; no castling without unmoved flags).
static constexpr std::array<Bitboard, 64> LocalReach = [] {
    std::array<Bitboard, 64> t{};
    for (int sq = 0; sq < 64; ++sq)
        for (int to = 0; to < 64; ++to) {
            const int dx = to % 8 - sq % 8, dy = to / 8 - sq / 8;
            const int ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
            if (to != sq && (ax == 0 || ay == 0 || ax == ay || ax * ay == 2))
                t[std::size_t(sq)] |= Bitboard(1) << to;
        }
    return t;
}();

std::size_t BoardAnswers::index(const Piece* board, std::uint64_t tag) {
    return XXH3_64bits_withSeed(board, 64, tag) & (Slots - 1);
}

int BoardAnswers::find(const Piece* board, std::uint64_t tag) const {
    if (slots.empty()) return -1;
    const Slot& s = slots[index(board, tag)];
    return holds(s, board, tag) ? s.yes : -1;
}

void BoardAnswers::forget() {
    for (Slot& s : slots)
        s.used = false;
}

void HypercuboidSearch::forget_if_another_game() {
    if (mv->rules() == memoRules) return;
    memoRules = mv->rules();
    otherMoveMemo.forget();
    inBoardAttackMemo.forget();
    recentRules.fill({});
}

std::uint32_t HypercuboidSearch::other_move_rules_id(const SquareRules* rules) {
    if (!rules || !rules->local) return 0;
    for (const OtherMoveRules& r : recentRules)
        if (r.id != 0 && r.us == us && r.rules.same_for_other_move(*rules)) return r.id;
    if (nextRulesId == 0) { // wrapped: no answer kept may meet a new id
        otherMoveMemo.forget();
        recentRules.fill({});
        nextRulesId = 1;
    }
    OtherMoveRules& r = recentRules[nextRulesSlot];
    nextRulesSlot     = (nextRulesSlot + 1) % RecentRuleSets;
    r                 = {*rules, us, nextRulesId++};
    return r.id;
}

bool HypercuboidSearch::alike_by_other_move(
    int a, int j, const SquareRules* rules, std::uint32_t rulesId) {
    if (rulesId == 0) return false;
    const Entry& other = entry(a, j);
    if (other.board < 0) return false;
    auto       found = [&] { return other_move_fits(a, j, rules); };
    const bool fits  = memos
         ? otherMoveMemo.answer(contents[std::size_t(other.board)].data(), rulesId, found)
         : found();
    stats_.byOtherMove += fits;
    return fits;
}

bool HypercuboidSearch::other_move_fits(int a, int j, const SquareRules* rules) {
    const Entry&    other = entry(a, j);
    const Contents& c     = contents[std::size_t(other.board)];
    // The mover's pieces on watched squares that capture along the lines there: the opponent's
    // move must take the only one. A royal standing where none stood must have moved there. So
    // the move lands on every square of `targets`: with two or more, no move can.
    Bitboard capturers = 0;
    for (Bitboard w = rules->watched; w; w &= w - 1) {
        const int sq = std::countr_zero(w);
        if (rules->forbids(sq, c[std::size_t(sq)], us)) capturers |= square_bb(sq);
    }
    const Bitboard royals  = other.royals;
    const Bitboard targets = capturers | (rules->royalsAfter & ~royals);
    if (bit_count(targets) > 1) return false;
    const Color them = ~us;
    if (localOf.size() < contents.size()) localOf.resize(contents.size());
    LocalMoves& lm = localOf[std::size_t(other.board)];
    Board       b; // the entry's board, rebuilt from its contents when needed
    bool        built = false;
    auto        board = [&]() -> const Board& {
        if (!built)
            for (int sq = 0; sq < 64; ++sq)
                if (c[std::size_t(sq)] != NO_PIECE) b.put(c[std::size_t(sq)], sq);
        built = true;
        return b;
    };
    if (!lm.asked) {
        lm.occupied = board().pieces();
        lm.pieces   = b.pieces(them);
        lm.pawns    = b.pawnlikes(them);
    }
    const Bitboard occupied = lm.occupied;
    // Only these pieces can make such a move: not one on a shield square (it would leave it
    // empty), a royal or a pawn-like piece (promotion) when the royals change, and one that
    // reaches the target.
    Bitboard movers = lm.pieces & ~rules->shield;
    if (royals != rules->royalsAfter) movers &= royals | lm.pawns;
    if (targets) movers &= LocalReach[std::size_t(std::countr_zero(targets))];
    if (!movers) {
        lm.asked = true;
        return false;
    }
    auto fitting = [&](const Move& m) {
        const Bitboard from = square_bb(m.from.sq()), to = square_bb(m.to.sq());
        if (capturers & ~to) return false;
        if (rules->shield & ~((occupied & ~from) | to)) return false;
        Bitboard after = royals;
        if (after & from) after = (after & ~from) | to;
        if (m.promotion != NO_PIECE_TYPE) after = (after & ~to) | (is_royal(m.promotion) ? to : 0);
        return after == rules->royalsAfter;
    };
    // The first question about a board looks at its moves piece by piece, up to the first that
    // fits: most boards are asked about once (tools-dead-timeline --at -5: 200,605 questions on
    // 157,022 boards), and listing all their moves cost more than the answers. A board asked
    // again has its moves listed once (tools-standard-checkmate --at -3 asks some boards
    // many times).
    bool fits = false;
    if (!lm.asked) {
        lm.asked = true;
        fits =
            find_local_move(*mv, board(), axes[std::size_t(a)].l, other.v, them, movers, fitting);
    } else {
        if (!lm.listed) {
            lm.first = std::uint32_t(localCache.size());
            find_local_move(*mv, board(), axes[std::size_t(a)].l, other.v, them, ~Bitboard(0),
                [&](const Move& m) {
                    localCache.push_back(m);
                    return false;
                });
            lm.count  = std::uint32_t(localCache.size() - lm.first);
            lm.listed = true;
        }
        for (std::uint32_t i = lm.first; i < lm.first + lm.count && !fits; ++i)
            fits = (movers & square_bb(localCache[i].from.sq())) && fitting(localCache[i]);
    }
    return fits;
}

// The slice of the actions alike to the current point (for_each_cut): on the axes that pass and
// on the axes of the kept timelines the point's entry; elsewhere every entry but the pass
// (onSquares: only those alike on the timeline's squares). A new-timeline axis keeps the point's
// branch, or with onSquares, the branches alike on its squares that create a board at the same
// time.
void HypercuboidSearch::slice_alike(bool onSquares) {
    slice_all();
    bool anyBranch = false;
    for (int a = 0; a < int(axes.size()); ++a) {
        const Axis&  ax   = axes[std::size_t(a)];
        const int    e    = point[std::size_t(a)];
        const Entry& mine = entry(a, e);
        if (ax.isNew) {
            const bool ruled = onSquares && std::size_t(ax.l) < newCutSquares.size();
            bool       kept  = false;
            for (std::size_t i = 0; i < keep.size() && !kept; ++i)
                kept = keep[i] == new_timeline(ax.l);
            // Not created by this action: with anyBranch, created or not by any (slice_all()).
            if (mine.type != E_BRANCH && ruled && !kept
                && newCutSquares[std::size_t(ax.l)].anyBranch) {
                anyBranch = true;
                continue;
            }
            slice_clear(a);
            if (mine.type != E_BRANCH || (onSquares && !ruled) || kept) {
                slice_set(a, e);
                continue;
            }
            const SquareRules* rules = onSquares ? &newCutSquares[std::size_t(ax.l)] : nullptr;
            const int          later =
                rules && rules->empty() && mine.v > rules->laterThan ? rules->laterThan : -1;
            const bool          anyStart = rules && rules->empty() && rules->anyStart;
            const std::uint32_t rulesId  = other_move_rules_id(rules);
            for (int j = 0; j < ax.n; ++j) {
                const Entry& other = entry(a, j);
                if (other.type != E_BRANCH) continue;
                if (anyStart) {
                    stats_.byAnyStart += other.v != mine.v;
                    slice_set(a, j);
                } else if (later >= 0 ? other.v > later
                                      : other.v == mine.v
                            && (!onSquares || alike(a, e, j, rules)
                                || alike_by_other_move(a, j, rules, rulesId)))
                    slice_set(a, j);
            }
            continue;
        }
        bool keptTip = false;
        for (std::size_t i = 0; i < keep.size() && !keptTip; ++i)
            keptTip = keep[i] == ax.l;
        if (keptTip) {
            slice_clear(a);
            slice_set(a, e);
            continue;
        }
        if (mine.type == E_PASS) continue; // every entry: a move there only takes a tip away
        for (int j = 0; j < ax.n; ++j)
            if (entry(a, j).type == E_PASS)
                slice[std::size_t(ax.off + (j >> 6))] &= ~(std::uint64_t(1) << (j & 63));
        if (!onSquares) continue;
        const int          i = ax.l - cutSquaresMinL;
        const SquareRules* rules =
            i >= 0 && std::size_t(i) < cutSquares.size() ? &cutSquares[std::size_t(i)] : nullptr;
        const std::uint32_t rulesId = other_move_rules_id(rules);
        for (int j = 0; j < ax.n; ++j)
            if (!alike(a, e, j, rules) && !alike_by_other_move(a, j, rules, rulesId))
                slice[std::size_t(ax.off + (j >> 6))] &= ~(std::uint64_t(1) << (j & 63));
    }
    stats_.byAnyBranch += anyBranch;
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
