#include "cli/proof_tree.h"

#include <charconv>
#include <utility>

namespace fived::cli {

namespace {
constexpr std::string_view Phrase = " defences share this answer";
} // namespace

std::string group_comment(const std::vector<std::string>& defences) {
    std::string text = std::to_string(defences.size()) + std::string(Phrase) + ":";
    for (std::size_t j = 0; j < defences.size(); ++j) {
        text += ' ';
        text += defences[j];
        if (j + 1 != defences.size()) text += ';';
    }
    return text;
}

bool parse_group_comment(std::string_view comment, int& size, std::vector<std::string>& list) {
    const std::size_t at = comment.find(Phrase);
    if (at == std::string_view::npos) return false;
    std::size_t begin = at;
    while (begin > 0 && comment[begin - 1] >= '0' && comment[begin - 1] <= '9')
        --begin;
    int k                = 0;
    const auto [end, ec] = std::from_chars(comment.data() + begin, comment.data() + at, k);
    if (begin == at || ec != std::errc{} || end != comment.data() + at || k < 1) return false;
    std::vector<std::string> names;
    std::string_view         rest = comment.substr(at + Phrase.size());
    if (!rest.empty() && rest.front() == ':') {
        rest.remove_prefix(1);
        while (!rest.empty()) {
            const std::size_t semi = rest.find(';');
            std::string       name = solver::normalise_action_text(rest.substr(0, semi));
            if (!name.empty()) names.push_back(std::move(name));
            if (semi == std::string_view::npos) break;
            rest.remove_prefix(semi + 1);
        }
    }
    size = k;
    list = std::move(names);
    return true;
}

bool solution_below(
    const notation::GameTree& gt, int top, solver::SolutionTree& out, std::size_t maxNodes) {
    std::vector<std::pair<int, int>> stack{{top, 0}}; // (game node, solution node)
    while (!stack.empty()) {
        const auto [g, s] = stack.back();
        stack.pop_back();
        for (const int child : gt.nodes[std::size_t(g)].children) {
            if (out.nodes.size() >= maxNodes) return false;
            const notation::TreeNode& gn = gt.nodes[std::size_t(child)];
            const int                 id = out.add(s, gn.action);
            solver::SolutionNode&     sn = out.nodes[std::size_t(id)];
            parse_group_comment(gn.comment, sn.groupSize, sn.groupList);
            stack.emplace_back(child, id);
        }
    }
    return true;
}

} // namespace fived::cli
