#include "report/solution.h"

#include <algorithm>
#include <optional>
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
#include "solver/solution_shape.h"
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
    // Copy the solution below `at`, iteratively (parents first), in the order it is written
    // (solver::written_children(): the main line last, defence groups written once).
    std::vector<std::pair<int, int>> stack{{0, at}}; // (solution node, game node)
    while (!stack.empty()) {
        const auto [s, g] = stack.back();
        stack.pop_back();
        const std::vector<solver::WrittenChild> kids =
            solver::written_children(sol, s, len, groupThreshold);
        std::optional<Multiverse> here; // where the grouped defences are named
        for (const solver::WrittenChild& k : kids) {
            const int id = gt.add(g, sol.nodes[std::size_t(k.node)]);
            gt.nodes[std::size_t(id)].comment.clear(); // a written node's comment is its group's
            if (!k.group.empty()) {
                if (!here) here.emplace(sol.position_at(root, s));
                std::vector<std::string> names;
                for (const int d : k.group)
                    names.push_back(
                        notation::format_action(*here, sol.nodes[std::size_t(d)].action));
                gt.nodes[std::size_t(id)].comment = movegen::group_comment(names);
            }
            stack.emplace_back(k.node, id);
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

// The threat of a key as its comment (solver::threat_of()); "" when none is asked.
std::string threat_text(
    const Multiverse& puzzle, std::span<const Move> key, int n, const solver::SolveOptions& base) {
    using Kind        = solver::Threat::Kind;
    solver::Threat th = solver::threat_of(puzzle, key, n, base); // its position is named in
    switch (th.kind) {
        case Kind::NONE: return "";
        case Kind::CHECKING_KEY: return "checking key: no threat";
        case Kind::NO_PASS: return "no threat";
        case Kind::MATE:
            return "threat: " + notation::format_action(*th.position, th.action) + " (mate in "
                + std::to_string(th.mateIn) + ")";
        case Kind::ZUGZWANG: return "no threat (zugzwang)";
        case Kind::UNKNOWN: break;
    }
    return "threat unknown (" + (th.error.empty() ? std::string("limit") : th.error) + ")";
}

} // namespace

void problemist_markup(notation::GameTree& gt, int puzzleNode, const Multiverse& puzzle,
    const solver::SolveResult& r, const solver::SolveOptions& base, bool withTries) {
    const solver::Analysis       an    = solver::analyse(puzzle, r.tree, r.mateIn, base, withTries);
    const solver::SolutionCounts count = solver::count_solution(r.tree);
    auto                         fmt_line = [&](std::span<const std::vector<Move>> path,
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
    head += ", " + std::to_string(count.defences) + " defences, " + std::to_string(count.mates)
        + " mates";
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
        const std::string t = threat_text(puzzle, key.action, r.mateIn, base);
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
    const std::string mismatch = solver::proof_mismatch(rep, mateIn);
    return mismatch.empty() ? "" : "its solution is " + mismatch;
}

} // namespace fived::report
