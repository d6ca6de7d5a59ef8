#include "notation/reader.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>

#include "movegen/actions.h"
#include "movegen/movegen.h"
#include "movegen/picker.h"
#include "movegen/variants.h"
#include "notation/parser.h"
#include "notation/writer.h"

namespace fived::notation {

using movegen::MoveUndo;
using movegen::Multiverse;

namespace {

Outcome outcome_of(const GameResult& r) {
    switch (r.outcome) {
        case GameResult::Outcome::WHITE_WINS: return Outcome::WHITE_WINS;
        case GameResult::Outcome::BLACK_WINS: return Outcome::BLACK_WINS;
        case GameResult::Outcome::DRAW: break;
    }
    return Outcome::DRAW;
}

// Appends a comment's text to a node's comment: trimmed, braces turned into parentheses (the
// writer never nests comments, NOTATION.md §7), separated from earlier text by one space.
void append_comment(std::string& to, std::string_view text) {
    auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!text.empty() && is_space(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && is_space(text.back()))
        text.remove_suffix(1);
    if (text.empty() || to == text) return;
    if (!to.empty()) to += ' ';
    for (char c : text)
        to += c == '{' ? '(' : c == '}' ? ')' : c;
}

// The mark the text claims for an action: a lone `#`/`*`, or one on any of its moves.
Mark claimed_mark(const Action& a) {
    Mark m = a.loneMark;
    for (const Move& w : a.moves)
        if (w.mark == Mark::CHECKMATE || w.mark == Mark::SOFTMATE) m = w.mark;
    return m == Mark::CHECK ? Mark::NONE : m;
}

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
    h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 29);
}

std::uint64_t action_key(int parent, const std::vector<movegen::Move>& action) {
    std::uint64_t h = std::uint64_t(parent) * 0x94D049BB133111EBULL;
    for (const movegen::Move& m : action)
        h = mix(h,
            (std::uint64_t(m.from.raw()) << 32 | m.to.raw()) ^ (std::uint64_t(m.promotion) << 58));
    return h;
}

bool same_boards(const Multiverse& a, const Multiverse& b) {
    if (a.min_l() != b.min_l() || a.max_l() != b.max_l() || a.init_min_l() != b.init_min_l()
        || a.init_max_l() != b.init_max_l())
        return false;
    for (int l = a.min_l(); l <= a.max_l(); ++l) {
        if (a.start_v(l) != b.start_v(l) || a.end_v(l) != b.end_v(l)) return false;
        for (int v = a.start_v(l); v <= a.end_v(l); ++v)
            if (!a.board(l, v).same_contents(b.board(l, v))) return false;
    }
    return true;
}

} // namespace

std::string board_header_value(const Multiverse& start) {
    if (start.board_count() != start.initial_board_count()) return "Custom";
    for (const movegen::VariantDef& v : movegen::builtin_variants()) {
        if (v.width != start.width() || v.height != start.height() || v.even != start.even())
            continue;
        Multiverse  mv(start.rules());
        std::string msg;
        if (movegen::setup_variant(v, mv, msg) && same_boards(mv, start)) return v.name;
    }
    return "Custom";
}

bool is_softmate(Multiverse& mv) {
    if (!movegen::in_check_at_turn_start(mv)) return false;
    const int             presentBefore = mv.present_v();
    bool                  any = false, allRewind = true;
    movegen::ActionPicker picker; // the legal-action policy: cannot thrash on a wide position
    picker.reset(mv);
    picker.for_each([&](std::span<const movegen::Move>) {
        any = true;
        if (mv.present_v() > presentBefore) { // this action does not rewind the present
            allRewind = false;
            return false;
        }
        return true;
    });
    return any && allRewind;
}

void annotate_tree(GameTree& tree, const std::vector<bool>* only) {
    if (tree.nodes.empty()) return;
    Multiverse mv = tree.start.fork();
    struct Frame {
        int         node;
        std::size_t next;
        std::size_t undoBase;
    };
    std::vector<Frame>    stack{{0, 0, 0}};
    std::vector<MoveUndo> undo;
    while (!stack.empty()) {
        Frame& f = stack.back();
        if (f.next == tree.nodes[std::size_t(f.node)].children.size()) {
            while (undo.size() > f.undoBase) {
                mv.unmake_move(undo.back());
                undo.pop_back();
            }
            stack.pop_back();
            continue;
        }
        const int         c    = tree.nodes[std::size_t(f.node)].children[f.next++];
        const std::size_t base = undo.size();
        TreeNode&         n    = tree.nodes[std::size_t(c)];
        for (const movegen::Move& m : n.action) {
            undo.emplace_back();
            mv.make_move(m, undo.back());
        }
        const bool evaluate =
            only ? std::size_t(c) < only->size() && (*only)[std::size_t(c)] : n.children.empty();
        n.mark = Mark::NONE;
        if (evaluate) {
            movegen::Verdict v = movegen::Verdict::Ongoing;
            if (n.children.empty()) v = movegen::verdict(mv);
            if (v == movegen::Verdict::Checkmate) {
                n.mark = Mark::CHECKMATE;
                if (n.result == Outcome::NONE)
                    n.result =
                        mv.to_move() == movegen::WHITE ? Outcome::BLACK_WINS : Outcome::WHITE_WINS;
            } else if (v == movegen::Verdict::Stalemate) {
                if (n.result == Outcome::NONE) n.result = Outcome::DRAW;
            } else if (is_softmate(mv)) {
                n.mark = Mark::SOFTMATE;
            }
        }
        stack.push_back({c, 0, base});
    }
}

bool read_tree(const Document& doc, std::string_view file, const ReadOptions& opt, GameTree& out,
    std::vector<Diagnostic>& errors, std::vector<Diagnostic>* warnings) {
    const std::size_t         maxErrors = std::size_t(std::max(1, opt.maxErrors));
    Diagnostic                err;
    std::optional<Multiverse> start = build_start_position(doc, file, err);
    if (!start) {
        errors.push_back(std::move(err));
        return false;
    }
    out.start = std::move(*start);
    out.nodes.clear();
    out.headers.clear();

    // Headers: those the writer computes from the start position are dropped.
    const std::string boardValue = board_header_value(out.start);
    for (const Header& h : doc.headers) {
        const std::string_view k = h.key;
        if (iequals(k, "Board") || iequals(k, "Mode") || iequals(k, "Size")
            || iequals(k, "Timeline") || iequals(k, "Timelines") || iequals(k, "Promotions"))
            continue;
        if (iequals(k, "Variant")
            && (istarts_with(h.value, "custom") || iequals(h.value, boardValue)))
            continue;
        out.headers.emplace_back(h.key, h.value);
    }
    out.headers = canonical_headers(out.headers); // the writer's order and spelling

    out.nodes.emplace_back();
    for (const Comment& c : doc.comments)
        append_comment(out.nodes[0].comment, c.text);
    if (doc.root().result) out.nodes[0].result = outcome_of(*doc.root().result);

    Multiverse           mv          = out.start.fork();
    const movegen::Color firstToMove = mv.to_move();
    std::vector<bool>    claims(1, false);
    // Deduplication: (parent, action) hash -> first tree node with it; chains for collisions.
    std::unordered_map<std::uint64_t, int> firstWithKey;
    std::vector<int>                       nextWithKey(1, -1);

    struct Frame {
        int         doc;      // document node
        int         tree;     // the tree node it was read into
        std::size_t next;     // next document child to read
        std::size_t undoBase; // undo records below this belong to ancestors
    };
    std::vector<Frame>         stack{{0, 0, 0, 0}};
    std::vector<MoveUndo>      undo;
    std::vector<movegen::Move> made;
    ReplayScratch              scratch;

    while (!stack.empty()) {
        Frame&      f  = stack.back();
        const Node& dn = doc.nodes[std::size_t(f.doc)];
        if (f.next == dn.children.size()) {
            while (undo.size() > f.undoBase) {
                mv.unmake_move(undo.back());
                undo.pop_back();
            }
            stack.pop_back();
            continue;
        }
        const int   c      = dn.children[f.next++];
        const int   parent = f.tree; // `f` dies at the push below
        const Node& cn     = doc.nodes[std::size_t(c)];

        // The turn serial must name this sub-turn (`/` always fits).
        const Serial& s = cn.action.serial;
        if (s.kind == Serial::Kind::NUMBERED) {
            const int  subTurn = cn.ply - 1 + (firstToMove == movegen::BLACK);
            const int  number  = subTurn / 2 + 1;
            const char colour  = subTurn % 2 ? 'b' : 'w';
            if (s.number != number || (s.colour ? s.colour : 'w') != colour) {
                std::string written = std::to_string(s.number);
                if (s.colour) written += s.colour;
                errors.push_back({std::string(file), s.pos,
                    "turn serial `" + written + ".` should be `" + std::to_string(number) + colour
                        + ".` (or `/`) here"});
                if (errors.size() >= maxErrors) return false;
                continue;
            }
        }

        const std::size_t    base = undo.size();
        const movegen::Color us   = mv.to_move();
        made.clear();
        if (!replay_action(mv, cn.action, opt, file, made, undo, err, scratch)) {
            errors.push_back(std::move(err));
            if (errors.size() >= maxErrors) return false;
            continue;
        }
        if (scratch.warning && warnings) warnings->push_back(std::move(*scratch.warning));
        standard_order(made, scratch.branching, us);

        // An equal sibling (same action in standard order) absorbs this one.
        const std::uint64_t key = action_key(parent, made);
        int                 t   = -1;
        const auto          it  = firstWithKey.find(key);
        for (int q = it == firstWithKey.end() ? -1 : it->second; q >= 0;
             q     = nextWithKey[std::size_t(q)]) {
            if (out.nodes[std::size_t(q)].parent == parent
                && out.nodes[std::size_t(q)].action == made) {
                t = q;
                break;
            }
        }
        if (t < 0) {
            t = int(out.nodes.size());
            TreeNode n;
            n.parent = parent;
            n.action = made;
            out.nodes.push_back(std::move(n));
            out.nodes[std::size_t(parent)].children.push_back(t);
            claims.push_back(false);
            nextWithKey.push_back(it == firstWithKey.end() ? -1 : it->second);
            firstWithKey[key] = t;
        }
        TreeNode& n = out.nodes[std::size_t(t)];
        for (const Comment& cm : cn.action.comments)
            append_comment(n.comment, cm.text);
        if (cn.result && n.result == Outcome::NONE) n.result = outcome_of(*cn.result);
        const Mark claim = claimed_mark(cn.action);
        if (claim != Mark::NONE) {
            claims[std::size_t(t)] = true;
            if (!opt.annotate && n.mark == Mark::NONE) n.mark = claim;
        }
        stack.push_back({c, t, 0, base});
    }

    // A result replaces a subtree (B 5.2): after merging, a node with children keeps none.
    for (TreeNode& n : out.nodes)
        if (!n.children.empty()) n.result = Outcome::NONE;
    if (opt.annotate) annotate_tree(out, &claims);
    return errors.empty();
}

std::optional<GameTree> read_game_tree(std::string_view text, std::string_view file,
    const ReadOptions& opt, std::vector<Diagnostic>& errors, std::vector<Diagnostic>* warnings) {
    Document   doc;
    Diagnostic err;
    if (!parse_document(text, file, doc, err)) {
        errors.push_back(std::move(err));
        return std::nullopt;
    }
    if (warnings) warnings->insert(warnings->end(), doc.warnings.begin(), doc.warnings.end());
    GameTree tree{{}, Multiverse(movegen::GameRules{}), {}};
    if (!read_tree(doc, file, opt, tree, errors, warnings)) return std::nullopt;
    return tree;
}

absl::StatusOr<GameTree> read_game_tree(
    std::string_view text, std::string_view file, const ReadOptions& opt) {
    std::vector<Diagnostic> errors;
    std::optional<GameTree> tree = read_game_tree(text, file, opt, errors);
    if (!tree) return error_status(errors.front());
    return std::move(*tree);
}

} // namespace fived::notation
