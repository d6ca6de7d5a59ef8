#pragma once
// `fived bench`: solves an embedded suite of small puzzles and prints the node count, the speed
// and a signature (STYLE.md §2.11). With one thread (the default) everything is deterministic;
// the signature covers the ids, results, mate lengths, keys and node counts, so it changes when
// the search changes. `answers` covers everything but the node counts and is the same for any
// thread count.
//
// The suite is stored as 5DPGN text; the CLI reads it with the notation layer (the solver
// library does not depend on notation) and hands the positions to run_bench().

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "movegen/multiverse.h"

namespace fived::solver {

struct BenchPuzzle {
    const char* id;
    const char* pgn;     // 5DPGN; the position is the end of its main line
    int         maxMate; // searched bound (the mate length, or the bound of a no-mate entry)
    bool        lenient; // read with the capture-mark and jump-indicator checks off
};
std::span<const BenchPuzzle> bench_suite();

struct BenchCase {
    std::string                id;
    const movegen::Multiverse* position = nullptr;
    int                        maxMate  = 1;
};

struct BenchLine {
    std::string   id;
    std::string   result;
    int           mateIn = 0;
    std::uint64_t nodes  = 0;
    double        ms     = 0;
    std::string   error; // SolveResult::error
};

struct BenchReport {
    std::vector<BenchLine> lines;
    std::uint64_t          nodes     = 0;
    double                 ms        = 0;
    std::uint64_t          signature = 0;
    std::uint64_t          answers   = 0;
    bool                   noMemory  = false; // the table could not be allocated (lines empty)
};

BenchReport run_bench(std::span<const BenchCase> cases, std::size_t hashMb, int threads);

} // namespace fived::solver
