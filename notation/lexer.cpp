#include "notation/lexer.h"

#include <utility>

namespace fived::notation {

namespace {

// Largest number accepted in a serial, a board coordinate or a timeline label. Far beyond any
// real game, small enough that no arithmetic on it overflows.
constexpr int MaxNumber        = 999999;
constexpr int MaxNumberDigits  = 6;
constexpr int MaxTokenTextSize = 24; // code points of a token quoted in an error message

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
// A lower-case letter in file position: `x` is always the capture sign (rule 3).
bool is_file_letter(char c) { return is_lower(c) && c != 'x'; }
bool is_mark_char(char c) { return c == '+' || c == '#' || c == '*'; }
bool is_eval_char(char c) { return c == '!' || c == '?'; }

// Length in bytes of the UTF-8 character at text[at]: 1 for a stray or invalid byte, or a lead
// byte whose continuation bytes are missing, so that a broken file still advances one byte at a
// time and never swallows a delimiter (`[`, `"`, `]`) into a multi-byte "character".
std::size_t utf8_length(std::string_view text, std::size_t at) {
    const auto  lead = static_cast<unsigned char>(text[at]);
    std::size_t n    = lead >= 0xC2 && lead <= 0xDF ? 2
           : lead >= 0xE0 && lead <= 0xEF           ? 3
           : lead >= 0xF0 && lead <= 0xF4           ? 4
                                                    : 1;
    if (at + n > text.size()) return 1;
    for (std::size_t k = 1; k < n; ++k)
        if ((static_cast<unsigned char>(text[at + k]) & 0xC0) != 0x80) return 1;
    return n;
}

} // namespace

std::string quoted(std::string_view token) {
    std::string s;
    s.reserve(token.size() + 2);
    s += '`';
    s += token;
    s += '`';
    return s;
}

void Lexer::advance(std::size_t n) {
    for (; n && cur < text.size(); --n, ++cur) {
        const auto c = static_cast<unsigned char>(text[cur]);
        if (c == '\n') {
            ++line;
            column = 1;
        } else if ((c & 0xC0) != 0x80) // continuation bytes belong to the previous column
            ++column;
    }
}

bool Lexer::fail(SourcePos at, std::string cause) {
    errPos   = at;
    errCause = std::move(cause);
    return false;
}

std::string Lexer::token_text() const {
    if (at_end()) return "end of input";
    std::size_t end = cur;
    for (int points = 0; end < text.size() && points < MaxTokenTextSize; ++points) {
        const char c = text[end];
        if (is_ws(c) || c == '{' || c == '}' || c == '(' || c == ')' || c == '[' || c == ']') break;
        end += utf8_length(text, end);
    }
    if (end == cur) end = cur + utf8_length(text, cur);
    // Control characters would garble the message: show them as \xNN.
    std::string s;
    for (std::size_t i = cur; i < end && i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 || c == 0x7F) {
            static constexpr char Hex[] = "0123456789abcdef";
            s += "\\x";
            s += Hex[c >> 4];
            s += Hex[c & 15];
        } else
            s += char(c);
    }
    return s;
}

std::string Lexer::found() const {
    if (at_end()) return "end of input";
    if (peek() == '\n' || peek() == '\r') return "end of line";
    if (peek() == ' ' || peek() == '\t') return "a space";
    return quoted(token_text());
}

bool Lexer::skip_whitespace() {
    const std::size_t start = cur;
    while (!at_end() && is_ws(peek()))
        advance();
    return cur != start;
}

bool Lexer::skip_trivia(std::vector<Comment>& out, int movesBefore) {
    for (;;) {
        skip_whitespace();
        if (peek() == '{') {
            if (!lex_comment(out, movesBefore)) return false;
        } else if (peek() == '}')
            return fail(pos(), "unexpected `}`: no comment is open");
        else
            return true;
    }
}

// Comments nest (B 4.8): a `{` inside a comment opens an inner one that must be closed too.
bool Lexer::lex_comment(std::vector<Comment>& out, int movesBefore) {
    const SourcePos   start    = pos();
    const std::size_t startOff = cur;
    int               depth    = 0;
    do {
        if (at_end()) return fail(start, "unterminated comment starting here");
        const char c = peek();
        depth += c == '{' ? 1 : c == '}' ? -1 : 0;
        advance();
    } while (depth > 0);
    out.push_back({std::string(text.substr(startOff + 1, cur - startOff - 2)), start, movesBefore});
    return true;
}

// Lexical rules 1 and 2: what a `(` opens is decided by the characters right after it, what a
// digit starts by at most three characters (or the digit run of a serial).
TokenKind Lexer::classify_paren(std::size_t at) const {
    auto       ch   = [&](std::size_t i) { return i < text.size() ? text[i] : '\0'; };
    const char next = ch(at + 1);
    if ((next == '~' && ch(at + 2) == 'T') || (next == '>' && ch(at + 2) == 'L'))
        return TokenKind::SHAD_TOKEN;
    if (next == 'L' || next == 'T' || next == '+' || next == '-') return TokenKind::MOVE;
    if (is_digit(next)) {
        std::size_t i = at + 1;
        while (is_digit(ch(i)))
            ++i;
        // `(2. Kf7)` and `(2b. Kf7)` are variations, `(2T1)` and `(2)` boards.
        if (ch(i) == '.' || ((ch(i) == 'w' || ch(i) == 'b') && ch(i + 1) == '.'))
            return TokenKind::VARIATION_OPEN;
        return TokenKind::MOVE;
    }
    return TokenKind::VARIATION_OPEN;
}

TokenKind Lexer::classify() const {
    if (at_end()) return TokenKind::END;
    const char c = peek();
    switch (c) {
        case '(': return classify_paren(cur);
        case ')': return TokenKind::VARIATION_CLOSE;
        case '/': return TokenKind::SERIAL;
        case '#':
        case '*': return TokenKind::LONE_MARK;
        case '[': return TokenKind::BRACKET;
        case '>': return TokenKind::MOVE;
        default: break;
    }
    if (is_digit(c)) {
        if (starts_with("0-0")) return TokenKind::MOVE; // castling, never a result (0-1)
        if (starts_with("1-0") || starts_with("0-1") || starts_with("1/2-1/2"))
            return TokenKind::RESULT;
        return TokenKind::SERIAL;
    }
    if (is_upper(c) || is_lower(c)) return TokenKind::MOVE;
    return TokenKind::UNKNOWN;
}

bool Lexer::bracket_is_board() const {
    for (std::size_t i = cur + 1; i < text.size(); ++i) {
        const char c = text[i];
        if (c == ':' || c == '/') return true;
        if (is_ws(c) || c == '"' || c == '[' || c == ']') return false;
    }
    return false;
}

bool Lexer::lex_natural(int& value, std::string_view what) {
    const SourcePos   start = pos();
    const std::size_t first = cur;
    if (!is_digit(peek()))
        return fail(start, "expected " + std::string(what) + ", found " + found());
    value = 0;
    while (is_digit(peek())) {
        if (cur - first >= MaxNumberDigits)
            return fail(start,
                "number " + quoted(text.substr(first, cur - first + 1)) + "... is too large");
        value = value * 10 + (peek() - '0');
        advance();
    }
    if (text[first] == '0' && cur - first > 1)
        return fail(
            start, "number " + quoted(text.substr(first, cur - first)) + " has a leading zero");
    return value <= MaxNumber || fail(start, "number is too large");
}

bool Lexer::lex_line_label(LineLabel& out, std::string_view what) {
    out = LineLabel{};
    if (peek() == '+' || peek() == '-') {
        out.sign = peek();
        advance();
    }
    return lex_natural(out.magnitude, what);
}

bool Lexer::lex_serial(Serial& out) {
    out     = Serial{};
    out.pos = pos();
    if (peek() == '/') {
        out.kind = Serial::Kind::SLASH;
        advance();
        return true;
    }
    const std::size_t start = cur;
    if (!lex_natural(out.number, "a turn serial")) return false;
    if ((peek() == 'w' || peek() == 'b') && peek(1) == '.') {
        out.colour = peek();
        advance();
    }
    if (peek() != '.') {
        if (peek() == '/' && slice(start, cur) == "1" && peek(1) == '2')
            return fail(out.pos, "`1/2` is not a result: a draw is written `1/2-1/2`");
        return fail(pos(),
            "expected `.` after the turn number " + quoted(slice(start, cur)) + ", found "
                + found());
    }
    advance();
    // B 5 note 2: no RAV-style `1...` for Black.
    if (peek() == '.') {
        std::size_t end = cur;
        while (end < text.size() && text[end] == '.')
            ++end;
        return fail(out.pos,
            quoted(slice(start, end)) + " is not a turn serial: Black's sub-turn is written `"
                + std::string(slice(start, cur - 1)) + "b.` or `/`");
    }
    return true;
}

bool Lexer::lex_result(GameResult& out) {
    out     = GameResult{};
    out.pos = pos();
    if (starts_with("1/2-1/2")) {
        out.outcome = GameResult::Outcome::DRAW;
        advance(7);
    } else if (starts_with("1-0")) {
        out.outcome = GameResult::Outcome::WHITE_WINS;
        advance(3);
    } else if (starts_with("0-1")) {
        out.outcome = GameResult::Outcome::BLACK_WINS;
        advance(3);
    } else
        return fail(pos(), "expected a result, found " + found());
    return true;
}

bool Lexer::lex_shad_token(ShadToken& out) {
    out                     = ShadToken{};
    out.pos                 = pos();
    const std::size_t start = cur;
    advance(); // (
    if (peek() == '~') {
        advance(2); // ~T
        out.kind = ShadToken::Kind::PRESENT_REWIND;
        if (!lex_natural(out.turn, "a turn number in `(~T..)`")) return false;
    } else {
        advance(2); // >L
        out.kind = ShadToken::Kind::NEW_TIMELINE;
        if (!lex_line_label(out.line, "a timeline in `(>L..)`")) return false;
    }
    if (peek() != ')')
        return fail(out.pos, "token " + quoted(slice(start, cur)) + " is not closed by `)`");
    advance();
    return true;
}

bool Lexer::lex_lone_mark(Mark& out, SourcePos& at) {
    at = pos();
    if (is_mark_char(peek(1)))
        return fail(at, quoted(text.substr(cur, 2)) + " is not a check or mate mark");
    out = peek() == '#' ? Mark::CHECKMATE : Mark::SOFTMATE;
    advance();
    return true;
}

// board = "(" ["L"] line [ws] "T" natural ")" | "(" ["L"] line ")" | "(" "T" natural ")"
bool Lexer::lex_board(BoardRef& out) {
    out                     = BoardRef{};
    out.pos                 = pos();
    const std::size_t start = cur;
    advance(); // (
    if (peek() == 'L') {
        out.lPrefix = true;
        advance();
    }
    if (out.lPrefix || peek() == '+' || peek() == '-' || is_digit(peek())) {
        LineLabel label;
        if (!lex_line_label(label, "a timeline in the board coordinate")) return false;
        out.line = label;
        // Shad writes `(L-1 T6)`: whitespace may separate the two parts, then T is required.
        if (skip_whitespace() && peek() != 'T')
            return fail(pos(),
                "expected `T` in board coordinate " + quoted(slice(start, cur)) + ", found "
                    + found());
    }
    if (peek() == 'T') {
        advance();
        if (peek() == '-')
            return fail(pos(),
                "turn " + quoted(token_text()) + " in a board coordinate must be a natural number");
        int turn = 0;
        if (!lex_natural(turn, "a turn number after `T`")) return false;
        out.turn = turn;
    } else if (!out.line)
        return fail(pos(), "expected a timeline or `T` after `(`, found " + found());
    if (peek() != ')')
        return fail(
            out.pos, "board coordinate " + quoted(slice(start, cur)) + " is not closed by `)`");
    advance();
    return true;
}

// piece = "RQ" | "PR" | "BR" | "CK" | one letter; the aliases are tried first (rule 4).
bool Lexer::lex_piece(movegen::PieceType& pt, PieceAlias& alias) {
    struct AliasSpelling {
        std::string_view   text;
        movegen::PieceType type;
        PieceAlias         alias;
    };
    static constexpr AliasSpelling Aliases[] = {
        {"RQ", movegen::ROYAL_QUEEN, PieceAlias::RQ},
        {"PR", movegen::PRINCESS, PieceAlias::PR},
        {"BR", movegen::BRAWN, PieceAlias::BR},
        {"CK", movegen::COMMON_KING, PieceAlias::CK},
    };
    for (const AliasSpelling& a : Aliases)
        if (starts_with(a.text)) {
            pt    = a.type;
            alias = a.alias;
            advance(2);
            return true;
        }
    const char c = peek();
    pt           = movegen::piece_type_from_letter(c);
    alias        = PieceAlias::NONE;
    if (pt == movegen::NO_PIECE_TYPE) {
        if (c >= 'A' && c < 'A' + movegen::MaxBoardSide && is_digit(peek(1)))
            return fail(
                pos(), "file " + quoted(std::string(1, c)) + " must be written in lower case");
        return fail(
            pos(), "unknown piece letter " + quoted(text.substr(cur, utf8_length(text, cur))));
    }
    advance();
    return true;
}

// Files a..h: a board is at most MaxBoardSide wide, so the letters beyond are errors here
// (whether a file exists on a narrower board is for the semantic layer).
bool Lexer::lex_file(int& file, std::string_view moveSoFar) {
    const char c = peek();
    if (c >= 'a' && c < 'a' + movegen::MaxBoardSide) {
        file = c - 'a';
        advance();
        return true;
    }
    if (is_file_letter(c)) {
        const bool isPiece =
            movegen::piece_type_from_letter(char(c - 'a' + 'A')) != movegen::NO_PIECE_TYPE;
        return fail(pos(),
            "unknown file " + quoted(std::string(1, c)) + " (files are a..h"
                + (isPiece ? "; piece letters are upper case)" : ")"));
    }
    return fail(pos(),
        "incomplete move " + quoted(moveSoFar) + ": expected the destination square, found "
            + found());
}

bool Lexer::lex_rank(int& rank) {
    const SourcePos   start = pos();
    const std::size_t s     = cur;
    int               value = 0;
    while (is_digit(peek()) && cur - s < MaxNumberDigits) {
        value = value * 10 + (peek() - '0');
        advance();
    }
    if (cur == s) return fail(start, "expected a rank after the file, found " + found());
    if (text[s] == '0' || value > movegen::MaxBoardSide)
        return fail(start,
            "rank " + quoted(slice(s, cur)) + " does not exist (ranks are 1.."
                + std::to_string(movegen::MaxBoardSide) + ")");
    rank = value - 1;
    return true;
}

// move = [board] (castle | jump | physical) [promotion] [mark] ["~"] [evaluation], with no
// whitespace or comment inside except between the L and T parts of a board (rule 7).
bool Lexer::lex_move(Move& out) {
    out                     = Move{};
    out.pos                 = pos();
    const std::size_t start = cur;

    if (peek() == '(') {
        BoardRef from;
        if (!lex_board(from)) return false;
        out.from = from;
        if (peek() == '{')
            return fail(pos(),
                "comment inside a move: nothing may stand between board "
                    + quoted(slice(start, cur)) + " and its move");
        if (is_ws(peek()))
            return fail(pos(),
                "whitespace inside a move: nothing may stand between board "
                    + quoted(slice(start, cur)) + " and its move");
    }

    // Castling: the longer spelling first, so that O-O-O is not read as O-O.
    static constexpr std::pair<std::string_view, CastleSide> Castles[] = {
        {"O-O-O", CastleSide::QUEEN_SIDE},
        {"O-O", CastleSide::KING_SIDE},
        {"0-0-0", CastleSide::QUEEN_SIDE},
        {"0-0", CastleSide::KING_SIDE},
    };
    for (const auto& [spelling, side] : Castles)
        if (starts_with(spelling)) {
            out.kind         = MoveKind::CASTLE;
            out.castle       = side;
            out.castleDigits = spelling[0] == '0';
            advance(spelling.size());
            break;
        }

    if (out.kind != MoveKind::CASTLE) {
        if (is_upper(peek()) && !lex_piece(out.piece, out.alias)) return false;
        // Rule 5: read [file] [rank] as the source; if nothing that needs a destination
        // follows, they were the destination after all (`e3`, `Nf3`).
        int f = 0, r = 0;
        if (is_file_letter(peek())) {
            if (!lex_file(f, slice(start, cur))) return false;
            out.fromFile = f;
        }
        if (is_digit(peek())) {
            if (!lex_rank(r)) return false;
            out.fromRank = r;
        }
        if (peek() == '>') {
            const SourcePos at = pos();
            std::size_t     n  = 0;
            while (peek(n) == '>')
                ++n;
            if (n > 2) return fail(at, quoted(text.substr(cur, n)) + " is not a jump indicator");
            out.jump = n == 2 ? JumpIndicator::BRANCHING : JumpIndicator::NON_BRANCHING;
            advance(n);
        }
        if (peek() == 'x') {
            out.capture = true;
            advance();
        }
        if (peek() == '$')
            return fail(pos(),
                "relative board " + quoted(token_text())
                    + " (an extension of ftxi's reader) is not supported");
        if (peek() == '(' && classify_paren(cur) == TokenKind::MOVE) {
            BoardRef to;
            if (!lex_board(to)) return false;
            out.to = to;
        }
        if (out.jump != JumpIndicator::NONE || out.to) out.kind = MoveKind::JUMP;

        if (out.jump != JumpIndicator::NONE || out.capture || out.to || is_file_letter(peek())) {
            if (!lex_file(f, slice(start, cur))) return false;
            if (!lex_rank(r)) return false;
            out.toFile = f;
            out.toRank = r;
        } else if (out.fromFile && out.fromRank) {
            out.toFile = out.fromFile;
            out.toRank = out.fromRank;
            out.fromFile.reset();
            out.fromRank.reset();
        } else
            return fail(pos(),
                "incomplete move " + quoted(slice(start, cur))
                    + ": expected the destination square, found " + found());
    }

    if (!lex_move_suffixes(out)) return false;
    out.text = std::string(slice(start, cur));
    return true;
}

// The suffixes of a move, in the order of the grammar: [promotion] [mark] ["~"] [evaluation].
bool Lexer::lex_move_suffixes(Move& out) {
    if (peek() == '=') {
        const SourcePos at = pos();
        advance();
        if (!is_upper(peek()))
            return fail(at, "promotion `=` without a piece letter, found " + found());
        if (!lex_piece(out.promotion, out.promotionAlias)) return false;
    }
    if (is_mark_char(peek())) {
        if (is_mark_char(peek(1))) {
            std::size_t n = 0;
            while (is_mark_char(peek(n)))
                ++n;
            return fail(pos(), quoted(text.substr(cur, n)) + " is not a check or mate mark");
        }
        out.mark = peek() == '+' ? Mark::CHECK : peek() == '#' ? Mark::CHECKMATE : Mark::SOFTMATE;
        advance();
    }
    if (peek() == '~') {
        out.presentMoved = true;
        advance();
    }
    if (is_eval_char(peek())) {
        std::size_t n = 0;
        while (is_eval_char(peek(n)))
            ++n;
        if (n > 2)
            return fail(pos(),
                quoted(text.substr(cur, n)) + " is not an evaluation symbol (! ? !! ?? !? ?!)");
        const char a = peek(), b = n == 2 ? peek(1) : '\0';
        out.evaluation = b == '\0' ? (a == '!' ? Evaluation::GOOD : Evaluation::MISTAKE)
            : a == '!'             ? (b == '!' ? Evaluation::BRILLIANT : Evaluation::INTERESTING)
                                   : (b == '?' ? Evaluation::BLUNDER : Evaluation::DUBIOUS);
        advance(n);
    }
    return true;
}

// header = "[" key ws '"' value '"' [ws] "]"; a value may contain `]` and the escape `\"`
// (optional/header-escaped-quote), but no line break: an unclosed quote is reported where it
// opens rather than at some later line.
bool Lexer::lex_header(Header& out) {
    out     = Header{};
    out.pos = pos();
    advance(); // [
    const std::size_t keyStart = cur;
    while (!at_end() && !is_ws(peek()) && peek() != '"' && peek() != '[' && peek() != ']')
        advance(utf8_length(text, cur));
    out.key = std::string(slice(keyStart, cur));
    if (out.key.empty()) return fail(pos(), "expected a header key after `[`, found " + found());
    if (peek() == '"')
        return fail(
            pos(), "missing whitespace between header key " + quoted(out.key) + " and its value");
    if (!skip_whitespace())
        return fail(pos(),
            "expected a quoted value after header key " + quoted(out.key) + ", found " + found());
    if (peek() != '"')
        return fail(pos(),
            "the value of header " + quoted(out.key) + " must be in double quotes, found "
                + found());
    out.valuePos = pos();
    advance();
    for (;;) {
        const char c = peek();
        if (at_end() || c == '\n' || c == '\r')
            return fail(
                out.valuePos, "the value of header " + quoted(out.key) + " is not closed by `\"`");
        if (c == '\\' && peek(1) == '"') {
            out.value += '"';
            advance(2);
        } else if (c == '"') {
            advance();
            break;
        } else {
            out.value += c;
            advance();
        }
    }
    skip_whitespace();
    if (peek() != ']')
        return fail(
            pos(), "expected `]` to close header " + quoted(out.key) + ", found " + found());
    advance();
    return true;
}

// board_fen = "[" rows ":" line ":" natural ":" colour "]", without whitespace inside.
bool Lexer::lex_fen_board(FenBoard& out, SourcePos& rowsPos) {
    out     = FenBoard{};
    out.pos = pos();
    advance(); // [
    rowsPos                     = pos();
    const std::size_t rowsStart = cur;
    while (!at_end() && !is_ws(peek()) && peek() != ':' && peek() != '[' && peek() != ']')
        advance();
    out.rows = std::string(slice(rowsStart, cur));

    // The token of a 5DFEN field, for messages: up to the next separator.
    auto field_text = [&] {
        std::size_t e = cur;
        while (e < text.size() && e - cur < MaxTokenTextSize && !is_ws(text[e]) && text[e] != ':'
            && text[e] != ']' && text[e] != '[')
            ++e;
        return e == cur ? token_text() : std::string(text.substr(cur, e - cur));
    };
    auto no_blank = [&] {
        if (peek() == '\n' || peek() == '\r') return fail(pos(), "line break inside a 5DFEN board");
        if (is_ws(peek())) return fail(pos(), "whitespace inside a 5DFEN board");
        if (at_end()) return fail(out.pos, "5DFEN board is not closed by `]`");
        return true;
    };
    auto separator = [&](int fieldsRead) {
        if (!no_blank()) return false;
        if (peek() == ':') {
            advance();
            return no_blank();
        }
        if (peek() == ']')
            return fail(pos(),
                "5DFEN board has only " + std::to_string(fieldsRead)
                    + (fieldsRead == 1 ? " field" : " fields") + "; expected `rows:L:T:colour`");
        return fail(pos(), "unexpected " + quoted(token_text()) + " in a 5DFEN board");
    };

    if (!no_blank()) return false;
    if (out.rows.empty() && peek() == ':') return fail(rowsPos, "5DFEN board has no rows");
    if (!separator(1)) return false;
    out.linePos            = pos();
    const bool signedLabel = peek() == '+' || peek() == '-';
    if (!is_digit(peek(signedLabel ? 1 : 0)))
        return fail(pos(), "expected a timeline in 5DFEN, found " + quoted(field_text()));
    if (!lex_line_label(out.line, "a timeline in 5DFEN")) return false;
    if (!separator(2)) return false;
    if (!is_digit(peek()))
        return fail(pos(), "expected a turn number in 5DFEN, found " + quoted(field_text()));
    if (!lex_natural(out.turn, "a turn number in 5DFEN")) return false;
    if (!separator(3)) return false;
    const char after = peek(1); // '\0' at the end: then the missing `]` is the error
    if ((peek() != 'w' && peek() != 'b')
        || (after != ']' && after != ':' && after != '\0' && !is_ws(after)))
        return fail(pos(), "5DFEN colour must be `w` or `b`, found " + quoted(field_text()));
    out.colour = peek() == 'w' ? movegen::WHITE : movegen::BLACK;
    advance();
    if (!no_blank()) return false;
    if (peek() == ':') return fail(pos(), "5DFEN board has more than 4 fields");
    if (peek() != ']')
        return fail(pos(), "expected `]` to close the 5DFEN board, found " + found());
    advance();
    return true;
}

} // namespace fived::notation
