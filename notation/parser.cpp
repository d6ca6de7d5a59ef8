#include "notation/parser.h"

#include <algorithm>
#include <charconv>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "movegen/fen_rows.h"
#include "notation/lexer.h"

namespace fived::notation {

namespace {

// Type URL of the status payload that carries a Diagnostic's position: "LINE:COL:FILE".
// (Debian's abseil has its own string_view type, hence absl::string_view here.)
constexpr absl::string_view DiagnosticPayload = "type.fived/notation.Diagnostic";

std::string to_lower(std::string_view s) {
    std::string r(s);
    for (char& c : r)
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    return r;
}

std::string serial_text(const Serial& s) {
    if (s.kind == Serial::Kind::SLASH) return "/";
    std::string t = std::to_string(s.number);
    if (s.colour) t += s.colour;
    return t + ".";
}

std::string pos_text(SourcePos p) { return absl::StrCat(p.line, ":", p.column); }

// Parses "WxH" (digits only). Returns false when malformed.
bool parse_size(std::string_view v, int& w, int& h) {
    const auto x = v.find('x');
    if (x == std::string_view::npos || x == 0 || x + 1 == v.size()) return false;
    auto num = [](std::string_view s, int& out) {
        if (s.size() > 3) return false;
        const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
        return ec == std::errc() && p == s.data() + s.size();
    };
    return num(v.substr(0, x), w) && num(v.substr(x + 1), h);
}

// One reader run. The tree part is a loop over an explicit stack of open variations; see
// parse_tree().
class Parser {
public:
    Parser(std::string_view text, std::string_view name, Document& out, Diagnostic& error) :
        lx(text), doc(out), fileName(name), err(error) { }
    // Streaming: nodes other than the root are kept only while the parser can still add to
    // them (see parse_document_streaming()), and handed to `s` when given.
    Parser(std::string_view text, std::string_view name, Document& out, Diagnostic& error,
        NodeSink* s) :
        lx(text),
        doc(out), fileName(name), err(error), sink(s), streaming(true) { }

    bool run() {
        // A UTF-8 byte order mark is not part of the text (it would shift every column).
        lx.skip_bom();
        doc = Document{};
        doc.nodes.emplace_back(); // the root
        return parse_preamble() && check_boards() && parse_tree();
    }

private:
    bool fail(SourcePos at, std::string cause) {
        err = {std::string(fileName), at, std::move(cause)};
        return false;
    }
    bool fail_lexer() { return fail(lx.error_pos(), lx.error_cause()); }

    bool parse_preamble();
    bool add_header(Header&& h);
    bool check_boards();
    bool parse_tree();
    bool parse_serial_and_action(int& cur, bool& closed, bool allowResult);
    bool parse_action(int parent, const Serial& serial, std::vector<Comment>&& leading, int& child);
    bool parse_result(int node, bool afterSlash, bool& closed);

    // The node with index `id`: in doc.nodes, or while streaming the root there and the others
    // in `live` (the current node and those where a variation is open, in index order).
    Node& at(int id) {
        if (!streaming || id == 0) return doc.nodes[std::size_t(id)];
        for (std::size_t i = live.size(); i-- > 0;)
            if (live[i].first == id) return live[i].second;
        return doc.nodes[0]; // not reached: the parser only names live nodes
    }
    // The parser will not add to node `id` any more (streaming: it is handed to the sink and
    // dropped). Returns false when the sink stops the parse.
    bool finish(int id) {
        if (!streaming) return true;
        if (id == 0) return !sink || sink->on_finish(0, doc.nodes[0]) || stop();
        for (std::size_t i = live.size(); i-- > 0;) {
            if (live[i].first != id) continue;
            const bool go = !sink || sink->on_finish(id, live[i].second);
            live.erase(live.begin() + std::ptrdiff_t(i));
            return go || stop();
        }
        return true;
    }
    bool stop() {
        err = {}; // not a syntax error: the sink decided
        return false;
    }

    // Comments that stand at a node (outside any action's moves) go to the action leading into
    // it, after its moves; at the root they go to the document.
    bool skip_trivia_at(int node) {
        if (node == 0) return lx.skip_trivia(doc.comments) || fail_lexer();
        Action& a = at(node).action;
        return lx.skip_trivia(a.comments, int(a.moves.size())) || fail_lexer();
    }

    Lexer                             lx;
    Document&                         doc;
    std::string_view                  fileName;
    Diagnostic&                       err;
    NodeSink*                         sink      = nullptr;
    bool                              streaming = false;
    int                               nextId    = 1; // streaming: the index of the next node
    std::vector<std::pair<int, Node>> live;          // streaming: see at()

    std::vector<SourcePos>                     rowsPos;    // per board: where its rows start
    std::unordered_map<std::string, SourcePos> headerKeys; // lower-cased key -> first position
    const Header*                              timelineHeader = nullptr;
    Parity                                     headerParity   = Parity::UNKNOWN;
};

// game = {trivia} {header {trivia}} {board_fen {trivia}} tree. Headers after a 5DFEN board are
// accepted too (optional/headers-after-5dfen; both reference readers do), which is why the
// board rows are only checked once every header is known.
bool Parser::parse_preamble() {
    for (;;) {
        if (!lx.skip_trivia(doc.comments)) return fail_lexer();
        if (lx.peek() != '[') return true;
        if (lx.bracket_is_board()) {
            FenBoard  b;
            SourcePos at;
            if (!lx.lex_fen_board(b, at)) return fail_lexer();
            doc.boards.push_back(std::move(b));
            rowsPos.push_back(at);
        } else {
            Header h;
            if (!lx.lex_header(h)) return fail_lexer();
            if (!add_header(std::move(h))) return false;
        }
    }
}

bool Parser::add_header(Header&& h) {
    std::string key = to_lower(h.key);
    if (key == "timelines") key = "timeline"; // synonyms: one of them at most
    if (auto [it, fresh] = headerKeys.emplace(key, h.pos); !fresh)
        return fail(h.pos,
            "duplicate header " + quoted(h.key) + " (first given at " + pos_text(it->second) + ")");
    if (key == "size") {
        int w = 0, h2 = 0;
        if (!parse_size(h.value, w, h2) || w < 1 || h2 < 1)
            return fail(h.valuePos,
                "header `Size` must be `WxH` (such as `8x8`), found " + quoted(h.value));
        if (w > movegen::MaxBoardSide || h2 > movegen::MaxBoardSide)
            return fail(h.valuePos,
                "board size " + quoted(h.value) + " is larger than the "
                    + std::to_string(movegen::MaxBoardSide) + "x"
                    + std::to_string(movegen::MaxBoardSide) + " maximum");
        doc.width  = w;
        doc.height = h2;
    } else if (key == "timeline") {
        const std::string v = to_lower(h.value);
        if (v != "odd" && v != "even")
            return fail(h.valuePos,
                "header " + quoted(h.key) + " must be `Odd` or `Even`, found " + quoted(h.value));
        headerParity = v == "odd" ? Parity::ODD : Parity::EVEN;
    }
    doc.headers.push_back(std::move(h));
    return true;
}

// The 5DFEN checks that need the headers: timeline labels against the parity, rows against the
// Size. Boards are checked in written order, so the first error in the text is reported.
bool Parser::check_boards() {
    timelineHeader = doc.find_header("timeline");
    if (!timelineHeader) timelineHeader = doc.find_header("timelines");
    const FenBoard* firstZero = nullptr; // the first board labelled 0, -0 or +0
    for (std::size_t i = 0; i < doc.boards.size(); ++i) {
        FenBoard&   b = doc.boards[i];
        std::string label;
        if (b.line.sign) label += b.line.sign;
        label += std::to_string(b.line.magnitude);
        if (b.line.magnitude == 0) {
            const bool even = b.line.sign != 0;
            if (headerParity == Parity::ODD && even)
                return fail(b.linePos,
                    "5DFEN timeline " + quoted(label) + " in a game with odd timelines (header at "
                        + pos_text(timelineHeader->pos) + ")");
            if (headerParity == Parity::EVEN && !even)
                return fail(b.linePos,
                    "5DFEN timeline `0` in a game with even timelines: "
                    "write `-0` or `+0`");
            if (firstZero && (firstZero->line.sign != 0) != even)
                return fail(b.linePos,
                    "5DFEN timeline " + quoted(label)
                        + " mixes odd and even labels (see the board at " + pos_text(firstZero->pos)
                        + ")");
            if (!firstZero) firstZero = &b;
        }

        movegen::FenRowsError e;
        if (!movegen::parse_fen_rows(b.rows, doc.width, doc.height, b.grid, e)) {
            // Rows hold no line break (the lexer stops at whitespace), so the error is on the
            // rows' line, `offset` bytes in; columns count code points.
            const auto offset = std::min<std::size_t>(std::size_t(e.offset), b.rows.size());
            SourcePos  at     = rowsPos[i];
            for (std::size_t k = 0; k < offset; ++k)
                at.column += (static_cast<unsigned char>(b.rows[k]) & 0xC0) != 0x80;
            std::string cause = e.message;
            for (char& c : cause) // fen_rows quotes tokens with '...'; we use backquotes
                if (c == '\'') c = '`';
            if (offset < b.rows.size() && static_cast<unsigned char>(b.rows[offset]) >= 0x80) {
                std::size_t n = 1; // the whole UTF-8 character, not its first byte
                while (offset + n < b.rows.size()
                    && (static_cast<unsigned char>(b.rows[offset + n]) & 0xC0) == 0x80)
                    ++n;
                cause = "unexpected character " + quoted(b.rows.substr(offset, n)) + " in 5DFEN";
            }
            if (offset < b.rows.size() && b.rows[offset] == '+') // Shad's reserved prefix
                cause = "unknown 5DFEN piece " + quoted(std::string_view(b.rows).substr(offset, 2))
                    + " (no `+` pieces are defined)";
            return fail(at, cause);
        }
    }
    doc.parity = headerParity != Parity::UNKNOWN ? headerParity
        : firstZero ? (firstZero->line.sign ? Parity::EVEN : Parity::ODD)
                    : Parity::UNKNOWN;
    return true;
}

// tree = { "(" line_of_play ")" } [ line_of_play ] | result_end;  line_of_play = action tree.
//
// Iteratively: `cur` is the node whose subtree is being read. A parenthesised line pushes a
// frame remembering `cur`, its action becomes a child of `cur`, and reading continues at the
// child; `)` pops back to the remembered node, where more groups or the unparenthesised main
// line may follow. The unparenthesised line simply moves `cur` to the new child: the tree at the
// old node is complete, so nothing ever returns there except through an enclosing `)`.
bool Parser::parse_tree() {
    struct OpenGroup {
        int       node; // where the group was opened; `)` returns there
        SourcePos pos;  // of its `(`
    };
    std::vector<OpenGroup> open;
    int                    cur    = 0;
    bool                   closed = false; // the subtree at `cur` was replaced by a result

    for (;;) {
        if (!skip_trivia_at(cur)) return false;
        const TokenKind kind = lx.classify();
        if (closed && kind != TokenKind::END && kind != TokenKind::VARIATION_CLOSE)
            return fail(lx.pos(),
                "unexpected " + quoted(lx.token_text())
                    + " after a result: a result ends its line");
        switch (kind) {
            case TokenKind::END:
                if (!open.empty()) return fail(open.back().pos, "variation `(` is never closed");
                return (cur == 0 || finish(cur)) && finish(0);

            case TokenKind::VARIATION_CLOSE: {
                if (open.empty()) return fail(lx.pos(), "unexpected `)`: no variation is open");
                const int left = cur;
                cur            = open.back().node;
                open.pop_back();
                closed = false;
                lx.advance();
                if (!finish(left)) return false;
                break;
            }

            case TokenKind::VARIATION_OPEN: {
                const SourcePos at = lx.pos();
                lx.advance();
                open.push_back({cur, at});
                if (!skip_trivia_at(cur)) return false;
                if (lx.peek() == ')') return fail(at, "empty variation `()`");
                if (lx.at_end()) return fail(at, "variation `(` is never closed");
                if (lx.classify() != TokenKind::SERIAL)
                    return fail(
                        lx.pos(), "a variation must start with a turn serial, found " + lx.found());
                if (!parse_serial_and_action(cur, closed, false)) return false;
                break;
            }

            case TokenKind::SERIAL: {
                // The unparenthesised line leaves `cur` for good (unless a variation is open
                // there, which cannot be: it would have been opened from `cur`).
                const int left = cur;
                if (!parse_serial_and_action(cur, closed, true)) return false;
                if (cur != left && left != 0 && !finish(left)) return false;
                break;
            }

            case TokenKind::RESULT:
                if (!parse_result(cur, false, closed)) return false;
                break;

            case TokenKind::MOVE:
                return fail(
                    lx.pos(), "expected a turn serial before move " + quoted(lx.token_text()));
            case TokenKind::LONE_MARK:
                return fail(lx.pos(),
                    "unexpected " + quoted(lx.token_text()) + ": a lone mark must end an action");
            case TokenKind::SHAD_TOKEN:
                return fail(lx.pos(),
                    "unexpected " + quoted(lx.token_text()) + ": Shad's tokens must follow a move");
            case TokenKind::BRACKET:
                return fail(lx.pos(),
                    "unexpected `[`: headers and 5DFEN boards must come "
                    "before the moves");
            case TokenKind::UNKNOWN: return fail(lx.pos(), "unexpected " + quoted(lx.token_text()));
        }
    }
}

// A serial, then either Shad's `/ 1-0` (a result after an empty sub-turn, allowed only where a
// tree may end with a result) or an action, whose node becomes `cur`.
bool Parser::parse_serial_and_action(int& cur, bool& closed, bool allowResult) {
    Serial serial;
    if (!lx.lex_serial(serial)) return fail_lexer();
    std::vector<Comment> leading;
    if (!lx.skip_trivia(leading)) return fail_lexer();
    if (serial.kind == Serial::Kind::SLASH && allowResult && lx.classify() == TokenKind::RESULT) {
        std::vector<Comment>& to = cur == 0 ? doc.comments : at(cur).action.comments;
        for (Comment& c : leading) {
            c.movesBefore = cur == 0 ? 0 : int(at(cur).action.moves.size());
            to.push_back(std::move(c));
        }
        return parse_result(cur, true, closed);
    }
    int child = 0;
    if (!parse_action(cur, serial, std::move(leading), child)) return false;
    cur = child;
    return true;
}

bool Parser::parse_result(int node, bool afterSlash, bool& closed) {
    if (!at(node).children.empty())
        return fail(lx.pos(),
            "result " + quoted(lx.token_text())
                + " cannot follow variations: it replaces the whole subtree");
    GameResult r;
    if (!lx.lex_result(r)) return fail_lexer();
    r.afterSlash    = afterSlash;
    at(node).result = r;
    closed          = true;
    return true;
}

// action = serial {trivia} move { {atrivia}- move } [ {atrivia}- lone_mark ]
bool Parser::parse_action(
    int parent, const Serial& serial, std::vector<Comment>&& leading, int& child) {
    Node node;
    node.parent = parent;
    node.ply    = at(parent).ply + 1;
    Action& a   = node.action;
    a.serial    = serial;
    a.comments  = std::move(leading);
    if (lx.classify() != TokenKind::MOVE)
        return fail(lx.pos(),
            "expected a move after turn serial " + quoted(serial_text(serial)) + ", found "
                + lx.found());
    for (;;) {
        Move m;
        if (!lx.lex_move(m)) return fail_lexer();
        if (m.alias == PieceAlias::BR || m.alias == PieceAlias::CK
            || m.promotionAlias == PieceAlias::BR || m.promotionAlias == PieceAlias::CK)
            doc.warnings.push_back({std::string(fileName), m.pos,
                "deprecated piece name in " + quoted(m.text)
                    + ": write `W` for `BR`, `C` for `CK`"});
        if (const movegen::PieceType pt = m.promotion; pt != movegen::NO_PIECE_TYPE
            && std::find(doc.promotionsNamed.begin(), doc.promotionsNamed.end(), pt)
                == doc.promotionsNamed.end())
            doc.promotionsNamed.push_back(pt);
        a.moves.push_back(std::move(m));
        const int n = int(a.moves.size());

        // Separator: whitespace, comments and Shad tokens, in any number.
        const std::size_t sepStart = lx.offset();
        for (;;) {
            if (!lx.skip_trivia(a.comments, n)) return fail_lexer();
            if (lx.classify() != TokenKind::SHAD_TOKEN) break;
            ShadToken t;
            if (!lx.lex_shad_token(t)) return fail_lexer();
            t.movesBefore = n;
            a.shadTokens.push_back(t);
        }
        const bool      separated = lx.offset() != sepStart;
        const TokenKind next      = lx.classify();
        if (next == TokenKind::MOVE) {
            if (!separated)
                return fail(lx.pos(),
                    "moves of an action must be separated by whitespace: " + quoted(lx.token_text())
                        + " follows " + quoted(a.moves.back().text) + " directly");
            continue;
        }
        if (next == TokenKind::LONE_MARK && separated
            && !lx.lex_lone_mark(a.loneMark, a.loneMarkPos))
            return fail_lexer();
        break;
    }
    if (!streaming) {
        child = int(doc.nodes.size());
        doc.nodes.push_back(std::move(node));
        doc.nodes[std::size_t(parent)].children.push_back(child);
        return true;
    }
    // Streaming: a live node only needs to know whether it has children (parse_result()).
    child                      = nextId++;
    std::vector<int>& siblings = at(parent).children;
    if (siblings.empty()) siblings.push_back(child);
    live.emplace_back(child, std::move(node));
    return !sink || sink->on_node(child, live.back().second) || stop();
}

} // namespace

bool parse_document(
    std::string_view text, std::string_view fileName, Document& out, Diagnostic& err) {
    return Parser(text, fileName, out, err).run();
}

bool parse_document_streaming(std::string_view text, std::string_view fileName, Document& out,
    NodeSink* sink, Diagnostic& err) {
    return Parser(text, fileName, out, err, sink).run();
}

absl::StatusOr<Document> parse_document(std::string_view text, std::string_view fileName) {
    Document   doc;
    Diagnostic err;
    if (!parse_document(text, fileName, doc, err)) return error_status(err);
    return doc;
}

absl::Status error_status(const Diagnostic& d) {
    absl::Status s = absl::InvalidArgumentError(d.to_string());
    s.SetPayload(
        DiagnosticPayload, absl::Cord(absl::StrCat(d.pos.line, ":", d.pos.column, ":", d.file)));
    return s;
}

std::optional<Diagnostic> diagnostic_of(const absl::Status& status) {
    const auto payload = status.GetPayload(DiagnosticPayload); // absl::optional<absl::Cord>
    if (!payload) return std::nullopt;
    const std::string p(*payload);
    Diagnostic        d;
    const auto        c1 = p.find(':');
    const auto        c2 = c1 == std::string::npos ? c1 : p.find(':', c1 + 1);
    if (c2 == std::string::npos) return std::nullopt;
    std::from_chars(p.data(), p.data() + c1, d.pos.line);
    std::from_chars(p.data() + c1 + 1, p.data() + c2, d.pos.column);
    d.file                         = p.substr(c2 + 1);
    const std::string       prefix = absl::StrCat(d.file, ":", d.pos.line, ":", d.pos.column, ": ");
    const absl::string_view m      = status.message();
    const std::string_view  msg(m.data(), m.size());
    if (!msg.starts_with(prefix)) return std::nullopt;
    d.cause = std::string(msg.substr(prefix.size()));
    return d;
}

std::optional<Diagnostic> serial_error(
    const Serial& s, int ply, movegen::Color firstToMove, std::string_view fileName) {
    if (s.kind == Serial::Kind::SLASH) return std::nullopt;
    const int  subTurn       = ply - 1 + (firstToMove == movegen::BLACK);
    const int  number        = subTurn / 2 + 1;
    const char colour        = subTurn % 2 ? 'b' : 'w';
    const char writtenColour = s.colour ? s.colour : 'w';
    if (s.number == number && writtenColour == colour) return std::nullopt;
    return Diagnostic{std::string(fileName), s.pos,
        "turn serial " + quoted(serial_text(s)) + " should be "
            + quoted(std::to_string(number) + colour + ".") + " (or `/`) here"};
}

absl::Status check_turn_serials(
    const Document& doc, std::string_view fileName, movegen::Color firstToMove) {
    // Parents precede children in the arena, so a forward loop needs no recursion; the sub-turn
    // of a node follows from its ply alone.
    for (std::size_t i = 1; i < doc.nodes.size(); ++i)
        if (const auto e =
                serial_error(doc.nodes[i].action.serial, doc.nodes[i].ply, firstToMove, fileName))
            return error_status(*e);
    return absl::OkStatus();
}

} // namespace fived::notation
