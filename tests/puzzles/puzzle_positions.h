#pragma once
// The per-position expectations of ../shared/puzzles, gathered from four independent sources:
//
//  * `[ActionCounts]` headers: one number per position from the start (cwmtt files, capped at
//    1000), or a single number for the final position (exact);
//  * `[MateFlags]` headers: one digit per position, 1 = the side to move has a legal action;
//  * COUNTS.md: exact counts for every position of the main line of a game (`T` = not known);
//  * the final-position verdict claims of the claims table (puzzle_claims.h).
//
// The expectations of one position are checked with a single enumeration (an exact count
// answers the capped count, the mate flag and half the verdict), under a time budget.

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "movegen/actions.h"

namespace fived::testutil {

// What the sources claim about one position. `sources` names them for failure messages.
struct PositionNeeds {
    std::optional<std::uint64_t>    exact;     // exact number of legal actions
    std::optional<std::uint64_t>    capped;    // min(number of legal actions, 1000)
    std::optional<bool>             exists;    // a legal action exists
    std::optional<movegen::Verdict> verdict;   // checkmate / stalemate / ongoing
    std::optional<bool>             inCheck;   // in check at the start of the turn (RULES §5.4)
    std::optional<int>              timelines; // COUNTS.md's [n] (a check of the game mapping)
    bool        exactFromFtxi = false; // `exact` is ftxi's count (COUNTS.md): see check_position()
    std::string sources;
};

// One game (a puzzle file's main line, or a text embedded in the test) with its positions'
// needs; needs[k] is the position after k actions.
struct GamePositions {
    std::string                id;      // file id, or the COUNTS.md name of an embedded game
    std::string                file;    // file name of the puzzle, "" if embedded
    std::string                text;    // the 5DPGN text
    bool                       lenient; // read with ReadOptions{false, false}
    std::vector<PositionNeeds> needs;
    std::string                error; // a problem with the sources themselves (length mismatch)
};

// Every puzzle game (tests/data/puzzles and those left in ../shared/puzzles, and the embedded
// COUNTS.md games) that has at least one per-position expectation and loads, with the counts of
// ../shared/puzzles/COUNTS.md; sorted by id. Reads ../shared: for the Shared* tests only.
const std::vector<GamePositions>& all_game_positions();
// The same for the games of tests/data/puzzles alone, without COUNTS.md: what runs everywhere.
const std::vector<GamePositions>& data_game_positions();
// The ids of all_game_positions() that the Shared* tests check, known without reading ../shared:
// the games left there (but the files the reader rejects), the embedded COUNTS.md games and the
// copied games that COUNTS.md counts.
std::vector<std::string> shared_game_ids();

// COUNTS.md rows that the mapping table does not know (a new game in COUNTS.md).
std::vector<std::string> unmapped_counts_rows();
// The number of exact counts in COUNTS.md; `checked` receives how many belong to games present.
std::size_t counts_md_exact_total(std::size_t& checked);

// The checks of one position; returns a description of every failure ("" when all hold).
// `seconds` receives the time of the enumeration.
//
// A COUNTS.md count (ftxi's engine) that differs is accepted only when the difference is exactly
// a documented ftxi deviation, recounted here from the position: RULES §7 #2, ftxi has no double
// step along L for Black, so its count must equal fived's count without the actions that contain
// such a step. `note` then says so (the caller prints it).
std::string check_position(movegen::Multiverse& mv, const PositionNeeds& need, double& seconds,
    std::uint64_t& nodes, std::string* note = nullptr);

// Positions whose check takes more than the fast budget today (see puzzle_positions.cpp),
// with the budget the slow test gives each of them.
struct SlowPosition {
    const char* id;
    int         k;
    double      budgetSeconds; // per position, before time_scale()
    const char* measured;      // what was measured here, for the record
};
const std::vector<SlowPosition>& slow_positions();
// gtest prints parameters in ctest names: the position, not its bytes.
inline void PrintTo(const SlowPosition& s, std::ostream* os) { *os << s.id << " k=" << s.k; }
bool        is_slow(const std::string& id, std::size_t k);

// Budget of one position in the fast group, before time_scale().
constexpr double FastBudgetSeconds = 2.0;

} // namespace fived::testutil
