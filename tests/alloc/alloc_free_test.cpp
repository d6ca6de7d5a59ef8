// STYLE.md §2.5: move generation, legal-action enumeration and search nodes allocate nothing
// after warm-up.
//
// This executable replaces the global operator new/delete with counting versions. Each test
// builds its positions (allocation is allowed there), runs the operation once to warm up the
// buffers it reuses, then runs it again and asserts that the counter did not move.
//
// The positions are embedded (built by deterministic play from built-in variants, with time
// travel and up to six timelines; the solver's mate in 2 from a 5DFEN board), so the test needs
// nothing from ../shared.
//
// What is reused: an ActionSearch keeps its buffers across reset() (a new position) and across
// enumerations, and an ActionPicker (the legal-action policy) keeps its engines' buffers and its
// record of visited actions across reset(); count_legal_actions(), exists_legal_action(),
// verdict() and perft() take their picker from a per-thread stack indexed by nesting depth; the
// solver's Searcher keeps one ActionPicker, action list, undo list, path and killer pair per
// ply. What still allocates, and is outside these tests: constructing a search/searcher/solver,
// the transposition table, the solver's results (keys, solution tree, the proof check), and
// oneTBB tasks when a node splits.

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "movegen/actions.h"
#include "movegen/fen_rows.h"
#include "movegen/movegen.h"
#include "movegen/picker.h"
#include "movegen/variants.h"
#include "solver/search.h"
#include "solver/tt.h"
#include "tests/movegen/variant_util.h"

namespace {
std::atomic<std::uint64_t> g_allocations{0};

void* counted_alloc(std::size_t n) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void* counted_alloc_aligned(std::size_t n, std::align_val_t a) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    const std::size_t al = static_cast<std::size_t>(a);
    if (void* p = std::aligned_alloc(al, (n + al - 1) / al * al)) return p;
    throw std::bad_alloc();
}
} // namespace

// The replaceable global allocation functions ([new.delete]); the counter sees every one.
void* operator new(std::size_t n) { return counted_alloc(n); }
void* operator new[](std::size_t n) { return counted_alloc(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
    try {
        return counted_alloc(n);
    } catch (...) {
        return nullptr;
    }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
    try {
        return counted_alloc(n);
    } catch (...) {
        return nullptr;
    }
}
void* operator new(std::size_t n, std::align_val_t a) { return counted_alloc_aligned(n, a); }
void* operator new[](std::size_t n, std::align_val_t a) { return counted_alloc_aligned(n, a); }
void  operator delete(void* p) noexcept { std::free(p); }
void  operator delete[](void* p) noexcept { std::free(p); }
void  operator delete(void* p, std::size_t) noexcept { std::free(p); }
void  operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void  operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void  operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void  operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void  operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

namespace fived::movegen {
namespace {

// Allocations made while f runs.
template <class F>
std::uint64_t allocations_in(F&& f) {
    const std::uint64_t before = g_allocations.load();
    f();
    return g_allocations.load() - before;
}

Multiverse variant(const char* name) { return testing::variant_start(name); }

// Plays `plies` actions from mv, deterministically: on even plies the first legal action with a
// jump (if any), otherwise the (seed-th mod 50) legal action. Gives positions with several
// timelines and travel both ways. The undo records are kept in `undo`.
void play(Multiverse& mv, int plies, unsigned seed, std::vector<MoveUndo>& undo) {
    for (int ply = 0; ply < plies; ++ply) {
        std::vector<Move> chosen, first, jumping;
        unsigned          n = 0, pick = (seed * 2654435761u + unsigned(ply) * 40503u) % 50u;
        ActionSearch      s(mv);
        s.for_each([&](std::span<const Move> a) {
            if (n == 0) first.assign(a.begin(), a.end());
            if (n == pick) chosen.assign(a.begin(), a.end());
            if (jumping.empty())
                for (const Move& m : a)
                    if (!m.is_physical()) jumping.assign(a.begin(), a.end());
            return ++n < 400;
        });
        if (n == 0) return;
        const std::vector<Move>& act =
            (ply % 2 == 0 && !jumping.empty()) ? jumping : (chosen.empty() ? first : chosen);
        for (const Move& m : act) {
            undo.emplace_back();
            mv.make_move(m, undo.back());
        }
    }
}

struct Fixture {
    Multiverse            mv;
    std::vector<MoveUndo> undo;
    int                   perftDepth; // the depth Perft.AllocationFreeAfterWarmUp runs (0: none)
};

// The positions every test runs on: built-in starts and positions after time travel, with 1 to
// 6 timelines (printed by FixturesHaveTimeTravel). The perft depths keep each perft below about
// 10,000 leaves, or one count of at most 20,000 actions.
std::vector<Fixture>& fixtures() {
    static std::vector<Fixture> f = [] {
        std::vector<Fixture> v;
        const struct {
            const char* variant;
            int         plies;
            unsigned    seed;
            int         perftDepth;
        } specs[] = {
            {"Standard", 0, 0, 3},                  // 1 timeline
            {"Very Small - Open", 0, 0, 3},         // 1 timeline
            {"Standard - Turn Zero", 2, 0, 2},      // 1 timeline
            {"Standard", 6, 1, 0},                  // 5 timelines, 10^6+ actions
            {"Standard - Turn Zero", 5, 3, 1},      // 3 timelines
            {"Standard - Two Timelines", 3, 4, 0},  // 4 timelines, 857,196 actions
            {"Very Small - Open", 6, 5, 1},         // 6 timelines, no legal action
            {"Very Small - Open", 2, 6, 2},         // 1 timeline
            {"Very Small - Open", 3, 7, 1},         // 2 timelines
            {"Very Small - Open", 4, 8, 1},         // 2 timelines
            {"Very Small - Open", 5, 9, 1},         // 3 timelines
            {"Focused - Just Kings", 3, 11, 2},     // 2 timelines (a branching jump)
            {"Focused - Just Kings", 5, 13, 0},     // 4 timelines
            {"Misc - Timeline Fragments", 0, 0, 2}, // 2 timelines (even)
        };
        for (const auto& s : specs) {
            Fixture fx{variant(s.variant), {}, s.perftDepth};
            fx.undo.reserve(256);
            play(fx.mv, s.plies, s.seed, fx.undo);
            v.push_back(std::move(fx));
        }
        return v;
    }();
    return f;
}

TEST(AllocFree, FixturesHaveTimeTravel) {
    int maxTimelines = 0;
    for (Fixture& f : fixtures()) {
        maxTimelines          = std::max(maxTimelines, f.mv.timeline_count());
        const std::uint64_t n = count_legal_actions(f.mv, 20001);
        std::printf("  %d timelines, present T%d: %s%llu legal actions\n", f.mv.timeline_count(),
            f.mv.present_v() / 2, n > 20000 ? "over " : "",
            static_cast<unsigned long long>(std::min<std::uint64_t>(n, 20000)));
    }
    EXPECT_GE(maxTimelines, 3) << "the fixtures should contain multi-timeline positions";
}

TEST(AllocFree, MoveGeneration) {
    std::vector<Move> moves;
    moves.reserve(4096);
    std::size_t generated = 0;
    auto        run       = [&] {
        for (Fixture& f : fixtures()) {
            moves.clear();
            generate_moves(f.mv, f.mv.to_move(), moves);
            generated += moves.size();
            for (int l = f.mv.min_l(); l <= f.mv.max_l(); ++l)
                if (Color(f.mv.end_v(l) & 1) == f.mv.to_move()) {
                    moves.clear();
                    generate_board_moves(f.mv, l, moves);
                }
        }
    };
    run(); // warm-up
    EXPECT_EQ(allocations_in(run), 0u);
    EXPECT_GT(generated, 0u);
}

TEST(AllocFree, CheckTest) {
    int  checks = 0;
    auto run    = [&] {
        for (Fixture& f : fixtures()) {
            checks += royal_attacked(f.mv, f.mv.to_move());
            checks += royal_attacked(f.mv, ~f.mv.to_move());
            checks += in_check_at_turn_start(f.mv);
        }
    };
    run();
    EXPECT_EQ(allocations_in(run), 0u);
    EXPECT_GE(checks, 0);
}

TEST(AllocFree, MakeUnmakeEveryMove) {
    std::vector<Move> moves;
    moves.reserve(4096);
    auto run = [&] {
        for (Fixture& f : fixtures()) {
            moves.clear();
            generate_moves(f.mv, f.mv.to_move(), moves);
            for (const Move& m : moves) {
                MoveUndo u;
                f.mv.make_move(m, u);
                f.mv.unmake_move(u);
            }
        }
    };
    run();
    EXPECT_EQ(allocations_in(run), 0u);
    for (Fixture& f : fixtures()) {
        std::string why;
        EXPECT_TRUE(f.mv.is_ok(&why)) << why;
    }
}

// One ActionSearch per position, constructed before the measurement and run repeatedly.
TEST(AllocFree, LegalActionEnumerationWithAReusedSearch) {
    std::vector<std::unique_ptr<ActionSearch>> searches;
    for (Fixture& f : fixtures())
        searches.push_back(std::make_unique<ActionSearch>(f.mv));
    std::uint64_t total = 0;
    auto          run   = [&] {
        for (auto& s : searches) {
            total += s->count(20000);
            total += s->exists();
            std::uint64_t seen = 0;
            s->for_each([&](std::span<const Move> a) {
                total += a.size();
                return ++seen < 20000;
            });
        }
    };
    run(); // warm-up: the search's own buffers reach their size
    const std::uint64_t n = allocations_in(run);
    EXPECT_EQ(n, 0u) << "for_each/count/exists allocated " << n << " times after warm-up";
    EXPECT_GT(total, 0u);
}

// The legal actions of every fixture counted by one search that is reset() from position to
// position: the same counts as fresh searches, and no allocation once it has seen them all.
TEST(AllocFree, OneSearchResetAcrossPositions) {
    std::vector<std::uint64_t> expected;
    for (Fixture& f : fixtures())
        expected.push_back(ActionSearch(f.mv).count(20000));
    std::vector<std::uint64_t> got(expected.size()), sizes(expected.size());
    ActionSearch               s; // default-constructed: no position yet
    auto                       run = [&](bool reverse) {
        const std::size_t n = fixtures().size();
        for (std::size_t k = 0; k < n; ++k) {
            const std::size_t i = reverse ? n - 1 - k : k;
            s.reset(fixtures()[i].mv);
            got[i] = s.count(20000);
            (void)s.exists();
            std::uint64_t seen = 0;
            sizes[i]           = 0;
            s.for_each([&](std::span<const Move> a) {
                sizes[i] += a.size();
                return ++seen < 20000;
            });
        }
    };
    run(false); // warm-up
    EXPECT_EQ(got, expected);
    const std::uint64_t n = allocations_in([&] {
        run(false);
        run(true); // the order of positions does not matter once the buffers are large enough
    });
    EXPECT_EQ(n, 0u) << "reset/count/exists/for_each allocated " << n << " times after warm-up";
    EXPECT_EQ(got, expected);
}

// The legal-action picker (picker.h) reset from position to position, in every mode: listing
// (each action once), counting, existence; and, with a thrash budget so small that every
// position switches engines, the hypercuboid enumeration and the record of the actions visited
// before the switch. The same counts as fresh depth-first searches, and no allocation once it
// has seen every position.
TEST(AllocFree, PickerAcrossPositions) {
    constexpr std::uint64_t    Cap = 20000, TinyCap = 2000;
    std::vector<std::uint64_t> expected, expectedTiny;
    for (Fixture& f : fixtures()) {
        expected.push_back(ActionSearch(f.mv).count(Cap));
        expectedTiny.push_back(std::min(expected.back(), TinyCap));
    }
    const std::size_t          n = fixtures().size();
    std::vector<std::uint64_t> got(n), listed(n), tinyCounted(n), tinyListed(n);
    ActionPicker               picker, tiny;
    tiny.set_thrash_budget(30, 1);
    std::uint64_t switched = 0;
    auto          run      = [&] {
        switched = 0;
        for (std::size_t i = 0; i < n; ++i) {
            Multiverse& mv = fixtures()[i].mv;
            picker.reset(mv);
            got[i] = picker.count(Cap);
            picker.reset(mv);
            (void)picker.exists();
            picker.reset(mv);
            listed[i] = 0;
            picker.for_each([&](std::span<const Move>) { return ++listed[i] < Cap; });
            tiny.reset(mv);
            tinyCounted[i] = tiny.count(TinyCap);
            tiny.reset(mv);
            tinyListed[i] = 0;
            tiny.for_each([&](std::span<const Move>) { return ++tinyListed[i] < TinyCap; });
            switched += tiny.hypercuboid_points() > 0;
        }
    };
    run(); // warm-up
    EXPECT_EQ(got, expected);
    EXPECT_EQ(listed, expected);
    EXPECT_EQ(tinyCounted, expectedTiny);
    EXPECT_EQ(tinyListed, expectedTiny);
    EXPECT_GT(switched, n / 2);
    const std::uint64_t a = allocations_in(run);
    EXPECT_EQ(a, 0u) << "the picker allocated " << a << " times after warm-up";
    EXPECT_EQ(got, expected);
    EXPECT_EQ(tinyListed, expectedTiny);
}

// count_legal_actions(), exists_legal_action() and verdict() on every fixture.
TEST(AllocFree, ConvenienceWrappersAfterWarmUp) {
    std::uint64_t sum = 0;
    auto          run = [&] {
        sum = 0;
        for (Fixture& f : fixtures()) {
            sum += count_legal_actions(f.mv, 20000);
            sum += exists_legal_action(f.mv) ? 1 : 0;
            sum += std::uint64_t(verdict(f.mv)) << 32;
        }
    };
    run();
    const std::uint64_t first = sum;
    const std::uint64_t n     = allocations_in(run);
    EXPECT_EQ(n, 0u) << "the wrappers allocated " << n << " times after warm-up";
    EXPECT_EQ(sum, first);
    EXPECT_GT(sum, 0u);
}

// The wrappers called from inside the visitor of a reused search (as the solver's mate test and
// perft do): each call takes the next level of the per-thread stack, so the outer enumeration is
// undisturbed. The nested answers equal those of fresh searches. The first 30 actions of each
// fixture (some replies take a full search to show there is no legal action).
TEST(AllocFree, WrappersNestedInAVisitor) {
    constexpr std::uint64_t PerPosition = 30;
    auto                    nested      = [&](Multiverse& mv) {
        return count_legal_actions(mv, 40) + (exists_legal_action(mv) ? 1000 : 0)
            + (std::uint64_t(verdict(mv)) << 20);
    };
    // Reference: fresh searches throughout.
    std::uint64_t expected = 0, outer = 0;
    for (Fixture& f : fixtures()) {
        if (f.perftDepth == 0) continue; // the largest positions: slow, and nothing new
        std::uint64_t seen = 0;
        ActionSearch(f.mv).for_each([&](std::span<const Move>) {
            std::uint64_t c = ActionSearch(f.mv).count(40);
            c += ActionSearch(f.mv).exists() ? 1000 : 0;
            c += std::uint64_t(ActionSearch(f.mv).exists()
                         ? Verdict::Ongoing
                         : (in_check_at_turn_start(f.mv) ? Verdict::Checkmate : Verdict::Stalemate))
                << 20;
            expected += c;
            return ++seen < PerPosition;
        });
        outer += seen;
    }
    ActionSearch  s;
    std::uint64_t sum = 0, visited = 0;
    auto          run = [&] {
        sum = visited = 0;
        for (Fixture& f : fixtures()) {
            if (f.perftDepth == 0) continue;
            std::uint64_t seen = 0;
            s.reset(f.mv);
            s.for_each([&](std::span<const Move>) {
                sum += nested(f.mv);
                return ++seen < PerPosition;
            });
            visited += seen;
        }
    };
    run();
    const std::uint64_t n = allocations_in(run);
    EXPECT_EQ(n, 0u) << "nested wrappers allocated " << n << " times after warm-up";
    EXPECT_EQ(sum, expected);
    EXPECT_EQ(visited, outer);
    EXPECT_GT(visited, 0u);
}

// perft with a fresh ActionSearch at every node: the reference for perft()'s counts.
std::uint64_t perft_fresh(Multiverse& mv, int depth) {
    if (depth <= 0) return 1;
    ActionSearch s(mv);
    if (depth == 1) return s.count();
    std::uint64_t total = 0;
    s.for_each([&](std::span<const Move>) {
        total += perft_fresh(mv, depth - 1);
        return true;
    });
    return total;
}

// The STYLE.md §2.5 goal: perft allocates nothing after warm-up (each fixture at its depth:
// up to 3 on single-timeline starts, 2 on positions with two timelines, one after a branching
// jump), and counts as perft with a fresh search at every node does.
TEST(Perft, AllocationFreeAfterWarmUp) {
    std::vector<Fixture*> runs;
    int                   multiTimelineDepth2 = 0;
    for (Fixture& f : fixtures())
        if (f.perftDepth > 0) {
            runs.push_back(&f);
            multiTimelineDepth2 += f.perftDepth >= 2 && f.mv.timeline_count() > 1;
        }
    EXPECT_GE(multiTimelineDepth2, 2);
    std::vector<std::uint64_t> expected, got(runs.size());
    for (Fixture* f : runs)
        expected.push_back(perft_fresh(f->mv, f->perftDepth));
    auto run = [&] {
        for (std::size_t i = 0; i < runs.size(); ++i)
            got[i] = perft(runs[i]->mv, runs[i]->perftDepth);
    };
    run(); // warm-up
    const std::uint64_t n = allocations_in(run);
    EXPECT_EQ(n, 0u) << "perft allocated " << n << " times after warm-up";
    EXPECT_EQ(got, expected);
    for (std::size_t i = 0; i < runs.size(); ++i)
        std::printf("  %d timelines: perft(%d) = %llu\n", runs[i]->mv.timeline_count(),
            runs[i]->perftDepth, static_cast<unsigned long long>(got[i]));
}

} // namespace
} // namespace fived::movegen

// --- the solver's node loop ----------------------------------------------------------------------

namespace fived::solver {
namespace {

using movegen::allocations_in;

// Makes the physical move of the side to move from (fx, fy) to (tx, ty) on its only board.
void play_physical(Multiverse& mv, int fx, int fy, int tx, int ty) {
    std::vector<Move> moves;
    movegen::generate_moves(mv, mv.to_move(), moves);
    for (const Move& m : moves)
        if (m.is_physical() && m.from.x() == fx && m.from.y() == fy && m.to.x() == tx
            && m.to.y() == ty) {
            MoveUndo u;
            mv.make_move(m, u);
            return;
        }
    ADD_FAILURE() << "no move from (" << fx << "," << fy << ") to (" << tx << "," << ty << ")";
}

// One board of size x size from its 5DFEN rows, White to move.
Multiverse one_board(const char* rows, int size) {
    movegen::GameRules rules;
    rules.width = rules.height = size;
    Multiverse            mv(rules);
    movegen::FenGrid      grid;
    movegen::FenRowsError ferr;
    EXPECT_TRUE(movegen::parse_fen_rows(rows, size, size, grid, ferr)) << ferr.message;
    std::string err;
    EXPECT_TRUE(mv.add_initial_board(0, movegen::to_v(1, movegen::WHITE), grid, err)) << err;
    EXPECT_TRUE(mv.finish_setup(err)) << err;
    return mv;
}

// Rook Tactics II, an official in-game puzzle (as transcribed in adri326/5dchess-tools, MIT):
// [6/5k/6/6/1R4/KR4:0:1:w] 1. Re2 / Kf4, then White mates in 2 (tests/solver/data).
Multiverse rook_tactics_2() {
    Multiverse mv = one_board("6/5k/6/6/1R4/KR4", 6);
    play_physical(mv, 1, 1, 4, 1); // Re2
    play_physical(mv, 5, 4, 5, 3); // Kf4
    return mv;
}

// Iterative deepening as Solver::solve() runs it, on one searcher, from an empty table: the
// shortest mate length (0: none within maxMate, -1: aborted).
int shortest_mate(TranspositionTable& tt, Searcher& s, int maxMate) {
    tt.clear();
    for (int n = 1; n <= maxMate; ++n) {
        s.clear_killers();
        tt.new_search();
        const Value v = s.attack(n, 0);
        if (v == Value::YES) return n;
        if (v != Value::NO) return -1;
    }
    return 0;
}

// A 1-thread mate-in-2 search (iterative deepening 1, 2: attacker and defender nodes, the
// table, killers, the r = 1 mate test with its nested exists_legal_action()) allocates nothing
// the second time. Excluded, because they are not the node loop: constructing the table, the
// context and the searcher (it forks the root), and what Solver::solve() does after the search
// (the keys and the solution tree are returned in vectors; the proof check forks the root).
// With several threads, splitting a node also allocates oneTBB tasks.
TEST(SolverAllocFree, MateInTwoNodeLoopAfterWarmUp) {
    const Multiverse   root = rook_tactics_2();
    TranspositionTable tt;
    ASSERT_TRUE(tt.resize_mb(4));
    SearchContext ctx(tt, root, 4 * 2 + 4, PlainSearch); // Solver's depth for maxMate 2
    Searcher      s(ctx);
    ASSERT_EQ(shortest_mate(tt, s, 2), 2); // warm-up
    const std::uint64_t nodes = s.nodes();
    int                 mate  = 0;
    const std::uint64_t n     = allocations_in([&] { mate = shortest_mate(tt, s, 2); });
    EXPECT_EQ(n, 0u) << "the search allocated " << n << " times after warm-up";
    EXPECT_EQ(mate, 2);
    EXPECT_EQ(s.nodes() - nodes, nodes) << "the second run should search the same tree";
    std::printf("  mate in 2: %llu nodes per run\n", static_cast<unsigned long long>(nodes));
}

// The same with every node of two or more actions searched without listing (Searcher::stream:
// killers, then the picker's passes): nothing allocated after warm-up either.
TEST(SolverAllocFree, StreamedMateInTwoAfterWarmUp) {
    const Multiverse   root = rook_tactics_2();
    TranspositionTable tt;
    ASSERT_TRUE(tt.resize_mb(4));
    SearchContext ctx(tt, root, 4 * 2 + 4, PlainSearch);
    ctx.streamAbove = 1;
    Searcher s(ctx);
    ASSERT_EQ(shortest_mate(tt, s, 2), 2); // warm-up
    int                 mate = 0;
    const std::uint64_t n    = allocations_in([&] { mate = shortest_mate(tt, s, 2); });
    EXPECT_EQ(n, 0u) << "the streamed search allocated " << n << " times after warm-up";
    EXPECT_EQ(mate, 2);
}

// Bound 3 with node budgets at the defender nodes of k = 2 (Searcher::narrow_checks_first;
// budget 1, so the killers' budget always runs out and every defence that gives check is counted
// and searched in rounds): nothing allocated after warm-up either. 5x5, White Ka1 Rc1 Re1,
// Black Ka5 Rd4: the black rook has checks.
TEST(SolverAllocFree, BudgetedDefencesAfterWarmUp) {
    const Multiverse   root = one_board("k4/3r1/5/5/K1R1R", 5);
    TranspositionTable tt;
    ASSERT_TRUE(tt.resize_mb(4));
    SearchContext ctx(tt, root, 4 * 3 + 4, PlainSearch);
    ctx.narrowBudget = 1;
    Searcher s(ctx);
    // Two warm-up runs, as in MateInOneOnSeveralTimelines: the mate-in-one searches remember
    // escapes from run to run, so the second run's tree may differ from the first's by the
    // escapes found, and each later run searches the second run's tree.
    ASSERT_GE(shortest_mate(tt, s, 3), 0);
    const std::uint64_t before = s.nodes();
    const int           first  = shortest_mate(tt, s, 3);
    ASSERT_GE(first, 0);
    const std::uint64_t nodes = s.nodes() - before;
    int                 mate  = 0;
    const std::uint64_t n     = allocations_in([&] { mate = shortest_mate(tt, s, 3); });
    EXPECT_EQ(n, 0u) << "the budgeted search allocated " << n << " times after warm-up";
    EXPECT_EQ(mate, first);
    EXPECT_EQ(s.nodes() - before - nodes, nodes) << "the third run should search the same tree";
    std::printf("  bound 3, budgets: mate %d, %llu nodes per run\n", first,
        static_cast<unsigned long long>(nodes));
}

// The mate-in-1 test (attacker node, r = 1) on the multi-timeline fixtures with at most 500
// actions: every action of the side to move, each tested for check and, if checking, for a
// legal reply.
TEST(SolverAllocFree, MateInOneOnSeveralTimelines) {
    TranspositionTable tt;
    ASSERT_TRUE(tt.resize_mb(4));
    std::vector<std::unique_ptr<SearchContext>> contexts;
    std::vector<std::unique_ptr<Searcher>>      searchers;
    for (movegen::Fixture& f : movegen::fixtures()) {
        if (f.mv.timeline_count() < 2 || movegen::count_legal_actions(f.mv, 501) > 500) continue;
        contexts.push_back(std::make_unique<SearchContext>(tt, f.mv, 8, PlainSearch));
        searchers.push_back(std::make_unique<Searcher>(*contexts.back()));
    }
    ASSERT_FALSE(searchers.empty());
    std::vector<int> mates(searchers.size());
    auto             run = [&] {
        for (std::size_t i = 0; i < searchers.size(); ++i)
            mates[i] = shortest_mate(tt, *searchers[i], 1);
    };
    // Two warm-up runs: a mate-in-one search remembers its last escapes, so the first run starts
    // without them and every later run with them (their legality test's buffers).
    run();
    run();
    const std::vector<int> first = mates;
    const std::uint64_t    n     = allocations_in(run);
    EXPECT_EQ(n, 0u) << "the mate-in-1 test allocated " << n << " times after warm-up";
    EXPECT_EQ(mates, first);
    for (int m : mates)
        EXPECT_GE(m, 0);
}

} // namespace
} // namespace fived::solver
