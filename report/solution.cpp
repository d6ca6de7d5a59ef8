#include "report/solution.h"

#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "movegen/action.h"
#include "movegen/actions.h"
#include "movegen/movegen.h"
#include "movegen/text.h"
#include "movegen/tree.h"
#include "notation/format.h"
#include "notation/headers.h"
#include "notation/reader.h"
#include "notation/resolve.h"
#include "notation/writer.h"
#include "solver/verify.h"

namespace fived::report {

using movegen::Move;
using movegen::Multiverse;
using movegen::TreeNode;
using solver::SolutionTree;

// --- solution trees as written ----------------------------------------------------------------

notation::GameTree written_solution(const notation::LoadedGame& game, const Multiverse& root,
    const SolutionTree& sol, int mateIn, std::size_t groupThreshold) {
    notation::GameTree gt(game.start.fork());
    // The input's headers and comments as `fmt` keeps them; its Puzzle and Prelude headers give
    // way to the ones that describe this tree.
    notation::read_tree_head(game.doc, gt);
    std::erase_if(gt.headers, [](const auto& h) {
        return movegen::iequals(h.first, "Puzzle") || movegen::iequals(h.first, "Prelude");
    });
    gt.headers.emplace_back("Puzzle", "mate-in-" + std::to_string(mateIn));
    gt.headers.emplace_back("Prelude", std::to_string(game.mainLine.size()));
    gt.headers = notation::canonical_headers(gt.headers);
    // The prelude as it reads back: each action in standard order (NOTATION.md §6; a file may
    // write its moves in another order, and the reader puts them in this one).
    int                            at  = 0;
    Multiverse                     pre = game.start.fork();
    std::vector<movegen::MoveUndo> undo;
    std::size_t                    ply = 0;
    for (const auto& a : game.mainLine) {
        std::vector<Move> action = a;
        notation::standard_order(pre, action);
        at = gt.add(at, action);
        // The document's nodes are the root and the main line, in order (load_game()).
        ++ply;
        for (const notation::Comment& c : game.doc.nodes[ply].action.comments)
            notation::append_comment(gt.nodes[std::size_t(at)].comment, c.text);
        movegen::do_action(pre, action, undo);
    }
    const std::vector<int> len = sol.heights();
    // Copy the solution below `at`, iteratively (parents first), ordering children so that the
    // longest line comes last.
    std::vector<std::pair<int, int>> stack{{0, at}}; // (solution node, game node)
    while (!stack.empty()) {
        const auto [s, g] = stack.back();
        stack.pop_back();
        std::vector<int> kids = sol.nodes[std::size_t(s)].children;
        if (kids.empty()) continue;
        // Grouping of defences sharing one immediately mating answer.
        std::vector<std::string> groupComment(kids.size());
        std::vector<bool>        hidden(kids.size(), false);
        if (groupThreshold && kids.size() > groupThreshold) {
            Multiverse here      = sol.position_at(root, s);
            auto       answer_of = [&](int c) -> const TreeNode* {
                const auto& n = sol.nodes[std::size_t(c)];
                if (n.children.size() != 1) return nullptr;
                const auto& a = sol.nodes[std::size_t(n.children[0])];
                return a.children.empty() ? &a : nullptr;
            };
            for (std::size_t i = 0; i < kids.size(); ++i) {
                const TreeNode* ai = answer_of(kids[i]);
                if (!ai || hidden[i]) continue;
                std::vector<std::size_t> same{i};
                for (std::size_t j = i + 1; j < kids.size(); ++j) {
                    const TreeNode* aj = answer_of(kids[j]);
                    if (aj && !hidden[j] && aj->action == ai->action) same.push_back(j);
                }
                if (same.size() < 2) continue;
                std::vector<std::string> names;
                for (std::size_t j : same) {
                    names.push_back(
                        notation::format_action(here, sol.nodes[std::size_t(kids[j])].action));
                    if (j != i) hidden[j] = true;
                }
                groupComment[i] = movegen::group_comment(names);
            }
        }
        std::vector<std::size_t> order;
        for (std::size_t i = 0; i < kids.size(); ++i)
            if (!hidden[i]) order.push_back(i);
        // Main line last: the last child of maximal length.
        std::size_t mainPos = 0;
        for (std::size_t p = 0; p < order.size(); ++p)
            if (len[std::size_t(kids[order[p]])] >= len[std::size_t(kids[order[mainPos]])])
                mainPos = p;
        std::rotate(order.begin() + std::ptrdiff_t(mainPos),
            order.begin() + std::ptrdiff_t(mainPos) + 1, order.end());
        for (std::size_t i : order) {
            const int id                      = gt.add(g, sol.nodes[std::size_t(kids[i])]);
            gt.nodes[std::size_t(id)].comment = groupComment[i];
            stack.emplace_back(kids[i], id);
        }
    }
    return gt;
}

// --- problemist markup --------------------------------------------------------------------------

namespace {

// Adds a part to a node's comment ("; " between parts). A defence group's declaration stays the
// last part: its list of defences runs to the end of the comment (movegen::read_group()), so a
// part after it would read as one more defence.
void add_comment(TreeNode& n, const std::string& text) {
    movegen::DefenceGroup group;
    if (movegen::read_group(n.comment, group))
        n.comment = text + "; " + n.comment;
    else
        n.comment += (n.comment.empty() ? "" : "; ") + text;
}

// The threat of a key (Popeye's "threat:"): the attacker's mate if the defender could pass.
// In 5D chess a pass is the defender's mandatory boards copied unchanged (RULES.md §5.4, the
// construction of "in check"); a key that gives check has no threat.
std::string threat_of(
    const Multiverse& puzzle, std::span<const Move> key, int n, const solver::SolveOptions& base) {
    if (n < 2) return "";
    Multiverse                     p = puzzle.fork();
    std::vector<movegen::MoveUndo> u;
    movegen::do_action(p, key, u);
    if (movegen::in_check_at_turn_start(p)) return "checking key: no threat";
    movegen::MoveUndo pass;
    p.make_passes(p.present_v(), pass);
    if (p.to_move() != puzzle.to_move()) return "no threat";
    solver::SolveOptions o      = base;
    o.maxMate                   = n - 1;
    o.minMate                   = 1;
    o.allKeys                   = false;
    o.buildTree                 = false;
    o.progress                  = false;
    const solver::SolveResult t = solver::solve(p, o);
    if (t.result == solver::Result::MATE && !t.keys.empty())
        return "threat: " + notation::format_action(p, t.keys[0]) + " (mate in "
            + std::to_string(t.mateIn) + ")";
    if (t.result == solver::Result::NO_MATE) return "no threat (zugzwang)";
    return "threat unknown (" + (t.error.empty() ? std::string("limit") : t.error) + ")";
}

} // namespace

void problemist_markup(notation::GameTree& gt, int puzzleNode, const Multiverse& puzzle,
    const solver::SolveResult& r, const solver::SolveOptions& base, bool withTries) {
    const solver::Analysis an       = solver::analyse(puzzle, r.tree, r.mateIn, base, withTries);
    std::size_t            defences = 0, mates = 0;
    for (std::size_t i = 1; i < r.tree.nodes.size(); ++i) {
        defences += r.tree.depth(int(i)) % 2 == 0;
        mates += r.tree.nodes[i].mate();
    }
    auto fmt_line = [&](std::span<const std::vector<Move>> path,
                        std::span<const char* const>       marks) {
        Multiverse                     p = puzzle.fork();
        std::vector<movegen::MoveUndo> u;
        std::string                    s;
        for (std::size_t i = 0; i < path.size(); ++i) {
            if (!s.empty()) s += ' ';
            s += notation::format_action(p, path[i]) + (i < marks.size() ? marks[i] : "");
            movegen::do_action(p, path[i], u);
        }
        return s;
    };
    const char* side = puzzle.to_move() == movegen::WHITE ? "white" : "black";
    std::string head = "#" + std::to_string(r.mateIn) + ", " + side + " to play. ";
    if (!an.complete)
        head += "Not analysed (" + an.why + ")";
    else if (an.keys.size() <= 1)
        head += "Sound: 1 key";
    else
        head += "Cooked: " + std::to_string(an.keys.size()) + " keys";
    head += ", " + std::to_string(defences) + " defences, " + std::to_string(mates) + " mates";
    if (an.complete) head += ", " + std::to_string(an.duals.size()) + " duals";
    if (withTries && an.complete) {
        head += ", " + std::to_string(an.tries.size()) + " tries";
        static constexpr const char* TryMarks[] = {"?", "!"};
        for (const auto& [t, refutation] : an.tries) {
            const std::vector<Move> line[] = {t, refutation};
            head += "; try " + fmt_line(line, TryMarks);
        }
    }
    add_comment(gt.nodes[std::size_t(puzzleNode)], head);
    for (const int k : gt.nodes[std::size_t(puzzleNode)].children) {
        TreeNode& key       = gt.nodes[std::size_t(k)];
        key.evaluation      = notation::Evaluation::GOOD;
        const std::string t = threat_of(puzzle, key.action, r.mateIn, base);
        if (!t.empty()) add_comment(key, t);
    }
    // Duals: the node reached by each path (matched child by child from the puzzle node).
    for (const auto& path : an.duals) {
        int node = puzzleNode;
        for (const auto& a : path) {
            int next = -1;
            for (const int c : gt.nodes[std::size_t(node)].children)
                if (gt.nodes[std::size_t(c)].action == a) next = c;
            node = next;
            if (node < 0) break;
        }
        if (node >= 0) add_comment(gt.nodes[std::size_t(node)], "dual");
    }
}

// --- the self-check ----------------------------------------------------------------------------

std::string read_back_problem(const std::string& text, const notation::GameTree& written,
    int mateIn, const solver::ProofLimits& limits, std::string* stopped) {
    notation::ReadOptions opt; // strict: capture marks and jump indicators are checked
    opt.annotate = false;      // as verify reads: the marks are the text's
    opt.maxNodes = std::max(opt.maxNodes, written.nodes.size() + 1);
    std::vector<notation::Diagnostic> errors;
    std::optional<notation::GameTree> back =
        notation::read_game_tree(text, "<solve output>", opt, errors);
    if (!back)
        return "it does not read back: "
            + (errors.empty() ? std::string("no diagnostic") : errors.front().to_string());
    if (back->headers != notation::canonical_headers(written.headers))
        return "its headers read back differently";
    back->headers = written.headers;
    std::string why;
    if (!notation::same_tree(written, *back, &why)) return "it reads back differently: " + why;
    // The puzzle position, as verify finds it: after the Prelude actions of the main line.
    std::size_t prelude = 0;
    for (const auto& [k, v] : written.headers)
        if (k == "Prelude") prelude = std::stoul(v);
    const std::vector<int> mainLine = back->main_line();
    if (prelude >= mainLine.size()) return "its main line is shorter than its prelude";
    const int                 top  = mainLine[prelude];
    const SolutionTree        tree = *back->subtree(top);
    Multiverse                at   = notation::position_at(*back, top);
    const solver::ProofReport rep =
        solver::check_proof(at, tree, 1, &notation::format_action, limits);
    if (!rep.limit.empty() && rep.problems.empty()) {
        if (stopped) *stopped = rep.limit;
        return "";
    }
    if (!rep.complete)
        return "its solution is not a complete proof"
            + (rep.problems.empty() ? std::string() : ": " + rep.problems.front().detail);
    if (rep.length != mateIn)
        return "its solution is a mate in " + std::to_string(rep.length) + ", not "
            + std::to_string(mateIn);
    return "";
}

} // namespace fived::report
