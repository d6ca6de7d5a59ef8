// The canonical writer (notation/writer.h), 5DFEN output and Shad's MD5 hash.
//
// Round trips: parse(write(tree)) == tree, in both move styles, for every valid corpus file,
// every puzzle file (tests/data, and ../shared for Shared/*) and random trees of legal play (jumps,
// branching, several moves per action, even timelines, turn zero). Some puzzles carry the spelling
// errors listed in
// ../shared/puzzles/INDEX.md ("Notation problems in sources"): they are read with the matching
// ReadOptions check turned off, and the round trip then re-reads the writer's output with the
// strict options (the writer spells those moves correctly).

#include <algorithm>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "movegen/variants.h"
#include "notation/fen.h"
#include "notation/parser.h"
#include "notation/reader.h"
#include "notation/writer.h"
#include "tests/notation/random_actions.h"
#include "tests/notation/test_files.h"
#include "tests/notation/tree_gen.h"

namespace fived::notation {
namespace {

using namespace testing_files;
using testing_gen::variant_start;

GameTree empty_tree(movegen::Multiverse start) { return GameTree(std::move(start)); }

// Writes `tree` in `style`, reads it back (with `opt`) and compares; also checks that writing
// the re-read tree gives the same text (the canonical form is a fixed point).
void expect_round_trip(
    const GameTree& tree, MoveStyle style, const ReadOptions& opt, const std::string& what) {
    const std::string       text = write_tree(tree, style);
    std::vector<Diagnostic> errors;
    const auto              back = read_game_tree(text, what, opt, errors);
    ASSERT_TRUE(back) << what << ": " << errors.front().to_string() << "\n" << text;
    std::string why;
    EXPECT_TRUE(same_tree(tree, *back, &why)) << what << ": " << why << "\n" << text;
    EXPECT_EQ(write_tree(*back, style), text) << what;
}

// ---------------------------------------------------------------------------------------------
// The example of NOTATION.md §7, byte for byte.

TEST(Writer, NotationSection7Example) {
    const auto path = corpus_path("valid/results-in-tree.5dpgn");
    auto       tree = read_game_tree(read_file(path), "results-in-tree");
    ASSERT_TRUE(tree.ok()) << tree.status();
    tree->nodes[0].comment.clear(); // the corpus header comment
    EXPECT_EQ(write_tree(*tree),
        "[Board \"Custom\"]\n"
        "[Mode \"5D\"]\n"
        "[Size \"5x5\"]\n"
        "[Timeline \"Odd\"]\n"
        "[Puzzle \"mate-in-1\"]\n"
        "[4k/5/5/5/K1R2:0:1:w]\n"
        "\n"
        "1w. (0T1)Ka1b2 / (0T1)Ke5e4\n"
        "2. (0T2)Rc1e1\n"
        "(2b. (0T2)Ke4d5\n"
        " 3. (0T3)Kb2c3 1/2-1/2)\n"
        "2b. (0T2)Ke4d3\n"
        "3. (0T3)Re1e5# 1-0\n");
    EXPECT_EQ(write_tree(*tree, MoveStyle::SHORT),
        "[Board \"Custom\"]\n"
        "[Mode \"5D\"]\n"
        "[Size \"5x5\"]\n"
        "[Timeline \"Odd\"]\n"
        "[Puzzle \"mate-in-1\"]\n"
        "[4k/5/5/5/K1R2:0:1:w]\n"
        "\n"
        "1w. Kb2 / Ke4\n"
        "2. Re1\n"
        "(2b. Kd5\n"
        " 3. Kc3 1/2-1/2)\n"
        "2b. Kd3\n"
        "3. Re5# 1-0\n");
}

// ---------------------------------------------------------------------------------------------
// Round trips of the corpus.

class ValidRoundTrip : public testing::TestWithParam<std::string> { };

TEST_P(ValidRoundTrip, BothStyles) {
    const std::string name = stem(GetParam());
    ReadOptions       opt;
    // The illegal `(2b. d5)` variation copied from ftxi's texts (KingSafety, reader_test.cpp).
    if (illegal_d5_text(name)) opt.checkKingSafety = false;
    std::vector<Diagnostic> errors;
    const std::string       text = read_file(corpus_path("valid/" + GetParam()));
    const auto              tree = read_game_tree(text, name, opt, errors);
    if (!tree) {
        // A file the corpus marks `syntax only` or `replay needs ...` (its README's errata) has
        // no complete position, so it cannot be replayed: its syntax must still read, and no
        // other file may fail to replay.
        ASSERT_FALSE(errors.empty());
        const bool syntaxOnly = text.find("syntax only") != std::string::npos
            || text.find("replay needs") != std::string::npos;
        ASSERT_TRUE(syntaxOnly) << "does not replay: " << errors.front().to_string();
        const auto doc = parse_document(text, name);
        EXPECT_TRUE(doc.ok()) << doc.status();
        return;
    }
    expect_round_trip(*tree, MoveStyle::FULL, opt, name + " (full)");
    expect_round_trip(*tree, MoveStyle::SHORT, opt, name + " (short)");
}

INSTANTIATE_TEST_SUITE_P(Data, ValidRoundTrip,
    testing::ValuesIn(testdata::data_files("notation-corpus/valid")), test_name);
INSTANTIATE_TEST_SUITE_P(Shared, ValidRoundTrip,
    testing::ValuesIn(testdata::shared_files("notation-corpus/valid")), test_name);

// Puzzles: the spelling errors INDEX.md lists, and the files a loader must reject.
struct PuzzleCase {
    ReadOptions opt;
    const char* rejection = nullptr; // substring of the expected first error
};

PuzzleCase puzzle_case(const std::string& name) {
    PuzzleCase c;
    // "a capture marker with nothing to capture (futures / tools-standard-checkmate-4, move 9)"
    if (name == "cwmtt-futures" || name == "tools-standard-checkmate-4")
        c.opt.checkCaptureMark = false;
    // "a non-branching jump written >> (rook-tactics-5x5-pawn-timeline)"
    if (name == "rook-tactics-5x5-pawn-timeline") c.opt.checkJumpIndicator = false;
    // the illegal (2b. d5) variation of ftxi's softmate game (KingSafety, reader_test.cpp)
    if (illegal_d5_text(name)) c.opt.checkKingSafety = false;
    // Positions in which the side NOT to move is attacked: White could capture a king
    // (adjacent kings in Narik's composition; (-1T1)Bd2>x(0T1)d1 in tricky-nonmate).
    if (name == "narik-evasion-mate" || name == "tools-tricky-nonmate")
        c.rejection = "5DFEN: the side not to move is in check";
    // INDEX.md: "A loader should REJECT the last move" (castling out of check).
    if (name == "tools-bitboard-white-castle-illegal") c.rejection = "no legal move matches `O-O`";
    // A pawn jump across two timelines that neither this engine nor ftxi generates (INDEX.md:
    // "ftxi rejects a pawn move in tools-reflected-checkmate").
    if (name == "tools-reflected-checkmate")
        c.rejection = "no legal move matches `(0T4)Ph6>(2T4)h6`";
    return c;
}

class PuzzleRoundTrip : public testing::TestWithParam<std::string> { };

TEST_P(PuzzleRoundTrip, BothStyles) {
    const std::string       name = stem(GetParam());
    const PuzzleCase        c    = puzzle_case(name);
    std::vector<Diagnostic> errors;
    const auto              tree =
        read_game_tree(read_file(path_of("puzzles/" + GetParam())), name, c.opt, errors);
    if (c.rejection) {
        ASSERT_FALSE(tree) << name << " was accepted";
        EXPECT_NE(errors.front().cause.find(c.rejection), std::string::npos)
            << errors.front().to_string();
        return;
    }
    ASSERT_TRUE(tree) << errors.front().to_string();
    ReadOptions back      = c.opt; // the writer fixes capture marks and jump indicators
    back.checkCaptureMark = back.checkJumpIndicator = true;
    expect_round_trip(*tree, MoveStyle::FULL, back, name + " (full)");
    expect_round_trip(*tree, MoveStyle::SHORT, back, name + " (short)");
}

INSTANTIATE_TEST_SUITE_P(
    Data, PuzzleRoundTrip, testing::ValuesIn(testdata::data_files("puzzles")), test_name);
INSTANTIATE_TEST_SUITE_P(
    Shared, PuzzleRoundTrip, testing::ValuesIn(testdata::shared_files("puzzles")), test_name);

// ---------------------------------------------------------------------------------------------
// Round trips of random legal play.

struct RandomCase {
    const char* variant;
    int         nodes, depth;
};

class RandomRoundTrip : public testing::TestWithParam<int> { };

TEST_P(RandomRoundTrip, BothStyles) {
    static const RandomCase cases[] = {
        {"Standard", 300, 24},
        {"Standard - Two Timelines", 200, 14},
        {"Standard - Turn Zero", 200, 18},
        {"Very Small - Open", 300, 30},
        {"Timeline Invasion", 200, 16},
        {"Small - Open", 300, 24},
    };
    for (const RandomCase& rc : cases) {
        if (!movegen::find_variant(rc.variant)) continue; // names follow movegen/variants.cpp
        GameTree               tree = empty_tree(variant_start(rc.variant));
        testing_gen::TreeShape shape;
        shape.maxNodes   = rc.nodes;
        shape.maxDepth   = rc.depth;
        shape.branchProb = 0.35;
        shape.seed       = std::uint64_t(GetParam()) * 7919 + 17;
        testing_gen::random_tree(tree, shape);
        const std::string what = std::string(rc.variant) + " seed " + std::to_string(GetParam());
        expect_round_trip(tree, MoveStyle::FULL, ReadOptions{}, what + " (full)");
        expect_round_trip(tree, MoveStyle::SHORT, ReadOptions{}, what + " (short)");
    }
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomRoundTrip, testing::Range(1, 7));

// ---------------------------------------------------------------------------------------------
// Size and depth: no recursion anywhere, linear behaviour.

TEST(Writer, HundredThousandNodes) {
    // A main line of 1,250 actions, two side variations of 40 actions at every node.
    GameTree tree = empty_tree(variant_start("Standard"));
    testing_gen::knight_shuffle_tree(tree, 1250, 2, 40);
    ASSERT_GE(tree.nodes.size(), 100000u);
    expect_round_trip(tree, MoveStyle::FULL, ReadOptions{}, "100k nodes");
}

TEST(Writer, DeeplyNestedVariations) {
    // Every node has two children: the first (a parenthesised side variation) continues, the
    // last (the main line) is a leaf; 2,000 groups nest inside each other.
    GameTree flat = empty_tree(variant_start("Standard"));
    testing_gen::knight_shuffle_tree(flat, 2000, 1, 1);
    GameTree tree = empty_tree(variant_start("Standard"));
    tree.nodes    = flat.nodes;
    for (TreeNode& n : tree.nodes)
        if (n.children.size() == 2) std::swap(n.children[0], n.children[1]);
    expect_round_trip(tree, MoveStyle::FULL, ReadOptions{}, "nested (full)");
    expect_round_trip(tree, MoveStyle::SHORT, ReadOptions{}, "nested (short)");
    const std::string text = write_tree(tree);
    EXPECT_EQ(std::count(text.begin(), text.end(), '('), 3 * 2000); // 2,000 groups, 4,000 boards
    EXPECT_EQ(std::count(text.begin(), text.end(), ')'), 3 * 2000);
    EXPECT_NE(text.find("\n" + std::string(32, ' ') + "(40w."), std::string::npos);
    EXPECT_EQ(text.find(std::string(33, ' ')), std::string::npos); // indentation capped
}

// ---------------------------------------------------------------------------------------------
// Headers, marks, comments as a solver writes them.

TEST(Writer, HeadersMarksAndCommentsOfASolverTree) {
    // Rook Tactics I (RULES.md §5.2): 1. Kb2 / Ke4 2. Re1 / Kd3 3. Re5#
    auto read = read_game_tree("[Size \"5x5\"]\n[Board \"custom\"]\n[4k/5/5/5/K1R2:0:1:w]\n"
                               "1. Kb2 / Ke4\n2. Re1 / Kd3\n3. Re5\n",
        "rook");
    ASSERT_TRUE(read.ok()) << read.status();
    GameTree tree         = std::move(*read);
    tree.headers          = {{"Prelude", "2"}, {"Puzzle", "mate-in-1"}, {"Board", "ignored"},
                 {"White", "W \"Q\" name"}, {"Event", "E"}};
    tree.nodes[1].comment = "a {nested} comment";
    annotate_tree(tree); // the last leaf is mate: mark and result
    EXPECT_EQ(tree.nodes.back().mark, Mark::CHECKMATE);
    EXPECT_EQ(tree.nodes.back().result, Outcome::WHITE_WINS);
    EXPECT_EQ(write_tree(tree),
        "[Event \"E\"]\n"
        "[White \"W 'Q' name\"]\n"
        "[Board \"Custom\"]\n"
        "[Mode \"5D\"]\n"
        "[Size \"5x5\"]\n"
        "[Timeline \"Odd\"]\n"
        "[Puzzle \"mate-in-1\"]\n"
        "[Prelude \"2\"]\n"
        "[4k/5/5/5/K1R2:0:1:w]\n"
        "\n"
        "1w. (0T1)Ka1b2 {a (nested) comment} / (0T1)Ke5e4\n"
        "2. (0T2)Rc1e1 / (0T2)Ke4d3\n"
        "3. (0T3)Re1e5# 1-0\n");
    tree.headers          = canonical_headers(tree.headers); // what the reader stores
    tree.nodes[1].comment = "a (nested) comment";            // and how it stores comments
    expect_round_trip(tree, MoveStyle::FULL, ReadOptions{}, "solver tree");

    // Fool's mate is no mate in 5D chess: every answer to 2...Qh4 travels back in time, so the
    // engine marks it a softmate (`*`), which decides nothing.
    auto fool = read_game_tree("1. f3 / e6\n2. g4 / Qh4#\n", "fool");
    ASSERT_TRUE(fool.ok()) << fool.status();
    annotate_tree(*fool);
    EXPECT_EQ(fool->nodes.back().mark, Mark::SOFTMATE);
    EXPECT_EQ(fool->nodes.back().result, Outcome::NONE);
    EXPECT_NE(write_tree(*fool).find("(0T2)Qd8h4*\n"), std::string::npos) << write_tree(*fool);
}

TEST(Writer, EmptyTreesAndRootResults) {
    GameTree tree = empty_tree(variant_start("Standard - Two Timelines"));
    EXPECT_EQ(write_tree(tree),
        "[Board \"Standard - Two Timelines\"]\n[Mode \"5D\"]\n"
        "[Size \"8x8\"]\n[Timeline \"Even\"]\n");
    tree.nodes[0].result = Outcome::DRAW;
    expect_round_trip(tree, MoveStyle::FULL, ReadOptions{}, "root result");
    // A custom start: 5DFEN of the initial boards, even labels -0/+0.
    auto custom = read_game_tree("[Board \"custom\"]\n[Timeline \"Even\"]\n"
                                 "[4k/5/5/5/K1R2:-0:1:w]\n[4k/5/5/5/K1R2:+0:1:w]\n[Size \"5x5\"]\n",
        "custom");
    ASSERT_TRUE(custom.ok()) << custom.status();
    EXPECT_EQ(write_tree(*custom),
        "[Board \"Custom\"]\n[Mode \"5D\"]\n[Size \"5x5\"]\n"
        "[Timeline \"Even\"]\n"
        "[4k/5/5/5/K1R2:-0:1:w]\n[4k/5/5/5/K1R2:+0:1:w]\n");
}

TEST(Writer, ShortFormsResolveBack) {
    // Shortened moves as a person writes them, each the shortest the reader resolves back.
    const std::string text = "[Board \"Standard\"]\n"
                             "1. Nf3 / Nf6\n2. d3 / d6\n3. e3 / e6\n4. Nbd2 / Nbd7\n"
                             "5. e4 / d5\n6. exd5 / exd5\n";
    auto              tree = read_game_tree(text, "short");
    ASSERT_TRUE(tree.ok()) << tree.status();
    const std::string out = write_tree(*tree, MoveStyle::SHORT);
    EXPECT_NE(out.find("1w. Nf3 / Nf6\n2. d3 / d6\n3. e3 / e6\n4. Nbd2 / Nbd7\n"
                       "5. e4 / d5\n6. exd5 / exd5\n"),
        std::string::npos)
        << out;
    // A time-travel capture on a second timeline: the board is needed, the jump keeps `>>`.
    const std::string sac = "[Board \"Standard\"]\n1. e3 / Nf6\n2. Bb5 / c6\n3. c3 / cxb5\n"
                            "4. Qb3 / Qa5\n5. Q>>xf7+ / (1T1)Kxf7\n6. (1T2)Nh3 / (1T2)e6\n";
    tree                  = read_game_tree(sac, "sac");
    ASSERT_TRUE(tree.ok()) << tree.status();
    const std::string s = write_tree(*tree, MoveStyle::SHORT);
    EXPECT_NE(s.find("5. Q>>xf7 / Kxf7\n6. Nh3 / (L1)e6"), std::string::npos) << s;
    expect_round_trip(*tree, MoveStyle::SHORT, ReadOptions{}, "sac");
}

// ---------------------------------------------------------------------------------------------
// 5DFEN and Shad's MD5 hash (seed 001, "Hashing": the two example digests).

TEST(Hash, ShadExamples) {
    EXPECT_EQ(md5_hex(""), "d41d8cd98f00b204e9800998ecf8427e");
    EXPECT_EQ(md5_hex("[r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*:0:1:w]"),
        "d574889fd9da3f2bc65249ff27249b00");
    const movegen::Multiverse standard = variant_start("Standard");
    EXPECT_EQ(fen_of(standard),
        "[r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*:0:1:w]\n");
    EXPECT_EQ(state_hash(standard), "d574889fd9da3f2bc65249ff27249b00");
    EXPECT_EQ(board_hash(standard, 0, 2), "d574889fd9da3f2bc65249ff27249b00");
    const movegen::Multiverse two = variant_start("Standard - Two Timelines");
    EXPECT_EQ(state_hash(two), "3672761404ffcd15ae644c75401812be");
    EXPECT_EQ(fen_of(two),
        "[r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*:-0:1:w]\n"
        "[r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*:+0:1:w]\n");
}

TEST(Hash, FinalPositionOfAGame) {
    auto game = load_game("1. e3 / e6\n", "g");
    ASSERT_TRUE(game.ok()) << game.status();
    movegen::Multiverse            mv = game->start.fork();
    std::vector<movegen::MoveUndo> undo;
    play_main_line(mv, *game, game->mainLine.size(), undo);
    const std::string fen = fen_of(mv);
    EXPECT_EQ(fen,
        "[r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*:0:1:w]\n"
        "[r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/4P3/P*P*P*P*1P*P*P*/R*NBQK*BNR*:0:1:b]\n"
        "[r*nbqk*bnr*/p*p*p*p*1p*p*p*/4p3/8/8/4P3/P*P*P*P*1P*P*P*/R*NBQK*BNR*:0:2:w]\n");
    std::string joined;
    for (char c : fen)
        if (c != '\n') joined += c;
    EXPECT_EQ(state_hash(mv), md5_hex(joined));
}

} // namespace
} // namespace fived::notation
