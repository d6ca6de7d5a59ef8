// df-pn against the reference search, 1 thread against 2, on positions of the puzzle corpus
// (final positions of the files in tests/data/puzzles, and of those left in ../shared for the
// Shared* test; bound 2, node-limited: a pair where either side hit the limit is not compared).
// Slow label: seconds to a minute.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "notation/game.h"
#include "solver/solver.h"
#include "tests/test_data.h"

namespace fived::solver {
namespace {

// The number of comparisons made on the puzzle files `names`, each checked.
int compare_on(const std::vector<std::string>& names) {
    int compared = 0;
    for (const std::string& name : names) {
        const std::filesystem::path f = testdata::locate("puzzles/" + name);
        notation::ReadOptions       opt;
        opt.checkCaptureMark = opt.checkJumpIndicator = false;
        auto g = notation::load_game(testdata::read_file(f), f.string(), opt);
        if (!g.ok()) continue;
        movegen::Multiverse            mv = g->start.fork();
        std::vector<movegen::MoveUndo> undo;
        notation::play_main_line(mv, *g, g->mainLine.size(), undo);
        // Small positions only: a single legal-action enumeration cannot be interrupted, and
        // wide positions take minutes.
        if (mv.timeline_count() > 2 || mv.board_count() > 24) continue;
        SCOPED_TRACE(f.filename().string());
        SolveOptions o;
        o.maxMate             = 2;
        o.hashMb              = 4;
        o.nodeLimit           = 3000;
        o.timeLimit           = 3;
        o.allKeys             = true;
        o.buildTree           = false;
        const SolveResult ref = solve(mv, o);
        o.algorithm           = Algorithm::DFPN;
        const SolveResult pn  = solve(mv, o);
        o.algorithm           = Algorithm::REFERENCE;
        o.threads             = 2;
        o.fixedThreads        = true;
        o.splitHeight         = 1;
        o.splitDefender       = true;
        const SolveResult two = solve(mv, o);
        // Every node with two or more actions searched without listing (Searcher::stream).
        o.streamAbove              = 1;
        SolveResult streamed       = solve(mv, o);
        o.threads                  = 1;
        SolveResult streamedSerial = solve(mv, o);
        for (SolveResult* st : {&streamed, &streamedSerial})
            std::sort(st->keys.begin(), st->keys.end());
        const std::vector<const SolveResult*> others = {&pn, &two, &streamed, &streamedSerial};
        for (const SolveResult* other : others) {
            if (ref.result == Result::UNKNOWN || other->result == Result::UNKNOWN) continue;
            ++compared;
            EXPECT_EQ(other->result, ref.result) << f.filename();
            EXPECT_EQ(other->mateIn, ref.mateIn) << f.filename();
            std::vector<std::vector<movegen::Move>> keys = ref.keys;
            if (other == &streamed || other == &streamedSerial) std::sort(keys.begin(), keys.end());
            EXPECT_EQ(other->keys, keys) << f.filename();
        }
        // Bounds proven without mate agree as far as both got.
        EXPECT_TRUE(pn.result == Result::UNKNOWN || ref.result == Result::UNKNOWN
            || pn.noMateUpTo == ref.noMateUpTo)
            << f.filename();
    }
    std::printf("%d comparisons\n", compared);
    return compared;
}

TEST(Differential, DfpnReferenceAndThreadsAgreeOnTheCorpus) {
    EXPECT_GT(compare_on(testdata::data_files("puzzles")), 20);
}

TEST(SharedDifferential, DfpnReferenceAndThreadsAgreeOnTheCorpus) {
    EXPECT_GT(compare_on(testdata::shared_files("puzzles")), 20);
}

} // namespace
} // namespace fived::solver
