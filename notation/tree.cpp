#include "notation/tree.h"

#include <string>
#include <vector>

#include "notation/fen.h"

namespace fived::notation {

namespace {

bool same_rules(const movegen::GameRules& a, const movegen::GameRules& b) {
    if (a.width != b.width || a.height != b.height || a.even != b.even
        || a.promotionCount != b.promotionCount)
        return false;
    for (int i = 0; i < a.promotionCount; ++i)
        if (a.promotions[std::size_t(i)] != b.promotions[std::size_t(i)]) return false;
    return true;
}

const char* outcome_text(Outcome o) {
    switch (o) {
        case Outcome::WHITE_WINS: return "1-0";
        case Outcome::BLACK_WINS: return "0-1";
        case Outcome::DRAW: return "1/2-1/2";
        default: return "none";
    }
}

} // namespace

bool same_tree(const GameTree& a, const GameTree& b, std::string* why) {
    auto differ = [why](std::string what) {
        if (why) *why = std::move(what);
        return false;
    };
    if (a.headers != b.headers) return differ("headers differ");
    if (!same_rules(a.start.rules(), b.start.rules())) return differ("game rules differ");
    if (a.start.init_min_l() != b.start.init_min_l() || a.start.init_max_l() != b.start.init_max_l()
        || fen_of(a.start) != fen_of(b.start))
        return differ("start positions differ:\n" + fen_of(a.start) + "vs\n" + fen_of(b.start));
    if (a.nodes.empty() || b.nodes.empty())
        return a.nodes.size() == b.nodes.size() || differ("one tree has no root");

    // Parallel walk, parents before children; `stack` holds pairs of corresponding nodes.
    std::vector<std::pair<int, int>> stack{{0, 0}};
    while (!stack.empty()) {
        const auto [i, j] = stack.back();
        stack.pop_back();
        const TreeNode&   x  = a.nodes[std::size_t(i)];
        const TreeNode&   y  = b.nodes[std::size_t(j)];
        const std::string at = "node " + std::to_string(i) + " / " + std::to_string(j) + ": ";
        if (x.action != y.action) return differ(at + "actions differ");
        if (x.mark != y.mark) return differ(at + "marks differ");
        if (x.comment != y.comment)
            return differ(at + "comments differ: {" + x.comment + "} vs {" + y.comment + "}");
        if (x.result != y.result)
            return differ(
                at + "results differ: " + outcome_text(x.result) + " vs " + outcome_text(y.result));
        if (x.children.size() != y.children.size())
            return differ(at + "child counts differ: " + std::to_string(x.children.size()) + " vs "
                + std::to_string(y.children.size()));
        for (std::size_t k = 0; k < x.children.size(); ++k)
            stack.emplace_back(x.children[k], y.children[k]);
    }
    return true;
}

} // namespace fived::notation
