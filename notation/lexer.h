#pragma once
// Character-level scanner of 5DPGN text (NOTATION.md §4, lexical rules 1-7).
//
// The grammar is not context-free at the token level (`b` is a file or a serial colour, `(`
// opens a variation, a board or a Shad token, `0-` starts a castle or a result), so instead of
// a token stream the Lexer offers a cursor with line/column tracking, a bounded-lookahead
// classify() that says what the next characters start, and one scanner per construct that
// consumes it whole. The parser (notation/parser.h) drives it and owns the structure.
//
// Every scanner returns false on malformed input and leaves the position and cause of the
// error in error_pos()/error_cause(); nothing throws. Scanning is linear: lookahead never goes
// further than the construct it classifies, and every character is consumed once.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "notation/syntax.h"

namespace fived::notation {

// What the characters at the cursor start, inside the game tree.
enum class TokenKind : std::uint8_t {
    END,             // end of input
    SERIAL,          // `12.`, `3w.`, `3b.`, `/`, or digits that can only be a broken serial
    RESULT,          // `1-0`, `0-1`, `1/2-1/2`
    VARIATION_OPEN,  // `(` not followed by a board or a Shad token (rule 1)
    VARIATION_CLOSE, // `)`
    SHAD_TOKEN,      // `(~T..)`, `(>L..)`
    MOVE,            // a board `(..)`, a piece, a file, `x`, `>`, or a castle
    LONE_MARK,       // `#` or `*` standing alone
    BRACKET,         // `[`: a header or a 5DFEN board
    UNKNOWN,         // anything else (`;`, `$`, `.`, ...)
};

class Lexer {
public:
    explicit Lexer(std::string_view input) : text(input) { }

    bool      at_end() const { return cur >= text.size(); }
    char      peek(std::size_t k = 0) const { return cur + k < text.size() ? text[cur + k] : '\0'; }
    SourcePos pos() const { return {line, column}; }
    std::size_t      offset() const { return cur; }
    std::string_view slice(std::size_t from, std::size_t to) const {
        return text.substr(from, to - from);
    }

    // Skips a UTF-8 byte order mark at the very start without counting a column.
    void skip_bom() {
        if (cur == 0 && starts_with("\xEF\xBB\xBF")) cur = 3;
    }
    // Consumes n bytes, keeping line and column up to date.
    void advance(std::size_t n = 1);

    // Skips whitespace and comments. Each comment is appended to `out` with movesBefore set to
    // `movesBefore`. Fails on an unterminated comment or a stray `}`.
    bool skip_trivia(std::vector<Comment>& out, int movesBefore = 0);
    // Skips whitespace only; returns whether any was skipped.
    bool skip_whitespace();

    // What the tree-level characters at the cursor start (see TokenKind). Never consumes.
    TokenKind classify() const;
    // Whether the `[` at the cursor opens a 5DFEN board rather than a header: the run of
    // key characters after it contains `:` or `/` (a header key never does, board rows
    // always do).
    bool bracket_is_board() const;

    // Scanners. Each one expects the cursor on the first character of its construct.
    bool lex_serial(Serial& out);
    bool lex_result(GameResult& out);
    bool lex_shad_token(ShadToken& out);
    bool lex_lone_mark(Mark& out, SourcePos& at);
    bool lex_move(Move& out);
    bool lex_header(Header& out);
    // Reads `[rows:L:T:colour]`; the rows are only cut out (with rowsPos their position),
    // the parser checks them once the Size header is known.
    bool lex_fen_board(FenBoard& out, SourcePos& rowsPos);

    // The token at the cursor, for error messages: a run of non-blank, non-bracket characters
    // (at most 24), or the single character there. "end of input" at the end.
    std::string token_text() const;
    // What stands at the cursor, for "found ..." in messages: the quoted token_text(), or
    // "a space", "end of line", "end of input".
    std::string found() const;

    SourcePos          error_pos() const { return errPos; }
    const std::string& error_cause() const { return errCause; }

private:
    bool fail(SourcePos at, std::string cause);
    bool lex_comment(std::vector<Comment>& out, int movesBefore);
    bool lex_natural(int& value, std::string_view what);
    bool lex_line_label(LineLabel& out, std::string_view what);
    bool lex_board(BoardRef& out);
    bool lex_piece(movegen::PieceType& pt, PieceAlias& alias);
    bool lex_file(int& file, std::string_view moveSoFar);
    bool lex_rank(int& rank);
    bool lex_move_suffixes(Move& out);
    bool starts_with(std::string_view s) const { return text.substr(cur).starts_with(s); }
    // Kind of the `(` at offset `at` (VARIATION_OPEN, SHAD_TOKEN or MOVE for a board).
    TokenKind classify_paren(std::size_t at) const;

    std::string_view text;
    std::size_t      cur    = 0;
    int              line   = 1;
    int              column = 1;
    SourcePos        errPos;
    std::string      errCause;
};

// Wraps a token in backquotes for an error message.
std::string quoted(std::string_view token);

} // namespace fived::notation
