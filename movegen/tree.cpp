#include "movegen/tree.h"

#include <algorithm>
#include <charconv>
#include <utility>

#include "movegen/action.h"
#include "movegen/movegen.h"
#include "movegen/multiverse.h"

namespace fived::movegen {

int Tree::add(int parent, std::span<const Move> action) {
    TreeNode n;
    n.parent = parent;
    n.action.assign(action.begin(), action.end());
    nodes.push_back(std::move(n));
    const int id = int(nodes.size()) - 1;
    nodes[std::size_t(parent)].children.push_back(id);
    return id;
}

int Tree::add(int parent, const TreeNode& like) {
    const int id = add(parent, like.action);
    TreeNode& n  = nodes[std::size_t(id)];
    n.mark       = like.mark;
    n.result     = like.result;
    n.evaluation = like.evaluation;
    n.comment    = like.comment;
    return id;
}

int Tree::graft(int parent, std::span<const Move> action, const Tree& sub) {
    // sub's nodes follow their parents, so one pass in order rebuilds the children lists in
    // order.
    std::vector<int> id(sub.nodes.size());
    id[0] = add(parent, sub.nodes[0]);
    nodes[std::size_t(id[0])].action.assign(action.begin(), action.end());
    for (std::size_t j = 1; j < sub.nodes.size(); ++j)
        id[j] = add(id[std::size_t(sub.nodes[j].parent)], sub.nodes[j]);
    return id[0];
}

void Tree::set_mate(int node, Color mated) {
    TreeNode& n = nodes[std::size_t(node)];
    n.mark      = Mark::CHECKMATE;
    n.result    = mated == WHITE ? Outcome::BLACK_WINS : Outcome::WHITE_WINS;
}

int Tree::depth(int node) const {
    int d = 0;
    for (int q = node; q > 0; q = nodes[std::size_t(q)].parent)
        ++d;
    return d;
}

std::vector<int> Tree::line(int node) const {
    std::vector<int> chain;
    for (int q = node; q > 0; q = nodes[std::size_t(q)].parent)
        chain.push_back(q);
    std::reverse(chain.begin(), chain.end());
    return chain;
}

std::vector<int> Tree::main_line() const {
    std::vector<int> out{0};
    while (!nodes[std::size_t(out.back())].children.empty())
        out.push_back(nodes[std::size_t(out.back())].children.back());
    return out;
}

std::vector<int> Tree::heights() const {
    // Children have larger indices, so a backward pass finds them done.
    std::vector<int> h(nodes.size(), 0);
    for (std::size_t i = nodes.size(); i-- > 0;)
        for (const int c : nodes[i].children)
            h[i] = std::max(h[i], h[std::size_t(c)] + 1);
    return h;
}

int Tree::length() const {
    // The longest line has the most attacker actions: ceil(plies / 2).
    return (heights()[0] + 1) / 2;
}

Multiverse Tree::position_at(const Multiverse& root, int node) const {
    Multiverse            mv = root.fork();
    std::vector<MoveUndo> undo;
    for (const int q : line(node))
        do_action(mv, nodes[std::size_t(q)].action, undo);
    return mv;
}

namespace {

// The depth-first walk of Tree::walk() and Tree::restamp_moves(), with an explicit stack (deep
// trees do not overflow the call stack): enter(child) before the child's action is made on mv
// (false: its subtree is left out), visit(child) after. Frames: a node, its next child, and where
// its action's undo records begin in `undo` (one vector for the whole walk).
template <class Nodes, class Enter, class Visit>
void walk_below_root(Nodes& nodes, Multiverse& mv, Enter enter, Visit visit) {
    struct Frame {
        int         node;
        std::size_t next;
        std::size_t undoBase;
    };
    std::vector<Frame>    stack{{0, 0, 0}};
    std::vector<MoveUndo> undo;
    while (!stack.empty()) {
        Frame& f = stack.back();
        if (f.next == nodes[std::size_t(f.node)].children.size()) {
            undo_action(mv, undo, f.undoBase);
            stack.pop_back();
            continue;
        }
        const int c = nodes[std::size_t(f.node)].children[f.next++];
        if (!enter(c)) continue;
        const std::size_t base = undo.size();
        do_action(mv, nodes[std::size_t(c)].action, undo);
        visit(c);
        stack.push_back({c, 0, base});
    }
}

} // namespace

void Tree::walk(Multiverse& mv, absl::FunctionRef<void(int node, Multiverse& mv)> visit) const {
    visit(0, mv);
    walk_below_root(
        nodes, mv, [](int) { return true; }, [&](int c) { visit(c, mv); });
}

bool Tree::restamp_moves(Multiverse& mv) {
    bool ok = true;
    walk_below_root(
        nodes, mv,
        [&](int c) {
            if (restamp_action(mv, nodes[std::size_t(c)].action)) return true;
            ok = false;
            return false; // its subtree stands in no position of ours
        },
        [](int) {});
    return ok;
}

std::optional<Tree> Tree::subtree(int top, std::size_t maxNodes) const {
    Tree                             out;
    std::vector<std::pair<int, int>> stack{{top, 0}}; // (node here, node in out)
    while (!stack.empty()) {
        const auto [from, to] = stack.back();
        stack.pop_back();
        for (const int child : nodes[std::size_t(from)].children) {
            if (out.nodes.size() >= maxNodes) return std::nullopt;
            stack.emplace_back(child, out.add(to, nodes[std::size_t(child)]));
        }
    }
    return out;
}

// --- defence groups -----------------------------------------------------------------------------

namespace {
constexpr std::string_view GroupPhrase = " defences share this answer";
} // namespace

std::string group_comment(const std::vector<std::string>& defences) {
    std::string text = std::to_string(defences.size()) + std::string(GroupPhrase) + ":";
    for (std::size_t j = 0; j < defences.size(); ++j) {
        text += ' ';
        text += defences[j];
        if (j + 1 != defences.size()) text += ';';
    }
    return text;
}

bool read_group(std::string_view comment, DefenceGroup& group) {
    const std::size_t at = comment.find(GroupPhrase);
    if (at == std::string_view::npos) return false;
    std::size_t begin = at;
    while (begin > 0 && comment[begin - 1] >= '0' && comment[begin - 1] <= '9')
        --begin;
    int k                = 0;
    const auto [end, ec] = std::from_chars(comment.data() + begin, comment.data() + at, k);
    if (begin == at || ec != std::errc{} || end != comment.data() + at || k < 1) return false;
    std::vector<std::string> names;
    std::string_view         rest = comment.substr(at + GroupPhrase.size());
    if (!rest.empty() && rest.front() == ':') {
        rest.remove_prefix(1);
        while (!rest.empty()) {
            const std::size_t semi = rest.find(';');
            std::string       name = normalise_action_text(rest.substr(0, semi));
            if (!name.empty()) names.push_back(std::move(name));
            if (semi == std::string_view::npos) break;
            rest.remove_prefix(semi + 1);
        }
    }
    group.size  = k;
    group.names = std::move(names);
    return true;
}

std::string normalise_action_text(std::string_view text) {
    std::string out;
    for (const char ch : text) {
        const bool blank = ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
        if (blank) {
            if (!out.empty() && out.back() != ' ') out += ' ';
        } else {
            out += ch;
        }
    }
    if (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

} // namespace fived::movegen
