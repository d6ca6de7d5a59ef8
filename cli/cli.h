#pragma once
// Shared pieces of the `fived` command line. Each group of subcommands lives in its own file
// (cli_engine.cpp, cli_notation.cpp, cli_solve.cpp) and registers itself on the CLI11 app; a
// subcommand's callback stores its exit status in `exitCode`.
//
// Conventions: every subcommand reads one 5DPGN / Branched 5DPGN file ('-' = standard input)
// and works on the final position of its main line unless it says otherwise. Bad input prints
// FILE:LINE:COL: CAUSE on stderr and exits with ExitBadInput.

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "movegen/multiverse.h"
#include "notation/game.h"

namespace fived::cli {

constexpr int ExitOk       = 0;
constexpr int ExitBadInput = 2;

struct InputOptions {
    std::string file;
    bool        lenient = false;
};

// Adds the FILE argument and --lenient to a subcommand.
void add_input(CLI::App* cmd, InputOptions& in);
// Reads a whole file ('-' = standard input); prints the error and returns nullopt on failure.
std::optional<std::string> read_text(const std::string& file);
// Reads, parses and replays the main line; prints the diagnostic on failure.
std::optional<notation::LoadedGame> load(const InputOptions& in);
// The final position of the main line.
movegen::Multiverse final_position(const notation::LoadedGame& game);

void register_engine_commands(CLI::App& app, int& exitCode);
void register_notation_commands(CLI::App& app, int& exitCode);
void register_solver_commands(CLI::App& app, int& exitCode);
void register_svg_command(CLI::App& app, int& exitCode);

} // namespace fived::cli
