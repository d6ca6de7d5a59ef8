// The line between tests/data and ../shared (tests/test_data.h, scripts/sync-test-data.sh):
// no GPL/AGPL text is copied into the repository, every copied file has its notice, and (with
// ../shared, label `shared`) the copies and the list together are exactly ../shared's files,
// byte for byte.

#include <set>
#include <string>

#include <gtest/gtest.h>

#include "tests/test_data.h"

namespace fived::testdata {
namespace {

const char* const Folders[] = {
    "notation-corpus/valid", "notation-corpus/invalid", "notation-corpus/optional", "puzzles"};

// Where a copied file's text comes from: the corpus's `source:` line or the first [Source].
std::string source_of(const std::string& text) {
    const auto corpus = text.find(" source:");
    const auto puzzle = text.find("[Source \"");
    const auto at     = corpus < puzzle ? corpus : puzzle;
    if (at == std::string::npos) return "";
    return text.substr(at, text.find('\n', at) - at);
}

TEST(TestData, NoGplOrAgplTextIsCopied) {
    int files = 0;
    for (const char* folder : Folders)
        for (const std::string& name : data_files(folder)) {
            const std::string rel    = std::string(folder) + "/" + name;
            const std::string source = source_of(read_file(DataDir / rel));
            EXPECT_FALSE(source.empty()) << rel << " does not say where it comes from";
            for (const char* gpl : {"cwmtt", "5d-chess-js", "alexbay218", "Narik", "chess-in-5d"})
                EXPECT_EQ(source.find(gpl), std::string::npos) << rel << ": " << source;
            EXPECT_FALSE(is_shared_only(rel)) << rel << " is both copied and listed";
            ++files;
        }
    EXPECT_GT(files, 150);
}

TEST(TestData, EveryCopiedSourceHasANotice) {
    const std::string notice = read_file(DataDir / "NOTICE.md");
    for (const char* source : {"adri326/5dchess-notation", "adri326/5dchess-tools",
             "ftxi/5dchess_engine", "Slavrick/5dChessGUI", "synthetic (this corpus)"})
        EXPECT_NE(notice.find(source), std::string::npos) << source;
    for (const char* folder : Folders)
        for (const std::string& name : data_files(folder)) {
            const std::string source = source_of(read_file(DataDir / folder / name));
            bool              known  = false;
            for (const char* s : {"adri326/5dchess-notation", "adri326/5dchess-tools",
                     "ftxi/5dchess_engine", "Slavrick/5dChessGUI", "synthetic (this corpus)",
                     "seed 000", "seed 001", "seed 002", "seed 004"})
                known = known || source.find(s) != std::string::npos;
            EXPECT_TRUE(known) << folder << "/" << name << ": " << source;
        }
}

TEST(SharedTestData, CopiesAndListAreExactlyTheSharedFiles) {
    for (const char* folder : Folders) {
        std::set<std::string> shared, ours;
        for (const auto& e : fs::directory_iterator(SharedDir / folder))
            if (e.is_regular_file() && e.path().extension() == ".5dpgn")
                shared.insert(e.path().filename().string());
        for (const std::string& n : all_files(folder))
            ours.insert(n);
        EXPECT_EQ(ours, shared) << folder << ": run scripts/sync-test-data.sh";
        for (const std::string& n : data_files(folder))
            EXPECT_EQ(read_file(DataDir / folder / n), read_file(SharedDir / folder / n))
                << folder << "/" << n << " differs from ../shared";
    }
    for (const std::string& rel : shared_only())
        EXPECT_TRUE(fs::exists(SharedDir / rel)) << rel;
}

} // namespace
} // namespace fived::testdata
