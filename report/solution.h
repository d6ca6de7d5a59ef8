#pragma once
// The solution tree `fived solve` prints (make_solve_report(), report/solve_report.h): the
// solver's proof rearranged for reading, the problemist markup, and the self-check that reads the
// printed text back.
//
// Every tree `solve` prints must read back with fived's own reader and verify (issue 55): the
// text of each move (capture mark, jump indicator) comes from the position where it is played in
// its own line (the solver's moves carry those flags, movegen::restamp_action()), and
// read_back_problem() re-reads the exact text before it is printed.

#include <cstddef>
#include <string>

#include "movegen/multiverse.h"
#include "notation/game.h"
#include "notation/tree.h"
#include "solver/solver.h"
#include "solver/verify.h"

namespace fived::report {

// The tree `solve` writes: the prelude of the loaded game (whose final position is `root`), then
// the solver's proof below its end, rearranged for reading: at each node the longest line comes
// last (the main line), and at defender nodes with more than groupThreshold defences (0: never)
// the defences that share one immediately mating answer are written once, the group declared in
// a comment. The mate leaves keep the solver's mark and result.
notation::GameTree written_solution(const notation::LoadedGame& game,
    const movegen::Multiverse& root, const solver::SolutionTree& sol, int mateIn,
    std::size_t groupThreshold);

// Popeye-style markup of a written solution (README "Problemist output"); puzzleNode is the
// node of gt at `puzzle`. The tree stays a proof that `verify` reads with the same meaning:
// comments and evaluation symbols are not part of it, and a defence group's declaration stays
// the last part of its comment (its list runs to the end of the comment).
void problemist_markup(notation::GameTree& gt, int puzzleNode, const movegen::Multiverse& puzzle,
    const solver::SolveResult& r, const solver::SolveOptions& base, bool withTries);

// The self-check of a written solution: `text` (write_tree(written)) read back with fived's own
// reader as `verify` reads it (capture marks and jump indicators checked), equal to `written`
// node by node (actions, marks, comments, results), and its solution below the `Prelude`
// position a complete proof of a mate in mateIn. Returns "" when all holds, else what fails.
// The proof walk stops at a limit of `limits` (issue 55): then "" and *stopped names the limit.
std::string read_back_problem(const std::string& text, const notation::GameTree& written,
    int mateIn, const solver::ProofLimits& limits = {}, std::string* stopped = nullptr);

} // namespace fived::report
