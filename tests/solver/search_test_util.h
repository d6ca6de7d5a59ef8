#pragma once
// What the search tests share (search_test.cpp, search_limits_test.cpp, search_narrow_test.cpp,
// search_puzzles_test.cpp, verify_test.cpp): positions read from text or from the puzzle files,
// the options they solve with, and positions embedded so the solver is tested without ../shared.
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "movegen/multiverse.h"
#include "notation/game.h"
#include "solver/solver.h"
#include "tests/test_data.h"

namespace fived::solver::searchtest {

using movegen::Multiverse;

// The final position of text's main line, or the one `back` actions before it.
inline std::optional<Multiverse> load_text(
    const std::string& text, bool lenient = true, std::size_t back = 0) {
    auto g = notation::load_game(text, "test", notation::read_options(lenient));
    if (!g.ok() || g->mainLine.size() < back) {
        ADD_FAILURE() << (g.ok() ? "main line too short" : std::string(g.status().message()));
        return std::nullopt;
    }
    Multiverse                     mv = g->start.fork();
    std::vector<movegen::MoveUndo> undo;
    notation::play_main_line(mv, *g, g->mainLine.size() - back, undo);
    return mv;
}

// The text of a puzzle file (tests/data or ../shared, tests/test_data.h); a missing file fails
// the test.
inline std::string puzzle_text(const std::string& id) {
    return testdata::read_file(testdata::locate("puzzles/" + id + ".5dpgn"));
}

inline bool shared_only(const std::string& id) {
    return testdata::is_shared_only("puzzles/" + id + ".5dpgn");
}

// The position `back` actions before the end of a real game (read leniently), or none (with a
// test failure) when the file is missing.
inline std::optional<Multiverse> game_position(const std::string& id, std::size_t back) {
    return load_text(puzzle_text(id), true, back);
}

inline std::vector<std::string> key_texts(const Multiverse& root, const SolveResult& r) {
    Multiverse               p = root.fork();
    std::vector<std::string> out;
    for (const auto& k : r.keys)
        out.push_back(notation::format_action(p, k));
    return out;
}

inline void expect_same_tree(const SolutionTree& a, const SolutionTree& b, const std::string& id) {
    ASSERT_EQ(a.nodes.size(), b.nodes.size()) << id;
    for (std::size_t n = 0; n < a.nodes.size(); ++n) {
        EXPECT_EQ(a.nodes[n].parent, b.nodes[n].parent) << id << " node " << n;
        EXPECT_EQ(a.nodes[n].action, b.nodes[n].action) << id << " node " << n;
        EXPECT_EQ(a.nodes[n].mate(), b.nodes[n].mate()) << id << " node " << n;
    }
}

inline SolveOptions options(int maxMate, int threads = 1) {
    SolveOptions o;
    o.maxMate = maxMate;
    o.threads = threads;
    o.hashMb  = 4;
    o.allKeys = true;
    // The tests of the parallel search split whatever else runs beside them (ctest -j).
    o.fixedThreads = true;
    return o;
}

// Positions embedded so the solver is tested without ../shared. Rook Tactics I and II are
// official in-game puzzles as transcribed in adri326/5dchess-tools (MIT); the others are ours.
struct Embedded {
    const char*              id;
    const char*              pgn;
    int                      mateIn; // 0: no mate within `bound`
    int                      bound;
    std::vector<std::string> keys;
};

inline const std::vector<Embedded>& embedded() {
    static const std::vector<Embedded> list = {
        {"corner-rook", "[Board \"custom\"]\n[Size \"5x5\"]\n[k4/5/1K3/5/4R:0:1:w]\n", 1, 1,
            {"(0T1)Re1e5"}},
        {"rook-tactics-1",
            "[Board \"custom\"]\n[Size \"5x5\"]\n[4k/5/5/5/K1R2:0:1:w]\n"
            "1. (0T1)Kb2 / (0T1)Ke4\n2. (0T2)Re1 / (0T2)Kd3\n",
            1, 1, {"(0T3)Re1e5"}},
        {"rook-tactics-2",
            "[Board \"custom\"]\n[Size \"6x6\"]\n[6/5k/6/6/1R4/KR4:0:1:w]\n1. Re2 / Kf4\n", 2, 2,
            {"(0T2)Rb1f1", "(0T2)Rb1b5"}},
        {"bare-kings", "[Board \"custom\"]\n[Size \"4x4\"]\n[k3/4/4/3K:0:1:w]\n", 0, 2, {}},
    };
    return list;
}

} // namespace fived::solver::searchtest
