#pragma once
// Where the tests' files are. Two places, named by paths in ../shared's layout
// ("notation-corpus/valid/x.5dpgn", "puzzles/y.5dpgn"):
//  * tests/data (FIVED_TEST_DATA_DIR), in the repository: the files whose licence allows a copy
//    (MIT, BSD-2-Clause, the corpus's own), with their notices in tests/data/NOTICE.md;
//  * ../shared (FIVED_SHARED_DIR): the files listed in tests/data/shared-files.txt (GPL-3.0,
//    AGPL-3.0 or no stated licence), read in place and never copied. Only the tests whose names
//    start with `Shared` read them; CMake gives those the ctest label `shared`.
// scripts/sync-test-data.sh draws the line between the two. A file a test needs that is not
// where this says is a failure, never a skip.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace fived::testdata {

namespace fs = std::filesystem;

inline const fs::path DataDir   = FIVED_TEST_DATA_DIR;
inline const fs::path SharedDir = FIVED_SHARED_DIR;

// The whole text of a file; a file that cannot be read is a test failure (and "" is returned).
inline std::string read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) {
        ADD_FAILURE() << "cannot read the test file " << p;
        return "";
    }
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// tests/data/shared-files.txt: the paths that stay in ../shared.
inline const std::set<std::string>& shared_only() {
    static const std::set<std::string> names = [] {
        std::set<std::string> s;
        std::ifstream         in(DataDir / "shared-files.txt");
        for (std::string line; std::getline(in, line);)
            if (!line.empty() && line[0] != '#') s.insert(line);
        return s;
    }();
    return names;
}

inline bool is_shared_only(const std::string& rel) { return shared_only().count(rel) != 0; }

// Where the file `rel` is: ../shared/rel when it stays there, tests/data/rel otherwise.
inline fs::path locate(const std::string& rel) {
    return (is_shared_only(rel) ? SharedDir : DataDir) / rel;
}

// The .5dpgn names in tests/data/`folder`, sorted (the files copied into the repository).
inline std::vector<std::string> data_files(const std::string& folder) {
    std::vector<std::string> names;
    std::error_code          ec;
    for (const auto& e : fs::directory_iterator(DataDir / folder, ec))
        if (e.is_regular_file() && e.path().extension() == ".5dpgn")
            names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

// The .5dpgn names of `folder` that stay in ../shared (from the list, so that the tests exist,
// and are counted, whether ../shared is there or not), sorted.
inline std::vector<std::string> shared_files(const std::string& folder) {
    std::vector<std::string> names;
    const std::string        prefix = folder + "/";
    for (const std::string& rel : shared_only())
        if (rel.rfind(prefix, 0) == 0 && rel.find('/', prefix.size()) == std::string::npos
            && fs::path(rel).extension() == ".5dpgn")
            names.push_back(rel.substr(prefix.size()));
    return names;
}

// Both, sorted: every .5dpgn file of `folder` in ../shared's layout.
inline std::vector<std::string> all_files(const std::string& folder) {
    std::vector<std::string> names = data_files(folder);
    for (const std::string& n : shared_files(folder))
        names.push_back(n);
    std::sort(names.begin(), names.end());
    return names;
}

} // namespace fived::testdata
