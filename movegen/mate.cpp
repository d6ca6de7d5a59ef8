#include "movegen/mate.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>
#include <utility>

#include "movegen/action.h"
#include "movegen/geometry.h"
#include "movegen/movegen.h"
#include "movegen/rules.h"

namespace fived::movegen {

namespace {
// The (ℓ, T) part of a line, dl and dt in -1 .. 1, as an index 0 .. 8.
constexpr int line_part(int dl, int dt) { return (dl + 1) * 3 + dt + 1; }
// The indices into UnitDirs of the lines by their (ℓ, T) part, UnitDirsByLT[line_part(dl, dt)]:
// nine groups of nine x-y parts, but eight for (0, 0) (the lines within the board have no
// x-y-fixed one).
struct LineGroup {
    int                         dl = 0, dt = 0, n = 0;
    std::array<std::uint8_t, 9> lines{};
};
constexpr auto UnitDirsByLT = [] {
    std::array<LineGroup, 9> t{};
    for (std::size_t i = 0; i < UnitDirs.size(); ++i) {
        const Delta& d              = UnitDirs[i];
        LineGroup&   g              = t[std::size_t(line_part(d.dl, d.dt))];
        g.dl                        = d.dl;
        g.dt                        = d.dt;
        g.lines[std::size_t(g.n++)] = std::uint8_t(i);
    }
    return t;
}();
// The indices into KnightLeaps of the leaps by their (ℓ, T) part (the eight within the board
// too).
struct KnightGroup {
    int                          dl = 0, dt = 0, n = 0;
    std::array<std::uint8_t, 16> leaps{};
};
constexpr auto KnightLeapsByLT = [] {
    std::array<KnightGroup, 17> t{};
    std::size_t                 groups = 0;
    for (std::size_t i = 0; i < KnightLeaps.size(); ++i) {
        const Delta& d = KnightLeaps[i];
        std::size_t  g = 0;
        while (g < groups && (t[g].dl != d.dl || t[g].dt != d.dt))
            ++g;
        if (g == groups) {
            t[g].dl = d.dl;
            t[g].dt = d.dt;
            ++groups;
        }
        t[g].leaps[std::size_t(t[g].n++)] = std::uint8_t(i);
    }
    return t;
}();
} // namespace

void MateInOneSearch::prepare_rays(const Multiverse& mv) {
    mover            = mv.to_move();
    const Color them = ~mover;
    minL0            = mv.min_l();
    const int maxL   = mv.max_l();
    end0.resize(std::size_t(maxL - minL0 + 1));
    for (int l = minL0; l <= maxL; ++l)
        end0[std::size_t(l - minL0)] = mv.end_v(l);
    // A board an action (with the defender's passes after it) may add: one or two past the end
    // of a timeline, or on a timeline the action creates.
    auto front = [&](int l, int v) {
        if (l < minL0 || l > maxL) return true;
        const int e = end0[std::size_t(l - minL0)];
        return v > e && v <= e + 2;
    };
    seeds.clear();
    rays.clear();
    for (int l = minL0; l <= maxL; ++l)
        for (int v = mv.start_v(l); v <= mv.end_v(l); ++v) {
            if (Color(v & 1) != mover) continue;
            for (Bitboard r = mv.board(l, v).royals(them); r; r &= r - 1) {
                const int sq = std::countr_zero(r), x = sq & 7, y = sq >> 3;
                // The lines by their (ℓ, T) part (one within the royal's own board meets no board
                // an action adds): the step whose board an action may add (front), if every board
                // before it exists. stillOpen: the x-y-fixed line's square is empty on every
                // board before it. A line with an x-y part leaves the board by step 8.
                for (std::size_t g = 0; g < UnitDirsByLT.size(); ++g) {
                    const LineGroup& d = UnitDirsByLT[g];
                    if (d.dl == 0 && d.dt == 0) continue;
                    // Back along its own timeline a line meets only older boards, never one an
                    // action adds.
                    if (d.dl == 0 && d.dt < 0) continue;
                    // Forward along it the front is (end - v) / 2 + 1 steps away: past step 7
                    // only the x-y-fixed line can reach it, while it stays open.
                    const bool farFront =
                        d.dl == 0 && (end0[std::size_t(l - minL0)] - v) / 2 + 1 > 7;
                    int  frontStep = 0;
                    bool stillOpen = true;
                    for (int j = 1;; ++j) {
                        const int ll = l + j * d.dl, vv = v + 2 * j * d.dt;
                        if (vv < 0) break;
                        if (front(ll, vv)) {
                            frontStep = j;
                            break;
                        }
                        const Board* b = mv.board_if(ll, vv);
                        if (!b) break;
                        stillOpen = stillOpen && b->empty(sq);
                        if (!stillOpen && (j >= 7 || farFront)) break;
                    }
                    if (frontStep > 0)
                        seeds.push_back({l, v, x, y, frontStep, std::uint8_t(g), false, stillOpen,
                            l + frontStep * d.dl, v + 2 * frontStep * d.dt});
                }
                // The leaps by their (ℓ, T) part: the board they land on.
                for (std::size_t g = 0; g < KnightLeapsByLT.size(); ++g) {
                    const KnightGroup& group = KnightLeapsByLT[g];
                    const int          fl = l + group.dl, fv = v + 2 * group.dt;
                    if (group.n > 0 && (group.dl != 0 || group.dt != 0) && front(fl, fv))
                        seeds.push_back({l, v, x, y, 1, std::uint8_t(g), true, false, fl, fv});
                }
            }
        }
    // Grouped by the board met, as they come: one royal's lines of one (ℓ, T) part that meet a
    // board meet the same one, and so do its leaps of one part.
    rayGroups.clear();
    for (std::size_t i = 0; i < seeds.size(); ++i)
        if (rayGroups.empty() || seeds[i].fl != rayGroups.back().fl
            || seeds[i].fv != rayGroups.back().fv)
            rayGroups.push_back({seeds[i].fl, seeds[i].fv, i, i + 1});
        else
            rayGroups.back().lastSeed = i + 1;
}

// The rays of a group's seeds, made the first time its board exists (most groups meet a board
// that no action adds, or only a few actions): the lines whose squares up to the board met are
// empty on the boards before it (and on it, on the board), and the leaps that land on the board.
void MateInOneSearch::expand(const Multiverse& mv, RayGroup& group) {
    const int w = mv.width(), h = mv.height();
    auto      on = [&](int x, int y) { return x >= 0 && x < w && y >= 0 && y < h; };
    group.first  = rays.size();
    for (std::size_t s = group.firstSeed; s < group.lastSeed; ++s) {
        const Seed& seed = seeds[s];
        if (seed.knight) {
            const KnightGroup& kg = KnightLeapsByLT[seed.group];
            for (int k = 0; k < kg.n; ++k) {
                const std::uint8_t i = kg.leaps[std::size_t(k)];
                const Delta&       d = KnightLeaps[i];
                if (on(seed.x + d.dx, seed.y + d.dy))
                    rays.push_back({seed.l, seed.v, seed.x, seed.y, 1, i, true, seed.fl, seed.fv});
            }
            continue;
        }
        const LineGroup& lines = UnitDirsByLT[seed.group];
        const int        fj    = seed.j;
        // The boards of steps 1 .. fj - 1 (they exist: the seed's walk passed them).
        std::array<const Board*, 8> along{};
        for (int j = 1; j < fj && j < int(along.size()); ++j)
            along[std::size_t(j)] = &mv.board(seed.l + j * lines.dl, seed.v + 2 * j * lines.dt);
        for (int k = 0; k < lines.n; ++k) {
            const std::uint8_t i = lines.lines[std::size_t(k)];
            const Delta&       d = UnitDirs[i];
            bool               open;
            if (d.dx == 0 && d.dy == 0) {
                open = seed.stillOpen;
            } else {
                open = fj < int(along.size()) && on(seed.x + fj * d.dx, seed.y + fj * d.dy);
                for (int j = 1; j < fj && open; ++j)
                    open = along[std::size_t(j)]->empty(
                        make_square(seed.x + j * d.dx, seed.y + j * d.dy));
            }
            if (open)
                rays.push_back({seed.l, seed.v, seed.x, seed.y, fj, i, false, seed.fl, seed.fv});
        }
    }
    group.last     = rays.size();
    group.expanded = true;
}

// Inline: walk_from_royals() asks it at every step of every line. GCC -O3 kept it (and
// Multiverse::board_if()) out of line; always inlined, tools-dead-timeline --at -5 runs 1.8 %
// fewer instructions.
[[gnu::always_inline]] inline SquareRules* MateInOneSearch::created_by_action(
    const Multiverse& mv, int l, int v) {
    const int maxL = max_l0();
    if (l < minL0 || l > maxL) {
        const int k = new_timeline_number(mover, minL0, maxL, l);
        return k >= 0 && std::size_t(k) < newSquares.size() && v == mv.start_v(l)
            ? &newSquares[std::size_t(k)]
            : nullptr;
    }
    const int e = end0[std::size_t(l - minL0)];
    return Color(e & 1) == mover && v == e + 1 && mv.end_v(l) >= v
        ? &squares[std::size_t(l - minL0)]
        : nullptr;
}

// The lines and leaps from a royal (walk_from_royals()): the rules they add to the boards
// whose contents vary with the action (variable()).
template <class Variable>
struct MateInOneSearch::RoyalLines {
    MateInOneSearch&  s;
    const Multiverse& mv;
    Variable&         variable;
    Color             mover;
    int               w, h;

    RoyalLines(MateInOneSearch& search, const Multiverse& m, Variable& var) :
        s(search), mv(m), variable(var), mover(search.mover), w(m.width()), h(m.height()) { }

    bool on(int x, int y) const { return x >= 0 && x < w && y >= 0 && y < h; }
    // capturers_along() by direction, for k = 1 and k > 1 (the same for every k > 1).
    std::uint16_t capturers(const Delta& d, int k) const {
        static constexpr auto Capturers = [] {
            std::array<std::array<std::array<std::uint16_t, 2>, UnitDirs.size()>, COLOR_NB> t{};
            for (int c = 0; c < COLOR_NB; ++c)
                for (std::size_t i = 0; i < UnitDirs.size(); ++i)
                    for (int step = 1; step <= 2; ++step)
                        t[std::size_t(c)][i][std::size_t(step - 1)] =
                            capturers_along(Color(c), UnitDirs[i], step);
            return t;
        }();
        return Capturers[mover][std::size_t(&d - UnitDirs.data())][k > 1];
    }

    // A line within one board whose contents vary: every square up to the edge is watched (past
    // the pieces met too), up to the first piece when it is a shield. walk()'s rules (below),
    // with the board and its rules looked up once: 2 % fewer instructions than walk() on the
    // mate-in-one searches of tools-dead-timeline --at -5.
    void within(const Board& b, SquareRules& to, int x, int y, const Delta& d) const {
        int  last = 0, first = 0; // the last step on the board, the first with a piece
        bool danger = false;
        for (int j = 1; on(x + j * d.dx, y + j * d.dy); ++j) {
            last          = j;
            const Piece p = b.squares[make_square(x + j * d.dx, y + j * d.dy)];
            if (p == NO_PIECE) continue;
            if (first == 0)
                first = j;
            else
                danger = danger || (color_of(p) == mover && (capturers(d, j) >> type_of(p) & 1u));
        }
        if (danger) last = first;
        for (int j = 1; j <= last; ++j) {
            const Square sq = make_square(x + j * d.dx, y + j * d.dy);
            to.watched |= square_bb(sq);
            to.forbid[std::size_t(sq)] |= capturers(d, j);
        }
        if (danger) to.shield |= square_bb(make_square(x + first * d.dx, y + first * d.dy));
    }

    // A line from a royal: its squares on the boards the action created (variable(), whose
    // contents vary with the action) are watched for the mover's pieces that capture along it,
    // past the pieces met there too, up to the first piece on another board (fixed whatever the
    // action) or the end of the line. When a piece beyond the first one met on a created board
    // could capture along the line, that first piece is a shield (some piece must stand there)
    // and the line is watched up to it only.
    void walk(int l, int v, int x, int y, const Delta& d, int j) {
        if (d.dl == 0 && d.dt == 0 && j == 1) {
            if (SquareRules* to = variable(l, v)) {
                within(mv.board(l, v), *to, x, y, d);
                return;
            }
        }
        auto& lineSquares = s.lineSquares;
        lineSquares.clear();
        bool danger = false, blocked = false;
        for (;; ++j) {
            const int ll = l + j * d.dl, vv = v + 2 * j * d.dt;
            const int xx = x + j * d.dx, yy = y + j * d.dy;
            if (!on(xx, yy)) break;
            const Board* b = mv.board_if(ll, vv);
            if (!b) break;
            const Square        sq    = make_square(xx, yy);
            const Piece         p     = b->squares[sq];
            const std::uint16_t types = capturers(d, j);
            const bool          capturer =
                p != NO_PIECE && color_of(p) == mover && (types >> type_of(p) & 1u);
            SquareRules* to = variable(ll, vv);
            if (!to) {
                if (p == NO_PIECE) continue;
                danger = danger || capturer;
                break;
            }
            lineSquares.push_back({to, sq, types, p != NO_PIECE});
            if (p == NO_PIECE) continue;
            danger  = danger || (blocked && capturer);
            blocked = true;
        }
        for (const LineSquare& ls : lineSquares) {
            ls.rules->watched |= square_bb(ls.sq);
            ls.rules->forbid[std::size_t(ls.sq)] |= ls.types;
            if (danger && ls.occupied) {
                ls.rules->shield |= square_bb(ls.sq);
                break;
            }
        }
    }

    void leap(int l, int v, int x, int y, const Delta& d) {
        const int ll = l + d.dl, vv = v + 2 * d.dt, xx = x + d.dx, yy = y + d.dy;
        if (!on(xx, yy) || !mv.board_exists(ll, vv)) return;
        if (SquareRules* to = variable(ll, vv)) {
            const Square sq = make_square(xx, yy);
            to->watched |= square_bb(sq);
            to->forbid[std::size_t(sq)] |= std::uint16_t(1u << KNIGHT);
        }
    }

    // The lines and leaps from the royals of the board (l, v) whose (ℓ, T) part lands on a
    // board in varBoards (the boards with rules): the others add no rule.
    void from_royals(int l, int v) {
        const Bitboard royals = mv.board(l, v).royals(~mover);
        if (!royals) return;
        auto     part      = [](int dl, int dt) { return 1u << line_part(dl, dt); };
        auto     leap_part = [](int dl, int dt) { return 1u << ((dl + 2) * 5 + dt + 2); };
        unsigned parts = 0; // part(dl, dt) for each (ℓ, T) part that lands on a variable board
        unsigned leaps = 0; // leap_part(dl, dt) likewise, for the leaps (|dl|, |dt| <= 2)
        for (const auto& [lv, vv] : s.varBoards) {
            const int dl = lv - l, dv = vv - v, n = std::abs(dl);
            if (dv % 2 != 0) continue;
            if (dl == 0)
                parts |= part(0, (dv > 0) - (dv < 0));
            else if (dv == 0 || std::abs(dv) == 2 * n)
                parts |= part((dl > 0) - (dl < 0), (dv > 0) - (dv < 0));
            if (n <= 2 && std::abs(dv) <= 4) leaps |= leap_part(dl, dv / 2);
        }
        if (s.walkEveryLine) parts = leaps = ~0u; // tests: every line (set_walk_every_line())
        for (Bitboard r = royals; r; r &= r - 1) {
            const int sq = std::countr_zero(r), x = sq & 7, y = sq >> 3;
            // By (ℓ, T) part, not every direction asked whether its part is wanted (that was 2 %
            // of tools-dead-timeline --at -5's instructions); the rules are unions, so the order
            // does not matter.
            if (parts)
                for (const LineGroup& g : UnitDirsByLT)
                    if (parts & part(g.dl, g.dt))
                        for (int k = 0; k < g.n; ++k)
                            walk(l, v, x, y, UnitDirs[g.lines[std::size_t(k)]], 1);
            if (leaps)
                for (const KnightGroup& g : KnightLeapsByLT)
                    if (g.n > 0 && (leaps & leap_part(g.dl, g.dt)))
                        for (int k = 0; k < g.n; ++k)
                            leap(l, v, x, y, KnightLeaps[g.leaps[std::size_t(k)]]);
        }
    }
};

template <class Variable>
void MateInOneSearch::walk_from_royals(const Multiverse& mv, Variable variable) {
    RoyalLines<Variable> lines(*this, mv, variable);
    const int            maxL = max_l0();
    for (RayGroup& g : rayGroups) {
        if (!mv.board_exists(g.fl, g.fv)) continue; // the action (or a pass) did not add it
        if (!g.expanded) expand(mv, g);
        for (std::size_t i = g.first; i < g.last; ++i) {
            const Ray& r = rays[i];
            if (r.knight)
                lines.leap(r.l, r.v, r.x, r.y, KnightLeaps[r.dir]);
            else
                lines.walk(r.l, r.v, r.x, r.y, UnitDirs[r.dir], r.j);
        }
    }
    // The royals on boards past the old ends and on the timelines created since. A line adds a
    // rule only where it lands on a board whose contents depend on the action (variable(); made
    // by it, so past the old ends too): the lines whose (ℓ, T) part lands on none are not walked,
    // nor the leaps whose (ℓ, T) part does.
    auto past_old_ends = [&](auto visit) {
        for (int l = mv.min_l(); l <= mv.max_l(); ++l) {
            const bool created = l < minL0 || l > maxL;
            for (int v = created ? mv.start_v(l) : end0[std::size_t(l - minL0)] + 1;
                 v <= mv.end_v(l); ++v)
                visit(l, v);
        }
    };
    varBoards.clear();
    past_old_ends([&](int l, int v) {
        if (variable(l, v)) varBoards.push_back({l, v});
    });
    past_old_ends([&](int l, int v) {
        if (Color(v & 1) == mover) lines.from_royals(l, v);
    });
}

// laterThan: the present of mv. anyStart: a created timeline that is inactive (RULES.md §4.1)
// never holds the present and is never passed; its only board is of the defender's colour (the
// attacker cannot move there in the same action) and stays so unless e moves there (then it has a
// rule). The cut keeps the number of timelines each side creates (every alike action branches on
// the same new-timeline axes; the attacker creates none of the defender's), or with anyBranch
// adds the attacker's only where that leaves every radius as it is, so it stays inactive after
// every alike action.
// anyBranch: every timeline the attacker creates after mv would be inactive and leave the activity
// of the others as it is (mate.h, "More timelines").
void MateInOneSearch::created_timeline_rules(const Multiverse& mv) {
    const bool further = further_timelines_inactive(mover, mv.created(WHITE), mv.created(BLACK));
    for (std::size_t k = 0; k < newSquares.size(); ++k) {
        const int l             = nth_new_timeline(mover, minL0, max_l0(), int(k));
        newSquares[k].laterThan = mv.present_v();
        newSquares[k].anyStart  = mv.has_timeline(l) && !mv.is_active(l);
        newSquares[k].anyBranch = further;
    }
}

void MateInOneSearch::clear_rules() {
    for (SquareRules& r : squares)
        r.clear();
    for (SquareRules& r : newSquares)
        r.clear();
}

void MateInOneSearch::action_squares(Multiverse& mv) {
    clear_rules();
    // A created timeline that starts after the present is not passed, so no line reads it: it
    // leaves the check test as it is whenever it starts after the present (laterThan).
    created_timeline_rules(mv);
    // The check test's multiverse: the defender's mandatory boards passed (§5.4). A board whose
    // contents vary with the action is the pass copy of a board the action created.
    mv.make_passes(mv.present_v(), passUndo);
    walk_from_royals(mv, [&](int l, int v) { return created_by_action(mv, l, v - 1); });
    mv.unmake_passes(passUndo);
}

// Every timeline from the first to the last that m starts on, ends on or crosses.
static void keep_timelines(const Move& m, std::vector<int>& keep) {
    for (int l = std::min(m.from.l(), m.to.l()); l <= std::max(m.from.l(), m.to.l()); ++l)
        keep.push_back(l);
}

void MateInOneSearch::escape_squares(Multiverse& mv, std::vector<int>& keep) {
    clear_rules();
    // The squares e's moves read on the boards the action created: from, to and, for a line, the
    // squares between, on every board the move travels over (RULES.md §2.1). A move that reads
    // more (castling: attacked squares; en passant: the previous move; a double step: the
    // unmoved flags) keeps its timelines.
    // The one move of e that reads each board the action created (-1: none, -2: several):
    // readers[ℓ - min ℓ] on the timelines before it, readers[squares.size() + k] on its k-th new
    // one.
    std::fill(readers.begin(), readers.end(), -1);
    int  reader = 0;
    auto read   = [&](Vec4 p) {
        SquareRules* s = created_by_action(mv, p.l(), p.v());
        if (!s) return;
        s->same |= square_bb(p.sq());
        const std::size_t i = s >= squares.data() && s < squares.data() + squares.size()
              ? std::size_t(s - squares.data())
              : squares.size() + std::size_t(s - newSquares.data());
        readers[i]          = readers[i] == -1 || readers[i] == reader ? reader : -2;
    };
    for (const Move& m : escape) {
        reader = int(&m - escape.data());
        if (m.flags & (MF_CASTLE | MF_ENPASSANT | MF_DOUBLE)) {
            keep_timelines(m, keep);
            continue;
        }
        // A jump's arrival copies the whole board it lands on (onto a new timeline when another
        // move of e made that board a past one): the copy's lines are not walked as the action's,
        // so the board must be the same everywhere.
        if (!m.is_physical())
            if (SquareRules* s = created_by_action(mv, m.to.l(), m.to.v()))
                s->same |= mv.valid_squares();
        const int d[4] = {m.to.l() - m.from.l(), (m.to.v() - m.from.v()) / 2, m.to.x() - m.from.x(),
            m.to.y() - m.from.y()};
        int       n    = 0;
        for (int c : d)
            n = std::max(n, std::abs(c));
        bool line = n > 0;
        for (int c : d)
            line = line && (c == 0 || std::abs(c) == n);
        if (!line) { // a leap reads its two ends only
            read(m.from);
            read(m.to);
            continue;
        }
        for (int j = 0; j <= n; ++j)
            read(Vec4(m.from.l() + j * d[0] / n, m.from.v() + 2 * j * d[1] / n,
                make_square(m.from.x() + j * d[2] / n, m.from.y() + j * d[3] / n)));
    }
    // A board read only by e's move that stays on it gets `local` (mate.h, "Another move of e"),
    // with the defender's royals on the board that move makes.
    auto rules = [&](std::size_t i) -> SquareRules& {
        return i < squares.size() ? squares[i] : newSquares[i - squares.size()];
    };
    for (std::size_t i = 0; i < readers.size(); ++i) {
        if (readers[i] < 0) continue;
        const Move& m = escape[std::size_t(readers[i])];
        rules(i).local =
            m.is_physical() && created_by_action(mv, m.from.l(), m.from.v()) == &rules(i);
    }
    escapeUndo.clear();
    do_action(mv, escape, escapeUndo);
    for (std::size_t i = 0; i < readers.size(); ++i)
        if (rules(i).local) {
            const Vec4 from      = escape[std::size_t(readers[i])].from;
            rules(i).royalsAfter = mv.board(from.l(), from.v() + 1).royals(~mover);
        }
    // After e no royal of the defender is attacked: the lines' rules (mate.h) of the royals after
    // e, on the boards e makes from the boards the action created.
    // A created timeline that e does not read (no square rule) ends after the present e passes to
    // the attacker (else that present would be the defender's). With one that starts later than
    // that, the present after e is the same, the attacker's, and e may be submitted (RULES.md §4.4:
    // the defender's boards at the present after the action need not be played).
    created_timeline_rules(mv);
    walk_from_royals(mv, [&](int l, int v) { return created_by_action(mv, l, v - 1); });
    undo_action(mv, escapeUndo);
}

bool MateInOneSearch::remembered_escape(Multiverse& mv) {
    for (std::size_t slot = 0; slot < lastEscapes.size() && !lastEscapes[slot].empty(); ++slot) {
        if (!frozen_.empty() && touches_any(lastEscapes[slot], frozen_)) continue;
        bool legal = false;
        escapeCheck.reset_only(mv, lastEscapes[slot]);
        escapeCheck.for_each([&](std::span<const Move> e) {
            escape.assign(e.begin(), e.end());
            legal = true;
            return false;
        });
        if (legal) {
            const auto first = lastEscapes.begin();
            std::rotate(first, first + std::ptrdiff_t(slot), first + std::ptrdiff_t(slot) + 1);
            return true;
        }
    }
    return false;
}

void MateInOneSearch::remember_escape() {
    std::rotate(lastEscapes.begin(), lastEscapes.end() - 1, lastEscapes.end());
    lastEscapes[0].assign(escape.begin(), escape.end());
}

bool MateInOneSearch::escapes(Multiverse& mv) {
    if (remembered_escape(mv)) {
        ++stats_.reused;
        return true;
    }
    if (!defender.exists(mv, &escape)) return false;
    remember_escape();
    return true;
}

bool MateInOneSearch::mated(Multiverse& mv) { return in_check_at_turn_start(mv) && !escapes(mv); }

bool MateInOneSearch::cuts_pay(const Multiverse& mv) {
    int playable = 0;
    for (int l = mv.min_l(); l <= mv.max_l(); ++l)
        playable += Color(mv.end_v(l) & 1) == mv.to_move();
    return playable >= QuietCutBoards;
}

bool MateInOneSearch::walk_checks(Multiverse&                                               mv,
    absl::FunctionRef<HypercuboidSearch::Verdict(std::span<const Move>, std::vector<int>&)> check,
    absl::FunctionRef<bool()> tested, const std::atomic<bool>* stop) {
    using Cut = HypercuboidSearch::Verdict;
    stats_    = Stats{};
    // The quiet cut pays where actions multiply: with at least QuietCutBoards playable boards.
    // On one board the squares cost more than the actions they would save (measured on the
    // suite's small positions), and each quiet action is left out alone. On two they pay:
    // tools-dead-timeline --at -5 after a key and its refutation, about 3,000 quiet actions
    // tested one by one (6 ms) against 40 with the cut (0.6 ms).
    quietCut = cuts_pay(mv);
    if (quietCut) {
        prepare_rays(mv);
        squares.resize(end0.size());
        newSquares.resize(end0.size()); // at most one new timeline per timeline
        readers.resize(squares.size() + newSquares.size());
    }
    const bool done = attacker.for_each_cut(
        mv,
        [&](std::span<const Move> a, std::vector<int>& keep) {
            if (!tested()) return Cut::STOP;
            ++stats_.actions;
            // Only an action that gives check can mate; the cheap test first (the existence
            // test builds every board's moves). One that does not leaves out every action
            // whose boards agree with its own on the squares its check test read
            // (action_squares()): none of those gives check either.
            if (!in_check_at_turn_start(mv)) {
                if (!quietCut) return Cut::NEXT;
                ++stats_.quietCuts;
                action_squares(mv);
                return Cut::CUT_ON_SQUARES;
            }
            return check(a, keep);
        },
        squares, mv.min_l(), newSquares, stop);
    stats_.byOtherMove = attacker.stats().byOtherMove;
    stats_.byAnyStart  = attacker.stats().byAnyStart;
    stats_.byAnyBranch = attacker.stats().byAnyBranch;
    return done;
}

bool MateInOneSearch::for_each_mate(Multiverse&    mv,
    absl::FunctionRef<bool(std::span<const Move>)> mate, absl::FunctionRef<bool()> tested,
    const std::atomic<bool>* stop) {
    using Cut = HypercuboidSearch::Verdict;
    return walk_checks(
        mv,
        [&](std::span<const Move> a, std::vector<int>& keep) {
            if (escapes(mv)) {
                ++stats_.cuts;
                if (quietCut) {
                    ++stats_.squareCuts;
                    escape_squares(mv, keep);
                    return Cut::CUT_ON_SQUARES;
                }
                for (const Move& m : escape)
                    keep_timelines(m, keep);
                return Cut::CUT;
            }
            return mate(a) ? Cut::NEXT : Cut::STOP;
        },
        tested, stop);
}

bool MateInOneSearch::for_each_check(Multiverse&   mv,
    absl::FunctionRef<bool(std::span<const Move>)> check, absl::FunctionRef<bool()> tested,
    const std::atomic<bool>* stop) {
    using Cut = HypercuboidSearch::Verdict;
    return walk_checks(
        mv,
        [&](std::span<const Move> a, std::vector<int>&) {
            return check(a) ? Cut::NEXT : Cut::STOP;
        },
        tested, stop);
}

bool MateInOneSearch::for_each_check_cut(Multiverse&                                        mv,
    absl::FunctionRef<HypercuboidSearch::Verdict(std::span<const Move>, std::vector<int>&)> check,
    absl::FunctionRef<bool()> tested, const std::atomic<bool>* stop) {
    return walk_checks(mv, check, tested, stop);
}

bool MateInOneSearch::no_mate_over_class(Multiverse& mv, std::span<const int> frozen,
    absl::FunctionRef<bool()> tested, const std::atomic<bool>* stop) {
    frozen_.assign(frozen.begin(), frozen.end());
    attacker.set_attacks_read_off(frozen);
    defender.set_excluded_timelines(frozen);
    const bool done = for_each_mate(
        mv, [](std::span<const Move>) { return false; }, tested, stop);
    attacker.set_attacks_read_off({});
    defender.set_excluded_timelines({});
    frozen_.clear();
    return done;
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
