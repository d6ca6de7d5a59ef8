#pragma once
// Shared pieces of the `fived` command line. Each group of subcommands lives in its own file
// (cli_engine.cpp, cli_notation.cpp, cli_solve.cpp) and registers itself on the CLI11 app; a
// subcommand's callback stores its exit status in `exitCode`.
//
// Conventions: every subcommand reads one 5DPGN / Branched 5DPGN file ('-' = standard input)
// and works on the final position of its main line unless it says otherwise. A file that
// cannot be read prints FILE: CAUSE, bad input FILE:LINE:COL: CAUSE, on stderr, and the
// command exits with ExitBadInput. Every command uses the exit statuses below (README.md,
// "Exit status"); main() turns an output that could not be written into ExitBadInput.

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>
#include <tbb/global_control.h>

#include "movegen/multiverse.h"
#include "notation/claim.h"
#include "notation/game.h"
#include "report/json_text.h"

namespace fived::cli {

constexpr int ExitOk       = 0; // done; proved as asked (mate found, sound, complete proof)
constexpr int ExitNegative = 1; // answered, negative (no mate, cooked, wrong claim, incomplete)
constexpr int ExitBadInput = 2; // bad input or usage, unreadable file, unwritable output,
                                // no memory for the table, a stipulation fived does not solve
constexpr int ExitUnknown  = 3; // a limit (time, nodes, actions, signal) ended it: unknown
constexpr int ExitInternal = 4; // internal error (a self-check failed)

struct InputOptions {
    std::string file;
    bool        lenient = false;
    std::string at; // --at K as written (empty: not given); load() reads it
};

// Adds the FILE argument and --lenient to a subcommand.
void add_input(CLI::App* cmd, InputOptions& in);
// The same and --at K, for a subcommand that works on one position of the main line: the
// position after its first K actions (negative K: |K| actions before the end) instead of the
// final one; `-0` is 0 actions before the end, the final position. K is checked against the
// main line's length as written, however many digits it has. `what` is the subcommand's verb
// for the help text ("solve", "draw", ...).
void add_position_input(CLI::App* cmd, InputOptions& in, const char* what);
// Reads a whole file ('-' = standard input). A file that cannot be opened or read (a
// directory, a read error) or that holds nothing but white space and comments is refused: the
// message (FILE: cause) is printed and nullopt returned.
std::optional<std::string> read_text(const std::string& file);
// The name diagnostics use for `file` ("<stdin>" for '-').
std::string display_name(const std::string& file);
// Reads, parses and replays the main line; prints the diagnostic on failure. With --at, the
// main line is cut to the position asked for (out of range: `FILE: --at K: the main line has
// N actions`, nullopt); `played` (if given) receives its length before the cut.
std::optional<notation::LoadedGame> load(const InputOptions& in, int* played = nullptr);
// The final position of the main line.
movegen::Multiverse final_position(const notation::LoadedGame& game);

// A claim and its reading (README.md, "Claims"): notation/claim.h.
using notation::Claim;
using notation::parse_claim;
// The claim of a Puzzle header value (nullptr: no header) for a puzzle with `toMove` to move:
// nullopt without a header; a refused claim, or one naming the other side as the mating one,
// prints WHERE: cause (WHERE = FILE or FILE:LINE:COL of the header) and sets `refused`.
std::optional<Claim> read_claim(
    const std::string* value, const std::string& where, movegen::Color toMove, bool& refused);

// "mate in N" (notation/claim.h).
using notation::mate_text;
using report::json_text; // every --json output (report/json_text.h)
using report::readable_utf8;

// SIGINT and SIGTERM set the returned flag (for SolveOptions::interrupt) instead of ending the
// process; a second signal ends it as usual.
const std::atomic<bool>* catch_interrupts();

// oneTBB caps its worker threads at the machine's hardware threads less one, and an arena that
// asks for more prints a raw "TBB Warning" on stderr (even with --quiet) and gets fewer. A
// command given --threads T asks for T on purpose: the cap is raised to T for as long as the
// returned object lives (create it before the first arena).
std::unique_ptr<tbb::global_control> allow_threads(int threads);

// Part I of N (1-based) of a split run (`--shard`): `spec` is "I/N" with 1 <= I <= N, or
// "slurm" for Slurm's job-array variables (SLURM_ARRAY_TASK_ID less SLURM_ARRAY_TASK_MIN, plus
// 1, of SLURM_ARRAY_TASK_COUNT tasks, or of MAX - MIN + 1 without COUNT); an empty spec is {1,
// 1}, or with slurmWhenEmpty those variables when they are set. A bad spec or variable prints
// `command: option spec: cause` and returns false.
bool parse_shard(const std::string& spec, const char* command, bool slurmWhenEmpty, int& index,
    int& count, const char* option = "--shard");

// Validators: a positive, finite number of seconds; a count written in decimal digits (CLI11
// would read -1 into an unsigned option as its largest value).
CLI::Validator positive_seconds();
CLI::Validator digits();

// Where the register_* functions add their subcommands. main() builds only the subcommand named
// by the first argument: CLI11's options of every command cost about 0.6 ms, a third of a small
// command's whole run (issue 13). `fived`, `fived --help`, `--version` and a first argument that
// names no command get all of them.
struct Commands {
    CLI::App&        app;
    std::string_view only; // the subcommand to build; empty: all
    // The new subcommand, or null when another one was asked for.
    CLI::App* add(const char* name, const char* description) const {
        return only.empty() || only == name ? app.add_subcommand(name, description) : nullptr;
    }
};

void register_engine_commands(const Commands& commands, int& exitCode);
void register_notation_commands(const Commands& commands, int& exitCode);
void register_solver_commands(const Commands& commands, int& exitCode);
void register_svg_command(const Commands& commands, int& exitCode);
void register_html_command(const Commands& commands, int& exitCode);
void register_batch_commands(const Commands& commands, int& exitCode);
void register_shard_commands(const Commands& commands, int& exitCode);

} // namespace fived::cli
