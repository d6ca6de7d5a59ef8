// Document structure: headers, 5DFEN boards, the game tree, comments, diagnostics, and the
// iterative parser's behaviour on very deep or very long input.

#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "notation/parser.h"

namespace fived::notation {
namespace {

std::optional<Document> parse_ok(const std::string& text) {
    auto doc = parse_document(text, "t.5dpgn");
    if (!doc.ok()) {
        ADD_FAILURE() << doc.status();
        return std::nullopt;
    }
    return *std::move(doc);
}

Diagnostic error_of(const std::string& text) {
    const auto doc = parse_document(text, "t.5dpgn");
    if (doc.ok()) {
        ADD_FAILURE() << "accepted: " << text;
        return {};
    }
    return diagnostic_of(doc.status()).value_or(Diagnostic{});
}

// The tree as text: each node's moves, then its children in brackets, then its result. Small
// test trees only (recursive).
std::string shape(const Document& doc, int node = 0) {
    const Node& n = doc.nodes[node];
    std::string s;
    for (const Move& m : n.action.moves) {
        if (!s.empty()) s += ' ';
        s += m.text;
    }
    for (int c : n.children) {
        s += '[';
        s += shape(doc, c);
        s += ']';
    }
    if (n.result) s += n.result->outcome == GameResult::Outcome::DRAW ? "=" : "R";
    return s;
}

TEST(Tree, FlatAndNestedAreTheSameTree) {
    const auto flat   = parse_ok("1.e3 / Nf6 2.Nf3 / d5");
    const auto nested = parse_ok("1.e3 ( / Nf6 ( 2.Nf3 ( / d5)))");
    ASSERT_TRUE(flat && nested);
    EXPECT_EQ(shape(*flat), "[e3[Nf6[Nf3[d5]]]]");
    EXPECT_EQ(shape(*nested), shape(*flat));
    EXPECT_EQ(flat->nodes[4].ply, 4);
    EXPECT_EQ(flat->nodes[4].parent, 3);
}

TEST(Tree, ParenthesisedSiblingsPrecedeTheMainLine) {
    // B 5: `(A) B` at a node gives the children A, B; the main line is the last child.
    const auto doc = parse_ok("1. Kb2 / Ke4\n2. Re1+\n(2b. Kd5 3. Kc3 1/2-1/2)\n2b. Kd3\n"
                              "3. (0T3)Re5# 1-0");
    ASSERT_TRUE(doc);
    EXPECT_EQ(shape(*doc), "[Kb2[Ke4[Re1+[Kd5[Kc3=]][Kd3[(0T3)Re5#R]]]]]");
    const Node& re1 = doc->nodes[3];
    ASSERT_EQ(re1.children.size(), 2u);
    EXPECT_EQ(doc->nodes[re1.children[0]].action.moves[0].text, "Kd5");
    EXPECT_EQ(doc->nodes[re1.children[1]].action.moves[0].text, "Kd3");
}

TEST(Tree, SeveralGroupsAtSeveralDepths) {
    const auto doc = parse_ok("1. a3 (1b. b6) (1b. c6 2. c3 (2b. h6) 2b. h5) 1b. a6 (2. d3) 2. a4");
    ASSERT_TRUE(doc);
    EXPECT_EQ(shape(*doc), "[a3[b6][c6[c3[h6][h5]]][a6[d3][a4]]]");
}

TEST(Tree, VariationsAtTheRootAndAfterAResult) {
    const auto doc = parse_ok("(1. e3 1-0) (1. d3 0-1)\n1. c3 1/2-1/2");
    ASSERT_TRUE(doc);
    EXPECT_EQ(shape(*doc), "[e3R][d3R][c3=]");
}

TEST(Tree, SlashBeforeAResult) {
    // Shad's README: `23. (-4T10)Bxd2 / 1-0`.
    const auto doc = parse_ok("1. e3 / 1-0 {timeout}");
    ASSERT_TRUE(doc);
    ASSERT_TRUE(doc->nodes[1].result);
    EXPECT_TRUE(doc->nodes[1].result->afterSlash);
    ASSERT_EQ(doc->nodes[1].action.comments.size(), 1u);
    EXPECT_EQ(doc->nodes[1].action.comments[0].text, "timeout");
}

TEST(Tree, EmptyTreeAndResultOnly) {
    auto doc = parse_ok("[Board \"Standard\"]\n");
    ASSERT_TRUE(doc);
    EXPECT_EQ(doc->nodes.size(), 1u);
    doc = parse_ok("1-0");
    ASSERT_TRUE(doc);
    EXPECT_TRUE(doc->root().result);
    doc = parse_ok("");
    ASSERT_TRUE(doc);
}

TEST(Tree, StructuralErrors) {
    struct Case {
        const char* text;
        int         line, column;
        const char* cause;
    };
    const Case cases[] = {
        {"1. e3 )", 1, 7, "unexpected `)`"},
        {"1. e3 (", 1, 7, "never closed"},
        {"1. e3 (1b. e6", 1, 7, "never closed"},
        {"1. e3 (1b. e6 (2. e4)", 1, 7, "never closed"},
        {"1. e3 ( {x} )", 1, 7, "empty variation `()`"},
        {"1. e3 ( Nf6)", 1, 9, "must start with a turn serial, found `Nf6`"},
        {"1. e3 ( / 1-0)", 1, 11, "expected a move after turn serial `/`, found `1-0`"},
        {"1. e3 1-0 (1b. e6)", 1, 11, "after a result"},
        {"1. e3 (1b. e6) 1-0", 1, 16, "cannot follow variations"},
        {"1. e3 1-0 1-0", 1, 11, "after a result"},
        {"1. e3 / e6 [Event \"x\"]", 1, 12, "unexpected `[`"},
        {"e3", 1, 1, "expected a turn serial before move `e3`"},
        {"1.", 1, 3, "expected a move after turn serial `1.`, found end of input"},
        {"1. (~T1)e3", 1, 4, "expected a move after turn serial"},
        {"1. e3 / e6 2", 1, 13, "expected `.`"},
        {"1. e3 }", 1, 7, "unexpected `}`"},
        {"1. e3 {a {b}", 1, 7, "unterminated comment starting here"},
        {"1. e3\n  {a\n\n", 2, 3, "unterminated comment"},
    };
    for (const Case& c : cases) {
        const Diagnostic d = error_of(c.text);
        EXPECT_EQ(d.pos, (SourcePos{c.line, c.column})) << c.text << " -> " << d.to_string();
        EXPECT_NE(d.cause.find(c.cause), std::string::npos) << c.text << " -> " << d.to_string();
    }
}

TEST(Comments, NestAndAttachWhereTheyStand) {
    const auto doc = parse_ok("{lead}\n[Board \"Standard\"] {after header}\n"
                              "1.{after serial} e3 { a { b } c } Nf3{glued}(1b. e6 {in group})"
                              " {back at e3 Nf3} 1b. e5");
    ASSERT_TRUE(doc);
    ASSERT_EQ(doc->comments.size(), 2u);
    EXPECT_EQ(doc->comments[0].text, "lead");
    EXPECT_EQ(doc->comments[1].text, "after header");
    const Action& a = doc->nodes[1].action;
    ASSERT_EQ(a.moves.size(), 2u);
    ASSERT_EQ(a.comments.size(), 4u);
    EXPECT_EQ(a.comments[0].text, "after serial");
    EXPECT_EQ(a.comments[0].movesBefore, 0);
    EXPECT_EQ(a.comments[1].text, " a { b } c ");
    EXPECT_EQ(a.comments[1].movesBefore, 1);
    EXPECT_EQ(a.comments[1].pos, (SourcePos{3, 21}));
    EXPECT_EQ(a.comments[2].text, "glued");
    EXPECT_EQ(a.comments[2].movesBefore, 2);
    EXPECT_EQ(a.comments[3].text, "back at e3 Nf3");
    EXPECT_EQ(doc->nodes[2].action.comments[0].text, "in group");
}

TEST(Headers, KeptInOrderAndLookedUpIgnoringCase) {
    const auto doc = parse_ok("[Event \"Café ☕ [3]\"] [site \"\"]\n[Custom_Key \"x\"]\n"
                              "[Size \"5x4\"][Timelines \"even\"]\n");
    ASSERT_TRUE(doc);
    ASSERT_EQ(doc->headers.size(), 5u);
    EXPECT_EQ(doc->headers[0].value, "Café ☕ [3]");
    EXPECT_EQ(doc->headers[1].key, "site");
    EXPECT_EQ(doc->headers[1].pos, (SourcePos{1, 22}));
    EXPECT_EQ(doc->find_header("SITE"), &doc->headers[1]);
    EXPECT_EQ(doc->find_header("custom_key")->value, "x");
    EXPECT_EQ(doc->find_header("Round"), nullptr);
    EXPECT_EQ(doc->width, 5);
    EXPECT_EQ(doc->height, 4);
    EXPECT_EQ(doc->parity, Parity::EVEN);
}

TEST(Headers, Errors) {
    struct Case {
        const char* text;
        int         line, column;
        const char* cause;
    };
    const Case cases[] = {
        {"[Size \"8\"]", 1, 7, "`WxH`"},
        {"[Size \"9x8\"]", 1, 7, "larger than the 8x8 maximum"},
        {"[Timeline \"Both\"]", 1, 11, "`Odd` or `Even`, found `Both`"},
        {"[White \"a\"]\n[white \"b\"]", 2, 1, "duplicate header `white` (first given at 1:1)"},
        {"[Timeline \"Odd\"] [Timelines \"Odd\"]", 1, 18, "duplicate header"},
        {"[Event]", 1, 7, "expected a quoted value"},
        {"[ \"x\"]", 1, 2, "expected a header key"},
        {"[Event \"x\" junk]", 1, 12, "expected `]`"},
        {"[Event \"x", 1, 8, "not closed"},
    };
    for (const Case& c : cases) {
        const Diagnostic d = error_of(c.text);
        EXPECT_EQ(d.pos, (SourcePos{c.line, c.column})) << c.text << " -> " << d.to_string();
        EXPECT_NE(d.cause.find(c.cause), std::string::npos) << c.text << " -> " << d.to_string();
    }
}

TEST(Fen, BoardsParsedWithTheSize) {
    const auto doc = parse_ok("[Size \"5x5\"]\n[4k/5/5/5/K1R2:0:1:w][k*4/5/5/5/4K:-1:0:b]\n");
    ASSERT_TRUE(doc);
    ASSERT_EQ(doc->boards.size(), 2u);
    const FenBoard& b = doc->boards[0];
    EXPECT_EQ(b.line, (LineLabel{0, 0}));
    EXPECT_EQ(b.turn, 1);
    EXPECT_EQ(b.colour, movegen::WHITE);
    EXPECT_EQ(b.grid.width, 5);
    EXPECT_EQ(b.grid.piece[movegen::make_square(4, 4)],
        movegen::make_piece(movegen::BLACK, movegen::KING));
    EXPECT_EQ(b.grid.piece[movegen::make_square(2, 0)],
        movegen::make_piece(movegen::WHITE, movegen::ROOK));
    EXPECT_EQ(b.pos, (SourcePos{2, 1}));
    EXPECT_EQ(doc->boards[1].line, (LineLabel{1, '-'}));
    EXPECT_EQ(doc->boards[1].colour, movegen::BLACK);
    EXPECT_EQ(doc->boards[1].pos, (SourcePos{2, 22}));
    EXPECT_EQ(doc->parity, Parity::ODD); // from the `0` label
}

TEST(Fen, ParityOfZeroLabels) {
    auto doc = parse_ok("[8/8/8/8/8/8/8/8:-0:1:w]\n[8/8/8/8/8/8/8/8:+0:1:w]");
    ASSERT_TRUE(doc);
    EXPECT_EQ(doc->parity, Parity::EVEN);

    struct Case {
        const char* text;
        int         line, column;
        const char* cause;
    };
    const Case cases[] = {
        {"[Timeline \"Even\"]\n[8/8/8/8/8/8/8/8:0:1:w]", 2, 18, "write `-0` or `+0`"},
        {"[Timeline \"odd\"]\n[8/8/8/8/8/8/8/8:+0:1:w]", 2, 18, "`+0` in a game with odd"},
        {"[8/8/8/8/8/8/8/8:-0:1:w]\n[8/8/8/8/8/8/8/8:0:1:w]", 2, 18, "mixes odd and even"},
        {"[8/8/8/8/8/8/8/8:x:1:w]", 1, 18, "expected a timeline in 5DFEN, found `x`"},
        {"[8/8/8/8/8/8/8/8:0:1:w:x]", 1, 23, "more than 4 fields"},
        {"[8/8/8/8/8/8/8/8:0:1:w", 1, 1, "not closed by `]`"},
        {"[:0:1:w]", 1, 2, "no rows"},
        {"[8/8/8/8/8/8/8/7é:0:1:w]", 1, 17, "unexpected character"},
    };
    for (const Case& c : cases) {
        const Diagnostic d = error_of(c.text);
        EXPECT_EQ(d.pos, (SourcePos{c.line, c.column})) << c.text << " -> " << d.to_string();
        EXPECT_NE(d.cause.find(c.cause), std::string::npos) << c.text << " -> " << d.to_string();
    }
}

// A byte that is not UTF-8 is one character: it never swallows the delimiter after it (found by
// fuzzing: `[\xff[B...` read `\xff[B...` as a header key, which the writer then wrote back as
// a 5DFEN board). A broken lead byte, a truncated sequence and a valid one.
TEST(Diagnostics, InvalidUtf8NeverSwallowsADelimiter) {
    const Diagnostic d = error_of("[\xff[Bti---/---med \"ctm\"]\n");
    EXPECT_EQ(d.pos, (SourcePos{1, 3}));
    EXPECT_EQ(error_of("[K\xe2[Board \"x\"]\n").pos, (SourcePos{1, 4}));
    const auto ok = parse_ok("[K\xc3\xa9y \"v\"]\n[Board \"Standard\"]\n\n1. e3\n");
    ASSERT_TRUE(ok);
    EXPECT_EQ(ok->headers[0].key, "K\xc3\xa9y");
}

TEST(Diagnostics, StatusMessageAndPayload) {
    const auto doc = parse_document("[Board \"Standard\"]\n1. e3 )\n", "dir/x:y.5dpgn");
    ASSERT_FALSE(doc.ok());
    EXPECT_EQ(doc.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(std::string(doc.status().message()),
        "dir/x:y.5dpgn:2:7: unexpected `)`: no variation is open");
    const auto d = diagnostic_of(doc.status());
    ASSERT_TRUE(d);
    EXPECT_EQ(d->file, "dir/x:y.5dpgn");
    EXPECT_EQ(d->pos, (SourcePos{2, 7}));
    EXPECT_EQ(d->cause, "unexpected `)`: no variation is open");
    EXPECT_FALSE(diagnostic_of(absl::OkStatus()));
    EXPECT_FALSE(diagnostic_of(absl::InternalError("x")));
}

TEST(Diagnostics, ColumnsCountCodePointsAndSkipTheBom) {
    // é and ☕ are one column each; a BOM is no column at all.
    Diagnostic d = error_of("\xEF\xBB\xBF[Event \"é☕\"] )");
    EXPECT_EQ(d.pos, (SourcePos{1, 14}));
    d = error_of("1. e3\r\n/ e6 )");
    EXPECT_EQ(d.pos, (SourcePos{2, 6}));
}

TEST(TurnSerials, CheckedAgainstTheSideToMove) {
    auto doc = parse_ok("1. e3 (1b. e6 2. d3) 1b. d6 3. a3");
    ASSERT_TRUE(doc);
    const absl::Status s = check_turn_serials(*doc, "t", movegen::WHITE);
    EXPECT_EQ(std::string(s.message()), "t:1:29: turn serial `3.` should be `2w.` (or `/`) here");

    doc = parse_ok("1b. e6 2. e3 / e5 3w. a3");
    ASSERT_TRUE(doc);
    EXPECT_TRUE(check_turn_serials(*doc, "t", movegen::BLACK).ok());
    EXPECT_FALSE(check_turn_serials(*doc, "t", movegen::WHITE).ok());

    doc = parse_ok("/ e3 / e6 / d3"); // `/` is "the next sub-turn", also for White
    ASSERT_TRUE(doc);
    EXPECT_TRUE(check_turn_serials(*doc, "t", movegen::WHITE).ok());
}

// ---------------------------------------------------------------------------------------------
// Scale: the parser keeps its own stack, so depth costs heap, not call stack. That its time
// stays linear is measured in bench/notation (BM_ParseNested, BM_ParseLong: O(N)), not here:
// a loaded machine must not fail a correct test (a quadratic parser would still run into
// ctest's timeout at these sizes).

std::string serial_for(int i) { return std::to_string(i / 2 + 1) + (i % 2 ? "b." : "w."); }

TEST(Scale, DeeplyNestedVariations) {
    for (const int depth : {5000, 100000}) {
        std::string text;
        for (int i = 0; i < depth; ++i) {
            text += '(';
            text += serial_for(i);
            text += " e3 ";
        }
        text += std::string(std::size_t(depth), ')');
        const auto doc = parse_document(text, "deep");
        ASSERT_TRUE(doc.ok()) << doc.status();
        ASSERT_EQ(doc->nodes.size(), std::size_t(depth) + 1);
        EXPECT_EQ(doc->nodes.back().ply, depth);
        EXPECT_EQ(doc->nodes.back().parent, depth - 1);
    }
}

TEST(Scale, LongMainLine) {
    std::string text    = "[Board \"Standard\"]\n";
    const int   actions = 100000;
    for (int i = 0; i < actions; i += 2)
        text += std::to_string(i / 2 + 1) + ". (0T" + std::to_string(i / 2 + 1) + ")Ng1f3 / Nf6 ";
    const auto doc = parse_document(text, "long");
    ASSERT_TRUE(doc.ok()) << doc.status();
    ASSERT_EQ(doc->nodes.size(), std::size_t(actions) + 1);
    EXPECT_TRUE(check_turn_serials(*doc, "long", movegen::WHITE).ok());
}

TEST(Scale, DeeplyNestedCommentsAndErrorsDeepDown) {
    const std::size_t depth = 200000;
    std::string       text  = "1. e3 " + std::string(depth, '{') + std::string(depth, '}');
    auto              doc   = parse_document(text, "c");
    ASSERT_TRUE(doc.ok()) << doc.status();
    EXPECT_EQ(doc->nodes[1].action.comments[0].text.size(), 2 * depth - 2);

    // An unclosed group under 100000 others: reported at the innermost `(`.
    text.clear();
    for (int i = 0; i < 100000; ++i) {
        text += '(';
        text += serial_for(i);
        text += " e3\n";
    }
    doc = parse_document(text, "c");
    ASSERT_FALSE(doc.ok());
    EXPECT_EQ(diagnostic_of(doc.status())->pos, (SourcePos{100000, 1}));
}

} // namespace
} // namespace fived::notation
