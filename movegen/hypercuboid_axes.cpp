// Building the axes of a hypercuboid search (hypercuboid.h): per playable board the moves that
// leave it (entries), each tested alone for attacks within its own board, and the attacks
// between boards that a point must avoid.
#include "movegen/hypercuboid.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "movegen/action.h"
#include "movegen/rules.h"

namespace fived::movegen {

namespace {
constexpr int words_for(int bits) { return (bits + 63) / 64; }
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
    for (int l = minL0; l <= maxL0; ++l)
        if (const int a = axisOf[std::size_t(l - minL0)]; a >= 0) add_axis_entries(l, a);
    flatten_axes();
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

// The entries of axis a, timeline l's playable board: each move of the board that does not
// attack the mover's royals within its own boards, as a physical move, a departure and its
// hop and branch arrivals (build()).
void HypercuboidSearch::add_axis_entries(int l, int a) {
    Multiverse& m   = *mv;
    const int   end = startEnd[std::size_t(l - minL0)];
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

// The new-timeline axes and the flat entry list of every axis (build()).
void HypercuboidSearch::flatten_axes() {
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
}

} // namespace fived::movegen
