#pragma once
// Helpers of the notation tests that read the corpus and the puzzles: the copies in tests/data
// and, for the tests named Shared*, the files that stay in ../shared (tests/test_data.h).

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/test_data.h"

namespace fived::notation::testing_files {

namespace fs = std::filesystem;

using testdata::read_file;

// The path of `rel` in ../shared's layout ("notation-corpus/valid/x.5dpgn", "puzzles/y.5dpgn").
inline fs::path path_of(const std::string& rel) { return testdata::locate(rel); }
inline fs::path corpus_path(const std::string& rel) { return path_of("notation-corpus/" + rel); }

// The files of `folders` (in ../shared's layout): the copies in tests/data, or (shared = true)
// the ones that stay in ../shared; as paths.
inline std::vector<fs::path> files_of(std::initializer_list<const char*> folders, bool shared) {
    std::vector<fs::path> out;
    for (const char* folder : folders)
        for (const std::string& name :
            shared ? testdata::shared_files(folder) : testdata::data_files(folder))
            out.push_back(path_of(std::string(folder) + "/" + name));
    return out;
}

inline std::string stem(const std::string& file) { return file.substr(0, file.find('.')); }

// The four texts copied from ftxi that hold the illegal variation `(2b. d5)` (see KingSafety in
// reader_test.cpp): the file (in ../shared's layout) and where the variation's move stands.
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
    std::string n = stem(info.param);
    for (char& c : n)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return n;
}

} // namespace fived::notation::testing_files
