// The syntax layer against the notation corpus (valid/, invalid/, optional/) and the puzzles:
// the copies in tests/data (instantiations `Data`) and the files that stay in ../shared
// (instantiations `Shared`, ctest label `shared`); see tests/test_data.h.
//
// The corpus files state their stage (`expect: reject (syntax): ...`) but not the position of
// the error, so the positions below were read off the files by hand: each one is the first
// character of the offending token. A new non-semantic invalid file without an entry fails the
// test on purpose, so that its position gets decided.

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "notation/parser.h"
#include "tests/test_data.h"

namespace fived::notation {
namespace {

namespace fs = std::filesystem;

using testdata::read_file;

// The path of a corpus file, `folder` being valid, invalid or optional.
fs::path corpus_file(const std::string& folder, const std::string& name) {
    return testdata::locate("notation-corpus/" + folder + "/" + name);
}

// The stage of an invalid file: what stands in `expect: reject (STAGE):`.
std::string expected_stage(const std::string& text) {
    const std::string key = "expect: reject (";
    const auto        at  = text.find(key);
    if (at == std::string::npos) return "";
    const auto end = text.find(')', at + key.size());
    return text.substr(at + key.size(), end - at - key.size());
}

std::string test_name(const testing::TestParamInfo<std::string>& info) {
    std::string n = info.param.substr(0, info.param.find('.'));
    for (char& c : n)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return n;
}

// First serial of the record decides who moves first, for check_turn_serials.
movegen::Color first_to_move(const Document& doc) {
    const Node& root = doc.root();
    if (root.children.empty()) return movegen::WHITE;
    return doc.nodes[root.children.front()].action.serial.colour == 'b' ? movegen::BLACK
                                                                        : movegen::WHITE;
}

// ---------------------------------------------------------------------------------------------
// valid/: every file parses, and its turn serials agree with the side that moves first.

class ValidCorpus : public testing::TestWithParam<std::string> { };

TEST_P(ValidCorpus, Parses) {
    const auto path = corpus_file("valid", GetParam());
    const auto doc  = parse_document(read_file(path), path.string());
    ASSERT_TRUE(doc.ok()) << doc.status();
    EXPECT_GE(doc->nodes.size(), 1u);
    EXPECT_TRUE(check_turn_serials(*doc, GetParam(), first_to_move(*doc)).ok());
}

INSTANTIATE_TEST_SUITE_P(
    Data, ValidCorpus, testing::ValuesIn(testdata::data_files("notation-corpus/valid")), test_name);
INSTANTIATE_TEST_SUITE_P(Shared, ValidCorpus,
    testing::ValuesIn(testdata::shared_files("notation-corpus/valid")), test_name);

// ---------------------------------------------------------------------------------------------
// invalid/: lexical, syntax and 5DFEN errors are ours, at the given position; semantic ones
// must pass this layer.

struct ExpectedError {
    int         line;
    int         column;
    const char* cause; // a substring of the cause
};

const std::map<std::string, ExpectedError>& expected_errors() {
    static const std::map<std::string, ExpectedError> table = {
        {"board-coordinate-unclosed", {7, 4, "`(0T1` is not closed by `)`"}},
        {"check-mark-doubled", {8, 7, "`++` is not a check or mate mark"}},
        {"comment-stray-close", {7, 7, "unexpected `}`"}},
        {"comment-unterminated", {7, 7, "unterminated comment starting here"}},
        {"fen-bad-colour", {8, 20, "colour must be `w` or `b`, found `x`"}},
        {"fen-linebreak-seed000", {10, 66, "line break inside a 5DFEN board"}},
        {"fen-missing-field", {8, 19, "only 3 fields"}},
        {"fen-missing-pawn", {9, 28, "row 2 has 7 squares"}},
        {"fen-missing-size-header", {8, 4, "row 1 has 5 squares"}},
        {"fen-non-numeric-turn", {8, 18, "found `T1`"}},
        {"fen-row-too-long", {8, 4, "more than 5 squares"}},
        {"fen-row-too-short-seed000", {10, 22, "row 2 has 5 squares"}},
        {"fen-space-in-block", {8, 16, "whitespace inside a 5DFEN board"}},
        {"fen-too-many-rows", {9, 57, "more than 8 rows"}},
        {"fen-unknown-piece-letter", {8, 13, "`X`"}},
        {"fen-zero-blank", {8, 14, "at least 1"}},
        {"first-action-without-serial", {7, 1, "expected a turn serial before move `e3`"}},
        {"header-after-moves", {8, 1, "unexpected `[`"}},
        {"header-no-space", {6, 6, "missing whitespace"}},
        {"header-unclosed-quote", {6, 8, "not closed by `\"`"}},
        {"header-unterminated", {7, 1, "expected `]` to close header `Event`, found `[`"}},
        {"header-without-quotes", {6, 7, "double quotes, found `5x5`"}},
        {"jump-missing-target", {11, 14, "expected the destination square"}},
        {"jump-triple-chevron", {11, 12, "`>>>` is not a jump indicator"}},
        {"move-comment-inside", {11, 9, "comment inside a move"}},
        {"move-file-beyond-h", {7, 4, "unknown file `i`"}},
        {"move-lowercase-piece", {7, 4, "piece letters are upper case"}},
        {"move-negative-turn", {7, 7, "`-1`"}},
        {"move-rank-out-of-range", {7, 5, "rank `9` does not exist"}},
        {"move-rank-zero", {7, 5, "rank `0` does not exist"}},
        {"move-unknown-piece", {7, 4, "unknown piece letter `Z`"}},
        {"move-uppercase-file", {7, 4, "file `E` must be written in lower case"}},
        {"paren-empty-variation", {7, 7, "empty variation `()`"}},
        {"paren-extra-close", {7, 12, "unexpected `)`"}},
        {"paren-unclosed-variation", {9, 1, "variation `(` is never closed"}},
        {"promotion-missing-piece", {12, 8, "promotion `=` without a piece letter"}},
        {"result-then-moves", {8, 1, "`2.` after a result"}},
        {"result-unknown-token", {7, 12, "`1/2` is not a result"}},
        {"triple-dot-black", {8, 1, "`1...` is not a turn serial"}},
        {"variation-without-turn-serial", {7, 8, "must start with a turn serial, found `e4`"}},
    };
    return table;
}

class InvalidCorpus : public testing::TestWithParam<std::string> { };

TEST_P(InvalidCorpus, RejectedAtItsStage) {
    const auto        path  = corpus_file("invalid", GetParam());
    const std::string text  = read_file(path);
    const std::string stage = expected_stage(text);
    const std::string name  = GetParam().substr(0, GetParam().find('.'));
    const auto        doc   = parse_document(text, GetParam());

    if (stage == "semantic") {
        // Found later, by move resolution and replay: this layer must let it through.
        EXPECT_TRUE(doc.ok()) << doc.status();
        return;
    }
    ASSERT_TRUE(stage == "lexical" || stage == "syntax" || stage == "5DFEN") << stage;
    ASSERT_FALSE(doc.ok()) << GetParam() << " was accepted";
    const auto d = diagnostic_of(doc.status());
    ASSERT_TRUE(d) << doc.status();
    const auto it = expected_errors().find(name);
    ASSERT_NE(it, expected_errors().end())
        << "no expected position for " << name << "; the parser says " << doc.status();
    EXPECT_EQ(d->file, GetParam());
    EXPECT_EQ(d->pos.line, it->second.line) << doc.status();
    EXPECT_EQ(d->pos.column, it->second.column) << doc.status();
    EXPECT_NE(d->cause.find(it->second.cause), std::string::npos) << doc.status();
    EXPECT_EQ(std::string(doc.status().message()), d->to_string());
}

INSTANTIATE_TEST_SUITE_P(Data, InvalidCorpus,
    testing::ValuesIn(testdata::data_files("notation-corpus/invalid")), test_name);
INSTANTIATE_TEST_SUITE_P(Shared, InvalidCorpus,
    testing::ValuesIn(testdata::shared_files("notation-corpus/invalid")), test_name);

// The two semantic errors that are about turn serials are caught by check_turn_serials() once
// the side to move is known.
TEST(InvalidCorpus, TurnNumbersCheckedOnceTheSideToMoveIsKnown) {
    for (const char* name :
        {"invalid/turn-number-skipped.5dpgn", "optional/turn-number-repeated-aivsai.5dpgn"}) {
        const auto path = testdata::locate(std::string("notation-corpus/") + name);
        const auto doc  = parse_document(read_file(path), name);
        ASSERT_TRUE(doc.ok()) << doc.status();
        const absl::Status s = check_turn_serials(*doc, name, movegen::WHITE);
        ASSERT_FALSE(s.ok()) << name;
        const auto d = diagnostic_of(s);
        ASSERT_TRUE(d);
        EXPECT_NE(d->cause.find("should be"), std::string::npos) << s;
    }
}

// ---------------------------------------------------------------------------------------------
// optional/: the decision taken for each file (see the table in the corpus README).

struct OptionalDecision {
    bool accept;
    int  line = 0, column = 0; // when rejected
};

const std::map<std::string, OptionalDecision>& optional_decisions() {
    static const std::map<std::string, OptionalDecision> table = {
        {"comment-brace-inside", {false, 8, 7}},          // comments nest (B 4.8)
        {"evaluation-symbol-nonstandard", {false, 7, 6}}, // only ! ? !! ?? !? ?!
        {"fen-multi-digit-blank-10x10", {false, 7, 7}},   // Size above 8x8, at the header
        {"fen-plus-prefixed-piece", {false, 9, 13}},      // unknown piece +R
        {"fen-unmoved-marker-on-queen", {false, 9, 13}},  // * only on P W K R
        {"header-duplicate-key", {false, 7, 1}}, {"header-escaped-quote", {true}}, // \" unescaped
        {"headers-after-5dfen", {true}},
        {"last-action-not-submittable", {true}}, // semantic: replay decides
        {"piece-aliases-deprecated-br", {true}}, // BR = W, with a warning
        {"raw-export-proposal-seed001", {false, 8, 1}},
        {"raw-notation-proposal-seed002", {false, 7, 1}}, {"relative-board-ftxi", {false, 11, 8}},
        {"semicolon-line-comment", {false, 7, 7}},
        {"turn-number-repeated-aivsai", {true}}, // check_turn_serials rejects it
    };
    return table;
}

class OptionalCorpus : public testing::TestWithParam<std::string> { };

TEST_P(OptionalCorpus, FollowsTheDecision) {
    const std::string name = GetParam().substr(0, GetParam().find('.'));
    const auto        it   = optional_decisions().find(name);
    ASSERT_NE(it, optional_decisions().end()) << "no decision recorded for " << name;
    const auto doc = parse_document(read_file(corpus_file("optional", GetParam())), GetParam());
    if (it->second.accept) {
        EXPECT_TRUE(doc.ok()) << doc.status();
        return;
    }
    ASSERT_FALSE(doc.ok());
    const auto d = diagnostic_of(doc.status());
    ASSERT_TRUE(d);
    EXPECT_EQ(d->pos.line, it->second.line) << doc.status();
    EXPECT_EQ(d->pos.column, it->second.column) << doc.status();
}

INSTANTIATE_TEST_SUITE_P(Data, OptionalCorpus,
    testing::ValuesIn(testdata::data_files("notation-corpus/optional")), test_name);
INSTANTIATE_TEST_SUITE_P(Shared, OptionalCorpus,
    testing::ValuesIn(testdata::shared_files("notation-corpus/optional")), test_name);

TEST(OptionalCorpus, AcceptedExtensionsKeepTheirMeaning) {
    const auto escaped = corpus_file("optional", "header-escaped-quote.5dpgn");
    auto       doc     = parse_document(read_file(escaped), "e");
    ASSERT_TRUE(doc.ok()) << doc.status();
    ASSERT_NE(doc->find_header("event"), nullptr);
    EXPECT_EQ(doc->find_header("event")->value, "The \"Big\" Open");

    doc = parse_document(read_file(corpus_file("optional", "headers-after-5dfen.5dpgn")), "h");
    ASSERT_TRUE(doc.ok()) << doc.status();
    EXPECT_EQ(doc->width, 5); // the Size header after the board still applies to it
    ASSERT_EQ(doc->boards.size(), 1u);
    EXPECT_EQ(doc->boards[0].grid.width, 5);

    doc = parse_document(
        read_file(corpus_file("optional", "piece-aliases-deprecated-br.5dpgn")), "b");
    ASSERT_TRUE(doc.ok()) << doc.status();
    const Move& m = doc->nodes[1].action.moves[0];
    EXPECT_EQ(m.piece, movegen::BRAWN);
    EXPECT_EQ(m.alias, PieceAlias::BR);
    EXPECT_FALSE(doc->warnings.empty());
}

// ---------------------------------------------------------------------------------------------
// The puzzles: Shad-style main lines with long header values and trailing comments.

class PuzzleFiles : public testing::TestWithParam<std::string> { };

TEST_P(PuzzleFiles, Parse) {
    const auto path = testdata::locate("puzzles/" + GetParam());
    const auto doc  = parse_document(read_file(path), path.string());
    ASSERT_TRUE(doc.ok()) << doc.status();
    EXPECT_TRUE(check_turn_serials(*doc, GetParam(), first_to_move(*doc)).ok());
}

INSTANTIATE_TEST_SUITE_P(
    Data, PuzzleFiles, testing::ValuesIn(testdata::data_files("puzzles")), test_name);
INSTANTIATE_TEST_SUITE_P(
    Shared, PuzzleFiles, testing::ValuesIn(testdata::shared_files("puzzles")), test_name);

// ---------------------------------------------------------------------------------------------
// Robustness: every prefix of every valid file (strided) and single-byte corruptions either
// parse or fail with a positioned diagnostic; nothing crashes or hangs (run under ASan/UBSan
// in the debug preset).

// The number of texts parsed (prefixes and corruptions of the valid files `names`).
std::size_t prefixes_and_corruptions(const std::vector<std::string>& names) {
    const std::string noise  = "(){}[]/.:xX0123456789-+#*~!?>=\"\\ \nOoTLwbKQ";
    std::size_t       parsed = 0;
    for (const std::string& name : names) {
        const std::string text = read_file(corpus_file("valid", name));
        for (std::size_t cut = 0; cut <= text.size(); cut += 13) {
            const auto doc = parse_document(std::string_view(text).substr(0, cut), name);
            if (!doc.ok()) {
                EXPECT_TRUE(diagnostic_of(doc.status())) << doc.status();
            }
            ++parsed;
        }
        for (std::size_t at = 0; at < text.size(); at += 29) {
            std::string broken = text;
            broken[at]         = noise[(at * 7 + name.size()) % noise.size()];
            const auto doc     = parse_document(broken, name);
            if (!doc.ok()) {
                EXPECT_TRUE(diagnostic_of(doc.status())) << doc.status();
            }
            ++parsed;
        }
    }
    return parsed;
}

TEST(CorpusRobustness, PrefixesAndCorruptionsNeverCrash) {
    EXPECT_GT(prefixes_and_corruptions(testdata::data_files("notation-corpus/valid")), 1000u);
}

TEST(SharedCorpusRobustness, PrefixesAndCorruptionsNeverCrash) {
    EXPECT_GT(prefixes_and_corruptions(testdata::shared_files("notation-corpus/valid")), 1000u);
}

} // namespace
} // namespace fived::notation
