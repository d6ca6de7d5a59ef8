// Tricky tokens of NOTATION.md §4: how single moves, serials, boards and results are read.

#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "notation/parser.h"

namespace fived::notation {
namespace {

using movegen::PieceType;

// Parses `text` as a whole document (after a Board header) and fails the test on an error.
std::optional<Document> parse_ok(const std::string& text) {
    auto doc = parse_document("[Board \"Standard\"]\n" + text, "t.5dpgn");
    if (!doc.ok()) {
        ADD_FAILURE() << doc.status();
        return std::nullopt;
    }
    return *std::move(doc);
}

// The first move of the first action of "1. <move>".
Move first_move(const std::string& move) {
    const auto doc = parse_ok("1. " + move);
    if (!doc || doc->nodes.size() < 2 || doc->nodes[1].action.moves.empty()) return {};
    return doc->nodes[1].action.moves[0];
}

// The diagnostic of a document that must fail (lines count the Board header as line 1).
Diagnostic error_of(const std::string& text) {
    const auto doc = parse_document("[Board \"Standard\"]\n" + text, "t.5dpgn");
    if (doc.ok()) {
        ADD_FAILURE() << "accepted: " << text;
        return {};
    }
    const auto d = diagnostic_of(doc.status());
    if (!d) ADD_FAILURE() << "no diagnostic in " << doc.status();
    return d.value_or(Diagnostic{});
}

TEST(MoveSyntax, ParenOpensVariationBoardOrShadToken) {
    // `(2. Kf7)` after an action is a variation: a child of the node after `1. e3`.
    auto doc = parse_ok("1. e3 (1b. Kf7)");
    ASSERT_TRUE(doc);
    ASSERT_EQ(doc->nodes.size(), 3u);
    EXPECT_EQ(doc->nodes[2].parent, 1);
    EXPECT_EQ(doc->nodes[2].action.serial.colour, 'b');

    doc = parse_ok("1. e3 (2. Kf7)");
    ASSERT_TRUE(doc);
    EXPECT_EQ(doc->nodes[2].action.serial.number, 2);

    // `(2T1)` and `(2)` are boards: here the second move of the same action.
    doc = parse_ok("1. e3 (2T1)Kf7 (2)Kf7 (L2 T1)Kf7");
    ASSERT_TRUE(doc);
    ASSERT_EQ(doc->nodes.size(), 2u);
    const auto& moves = doc->nodes[1].action.moves;
    ASSERT_EQ(moves.size(), 4u);
    EXPECT_EQ(moves[1].from->line->magnitude, 2);
    EXPECT_EQ(moves[1].from->turn, 1);
    EXPECT_FALSE(moves[1].from->lPrefix);
    EXPECT_EQ(moves[2].from->line->magnitude, 2);
    EXPECT_FALSE(moves[2].from->turn);
    EXPECT_TRUE(moves[3].from->lPrefix);
    EXPECT_EQ(moves[3].text, "(L2 T1)Kf7");

    // `(~T1)` and `(>L-1)` are Shad's tokens, kept on the action.
    doc = parse_ok("1. Q>>xf7+~ (~T1) (>L-1) {sacrifice} / Kxf7");
    ASSERT_TRUE(doc);
    const Action& a = doc->nodes[1].action;
    ASSERT_EQ(a.shadTokens.size(), 2u);
    EXPECT_EQ(a.shadTokens[0].kind, ShadToken::Kind::PRESENT_REWIND);
    EXPECT_EQ(a.shadTokens[0].turn, 1);
    EXPECT_EQ(a.shadTokens[1].kind, ShadToken::Kind::NEW_TIMELINE);
    EXPECT_EQ(a.shadTokens[1].line, (LineLabel{1, '-'}));
    EXPECT_EQ(a.shadTokens[1].movesBefore, 1);
    ASSERT_EQ(a.comments.size(), 1u);
    EXPECT_EQ(a.comments[0].text, "sacrifice");
}

TEST(MoveSyntax, CastleVersusResult) {
    auto doc = parse_ok("1. 0-0 0-1");
    ASSERT_TRUE(doc);
    ASSERT_EQ(doc->nodes.size(), 2u);
    const Move& m = doc->nodes[1].action.moves[0];
    EXPECT_EQ(m.kind, MoveKind::CASTLE);
    EXPECT_EQ(m.castle, CastleSide::KING_SIDE);
    EXPECT_TRUE(m.castleDigits);
    EXPECT_FALSE(m.toFile);
    ASSERT_TRUE(doc->nodes[1].result);
    EXPECT_EQ(doc->nodes[1].result->outcome, GameResult::Outcome::BLACK_WINS);

    doc = parse_ok("1. e3 0-0-0 O-O-O+ (L0)O-O 1-0");
    ASSERT_TRUE(doc);
    const auto& moves = doc->nodes[1].action.moves;
    ASSERT_EQ(moves.size(), 4u);
    EXPECT_EQ(moves[1].castle, CastleSide::QUEEN_SIDE);
    EXPECT_EQ(moves[2].castle, CastleSide::QUEEN_SIDE);
    EXPECT_FALSE(moves[2].castleDigits);
    EXPECT_EQ(moves[2].mark, Mark::CHECK);
    EXPECT_EQ(moves[3].castle, CastleSide::KING_SIDE);
    EXPECT_EQ(moves[3].from->line, (LineLabel{0, 0}));
    EXPECT_EQ(doc->nodes[1].result->outcome, GameResult::Outcome::WHITE_WINS);
}

TEST(MoveSyntax, BIsASerialColourOnlyBeforeTheDot) {
    const auto doc = parse_ok("1b. b4 2. bxc5 2b. Nbd7 3w. b3");
    ASSERT_TRUE(doc);
    ASSERT_EQ(doc->nodes.size(), 5u);
    EXPECT_EQ(doc->nodes[1].action.serial.colour, 'b');
    EXPECT_EQ(doc->nodes[1].action.moves[0].toFile, 1);
    EXPECT_EQ(doc->nodes[2].action.serial.colour, 0);
    EXPECT_EQ(doc->nodes[2].action.moves[0].fromFile, 1);
    EXPECT_EQ(doc->nodes[3].action.moves[0].fromFile, 1);
    EXPECT_EQ(doc->nodes[4].action.serial.colour, 'w');
}

TEST(MoveSyntax, TwoLetterAliasesBeforeOneLetterPieces) {
    Move m = first_move("PRe2");
    EXPECT_EQ(m.piece, movegen::PRINCESS);
    EXPECT_EQ(m.alias, PieceAlias::PR);
    EXPECT_EQ(m.toFile, 4);
    EXPECT_EQ(m.toRank, 1);
    m = first_move("Pe2");
    EXPECT_EQ(m.piece, movegen::PAWN);
    EXPECT_EQ(m.alias, PieceAlias::NONE);
    m = first_move("RQa2");
    EXPECT_EQ(m.piece, movegen::ROYAL_QUEEN);
    m = first_move("CKa2");
    EXPECT_EQ(m.piece, movegen::COMMON_KING);
    EXPECT_EQ(m.alias, PieceAlias::CK);
}

TEST(MoveSyntax, SourceDisambiguation) {
    Move m = first_move("exd5");
    EXPECT_EQ(m.piece, movegen::NO_PIECE_TYPE);
    EXPECT_EQ(m.fromFile, 4);
    EXPECT_FALSE(m.fromRank);
    EXPECT_TRUE(m.capture);
    EXPECT_EQ(m.toFile, 3);
    EXPECT_EQ(m.toRank, 4);
    EXPECT_EQ(m.kind, MoveKind::PHYSICAL);

    m = first_move("e2xd3");
    EXPECT_EQ(m.fromFile, 4);
    EXPECT_EQ(m.fromRank, 1);
    EXPECT_TRUE(m.capture);

    m = first_move("Nbd2");
    EXPECT_EQ(m.piece, movegen::KNIGHT);
    EXPECT_EQ(m.fromFile, 1);
    EXPECT_FALSE(m.fromRank);
    EXPECT_EQ(m.toFile, 3);
    EXPECT_EQ(m.toRank, 1);

    m = first_move("R1a3");
    EXPECT_EQ(m.piece, movegen::ROOK);
    EXPECT_FALSE(m.fromFile);
    EXPECT_EQ(m.fromRank, 0);
    EXPECT_EQ(m.toFile, 0);
    EXPECT_EQ(m.toRank, 2);

    m = first_move("xd5"); // syntactically fine; ambiguity is the semantic layer's business
    EXPECT_TRUE(m.capture);
    EXPECT_FALSE(m.fromFile);

    m = first_move("(0T1)e2e3");
    EXPECT_EQ(m.fromFile, 4);
    EXPECT_EQ(m.fromRank, 1);
    EXPECT_EQ(m.toRank, 2);
}

TEST(MoveSyntax, FullBranchingCaptureJump) {
    const Move m = first_move("(0T5)Qb3>>x(0T1)f7");
    EXPECT_EQ(m.kind, MoveKind::JUMP);
    EXPECT_EQ(m.from->line, (LineLabel{0, 0}));
    EXPECT_EQ(m.from->turn, 5);
    EXPECT_EQ(m.piece, movegen::QUEEN);
    EXPECT_EQ(m.fromFile, 1);
    EXPECT_EQ(m.fromRank, 2);
    EXPECT_EQ(m.jump, JumpIndicator::BRANCHING);
    EXPECT_TRUE(m.capture);
    EXPECT_EQ(m.to->turn, 1);
    EXPECT_EQ(m.toFile, 5);
    EXPECT_EQ(m.toRank, 6);
    EXPECT_EQ(m.text, "(0T5)Qb3>>x(0T1)f7");
    EXPECT_EQ(m.pos, (SourcePos{2, 4}));
}

TEST(MoveSyntax, ShortenedJumps) {
    Move m = first_move("Q>>xf7+");
    EXPECT_EQ(m.kind, MoveKind::JUMP);
    EXPECT_FALSE(m.from);
    EXPECT_FALSE(m.to);
    EXPECT_EQ(m.jump, JumpIndicator::BRANCHING);
    EXPECT_TRUE(m.capture);
    EXPECT_EQ(m.mark, Mark::CHECK);

    m = first_move("(L-1)Q>>e4");
    ASSERT_TRUE(m.from);
    EXPECT_TRUE(m.from->lPrefix);
    EXPECT_EQ(m.from->line, (LineLabel{1, '-'}));
    EXPECT_FALSE(m.from->turn);
    EXPECT_EQ(m.jump, JumpIndicator::BRANCHING);
    EXPECT_EQ(m.toFile, 4);

    m = first_move("f>>f6");
    EXPECT_EQ(m.piece, movegen::NO_PIECE_TYPE);
    EXPECT_EQ(m.fromFile, 5);
    EXPECT_EQ(m.kind, MoveKind::JUMP);
    EXPECT_EQ(m.toFile, 5);
    EXPECT_EQ(m.toRank, 5);

    m = first_move("B>x(1T3)b3");
    EXPECT_EQ(m.jump, JumpIndicator::NON_BRANCHING);
    EXPECT_EQ(m.to->line, (LineLabel{1, 0}));

    m = first_move("Ng1(0T1)f3"); // a destination board alone makes a jump (Shad's export)
    EXPECT_EQ(m.kind, MoveKind::JUMP);
    EXPECT_EQ(m.jump, JumpIndicator::NONE);

    m = first_move(">>a2");
    EXPECT_EQ(m.kind, MoveKind::JUMP);

    // Rule 5 read literally: a board right after a square makes that square the source.
    m = first_move("e3(0T1)e4");
    EXPECT_EQ(m.kind, MoveKind::JUMP);
    EXPECT_EQ(m.fromFile, 4);
    EXPECT_EQ(m.fromRank, 2);
    EXPECT_EQ(m.toRank, 3);
}

TEST(MoveSyntax, SignedTimelinesKeepTheirSign) {
    const auto doc = parse_ok("1. (-0T1)Ng1f3 (+0T1)e3 (L+1)e3 (L-0)e3");
    ASSERT_TRUE(doc);
    const auto& mv = doc->nodes[1].action.moves;
    EXPECT_EQ(mv[0].from->line, (LineLabel{0, '-'}));
    EXPECT_EQ(mv[1].from->line, (LineLabel{0, '+'}));
    EXPECT_TRUE(mv[1].from->line->is_signed_zero());
    EXPECT_EQ(mv[2].from->line, (LineLabel{1, '+'}));
    EXPECT_EQ(mv[3].from->line, (LineLabel{0, '-'}));
    EXPECT_EQ(mv[3].from->line->value(), 0);
}

TEST(MoveSyntax, SuffixesInGrammarOrder) {
    Move m = first_move("bxc8=N");
    EXPECT_EQ(m.promotion, movegen::KNIGHT);
    EXPECT_TRUE(m.capture);

    m = first_move("Qg7g6*!");
    EXPECT_EQ(m.mark, Mark::SOFTMATE);
    EXPECT_EQ(m.evaluation, Evaluation::GOOD);
    EXPECT_EQ(m.fromFile, 6);
    EXPECT_EQ(m.toRank, 5);

    m = first_move("a8=Q+~?!");
    EXPECT_EQ(m.promotion, movegen::QUEEN);
    EXPECT_EQ(m.mark, Mark::CHECK);
    EXPECT_TRUE(m.presentMoved);
    EXPECT_EQ(m.evaluation, Evaluation::DUBIOUS);

    EXPECT_EQ(first_move("e3!!").evaluation, Evaluation::BRILLIANT);
    EXPECT_EQ(first_move("e3??").evaluation, Evaluation::BLUNDER);
    EXPECT_EQ(first_move("e3!?").evaluation, Evaluation::INTERESTING);
    EXPECT_EQ(first_move("e3?").evaluation, Evaluation::MISTAKE);
    EXPECT_EQ(first_move("g2#~").mark, Mark::CHECKMATE);
}

TEST(MoveSyntax, LoneMarkEndsTheAction) {
    const auto doc = parse_ok("1. (1T4)Qh5 *\n1b. e6");
    ASSERT_TRUE(doc);
    EXPECT_EQ(doc->nodes[1].action.moves[0].mark, Mark::NONE);
    EXPECT_EQ(doc->nodes[1].action.loneMark, Mark::SOFTMATE);
    EXPECT_EQ(doc->nodes[1].action.loneMarkPos, (SourcePos{2, 13}));
    EXPECT_EQ(doc->nodes.size(), 3u);
}

TEST(MoveSyntax, Errors) {
    struct Case {
        const char* text;
        int         line, column;
        const char* cause;
    };
    const Case cases[] = {
        {"1. e3e", 2, 7, "expected a rank"},
        {"1. Nf3Nf6", 2, 7, "must be separated by whitespace"},
        {"1. e3O-O", 2, 6, "must be separated by whitespace"},
        {"1. (0T1) e3", 2, 9, "whitespace inside a move"},
        {"1. x", 2, 5, "destination square, found end of input"},
        {"1. e3x / e6", 2, 7, "incomplete move `e3x`"},
        {"1. N", 2, 5, "incomplete move `N`"},
        {"1. e3+* / e6", 2, 6, "`+*`"},
        {"1. e3 ** / e6", 2, 7, "`**`"},
        {"1. O-O-", 2, 7, "unexpected `-`"},
        {"1. e3=", 2, 6, "promotion `=`"},
        {"1. e3=q", 2, 6, "promotion `=`"},
        {"1. Ka1e10", 2, 8, "rank `10`"},
        {"1. (L)e3", 2, 6, "expected a timeline"},
        {"1. (L0 )e3", 2, 8, "expected `T`"},
        {"1. (T)e3", 2, 6, "expected a turn number"},
        {"1. (0T01)e3", 2, 7, "leading zero"},
        {"1. (0T9999999)e3", 2, 7, "too large"},
        {"1.. e3", 2, 1, "`1..` is not a turn serial"},
        {"1 e3", 2, 2, "expected `.` after the turn number `1`"},
        {"12c. e3", 2, 3, "expected `.`"},
        {"(~T1) 1. e3", 2, 1, "Shad's tokens must follow a move"},
        {"1. e3 (~T1", 2, 7, "not closed by `)`"},
        {"1. e3 / e6 +", 2, 12, "unexpected `+`"},
        {"1. e3 / e6 $", 2, 12, "unexpected `$`"},
        {"1. \x01", 2, 4, "`\\x01`"},
    };
    for (const Case& c : cases) {
        const Diagnostic d = error_of(c.text);
        EXPECT_EQ(d.pos, (SourcePos{c.line, c.column})) << c.text << " -> " << d.to_string();
        EXPECT_NE(d.cause.find(c.cause), std::string::npos) << c.text << " -> " << d.to_string();
    }
}

} // namespace
} // namespace fived::notation
