// verify's verdict on a claimed solution (solver/verdict.h).
#include "solver/verdict.h"

#include <algorithm>

namespace fived::solver {

bool single_line(const SolutionTree& t) {
    return std::all_of(t.nodes.begin(), t.nodes.end(),
        [](const movegen::TreeNode& n) { return n.children.size() <= 1; });
}

bool game_not_tree(const SolutionTree& t, const ProofReport& rep, bool marksPuzzle) {
    return !marksPuzzle && single_line(t)
        && std::any_of(rep.problems.begin(), rep.problems.end(),
            [](const auto& p) { return p.kind == ProofProblem::Kind::MISSING_DEFENCE; });
}

std::vector<std::vector<Move>> cooks_of(
    const SolutionTree& t, std::span<const std::vector<Move>> keys) {
    std::vector<std::vector<Move>> treeKeys, cooks;
    for (const int k : t.nodes[0].children)
        treeKeys.push_back(t.nodes[std::size_t(k)].action);
    for (const auto& k : keys)
        if (std::find(treeKeys.begin(), treeKeys.end(), k) == treeKeys.end()) cooks.push_back(k);
    return cooks;
}

Verdict judge(const ProofReport& rep, const Analysis& an, bool notATree, std::size_t cooks,
    int claimed, int n) {
    Verdict v;
    v.proofDecided = rep.finished || !rep.problems.empty();
    // The proof check is exact (no limit); the analysis may be cut by a limit, and then nothing
    // of it is reported.
    v.decided = an.complete;
    // The analysis looks for mates up to n (the tree's length): a claim beyond it is decided
    // only when a shorter mate was found.
    v.claimDecided = v.decided && claimed && !(an.shortest == 0 && claimed > n);
    v.claimHolds   = !v.claimDecided || claimed == an.shortest;
    v.sound = rep.complete && v.decided && cooks == 0 && an.keys.size() == 1 && an.shortest == n
        && v.claimHolds;
    using Kind = Verdict::Kind;
    v.kind     = !v.proofDecided ? Kind::PROOF_UNKNOWN
            : notATree           ? Kind::NOT_A_TREE
            : !rep.complete      ? Kind::INCOMPLETE
            : !v.decided         ? Kind::UNKNOWN
            : !v.claimHolds      ? Kind::WRONG_CLAIM
            : v.sound            ? Kind::SOUND
                                 : Kind::COOKED;
    return v;
}

} // namespace fived::solver
