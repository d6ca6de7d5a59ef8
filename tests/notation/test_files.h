#pragma once
// Helpers of the notation tests that read ../shared (the corpus and the puzzles): every test
// that needs it skips cleanly when it is absent.

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace fived::notation::testing_files {

namespace fs = std::filesystem;

inline const fs::path SharedDir = FIVED_SHARED_DIR;
inline const fs::path CorpusDir = SharedDir / "notation-corpus";
inline const fs::path PuzzleDir = SharedDir / "puzzles";

inline std::string read_file(const fs::path& p) {
    std::ifstream     in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The .5dpgn files of a folder, sorted; a single "" entry when the folder is missing, so that
// parameterised tests are instantiated and skip instead of vanishing.
inline std::vector<std::string> files_in(const fs::path& dir) {
    std::vector<std::string> names;
    std::error_code          ec;
    if (fs::is_directory(dir, ec))
        for (const auto& e : fs::directory_iterator(dir, ec))
            if (e.is_regular_file() && e.path().extension() == ".5dpgn")
                names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    if (names.empty()) names.push_back("");
    return names;
}

inline std::string stem(const std::string& file) { return file.substr(0, file.find('.')); }

// The four texts copied from ftxi that hold the illegal variation `(2b. d5)` (see KingSafety in
// reader_test.cpp): the file under ../shared and where the variation's move stands.
struct IllegalVariationText {
    const char* path;
    int         line, column;
};
inline constexpr IllegalVariationText IllegalD5Texts[] = {
    {"notation-corpus/valid/branched-help-f7-sacrifice.5dpgn", 10, 6},
    {"notation-corpus/valid/branched-help-f7-sacrifice-shad-tokens.5dpgn", 11, 6},
    {"notation-corpus/valid/ftxi-test-softmate-tree.5dpgn", 11, 6},
    {"puzzles/ftxi-softmate-tree.5dpgn", 18, 6},
};
inline const IllegalVariationText* illegal_d5_text(const std::string& name) {
    for (const IllegalVariationText& t : IllegalD5Texts)
        if (stem(fs::path(t.path).filename().string()) == name) return &t;
    return nullptr;
}

inline std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
    std::string n = info.param.empty() ? "missing" : stem(info.param);
    for (char& c : n)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return n;
}

} // namespace fived::notation::testing_files

#define FIVED_SKIP_IF_MISSING(name)                                                                \
    if ((name).empty())                                                                            \
    GTEST_SKIP() << "no ../shared at " << ::fived::notation::testing_files::SharedDir
