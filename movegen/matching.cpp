#include "movegen/matching.h"

#include <algorithm>

namespace fived::movegen {

void CoverMatching::reset(int vertices) {
    n = vertices;
    if (adj.size() < std::size_t(n) + 1) adj.resize(std::size_t(n) + 1);
    for (int v = 0; v <= n; ++v)
        adj[std::size_t(v)].clear();
    required.assign(std::size_t(n) + 1, 0);
}

void CoverMatching::add_edge(int u, int v) {
    adj[std::size_t(u)].push_back(v);
    adj[std::size_t(v)].push_back(u);
}

int CoverMatching::mate(int v) const {
    const int m = match[std::size_t(v)];
    if (m < 0 || m >= n) return -1;
    // A pair joined only by the added edges between optional vertices is no pair of the graph.
    const std::vector<int>& a = adj[std::size_t(v)];
    return std::find(a.begin(), a.end(), m) != a.end() ? m : -1;
}

// The augmented graph's neighbours: the edges given, and for an optional vertex every other
// optional vertex (the extra one included).
int CoverMatching::neighbour_count(int v) const {
    const int given = v < n ? int(adj[std::size_t(v)].size()) : 0;
    return given + (required[std::size_t(v)] ? 0 : int(optional.size()));
}

int CoverMatching::neighbour(int v, int i) const {
    const int given = v < n ? int(adj[std::size_t(v)].size()) : 0;
    if (i < given) return adj[std::size_t(v)][std::size_t(i)];
    return optional[std::size_t(i - given)]; // v itself among them: find_path() skips it
}

int CoverMatching::lca(int a, int b) {
    std::fill(usedLca.begin(), usedLca.end(), 0);
    for (;;) {
        a                       = base[std::size_t(a)];
        usedLca[std::size_t(a)] = 1;
        if (match[std::size_t(a)] < 0) break;
        a = parent[std::size_t(match[std::size_t(a)])];
    }
    for (;;) {
        b = base[std::size_t(b)];
        if (usedLca[std::size_t(b)]) return b;
        b = parent[std::size_t(match[std::size_t(b)])];
    }
}

void CoverMatching::mark_path(int v, int b, int child) {
    while (base[std::size_t(v)] != b) {
        const int m                                = match[std::size_t(v)];
        blossom[std::size_t(base[std::size_t(v)])] = 1;
        blossom[std::size_t(base[std::size_t(m)])] = 1;
        parent[std::size_t(v)]                     = child;
        child                                      = m;
        v                                          = parent[std::size_t(m)];
    }
}

// An augmenting path from the single vertex root: its other end (then `parent` and `match` trace
// it), or -1.
int CoverMatching::find_path(int root) {
    std::fill(used.begin(), used.end(), 0);
    std::fill(parent.begin(), parent.end(), -1);
    for (int i = 0; i < total; ++i)
        base[std::size_t(i)] = i;
    queue.clear();
    used[std::size_t(root)] = 1;
    queue.push_back(root);
    for (std::size_t head = 0; head < queue.size(); ++head) {
        const int v = queue[head];
        for (int i = 0, count = neighbour_count(v); i < count; ++i) {
            int to = neighbour(v, i);
            if (to == v || base[std::size_t(v)] == base[std::size_t(to)]
                || match[std::size_t(v)] == to)
                continue;
            if (to == root
                || (match[std::size_t(to)] >= 0
                    && parent[std::size_t(match[std::size_t(to)])] >= 0)) {
                // An odd cycle: contract the blossom onto its base.
                const int b = lca(v, to);
                std::fill(blossom.begin(), blossom.end(), 0);
                mark_path(v, b, to);
                mark_path(to, b, v);
                for (int u = 0; u < total; ++u)
                    if (blossom[std::size_t(base[std::size_t(u)])]) {
                        base[std::size_t(u)] = b;
                        if (!used[std::size_t(u)]) {
                            used[std::size_t(u)] = 1;
                            queue.push_back(u);
                        }
                    }
            } else if (parent[std::size_t(to)] < 0) {
                parent[std::size_t(to)] = v;
                if (match[std::size_t(to)] < 0) return to;
                to                    = match[std::size_t(to)];
                used[std::size_t(to)] = 1;
                queue.push_back(to);
            }
        }
    }
    return -1;
}

bool CoverMatching::solve() {
    optional.clear();
    for (int v = 0; v < n; ++v)
        if (!required[std::size_t(v)]) optional.push_back(v);
    total = n;
    if (n % 2) {
        // Odd vertex count: one more optional vertex (index n, no edge given).
        optional.push_back(n);
        total = n + 1;
    }
    for (auto* v : {&used, &usedLca, &blossom})
        v->assign(std::size_t(total), 0);
    for (auto* v : {&match, &parent, &base})
        v->assign(std::size_t(total), -1);
    // The required vertices first: each must be matched when its turn comes (header).
    for (int root = 0; root < n; ++root) {
        if (!required[std::size_t(root)] || match[std::size_t(root)] >= 0) continue;
        int v = find_path(root);
        if (v < 0) return false;
        while (v >= 0) { // flip the path
            const int pv = parent[std::size_t(v)], ppv = match[std::size_t(pv)];
            match[std::size_t(v)]  = pv;
            match[std::size_t(pv)] = v;
            v                      = ppv;
        }
    }
    return true;
}

} // namespace fived::movegen
