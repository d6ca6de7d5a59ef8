#pragma once
// What `fived solve` found, ready for a writer (report/formats.h): the solver's answer, the
// claim against it, the keys as text and the solution tree as it is written (already read back
// by the self-check, report/solution.h). make_solve_report() builds it once; every format writes
// from it, so the formats cannot disagree on what was found.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "movegen/multiverse.h"
#include "notation/game.h"
#include "notation/tree.h"
#include "solver/solver.h"
#include "solver/verify.h"

namespace fived::report {

// "no mate in N or fewer": how every report says that no mate of N or fewer moves exists.
inline std::string no_mate_text(int n) { return "no mate in " + std::to_string(n) + " or fewer"; }

// How the report is made: the bounds asked and how the tree is written.
struct SolveReportOptions {
    int                  maxMate = 3;     // the longest mate searched (`--mate`, the claim or 3)
    int                  claimed = 0;     // the Puzzle header's claim (0: none)
    int                  threads = 1;     // as JSON reports it; the self-check walks on them
    std::size_t          group   = 12;    // group defences at nodes with more (0 = never)
    bool                 markup  = false; // problemist markup in the tree (problemist_markup())
    bool                 tries   = false; // with markup: the tries and refutations
    solver::SolveOptions base;            // the search's options (the markup's questions)
    // The self-check's limits (time, SIGINT; its threads are `threads`); one that stops it makes
    // the answer unknown.
    solver::ProofLimits limits;
};

struct SolveReport {
    const notation::LoadedGame* game = nullptr; // the file (its prelude is the main line)
    const movegen::Multiverse*  root = nullptr; // the puzzle: the game's final position
    solver::SolveResult         r;
    int                         maxMate = 0, claimed = 0, threads = 1;
    std::optional<bool>         claimHolds; // decided by the answer
    std::string                 claimNote;  // "claim: mate in C; ..." when the claim fails
    std::vector<std::string>    keys;       // the keys in full notation at the puzzle
    std::string                 resultText; // "mate in N", "no mate in N or fewer", "unknown"
    // MATE with a tree (and no internal error): the tree as written, its text, and what its
    // self-check found ("" when it reads back as a complete proof).
    std::optional<notation::GameTree> tree;
    std::string                       written, readBack;
    int                               exitCode = 0; // README "Exit status"
};

// The text of each action of `t` (a tree below `root`) in full notation, in its parent's position,
// by node ("" at the root): what the JSON and CSV writers print of a tree.
std::vector<std::string> action_texts(
    const movegen::Multiverse& root, const solver::SolutionTree& t);

// The report of `r`, the solver's answer at `root` (the final position of `game`, both outliving
// the report).
SolveReport make_solve_report(const notation::LoadedGame& game, const movegen::Multiverse& root,
    solver::SolveResult r, const SolveReportOptions& opt);

} // namespace fived::report
