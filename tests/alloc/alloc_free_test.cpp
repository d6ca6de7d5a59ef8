// STYLE.md §2.5: move generation and legal-action enumeration allocate nothing after warm-up.
//
// This executable replaces the global operator new/delete with counting versions. Each test
// builds its positions (allocation is allowed there), runs the operation once to warm up the
// caller-owned buffers, then runs it again and asserts that the counter did not move.
//
// The positions are embedded (built by deterministic play from built-in variants, with time
// travel), so the test needs nothing from ../shared.
//
// Finding: ActionSearch keeps its tables and buffers in std::vector members, filled in its
// constructor and grown during its first enumeration. A search that is reused (for_each / count
// / exists again on the same ActionSearch) allocates nothing. But an ActionSearch is bound to one
// position, and verdict(), count_legal_actions() and perft() construct a fresh one per call or per
// node, so they allocate every time. Perft.AllocatesOnlyThroughTheSearchPerNode pins that down
// (nothing else allocates); Perft.DISABLED_AllocationFreeAfterWarmUp states the goal and waits for
// an API that lets a search (or its buffers) be reused across positions.

#include <atomic>
#include <cstdlib>
#include <new>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "movegen/actions.h"
#include "movegen/movegen.h"
#include "movegen/variants.h"

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

Multiverse variant(const char* name) {
    const VariantDef* v = find_variant(name);
    EXPECT_NE(v, nullptr) << name;
    Multiverse  mv(variant_rules(*v));
    std::string err;
    EXPECT_TRUE(setup_variant(*v, mv, err)) << err;
    return mv;
}

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
};

// The positions every test runs on: built-in starts and positions after time travel.
std::vector<Fixture>& fixtures() {
    static std::vector<Fixture> f = [] {
        std::vector<Fixture> v;
        const struct {
            const char* variant;
            int         plies;
            unsigned    seed;
        } specs[] = {
            {"Standard", 0, 0},
            {"Very Small - Open", 0, 0},
            {"Standard - Turn Zero", 2, 0},
            {"Standard", 6, 1},
            {"Standard - Turn Zero", 5, 3},
            {"Standard - Two Timelines", 3, 4},
            {"Very Small - Open", 6, 5},
        };
        for (const auto& s : specs) {
            Fixture fx{variant(s.variant), {}};
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
    for (Fixture& f : fixtures())
        maxTimelines = std::max(maxTimelines, f.mv.timeline_count());
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

// Allocations of a fresh ActionSearch: its constructor (the per-position tables) and its first
// enumeration (the DFS buffers grow to their size). A second run allocates nothing.
struct FreshSearchAllocations {
    std::uint64_t ctor = 0, firstRun = 0, secondRun = 0;
};
FreshSearchAllocations fresh_search(Multiverse& mv) {
    FreshSearchAllocations      r;
    std::optional<ActionSearch> s;
    r.ctor      = allocations_in([&] { s.emplace(mv); });
    r.firstRun  = allocations_in([&] { (void)s->count(5000); });
    r.secondRun = allocations_in([&] { (void)s->count(5000); });
    return r;
}

// verdict(), count_legal_actions() and exists_legal_action() construct an ActionSearch per call,
// so each call allocates (reported); nothing else in them does.
TEST(AllocFree, ConvenienceWrappersAllocateOnlyThroughAFreshSearch) {
    for (Fixture& f : fixtures()) {
        (void)count_legal_actions(f.mv, 5000); // warm-up (lazily built tables, if any)
        const FreshSearchAllocations a = fresh_search(f.mv);
        EXPECT_EQ(a.secondRun, 0u);
        EXPECT_EQ(
            allocations_in([&] { (void)count_legal_actions(f.mv, 5000); }), a.ctor + a.firstRun);
        std::printf("  %d timelines: ActionSearch constructor %llu allocations, first count() "
                    "%llu, second count() %llu\n",
            f.mv.timeline_count(), static_cast<unsigned long long>(a.ctor),
            static_cast<unsigned long long>(a.firstRun),
            static_cast<unsigned long long>(a.secondRun));
    }
}

// perft() allocates only through the fresh ActionSearch it constructs at each interior node: its
// allocations equal those of a fresh search at the root and at every child.
TEST(Perft, AllocatesOnlyThroughTheSearchPerNode) {
    int tested = 0;
    for (Fixture& f : fixtures()) {
        const std::uint64_t rootActions = count_legal_actions(f.mv, 301);
        if (rootActions == 0 || rootActions > 300) continue; // keep perft(2) small and non-trivial
        ++tested;
        (void)perft(f.mv, 2); // warm-up
        std::uint64_t expected = 0, children = 0;
        expected += allocations_in([&] {
            ActionSearch root(f.mv);
            root.for_each([&](std::span<const Move>) {
                ++children;
                return true;
            });
        });
        {
            ActionSearch root(f.mv);
            root.for_each([&](std::span<const Move>) {
                const FreshSearchAllocations c = fresh_search(f.mv);
                expected += c.ctor + c.firstRun;
                return true;
            });
        }
        std::uint64_t       nodes       = 0;
        const std::uint64_t perftAllocs = allocations_in([&] { nodes = perft(f.mv, 2); });
        EXPECT_EQ(perftAllocs, expected) << "perft(2) allocates outside its ActionSearch objects";
        EXPECT_GT(nodes, 0u);
        std::printf("  %d timelines: perft(2) = %llu, %llu allocations at %llu interior nodes\n",
            f.mv.timeline_count(), static_cast<unsigned long long>(nodes),
            static_cast<unsigned long long>(perftAllocs),
            static_cast<unsigned long long>(children + 1));
    }
    EXPECT_GE(tested, 2);
}

// The STYLE.md §2.5 goal. Disabled: perft() constructs an ActionSearch per node (see above).
TEST(Perft, DISABLED_AllocationFreeAfterWarmUp) {
    for (Fixture& f : fixtures()) {
        if (count_legal_actions(f.mv, 301) > 300) continue;
        (void)perft(f.mv, 2);
        EXPECT_EQ(allocations_in([&] { (void)perft(f.mv, 2); }), 0u);
    }
}

} // namespace
} // namespace fived::movegen
