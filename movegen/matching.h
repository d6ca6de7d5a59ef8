#pragma once
// A matching that covers given vertices of a general graph, in polynomial time.
//
// HypercuboidSearch::take_point() pairs the axes of a box that have neither a pass nor a physical
// move (they must take part in a jump: a departure with its arrival) with other axes. A
// backtracking over the pairs is exponential where no pairing exists (measured on
// cwmtt-manyChecks --at -3: boxes with up to 16 such axes, 14 million steps for one, 80 % of the
// time). This answers the question in polynomial time: is there a matching in which every required
// vertex is matched?
//
// Reduction: join every two optional vertices by an edge, and add one more optional vertex when
// their count is odd. The graph has a matching covering the required vertices iff the new graph
// has a perfect matching (the optional vertices left single pair up by the new edges; conversely
// the required vertices have their own edges only). Edmonds' blossom algorithm grows a maximum
// matching by augmenting paths from each vertex in turn; a vertex with no augmenting path when its
// turn comes stays single in the maximum matching it ends with (Edmonds' lemma), so the answer is
// "no" as soon as a required vertex has none, and "yes" once every required vertex is matched.
// O(V^3) for V vertices. Edmonds, "Paths, trees, and flowers" (1965); the formulation is the
// usual one with contracted blossoms tracked by their bases.
//
// Scratch space is kept between calls: no allocation once it has grown to the largest graph.

#include <cstdint>
#include <vector>

namespace fived::movegen {

class CoverMatching {
public:
    // Vertices 0..n-1, none required, no edge.
    void reset(int n);
    void require(int v) { required[std::size_t(v)] = 1; }
    void add_edge(int u, int v); // u != v; repeats are harmless
    // Is there a matching of the edges given in which every required vertex is matched? Then
    // mate(v) is v's partner in one (by an edge given), or -1.
    bool solve();
    int  mate(int v) const;

private:
    int  neighbour_count(int v) const;
    int  neighbour(int v, int i) const;
    int  lca(int a, int b);
    void mark_path(int v, int b, int child);
    int  find_path(int root);

    int                           n = 0, total = 0; // given vertices, and with the extra one
    std::vector<std::vector<int>> adj;
    std::vector<std::uint8_t>     required, used, usedLca, blossom;
    std::vector<int>              optional, match, parent, base, queue;
};

} // namespace fived::movegen
