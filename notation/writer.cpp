#include "notation/writer.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "movegen/action.h"
#include "notation/fen.h"
#include "notation/headers.h"

namespace fived::notation {

using movegen::Color;
using movegen::MoveUndo;
using movegen::Multiverse;

namespace {

const char* evaluation_text(Evaluation e) {
    switch (e) {
        case Evaluation::GOOD: return "!";
        case Evaluation::MISTAKE: return "?";
        case Evaluation::BRILLIANT: return "!!";
        case Evaluation::BLUNDER: return "??";
        case Evaluation::INTERESTING: return "!?";
        case Evaluation::DUBIOUS: return "?!";
        case Evaluation::NONE: break;
    }
    return "";
}

const char* result_text(Outcome o) {
    switch (o) {
        case Outcome::WHITE_WINS: return "1-0";
        case Outcome::BLACK_WINS: return "0-1";
        case Outcome::DRAW: return "1/2-1/2";
        case Outcome::NONE: break;
    }
    return "";
}

std::string square_text(int x, int y) { return char('a' + x) + std::to_string(y + 1); }

// Writes the game tree part of the record. See the layout in writer.h; the explicit task stack
// replaces the recursion over variations.
class TreeWriter {
public:
    TreeWriter(const GameTree& t, MoveStyle s, std::string& o) :
        tree(t), style(s), out(o), mv(t.start.fork()), firstToMove(mv.to_move()) { }

    void run();

private:
    enum class Kind : std::uint8_t {
        START,  // begin a line at `depth`
        OPEN,   // begin a line at `depth` with `(`
        CLOSE,  // `)`
        LINE,   // write `node`'s action and schedule what follows it
        UNMAKE, // take back the moves above `undoBase`
    };
    struct Task {
        Kind        kind;
        int         node     = 0;
        int         depth    = 0;
        int         ply      = 0;
        bool        first    = false;
        std::size_t undoBase = 0;
    };

    // Indentation stops growing at MaxIndent spaces, so that deeply nested trees stay linear
    // in size.
    static constexpr int MaxIndent = 32;

    void start_line(int depth) {
        if (lineOpen) out += '\n';
        out.append(std::size_t(std::min(depth, MaxIndent)), ' ');
        lineOpen = true;
    }
    void schedule_children(int node, int depth, int ply, std::size_t undoBase);
    void write_line(const Task& t);

    const GameTree&       tree;
    MoveStyle             style;
    std::string&          out;
    Multiverse            mv;
    Color                 firstToMove;
    bool                  lineOpen = false;
    std::vector<Task>     tasks;
    std::vector<MoveUndo> undo;
    ReplayScratch         scratch;
};

void TreeWriter::run() {
    const TreeNode& root = tree.nodes.front();
    if (!root.comment.empty()) {
        start_line(0);
        out += '{';
        for (char c : root.comment)
            out += c == '{' ? '(' : c == '}' ? ')' : c;
        out += '}';
    }
    if (root.children.empty()) {
        if (root.result != Outcome::NONE) {
            start_line(0);
            out += result_text(root.result);
        }
    } else {
        schedule_children(0, 0, 0, 0);
    }
    while (!tasks.empty()) {
        const Task t = tasks.back();
        tasks.pop_back();
        switch (t.kind) {
            case Kind::START: start_line(t.depth); break;
            case Kind::OPEN:
                start_line(t.depth);
                out += '(';
                break;
            case Kind::CLOSE: out += ')'; break;
            case Kind::LINE: write_line(t); break;
            case Kind::UNMAKE: movegen::undo_action(mv, undo, t.undoBase); break;
        }
    }
    if (lineOpen) out += '\n';
}

// What follows node's action: its only child continues the line; several children are the side
// variations in parentheses, then the main line (the last child) on a line of its own.
void TreeWriter::schedule_children(int node, int depth, int ply, std::size_t undoBase) {
    const std::vector<int>& kids = tree.nodes[std::size_t(node)].children;
    tasks.push_back({Kind::UNMAKE, node, depth, ply, false, undoBase});
    if (kids.empty()) return;
    if (kids.size() == 1) {
        tasks.push_back({Kind::LINE, kids[0], depth, ply + 1, node == 0, 0});
        if (node == 0) tasks.push_back({Kind::START, 0, depth, 0, false, 0});
        return;
    }
    tasks.push_back({Kind::LINE, kids.back(), depth, ply + 1, true, 0});
    tasks.push_back({Kind::START, 0, depth, 0, false, 0});
    for (std::size_t i = kids.size() - 1; i-- > 0;) {
        tasks.push_back({Kind::CLOSE, 0, depth, 0, false, 0});
        tasks.push_back({Kind::LINE, kids[i], depth + 1, ply + 1, true, 0});
        tasks.push_back({Kind::OPEN, 0, depth, 0, false, 0});
    }
}

void TreeWriter::write_line(const Task& t) {
    const TreeNode& n       = tree.nodes[std::size_t(t.node)];
    const int       subTurn = t.ply - 1 + (firstToMove == movegen::BLACK);
    const bool      white   = subTurn % 2 == 0;
    const int       number  = subTurn / 2 + 1;
    if (!t.first) {
        if (white)
            start_line(t.depth);
        else
            out += ' ';
    }
    if (t.first)
        out += std::to_string(number) + (white ? "w." : "b.");
    else
        out += white ? std::to_string(number) + "." : std::string("/");

    const std::size_t base = undo.size();
    for (const movegen::Move& m : n.action) {
        out += ' ';
        out += style == MoveStyle::FULL ? format_move(mv, m) : format_move_short(mv, m, scratch);
        movegen::do_action(mv, {&m, 1}, undo);
    }
    if (!n.action.empty()) {
        if (n.mark == Mark::CHECKMATE) out += '#';
        if (n.mark == Mark::SOFTMATE) out += '*';
        out += evaluation_text(n.evaluation);
    }
    if (!n.comment.empty()) {
        out += " {";
        for (char c : n.comment)
            out += c == '{' ? '(' : c == '}' ? ')' : c;
        out += '}';
    }
    if (n.children.empty() && n.result != Outcome::NONE) {
        out += ' ';
        out += result_text(n.result);
    }
    schedule_children(t.node, t.depth, t.ply, base);
}

std::string header_line(const std::string& key, const std::string& value) {
    return "[" + key + " \"" + value + "\"]\n";
}

} // namespace

std::string format_move_short(
    const Multiverse& mv, const movegen::Move& m, ReplayScratch& scratch) {
    const Color us = Color(m.from.v() & 1);
    collect_candidates(mv, us, scratch.candidates, scratch.moves);
    const auto self = std::find_if(scratch.candidates.begin(), scratch.candidates.end(),
        [&](const MoveCandidate& c) { return c.move == m; });
    if (self == scratch.candidates.end()) return format_move(mv, m);

    const bool  physical = m.is_physical();
    const bool  pawn     = self->piece == movegen::PAWN;
    MovePattern base;
    base.kind      = physical ? MoveKind::PHYSICAL : MoveKind::JUMP;
    base.jump      = physical  ? JumpIndicator::NONE
             : self->branching ? JumpIndicator::BRANCHING
                               : JumpIndicator::NON_BRANCHING;
    base.piece     = pawn ? movegen::NO_PIECE_TYPE : self->piece;
    base.capture   = m.is_capture();
    base.promotion = m.promotion;
    base.toFile    = m.to.x();
    base.toRank    = m.to.y();
    // Pawn captures and pawn jumps keep the source file, as people write them (`exd5`, `f>>f6`).
    if (pawn && (base.capture || !physical)) base.fromFile = m.from.x();

    // Every pattern below names the target square, so only the candidates that land there can
    // match: match against those alone (the same result, far fewer comparisons).
    std::vector<MoveCandidate>& near = scratch.near;
    near.clear();
    for (const MoveCandidate& c : scratch.candidates)
        if (c.move.to.sq() == m.to.sq()) near.push_back(c);

    const ReadOptions        strict;
    std::vector<std::size_t> found;
    std::string              best;
    const bool               even = mv.even();
    for (int src = 0; src < 2; ++src)
        for (int dst = 0; dst < (physical ? 1 : 4); ++dst)
            for (int fr = 0; fr < 4; ++fr) {
                MovePattern p = base;
                if (fr & 1) p.fromFile = m.from.x();
                if (fr & 2) p.fromRank = m.from.y();
                // A move may not start with a digit (it would read as a turn serial).
                if (!src && p.piece == movegen::NO_PIECE_TYPE && p.fromRank && !p.fromFile)
                    continue;
                if (src) p.fromL = m.from.l();
                if (dst & 1) p.toT = m.to.t();
                if (dst & 2) p.toL = m.to.l();

                std::string s;
                if (p.fromL) s += "(L" + canonical_line_label(*p.fromL, even) + ")";
                if (p.piece != movegen::NO_PIECE_TYPE) s += piece_letter(p.piece);
                if (p.fromFile) s += char('a' + *p.fromFile);
                if (p.fromRank) s += std::to_string(*p.fromRank + 1);
                if (p.jump != JumpIndicator::NONE)
                    s += p.jump == JumpIndicator::BRANCHING ? ">>" : ">";
                if (p.capture) s += 'x';
                if (p.toL && p.toT)
                    s += "(" + canonical_line_label(*p.toL, even) + "T" + std::to_string(*p.toT)
                        + ")";
                else if (p.toL)
                    s += "(L" + canonical_line_label(*p.toL, even) + ")";
                else if (p.toT)
                    s += "(T" + std::to_string(*p.toT) + ")";
                s += square_text(p.toFile, p.toRank);
                if (p.promotion != movegen::NO_PIECE_TYPE) {
                    s += '=';
                    s += piece_letter(p.promotion);
                }
                if (!best.empty() && s.size() >= best.size()) continue;
                std::size_t chosen = 0;
                if (match_pattern(mv, p, near, strict, chosen, found) == MatchResult::UNIQUE
                    && near[chosen].move == m)
                    best = std::move(s);
            }
    return best.empty() ? format_move(mv, m) : best;
}

std::string write_tree(const GameTree& tree, MoveStyle style) {
    std::string       out;
    const Multiverse& start = tree.start;
    const auto        heads = canonical_headers(tree.headers);
    auto              lead  = [](const std::string& k) { return is_leading_header(k); };

    // 1. Headers.
    for (const auto& [k, v] : heads)
        if (lead(k)) out += header_line(k, v);
    const std::string boardValue = board_header_value(start);
    out += header_line("Board", boardValue);
    out += header_line("Mode", "5D");
    out +=
        header_line("Size", std::to_string(start.width()) + "x" + std::to_string(start.height()));
    out += header_line("Timeline", start.even() ? "Even" : "Odd");
    for (const auto& [k, v] : heads)
        if (iequals(k, "Puzzle")) out += header_line(k, v);
    const movegen::GameRules& rules = start.rules();
    if (rules.promotionCount != 1 || rules.promotions[0] != movegen::QUEEN) {
        std::string list;
        for (int i = 0; i < rules.promotionCount; ++i) {
            if (i) list += ',';
            list += piece_letter(rules.promotions[std::size_t(i)]);
        }
        out += header_line("Promotions", list);
    }
    for (const auto& [k, v] : heads)
        if (!lead(k) && !iequals(k, "Puzzle")) out += header_line(k, v);

    // 2. 5DFEN of the set-up boards (all boards when the start is itself a played position:
    //    then the timelines made by moves read back as initial ones).
    if (boardValue == "Custom")
        out +=
            start.board_count() == start.initial_board_count() ? initial_fen(start) : fen_of(start);

    // 3. The tree.
    if (tree.nodes.empty()) return out;
    const TreeNode& root = tree.nodes.front();
    if (root.children.empty() && root.comment.empty() && root.result == Outcome::NONE) return out;
    out += '\n';
    TreeWriter(tree, style, out).run();
    return out;
}

} // namespace fived::notation
