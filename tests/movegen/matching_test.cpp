// CoverMatching (Edmonds' blossom algorithm with optional vertices) against an exhaustive search
// over the matchings of small random graphs, and the shapes where it matters: odd cycles
// (blossoms), and many required vertices with no cover (where the backtracking it replaces in
// take_point() was exponential).
#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

#include "movegen/matching.h"

namespace fived::movegen {
namespace {

struct Graph {
    int                              n = 0;
    std::vector<std::pair<int, int>> edges;
    std::vector<bool>                required;
};

// Is there a matching covering every required vertex? Exhaustive: the first unmatched required
// vertex takes each free neighbour in turn.
bool brute(const Graph& g, std::vector<int>& mate) {
    int u = -1;
    for (int v = 0; v < g.n && u < 0; ++v)
        if (g.required[std::size_t(v)] && mate[std::size_t(v)] < 0) u = v;
    if (u < 0) return true;
    for (const auto& [a, b] : g.edges) {
        if (a != u && b != u) continue;
        const int o = a == u ? b : a;
        if (mate[std::size_t(o)] >= 0) continue;
        mate[std::size_t(u)] = o;
        mate[std::size_t(o)] = u;
        if (brute(g, mate)) return true;
        mate[std::size_t(u)] = mate[std::size_t(o)] = -1;
    }
    return false;
}

// Solves g with m (reused between graphs, as take_point() does) and checks the matching it gives.
bool solve_checked(CoverMatching& m, const Graph& g) {
    m.reset(g.n);
    for (int v = 0; v < g.n; ++v)
        if (g.required[std::size_t(v)]) m.require(v);
    for (const auto& [a, b] : g.edges)
        m.add_edge(a, b);
    const bool ok = m.solve();
    if (!ok) return false;
    for (int v = 0; v < g.n; ++v) {
        const int o = m.mate(v);
        if (g.required[std::size_t(v)]) {
            EXPECT_GE(o, 0) << "required vertex " << v << " single";
        }
        if (o < 0) continue;
        EXPECT_EQ(m.mate(o), v) << "not symmetric at " << v;
        bool edge = false;
        for (const auto& [a, b] : g.edges)
            edge = edge || (a == v && b == o) || (a == o && b == v);
        EXPECT_TRUE(edge) << v << "-" << o << " is not an edge";
    }
    return true;
}

TEST(CoverMatching, AgreesWithExhaustiveSearchOnRandomGraphs) {
    std::mt19937  rng(20261128);
    CoverMatching m;
    int           yes = 0, no = 0;
    for (int trial = 0; trial < 20000; ++trial) {
        Graph g;
        g.n = 1 + int(rng() % 11);
        g.required.resize(std::size_t(g.n));
        const auto density = 10 + rng() % 60, requiredPct = rng() % 101;
        for (int v = 0; v < g.n; ++v)
            g.required[std::size_t(v)] = rng() % 100 < requiredPct;
        for (int a = 0; a < g.n; ++a)
            for (int b = a + 1; b < g.n; ++b)
                if (rng() % 100 < density) g.edges.emplace_back(a, b);
        std::vector<int> mate(std::size_t(g.n), -1);
        const bool       expected = brute(g, mate);
        ASSERT_EQ(solve_checked(m, g), expected) << "trial " << trial << ", " << g.n << " vertices";
        (expected ? yes : no)++;
    }
    // Both answers come up often enough to mean something.
    EXPECT_GT(yes, 2000);
    EXPECT_GT(no, 2000);
}

TEST(CoverMatching, Blossoms) {
    CoverMatching m;
    // A triangle, all required: odd, no cover. With one vertex optional: a cover.
    Graph tri{3, {{0, 1}, {1, 2}, {0, 2}}, {true, true, true}};
    EXPECT_FALSE(solve_checked(m, tri));
    tri.required[2] = false;
    EXPECT_TRUE(solve_checked(m, tri));
    // A 5-cycle 0-1-2-3-4 with a stem 4-5-6, 5 and 6 required: 5-6 must pair, so the cycle's
    // four other required vertices 0..3 pair within it (0-1, 2-3) and 4 stays single (optional).
    Graph stem{7, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}, {4, 5}, {5, 6}},
        {true, true, true, true, false, true, true}};
    EXPECT_TRUE(solve_checked(m, stem));
    stem.required[4] = true; // 7 required vertices on 7 vertices: odd
    EXPECT_FALSE(solve_checked(m, stem));
    // A 5-cycle 1..5 hanging from 0 by 1, with 3 leading out to 6: all required.
    Graph through{7, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 1}, {3, 6}},
        {true, true, true, true, true, true, true}};
    EXPECT_FALSE(solve_checked(m, through)); // 7 vertices, all required
    through.edges.emplace_back(6, 7);
    through.n = 8;
    through.required.push_back(true);
    EXPECT_TRUE(solve_checked(m, through)); // 0-1, 2-3, 4-5, 6-7
}

// Many required vertices sharing few partners (the shape of a box whose axes must all take part
// in jumps to a few departures): no cover, found by counting paths, not by trying pairings.
TEST(CoverMatching, ManyRequiredFewPartners) {
    CoverMatching m;
    Graph         g;
    g.n = 40;
    g.required.assign(40, false);
    for (int v = 0; v < 20; ++v) { // 20 required vertices, each joined to the same 19 partners
        g.required[std::size_t(v)] = true;
        for (int p = 20; p < 39; ++p)
            g.edges.emplace_back(v, p);
    }
    EXPECT_FALSE(solve_checked(m, g));
    g.edges.emplace_back(0, 39); // the 20th partner
    EXPECT_TRUE(solve_checked(m, g));
}

} // namespace
} // namespace fived::movegen
