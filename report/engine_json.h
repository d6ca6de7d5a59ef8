#pragma once
// The JSON of the rules-engine and notation commands (README "JSON output"): status, moves,
// actions, count, perft, fen, hash and check-notation. Each function is given what the command
// found and returns one line of JSON text (json_text(), without its newline); the command
// (cli/cli_engine.cpp, cli/cli_notation.cpp) prints it.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fived::report {

// status --json: the final position.
struct StatusFacts {
    const char* toMove        = "white";
    int         present       = 0; // the present's turn (T)
    bool        inCheck       = false;
    const char* verdict       = ""; // movegen::verdict_name()
    int         timelines     = 0;
    std::size_t actionsPlayed = 0; // the file's main line
};
std::string status_json(const StatusFacts& s);

// moves --json: the moves in full notation.
std::string moves_json(const std::vector<std::string>& moves);

// actions --json: one line an action, then the count and whether the listing is complete.
std::string action_json(std::string_view action);
std::string actions_end_json(std::uint64_t count, bool complete);

// count --json: the count at the final position (capped: it reached --cap), or with --each the
// counts at each position of the main line.
std::string count_json(std::uint64_t count, bool capped);
std::string counts_json(const std::vector<std::uint64_t>& counts);

// perft --json: the total at depth, and with --divide (divide non-null) the count below each
// first action.
std::string perft_json(int depth, std::uint64_t total,
    const std::vector<std::pair<std::string, std::uint64_t>>* divide);

// fen --json and hash --json.
std::string fen_json(const std::string& fen);
std::string hash_json(const std::string& hash);

// check-notation --json: one entry a file, then the exit status.
struct CheckedFile {
    std::string              file; // as diagnostics name it
    bool                     ok = false;
    std::vector<std::string> errors, warnings; // the lines the text output prints
};
std::string check_notation_json(const std::vector<CheckedFile>& files, int exitCode);

} // namespace fived::report
