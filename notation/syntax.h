#pragma once
// Syntax tree of a 5DPGN / Branched 5DPGN document (NOTATION.md §4), as produced by
// notation/parser.h. This layer knows the grammar and the header-only constraints; it knows no
// chess rules. Moves are kept as *patterns* (NOTATION.md §5): every field the text leaves out is
// empty, and the semantic layer resolves them against the legal moves of the position.
//
// Design:
//   * The game tree is an index arena (Document::nodes). Node 0 is the root, the initial
//     position; every other node owns the Action that leads into it from its parent, so an edge
//     label lives in its child. Parents always have a smaller index than their children, so a
//     forward loop over `nodes` visits a parent before any of its children, and nothing in the
//     tree is ever walked recursively (very deep trees neither overflow the stack nor destroy
//     recursively).
//   * Children keep their written order. In Branched 5DPGN the parenthesised groups precede
//     the unparenthesised continuation, so the main line is the LAST child. Duplicates are kept;
//     deduplication needs the rules and belongs to the semantic layer.
//   * Everything keeps the spelling that matters for writing it back or reporting errors:
//     timeline signs (`-0`, `+0`, `+1`), piece aliases, the exact text and position of moves.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "movegen/fen_rows.h"
#include "movegen/text.h"
#include "movegen/tree.h"
#include "movegen/types.h"

namespace fived::notation {

// ASCII case-insensitive comparisons (header keys, variant names), from movegen/text.h.
using movegen::iequals;
using movegen::istarts_with;

// A place in the source text. Both are 1-based; the column counts Unicode code points (a tab
// is one column). {0, 0} means "no position" (a default-constructed value).
struct SourcePos {
    int line   = 0;
    int column = 0;

    bool operator==(const SourcePos&) const = default;
};

// An error or warning tied to a place in a file. to_string() gives the canonical form
// "FILE:LINE:COL: CAUSE"; the cause names the offending token in backquotes.
struct Diagnostic {
    std::string file;
    SourcePos   pos;
    std::string cause;

    static Diagnostic at(std::string_view file, SourcePos pos, std::string cause) {
        return Diagnostic{std::string(file), pos, std::move(cause)};
    }
    std::string to_string() const;
};

// A timeline label as written. The sign is kept because `-0` and `+0` are two different
// timelines of an even game while `0` is the middle timeline of an odd one; an explicit `+1`
// is the same timeline as `1`, which is the semantic layer's business.
struct LineLabel {
    int  magnitude = 0;
    char sign      = 0; // '+', '-', or 0 when none was written

    int  value() const { return sign == '-' ? -magnitude : magnitude; }
    bool is_signed_zero() const { return magnitude == 0 && sign != 0; }
    bool operator==(const LineLabel&) const = default;
};

// A board coordinate written in a move: `(0T1)`, `(L-1 T6)`, `(L0)`, `(2)`, `(T3)`. Either
// part may be missing (B 4.10), never both.
struct BoardRef {
    std::optional<LineLabel> line;
    std::optional<int>       turn;
    bool                     lPrefix = false; // the `L` was written
    SourcePos                pos;             // of the `(`

    bool operator==(const BoardRef&) const = default;
};

// Two-letter piece names of Shad's notation, normalised to one PieceType. BR and CK are
// deprecated (a warning is recorded in Document::warnings).
enum class PieceAlias : std::uint8_t {
    NONE,
    RQ, // royal queen, Y
    PR, // princess, S
    BR, // brawn, W (deprecated)
    CK, // common king, C (deprecated)
};

enum class MoveKind : std::uint8_t {
    PHYSICAL, // no jump indicator and no destination board
    JUMP,     // super-physical: `>`, `>>` or a destination board was written
    CASTLE,   // O-O, O-O-O, 0-0, 0-0-0 (the king's move form Ke1g1 is PHYSICAL)
};

enum class JumpIndicator : std::uint8_t {
    NONE,
    NON_BRANCHING, // `>`
    BRANCHING,     // `>>`
};

enum class CastleSide : std::uint8_t {
    NONE,
    KING_SIDE,  // O-O / 0-0
    QUEEN_SIDE, // O-O-O / 0-0-0
};

// `+ # *` after a move, or a lone `#`/`*` closing an action (B 4.6), and Nunn's evaluation
// symbols (B 4.7): the annotations of the shared tree type (movegen/tree.h).
using movegen::Evaluation;
using movegen::Mark;

// One written move: the pattern of NOTATION.md §5 plus the annotations around it.
// Squares are 0-based (file a = 0, rank 1 = 0). `piece == NO_PIECE_TYPE` means not written.
// For CASTLE moves the squares are empty (the semantic layer knows the colour and the board).
struct Move {
    std::optional<BoardRef> from; // source board
    movegen::PieceType      piece = movegen::NO_PIECE_TYPE;
    PieceAlias              alias = PieceAlias::NONE;
    std::optional<int>      fromFile, fromRank;

    MoveKind      kind         = MoveKind::PHYSICAL;
    JumpIndicator jump         = JumpIndicator::NONE;
    CastleSide    castle       = CastleSide::NONE;
    bool          castleDigits = false;     // written with the digit zero (0-0) rather than O-O
    bool          capture      = false;     // `x` written
    std::optional<BoardRef> to;             // destination board (JUMP only)
    std::optional<int>      toFile, toRank; // always set unless CASTLE

    movegen::PieceType promotion      = movegen::NO_PIECE_TYPE; // `=X`
    PieceAlias         promotionAlias = PieceAlias::NONE;
    Mark               mark           = Mark::NONE;
    bool               presentMoved   = false; // Shad's `~`
    Evaluation         evaluation     = Evaluation::NONE;

    SourcePos   pos;  // first character of the move
    std::string text; // the move exactly as written, e.g. "(0T5)Qb3>>x(0T1)f7+~"
};

// A `{...}` comment; `text` is what stands between the outer braces (nested braces kept).
struct Comment {
    std::string text;
    SourcePos   pos;             // of the `{`
    int         movesBefore = 0; // inside an Action: how many of its moves precede the comment
};

// Shad's informational tokens after a move: `(~T6)` (the present goes back to T6) and
// `(>L-5)` (timeline -5 was created). They are kept so a writer can reproduce them, and
// never checked.
struct ShadToken {
    enum class Kind : std::uint8_t {
        PRESENT_REWIND, // (~Tn)
        NEW_TIMELINE,   // (>Ln)
    };
    Kind      kind = Kind::PRESENT_REWIND;
    int       turn = 0; // PRESENT_REWIND
    LineLabel line;     // NEW_TIMELINE
    SourcePos pos;
    int       movesBefore = 0; // how many of the action's moves precede it
};

// A turn serial: `N.`, `Nw.`, `Nb.` or `/`. Whether it agrees with the side to move is checked by
// check_turn_serials() (notation/parser.h) once the side to move is known.
struct Serial {
    enum class Kind : std::uint8_t {
        NUMBERED, // N. / Nw. / Nb.
        SLASH,    // /  ("the next sub-turn")
    };
    Kind      kind   = Kind::NUMBERED;
    int       number = 0;
    char      colour = 0; // 'w', 'b', or 0 when not written (`N.` means White)
    SourcePos pos;
};

// One player's sub-turn: a serial and one or more moves, in written order (which decides which
// branching jump creates which timeline).
struct Action {
    Serial            serial;
    std::vector<Move> moves;
    Mark              loneMark = Mark::NONE; // a `#`/`*` standing alone after the moves (B 4.6)
    SourcePos         loneMarkPos;
    std::vector<ShadToken> shadTokens;
    // Comments between and after its moves, and every comment that stands at this action's node
    // in the tree (after a closing `)` that returns here, after a `(` opened here).
    std::vector<Comment> comments;
};

// `1-0`, `0-1`, `1/2-1/2`: the subtree at this node is replaced by a result (B 5.2).
struct GameResult {
    enum class Outcome : std::uint8_t {
        WHITE_WINS,
        BLACK_WINS,
        DRAW,
    };
    Outcome   outcome = Outcome::DRAW;
    SourcePos pos;
    bool      afterSlash = false; // Shad's `23. Bxd2 / 1-0`
};

// A node of the game tree: the position after `action` was played from `parent`.
struct Node {
    int                       parent = -1; // -1 for the root
    int                       ply    = 0;  // number of actions from the root
    Action                    action;      // the edge parent -> this node; empty for the root
    std::vector<int>          children;    // written order; the main line is the last
    std::optional<GameResult> result;      // then `children` is empty
};

struct Header {
    std::string key;      // as written (compare case-insensitively)
    std::string value;    // `\"` unescaped to `"`
    SourcePos   pos;      // of the `[`
    SourcePos   valuePos; // of the opening quote
};

// A 5DFEN board `[rows:L:T:colour]`. Its rows are parsed with the Size of the whole document.
struct FenBoard {
    LineLabel        line;
    int              turn   = 0;
    movegen::Color   colour = movegen::WHITE;
    movegen::FenGrid grid;
    std::string      rows;    // the rows text as written
    SourcePos        pos;     // of the `[`
    SourcePos        linePos; // of the L field
};

// Odd or even timelines, when the headers or the 5DFEN say so (NOTATION.md §4): from a
// Timeline(s) header, else from a `-0`/`+0` (even) or `0` (odd) label in the 5DFEN. UNKNOWN
// means it follows from the built-in variant, which only the semantic layer knows.
enum class Parity : std::uint8_t {
    UNKNOWN,
    ODD,
    EVEN,
};

struct Document {
    std::vector<Header>     headers;    // in written order, unknown keys included
    std::vector<FenBoard>   boards;     // in written order
    std::vector<Comment>    comments;   // before the headers, between them, and at the root node
    std::vector<Node>       nodes;      // nodes[0] is the root; parent index < child index
    int                     width  = 8; // from the Size header (default 8x8)
    int                     height = 8;
    Parity                  parity = Parity::UNKNOWN;
    std::vector<Diagnostic> warnings; // accepted but deprecated input (BR, CK); load_game()
                                      // adds what its ReadOptions let through
    // The pieces that `=X` promotions of the moves name, in order of first appearance (the
    // start position's promotion list when there is no Promotions header).
    std::vector<movegen::PieceType> promotionsNamed;

    // The first header whose key equals `key` ignoring ASCII case; nullptr if none.
    const Header* find_header(std::string_view key) const;
    const Node&   root() const { return nodes.front(); }
};

} // namespace fived::notation
