#pragma once
// What `fived verify` finds in a solution tree, computed apart from how it is written (the
// command's text and JSON writers, report/formats.h) so that the Python module's fived.verify()
// reports the same (README "fived verify FILE"). Two stages: read_verify_input() reads the
// tree and finds the puzzle position; verify_input() checks the proof and runs the composer's
// analysis (the command arms its signal handler in between).

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "movegen/multiverse.h"
#include "notation/syntax.h"
#include "notation/tree.h"
#include "solver/solver.h"
#include "solver/verify.h"

namespace fived::report {

// verify's options but the file and how it is read (read_verify_input() takes `lenient`).
struct VerifyOptions {
    bool          tries      = false; // list the tries
    int           threads    = 1;
    std::size_t   hashMb     = 16;
    double        time       = 0; // seconds from `start`, 0 = none
    std::uint64_t nodes      = 0;
    std::size_t   maxActions = solver::SolveOptions{}.actionLimit;
    bool          progress   = false; // stderr: the proof check, then the analysis (solve's lines)
};

// The tree read and its puzzle position: the `Prelude` header's, else 2N - 1 actions before the
// end of the main line for a `Puzzle` claim of mate in N, else the root.
struct VerifyInput {
    std::string                        file;
    int                                prelude = 0, claimed = 0;
    bool                               hasPrelude = false, hasPuzzle = false;
    std::optional<movegen::Multiverse> puzzle;   // always set
    solver::SolutionTree               solution; // the claimed solution, below the puzzle position
};

// Why a text is no tree to verify: the reader's diagnostics (with their place), or one message
// `FILE: cause` about a header (no place).
struct VerifyInputError {
    std::vector<notation::Diagnostic> diagnostics;
    std::string                       message;
};

// Reads text (file: the name diagnostics use). Returns nullopt with `error` set on bad input.
std::optional<VerifyInput> read_verify_input(
    std::string_view text, const std::string& file, bool lenient, VerifyInputError& error);

// What verify found, ready for a writer.
struct VerifyReport {
    movegen::Color           attacker = movegen::WHITE;
    int                      prelude = 0, claimed = 0, n = 0;
    solver::ProofReport      rep;
    bool                     proofDecided = false, notATree = false, decided = false;
    bool                     claimDecided = false, claimHolds = false, tries = false;
    bool                     sound       = false;
    bool                     noMemory    = false; // the table could not be allocated
    std::size_t              lineActions = 0;     // actions of the tree (a single line: the game's)
    std::vector<std::string> treeKeys, cooks, problems, duals;
    bool                     cooksCapped = false; // the analysis listed its first keys only
    // Each try and its line with the refutation ("TRY | REFUTATION").
    std::vector<std::pair<std::string, std::string>> triesText;
    std::string                                      why, verdict, claimNote;
    int                                              shortest = 0;
    int exitCode = 0; // 0 sound, 1 negative, 3 unknown (README "Exit status")
};

// The proof check and the analysis; `time` counts from start; `interrupt` stops both as a limit.
VerifyReport verify_input(const VerifyInput& in, const VerifyOptions& opt,
    std::chrono::steady_clock::time_point start, const std::atomic<bool>* interrupt);

} // namespace fived::report
