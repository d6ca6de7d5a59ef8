#include "notation/reader.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "movegen/action.h"
#include "movegen/actions.h"
#include "movegen/movegen.h"
#include "movegen/picker.h"
#include "movegen/variants.h"
#include "notation/headers.h"
#include "notation/parser.h"

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

} // namespace

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

namespace {

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

} // namespace

void annotate_tree(GameTree& tree, const std::vector<bool>* only) {
    Multiverse mv = tree.start.fork();
    tree.walk(mv, [&](int c, Multiverse& here) {
        if (c == 0) return;
        TreeNode&  n = tree.nodes[std::size_t(c)];
        const bool evaluate =
            only ? std::size_t(c) < only->size() && (*only)[std::size_t(c)] : n.children.empty();
        n.mark = Mark::NONE;
        if (!evaluate) return;
        movegen::Verdict v = movegen::Verdict::Ongoing;
        if (n.children.empty()) v = movegen::verdict(here);
        if (v == movegen::Verdict::Checkmate) {
            n.mark = Mark::CHECKMATE;
            if (n.result == Outcome::NONE)
                n.result =
                    here.to_move() == movegen::WHITE ? Outcome::BLACK_WINS : Outcome::WHITE_WINS;
        } else if (v == movegen::Verdict::Stalemate) {
            if (n.result == Outcome::NONE) n.result = Outcome::DRAW;
        } else if (movegen::is_softmate(here)) {
            n.mark = Mark::SOFTMATE;
        }
    });
}

namespace {

// The tree of a document, fed node by node in document order (the depth-first order of the
// tree): every node's action is replayed on ONE multiverse by make/unmake along the path from
// the root, checked, put in standard order and merged with an equal sibling. Without a tree to
// fill it only replays and checks (check_game_text()).
class TreeBuilder final : public NodeSink {
public:
    TreeBuilder(std::string_view fileName, const ReadOptions& options, const Multiverse& start,
        GameTree* tree, std::vector<Diagnostic>& errs, std::vector<Diagnostic>* warns) :
        file(fileName),
        opt(options), out(tree), errors(errs), warnings(warns), mv(start.fork()),
        firstToMove(mv.to_move()),
        maxErrors(std::size_t(std::max(1, options.maxErrors))), stack{{0, 0, 0}} {
        if (out) claims.push_back(false);
    }

    bool stopped = false; // too many errors, or the node limit

    bool on_node(int id, const Node& dn) override {
        // Back up to the parent: the frames above it belong to finished subtrees.
        while (stack.size() > 1 && stack.back().doc != dn.parent) {
            movegen::undo_action(mv, undo, stack.back().undoBase);
            stack.pop_back();
        }
        const int         parent = stack.back().tree;
        const std::size_t base   = undo.size();
        if (parent < 0) { // inside a subtree skipped after an error
            stack.push_back({id, -1, base});
            return true;
        }
        if (std::optional<Diagnostic> e = serial_error(dn.action.serial, dn.ply, firstToMove, file))
            return fail(id, std::move(*e));
        const movegen::Color us = mv.to_move();
        made.clear();
        Diagnostic err;
        if (!replay_action(mv, dn.action, opt, file, made, undo, err, scratch))
            return fail(id, std::move(err));
        if (scratch.warning && warnings) warnings->push_back(std::move(*scratch.warning));
        standard_order(made, scratch.branching, us);
        if (!out) {
            stack.push_back({id, 0, base});
            return true;
        }

        // An equal sibling (same action in standard order) absorbs this one.
        const std::uint64_t key = action_key(parent, made);
        int                 t   = find_child(parent, key);
        if (t < 0) {
            if (out->nodes.size() > opt.maxNodes) {
                const SourcePos at =
                    dn.action.moves.empty() ? dn.action.serial.pos : dn.action.moves.front().pos;
                errors.push_back({std::string(file), at,
                    "the game tree has more than " + std::to_string(opt.maxNodes)
                        + " nodes, the reader's limit (ReadOptions::maxNodes)"});
                stopped = true;
                return false;
            }
            t = int(out->nodes.size());
            TreeNode n;
            n.parent = parent;
            n.action = made;
            out->nodes.push_back(std::move(n));
            add_child(parent, t, key);
            claims.push_back(false);
        }
        TreeNode&  n     = out->nodes[std::size_t(t)];
        const Mark claim = claimed_mark(dn.action);
        if (claim != Mark::NONE) {
            claims[std::size_t(t)] = true;
            if (!opt.annotate && n.mark == Mark::NONE) n.mark = claim;
        }
        stack.push_back({id, t, base});
        return true;
    }

    // Comments and the result are complete only now (a comment may stand after a `)` that
    // returns to the node).
    bool on_finish(int id, const Node& dn) override {
        if (!out) return true;
        for (std::size_t i = stack.size(); i-- > 0;) {
            if (stack[i].doc != id) continue;
            if (stack[i].tree < 0) return true;
            TreeNode& n = out->nodes[std::size_t(stack[i].tree)];
            if (id != 0) // the root's comments are the Document's (read_tree())
                for (const Comment& cm : dn.action.comments)
                    append_comment(n.comment, cm.text);
            if (dn.result && n.result == Outcome::NONE) n.result = outcome_of(*dn.result);
            return true;
        }
        return true;
    }

    std::vector<bool> claims; // per tree node: the text marked it `#` or `*`

private:
    struct Frame {
        int         doc;      // document node
        int         tree;     // the tree node it was read into; -1 in a skipped subtree
        std::size_t undoBase; // undo records below this belong to ancestors
    };

    // An error at node `id`: its subtree is skipped.
    bool fail(int id, Diagnostic&& d) {
        errors.push_back(std::move(d));
        stack.push_back({id, -1, undo.size()});
        if (errors.size() < maxErrors) return true;
        stopped = true;
        return false;
    }

    // The child of `parent` with action `made`, or -1. A parent's children are compared one by
    // one while they are few; past SmallFanout they are found by their (parent, action) hash.
    static constexpr std::size_t SmallFanout = 8;
    int                          find_child(int parent, std::uint64_t key) const {
                                 const std::vector<int>& kids = out->nodes[std::size_t(parent)].children;
                                 if (kids.size() <= SmallFanout) {
                                     for (int q : kids)
                if (out->nodes[std::size_t(q)].action == made) return q;
            return -1;
        }
                                 const auto it = byKey.find(key);
                                 for (int q = it == byKey.end() ? -1 : it->second; q >= 0;) {
                                     if (out->nodes[std::size_t(q)].parent == parent
                && out->nodes[std::size_t(q)].action == made)
                return q;
            const auto nx = nextWithKey.find(q);
                                     q             = nx == nextWithKey.end() ? -1 : nx->second;
        }
                                 return -1;
    }
    void add_child(int parent, int t, std::uint64_t key) {
        std::vector<int>& kids = out->nodes[std::size_t(parent)].children;
        kids.push_back(t);
        if (kids.size() <= SmallFanout) return;
        auto index = [&](int q, std::uint64_t k) {
            const auto [it, fresh] = byKey.try_emplace(k, q);
            if (!fresh) {
                nextWithKey[q] = it->second;
                it->second     = q;
            }
        };
        if (kids.size() == SmallFanout + 1)
            for (std::size_t i = 0; i + 1 < kids.size(); ++i)
                index(kids[i], action_key(parent, out->nodes[std::size_t(kids[i])].action));
        index(t, key);
    }

    std::string_view                        file;
    const ReadOptions&                      opt;
    GameTree*                               out;
    std::vector<Diagnostic>&                errors;
    std::vector<Diagnostic>*                warnings;
    Multiverse                              mv;
    movegen::Color                          firstToMove;
    std::size_t                             maxErrors;
    std::vector<Frame>                      stack;
    std::vector<MoveUndo>                   undo;
    std::vector<movegen::Move>              made;
    ReplayScratch                           scratch;
    absl::flat_hash_map<std::uint64_t, int> byKey;       // first node with the key
    absl::flat_hash_map<int, int>           nextWithKey; // the next one (hash collisions)
};

// Fills `out` from the document's head (start position, headers, root comment and result).
bool begin_tree(
    const Document& doc, std::string_view file, GameTree& out, std::vector<Diagnostic>& errors) {
    absl::StatusOr<Multiverse> start = build_start_position(doc, file);
    if (!start.ok()) {
        errors.push_back(diagnostic_of(start.status()).value());
        return false;
    }
    out.start = std::move(*start);
    read_tree_head(doc, out);
    if (doc.root().result) out.nodes[0].result = outcome_of(*doc.root().result);
    return true;
}

void end_tree(GameTree& out, const ReadOptions& opt, const std::vector<bool>& claims) {
    // A result replaces a subtree (B 5.2): after merging, a node with children keeps none.
    for (TreeNode& n : out.nodes)
        if (!n.children.empty()) n.result = Outcome::NONE;
    if (opt.annotate) annotate_tree(out, &claims);
}

// Counts the nodes of a document.
struct CountingSink final : NodeSink {
    std::size_t nodes = 0;
    bool        on_node(int, const Node&) override { return ++nodes, true; }
    bool        on_finish(int, const Node&) override { return true; }
};

// Parses `text` once to check its syntax and learn its head (headers, boards, promotions, root
// comments) and its number of nodes, without keeping them. On a syntax error returns false with
// it in `errors`.
bool read_head(std::string_view text, std::string_view file, Document& head,
    std::vector<Diagnostic>& errors, std::vector<Diagnostic>* warnings, std::size_t* nodes) {
    Diagnostic   err;
    CountingSink count;
    if (!parse_document_streaming(text, file, head, &count, err)) {
        errors.push_back(std::move(err));
        return false;
    }
    if (warnings) warnings->insert(warnings->end(), head.warnings.begin(), head.warnings.end());
    if (nodes) *nodes = count.nodes;
    return true;
}

// The second pass over a text whose syntax read_head() accepted: its nodes into `b`.
void feed(
    std::string_view text, std::string_view file, TreeBuilder& b, std::vector<Diagnostic>& errors) {
    Document   scratch;
    Diagnostic err;
    if (!parse_document_streaming(text, file, scratch, &b, err) && !b.stopped)
        errors.push_back(std::move(err)); // not reached: the first pass parsed the same text
}

} // namespace

void read_tree_head(const Document& doc, GameTree& out) {
    out.nodes.clear();
    out.headers.clear();
    // Headers: those the writer computes from the start position are dropped.
    const std::string boardValue = board_header_value(out.start);
    for (const Header& h : doc.headers) {
        const std::string_view k = h.key;
        if (is_computed_header(k)) continue;
        if (iequals(k, "Variant")
            && (istarts_with(h.value, "custom") || iequals(h.value, boardValue)))
            continue;
        out.headers.emplace_back(h.key, h.value);
    }
    out.headers = canonical_headers(out.headers); // the writer's order and spelling

    out.nodes.emplace_back();
    for (const Comment& c : doc.comments)
        append_comment(out.nodes[0].comment, c.text);
}

bool read_tree(const Document& doc, std::string_view file, const ReadOptions& opt, GameTree& out,
    std::vector<Diagnostic>& errors, std::vector<Diagnostic>* warnings) {
    if (!begin_tree(doc, file, out, errors)) return false;
    TreeBuilder b(file, opt, out.start, &out, errors, warnings);
    // Index order is document order; a complete Document's nodes are complete at once.
    for (std::size_t i = 1; i < doc.nodes.size() && !b.stopped; ++i)
        if (b.on_node(int(i), doc.nodes[i])) b.on_finish(int(i), doc.nodes[i]);
    if (b.stopped) return false;
    end_tree(out, opt, b.claims);
    return errors.empty();
}

std::optional<GameTree> read_game_tree(std::string_view text, std::string_view file,
    const ReadOptions& opt, std::vector<Diagnostic>& errors, std::vector<Diagnostic>* warnings) {
    // Two passes over the text, neither keeping the syntax tree: the first checks the syntax
    // (every syntax error comes before any semantic one, as with a whole Document) and reads
    // the head; the second replays the nodes as they are parsed.
    Document    head;
    std::size_t nodes = 0;
    if (!read_head(text, file, head, errors, warnings, &nodes)) return std::nullopt;
    GameTree tree(Multiverse(movegen::GameRules{}));
    if (!begin_tree(head, file, tree, errors)) return std::nullopt;
    // At most one tree node per document node (equal variations merge): no doubling growth.
    tree.nodes.reserve(std::min(nodes, opt.maxNodes) + 1);
    const std::size_t before = errors.size();
    TreeBuilder       b(file, opt, tree.start, &tree, errors, warnings);
    feed(text, file, b, errors);
    if (b.stopped || errors.size() != before) return std::nullopt;
    end_tree(tree, opt, b.claims);
    return tree;
}

bool check_game_text(std::string_view text, std::string_view file, const ReadOptions& opt,
    std::vector<Diagnostic>& errors, std::vector<Diagnostic>* warnings) {
    Document head;
    if (!read_head(text, file, head, errors, warnings, nullptr)) return false;
    const absl::StatusOr<Multiverse> start = build_start_position(head, file);
    if (!start.ok()) {
        errors.push_back(diagnostic_of(start.status()).value());
        return false;
    }
    const std::size_t before = errors.size();
    TreeBuilder       b(file, opt, *start, nullptr, errors, warnings);
    feed(text, file, b, errors);
    return errors.size() == before;
}

absl::StatusOr<GameTree> read_game_tree(
    std::string_view text, std::string_view file, const ReadOptions& opt) {
    std::vector<Diagnostic> errors;
    std::optional<GameTree> tree = read_game_tree(text, file, opt, errors);
    if (!tree) return error_status(errors.front());
    return std::move(*tree);
}

} // namespace fived::notation
