// The viewer subcommand, html, and the page of `solve --html` (render/html.h assembles the page,
// render/svg.h draws each node; this file supplies notation's move text and reads the problemist
// markup out of the comments).
#include "cli/cli_html.h"

#include <charconv>
#include <iostream>
#include <memory>

#include "cli/cli.h"
#include "cli/cli_svg.h"
#include "movegen/tree.h"
#include "notation/fen.h"
#include "notation/format.h"
#include "notation/game.h"
#include "notation/reader.h"
#include "render/html.h"

namespace fived::cli {

namespace {

using movegen::Multiverse;
using render::HtmlNote;

// The parts of a comment as problemist_markup() joins them ("; " between parts); a defence
// group's declaration (`K defences share this answer: D1; D2; ...`) runs to the end.
std::vector<std::string> comment_parts(const std::string& comment) {
    std::vector<std::string> parts;
    std::size_t              at = 0;
    while (at < comment.size()) {
        const std::string_view rest = std::string_view(comment).substr(at);
        movegen::DefenceGroup  group;
        const std::size_t      digits = rest.find_first_not_of("0123456789");
        if (digits != 0 && digits != std::string_view::npos
            && rest.substr(digits).starts_with(" defences share this answer")
            && movegen::read_group(rest, group)) {
            parts.emplace_back(rest);
            break;
        }
        const std::size_t end = rest.find("; ");
        parts.emplace_back(rest.substr(0, end));
        if (end == std::string_view::npos) break;
        at += end + 2;
    }
    return parts;
}

bool is_threat(std::string_view part) {
    return part.starts_with("threat: ") || part.starts_with("threat unknown")
        || part == "no threat (zugzwang)" || part == "checking key: no threat";
}

// The node at `depth` actions along the main line, or -1.
int main_line_node(const notation::GameTree& tree, int depth) {
    const std::vector<int> line = tree.main_line();
    return depth >= 0 && std::size_t(depth) < line.size() ? line[std::size_t(depth)] : -1;
}

const char* evaluation_text(movegen::Evaluation e) {
    switch (e) {
        case movegen::Evaluation::GOOD: return "!";
        case movegen::Evaluation::MISTAKE: return "?";
        case movegen::Evaluation::BRILLIANT: return "!!";
        case movegen::Evaluation::BLUNDER: return "??";
        case movegen::Evaluation::INTERESTING: return "!?";
        case movegen::Evaluation::DUBIOUS: return "?!";
        case movegen::Evaluation::NONE: break;
    }
    return "";
}

// The texts of the page: move numbers and actions, notes, keys, the prelude, the tries and the
// problemist summary (the puzzle node's comment).
void page_texts(const notation::GameTree& tree, int puzzleNode, render::HtmlPage& page,
    const std::vector<std::string>& actionText) {
    const bool blackFirst = tree.start.to_move() == movegen::BLACK;
    const int  puzzleAt   = puzzleNode >= 0 ? tree.depth(puzzleNode) : -1;
    for (std::size_t i = 0; i < tree.nodes.size(); ++i) {
        const movegen::TreeNode& t = tree.nodes[i];
        render::HtmlNode&        n = page.nodes[i];
        n.parent                   = t.parent;
        // The main line (written last) first, then the variations in their order.
        if (!t.children.empty()) {
            n.children.push_back(t.children.back());
            n.children.insert(n.children.end(), t.children.begin(), t.children.end() - 1);
        }
        const int depth = tree.depth(int(i));
        n.prelude       = depth <= puzzleAt && int(i) != puzzleNode && i != 0;
        n.key           = puzzleNode >= 0 && t.parent == puzzleNode;
        if (i) {
            const int subTurn = depth - 1 + blackFirst;
            n.number          = std::to_string(subTurn / 2 + 1) + (subTurn % 2 == 0 ? "w." : "b.");
            n.action          = actionText[i]
                + (t.mate()                                 ? "#"
                        : t.mark == movegen::Mark::SOFTMATE ? "*"
                                                            : "")
                + (n.key && t.evaluation == movegen::Evaluation::NONE
                        ? "!"
                        : evaluation_text(t.evaluation));
        }
        for (const std::string& part : comment_parts(t.comment)) {
            if (int(i) == puzzleNode && part.starts_with("#")
                && part.find(" to play. ") != std::string::npos) {
                page.summary.push_back(part);
            } else if (int(i) == puzzleNode && part.starts_with("try ")
                && part.find("? ") != std::string::npos && part.ends_with("!")) {
                const std::size_t q = part.find("? ");
                page.tries.emplace_back(
                    part.substr(4, q - 4), part.substr(q + 2, part.size() - q - 3));
            } else if (n.key && is_threat(part)) {
                n.notes.push_back({HtmlNote::Kind::Threat, part});
            } else if (part == "dual") {
                n.notes.push_back({HtmlNote::Kind::Dual, part});
            } else if (!part.empty()) {
                n.notes.push_back({HtmlNote::Kind::Comment, part});
            }
        }
    }
}

// Each node's action in full notation, from its parent's position.
std::vector<std::string> action_texts(const notation::GameTree& tree) {
    std::vector<std::string> text(tree.nodes.size());
    Multiverse               mv = tree.start.fork();
    tree.walk(mv, [&](int node, Multiverse& here) {
        for (const int c : tree.nodes[std::size_t(node)].children)
            text[std::size_t(c)] = notation::format_action(here, tree.nodes[std::size_t(c)].action);
    });
    return text;
}

// The moves of a key's threat, as problemist_markup() writes it (`threat: ACTION (mate in M)`,
// ACTION in full notation after the key and a pass of the defender), read back in that position;
// none when the note is not such a threat or does not read there. A move from or onto a board
// the pass made is drawn on the board it copies (as check arrows are).
std::vector<movegen::Move> threat_moves(const Multiverse& afterKey, const render::HtmlNode& key) {
    for (const HtmlNote& note : key.notes) {
        const std::size_t end = note.text.rfind(" (mate in ");
        if (note.kind != HtmlNote::Kind::Threat || !note.text.starts_with("threat: ")
            || end == std::string::npos || end < 8)
            continue;
        Multiverse        p = afterKey.fork();
        movegen::MoveUndo pass;
        p.make_passes(p.present_v(), pass);
        const std::string text = notation::fen_headers(p) + notation::fen_of(p) + "\n1"
            + (p.to_move() == movegen::WHITE ? "w. " : "b. ") + note.text.substr(8, end - 8) + "\n";
        const absl::StatusOr<notation::LoadedGame> g = notation::load_game(text, "<threat>");
        if (!g.ok() || g->mainLine.size() != 1) return {};
        std::vector<movegen::Move> moves = g->mainLine[0];
        for (movegen::Move& m : moves)
            for (movegen::Vec4* at : {&m.from, &m.to})
                if (!afterKey.board_exists(at->l(), at->v())
                    && afterKey.board_exists(at->l(), at->v() - 1))
                    *at = movegen::Vec4(at->l(), at->v() - 1, at->sq());
        return moves;
    }
    return {};
}

// One picture per node: the tree walked once, each action made on the way down.
void page_pictures(const notation::GameTree& tree, const HtmlRequest& req, render::HtmlPage& page) {
    Multiverse        mv    = tree.start.fork();
    const bool        even  = mv.even();
    const std::string title = display_name(req.file);
    tree.walk(mv, [&](int node, Multiverse& here) {
        render::HtmlNode& n = page.nodes[std::size_t(node)];
        render::Scene     scene;
        scene.lineLabel = [even](int l) { return notation::canonical_line_label(l, even); };
        scene.caption.push_back(title);
        scene.caption.push_back(node == 0
                ? std::string("start position")
                : (n.key ? "key: " : "after ") + n.number + " " + n.action);
        scene.caption.push_back(render::state_text(here));
        for (const movegen::Move& m : tree.nodes[std::size_t(node)].action)
            scene.arrows.push_back(
                {m, n.key ? render::ArrowKind::Key : render::ArrowKind::LastAction});
        if (n.key)
            for (const movegen::Move& m : threat_moves(here, n)) {
                if (scene.caption.size() == 3) scene.caption.push_back(n.notes.front().text);
                scene.arrows.push_back({m, render::ArrowKind::Threat});
            }
        for (const render::Arrow& a : render::check_arrows(here))
            scene.arrows.push_back(a);
        render::Options opt = req.picture;
        opt.idPrefix        = "n" + std::to_string(node) + "-";
        n.svg               = render::svg(here, scene, opt);
    });
}

struct HtmlCli {
    InputOptions in;
    std::string  out = "-";
    HtmlRequest  req;
};

// The puzzle position of a file, as `verify` finds it: after the first P actions of the main line
// with [Prelude "P"]; else 2N - 1 actions before its end with a Puzzle header claiming mate in
// N; else none (-1: a game). A Prelude that is not a count within the main line is bad input.
bool puzzle_node_of(const notation::GameTree& tree, const std::string& file, int& node) {
    const int mainLen = int(tree.main_line().size()) - 1;
    node              = -1;
    for (const auto& [k, v] : tree.headers) {
        if (k == "Prelude") {
            int p                = -1;
            const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), p);
            if (ec != std::errc{} || end != v.data() + v.size() || p < 0 || p > mainLen) {
                std::cerr << display_name(file) << ": [Prelude \"" << v
                          << "\"]: not a number of actions from 0 to " << mainLen << '\n';
                return false;
            }
            node = main_line_node(tree, p);
            return true;
        }
    }
    for (const auto& [k, v] : tree.headers) {
        std::string why;
        if (k != "Puzzle") continue;
        const std::optional<Claim> claim = parse_claim(v, why);
        if (claim && claim->mateIn > 0 && 2 * claim->mateIn - 1 <= mainLen)
            node = main_line_node(tree, mainLen - (2 * claim->mateIn - 1));
    }
    return true;
}

int cmd_html(const HtmlCli& c) {
    const std::optional<std::string> text = read_text(c.in.file);
    if (!text) return ExitBadInput;
    notation::ReadOptions opt = notation::read_options(c.in.lenient);
    opt.maxNodes              = c.req.maxNodes;
    std::vector<notation::Diagnostic>       errors;
    const std::optional<notation::GameTree> tree =
        notation::read_game_tree(*text, display_name(c.in.file), opt, errors);
    if (!tree) {
        for (const notation::Diagnostic& d : errors)
            std::cerr << d.to_string() << '\n';
        if (!errors.empty() && errors.front().cause.starts_with("the game tree has more than"))
            std::cerr << "fived html: the page holds one picture per node, at most --max-nodes "
                      << c.req.maxNodes << '\n';
        return ExitBadInput;
    }
    int puzzleNode = -1;
    if (!puzzle_node_of(*tree, c.in.file, puzzleNode)) return ExitBadInput;
    return write_html(c.out, *tree, puzzleNode, c.req);
}

} // namespace

int write_html(const std::string& out, const notation::GameTree& tree, int puzzleNode,
    const HtmlRequest& req) {
    if (tree.nodes.size() > req.maxNodes) {
        std::cerr << display_name(req.file) << ": the tree has " << tree.nodes.size()
                  << " nodes; the page holds one picture per node, at most --max-nodes "
                  << req.maxNodes << '\n';
        return ExitBadInput;
    }
    render::HtmlPage page;
    page.title   = display_name(req.file);
    page.headers = tree.headers;
    page.summary = req.summary;
    page.nodes.resize(tree.nodes.size());
    page.initial = puzzleNode >= 0 ? puzzleNode : 0;
    page_texts(tree, puzzleNode, page, action_texts(tree));
    page_pictures(tree, req, page); // the captions name the moves: after page_texts()
    return write_output(out, render::html(page)) ? ExitOk : ExitBadInput;
}

int write_solve_html(const std::string& out, const std::string& file,
    const notation::LoadedGame& game, const notation::GameTree* solution,
    const std::string& result) {
    HtmlRequest req;
    req.file         = file;
    req.summary      = {display_name(file) + ": " + result};
    const int puzzle = int(game.mainLine.size()); // the prelude's nodes are 1 to P
    if (solution) return write_html(out, *solution, puzzle, req);
    notation::GameTree prelude(game.start.fork());
    int                at = 0;
    for (const auto& a : game.mainLine)
        at = prelude.add(at, a);
    prelude.headers.emplace_back("Prelude", std::to_string(puzzle));
    return write_html(out, prelude, puzzle, req);
}

void register_html_command(const Commands& commands, int& exitCode) {
    auto c = std::make_shared<HtmlCli>();
    if (auto* cmd = commands.add("html",
            "the game or solution tree as one self-contained HTML page: a clickable move list "
            "(variations nested) beside the picture of the multiverse after each move")) {
        add_input(cmd, c->in);
        cmd->add_option(
            "-o,--output", c->out, "write the HTML to this file ('-' = standard output)");
        cmd->add_option("--max-nodes", c->req.maxNodes,
               "most nodes of the tree (one picture each; default "
                   + std::to_string(DefaultHtmlNodes) + "); a larger tree is refused (exit 2)")
            ->check(digits() & CLI::Range(std::size_t(1), std::size_t(4'000'000)));
        add_picture_options(cmd, c->req.picture);
        cmd->callback([&exitCode, c] {
            c->req.file = c->in.file;
            exitCode    = cmd_html(*c);
        });
    }
}

} // namespace fived::cli
