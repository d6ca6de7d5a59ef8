// The composer's analysis of a puzzle (fived verify): keys, the shortest mate, duals along the
// tree's lines and tries, asked of a Solver.
#include <algorithm>

#include "solver/solver.h"

namespace fived::solver {

Analysis analyse(const Multiverse& root, const SolutionTree& tree, int n, const SolveOptions& opt,
    bool withTries) {
    SolveOptions o = opt;
    o.maxMate      = std::max(n, 1);
    Solver   s(root, o);
    Analysis a;
    if (!s.table_ok()) {
        a.complete = false;
        a.noMemory = true;
        a.why      = "cannot allocate the transposition table";
        return a;
    }
    // 1. Keys of mate in n, and the shortest mate.
    a.complete &= s.mating_actions({}, n, a.keys, Analysis::MaxKeys + 1);
    if (a.keys.size() > Analysis::MaxKeys) {
        a.keys.resize(Analysis::MaxKeys);
        a.keysCapped = true;
    }
    for (int k = 1; k <= n; ++k) {
        const Value v = s.mate_within({}, k);
        if (v == Value::ABORT) {
            a.complete = false;
            break;
        }
        if (v == Value::YES) {
            a.shortest = k;
            break;
        }
    }
    // 2. Duals: at each defender node of the tree, each present defence with >= 2 answers.
    //    Paths are rebuilt from the parent links; depth gives the bound left.
    for (std::size_t i = 1; i < tree.nodes.size() && a.complete; ++i) {
        const std::vector<int> line = tree.line(int(i));
        if (line.size() % 2 != 0) continue; // attacker actions lead to odd depths
        if (tree.nodes[i].children.empty()) continue;
        const int                      attackerMoves = int(line.size()) / 2;
        const int                      left          = n - attackerMoves;
        std::vector<std::vector<Move>> path;
        for (const int q : line)
            path.push_back(tree.nodes[std::size_t(q)].action);
        if (left < 1) continue;
        std::vector<std::vector<Move>> answers;
        a.complete &= s.mating_actions(path, left, answers, 2);
        if (answers.size() >= 2) a.duals.push_back(path);
    }
    if (!a.complete) a.why = s.limit_reason();
    // 3. Tries: non-keys refuted by exactly one defence.
    if (withTries && a.complete) {
        // The first actions are listed: as many as a node of the search may list at most.
        std::vector<std::vector<Move>> first;
        if (!s.legal_actions({}, first, o.actionLimit ? o.actionLimit : SIZE_MAX)) {
            a.complete = false;
            a.why      = s.limit_reason();
            if (a.why.empty()) a.why = limit_message(Limit::ACTIONS, double(o.actionLimit));
            first.clear();
        }
        for (const std::vector<Move>& act : first) {
            if (std::find(a.keys.begin(), a.keys.end(), act) != a.keys.end()) continue;
            std::vector<std::vector<Move>> refs;
            a.complete &= s.refutations({&act, 1}, n - 1, refs, 2);
            if (!a.complete) break;
            if (refs.size() == 1) a.tries.emplace_back(act, refs.front());
        }
        if (!a.complete && a.why.empty()) a.why = s.limit_reason();
    }
    return a;
}

} // namespace fived::solver
