// The "alike" cuts of a hypercuboid search (hypercuboid.h, for_each_cut): which entries of an
// axis make a board alike to the point's under a timeline's SquareRules (alike(), and a move of
// the opponent that makes them so, other_move_fits()), and the slice of the actions alike to a
// point (slice_alike()). Used by the mate-in-one search and the solver's class walks, not by
// listing.
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
// ByteMasks[b]: 0xFF in byte i of the word for each bit i of b (alike()).
constexpr auto ByteMasks = [] {
    std::array<std::uint64_t, 256> m{};
    for (unsigned b = 0; b < 256; ++b)
        for (unsigned i = 0; i < 8; ++i)
            if (b >> i & 1u) m[b] |= std::uint64_t(0xFF) << (8 * i);
    return m;
}();
} // namespace

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

} // namespace fived::movegen
