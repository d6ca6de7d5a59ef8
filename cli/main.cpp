// fived: the command line. It ties the notation reader to the rules engine and the solver;
// the subcommands are registered by cli/cli_*.cpp.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <string_view>

#include "cli/cli.h"

namespace {

// An output that could not be written (a full disk, a closed pipe) is an error, whatever the
// command found: FILE-less message, ExitBadInput.
int check_output(int exitCode) {
    errno = 0;
    std::cout.flush();
    const bool ok = std::cout.good() && std::fflush(stdout) == 0 && !std::ferror(stdout);
    if (ok) return exitCode;
    const int err = errno;
    std::fprintf(
        stderr, "fived: cannot write the output: %s\n", err ? std::strerror(err) : "write error");
    return fived::cli::ExitBadInput;
}

constexpr const char* VersionFlag = "--version";

// The program's commands; only `only`'s when it names one (cli.h, Commands).
void build(CLI::App& app, std::string_view only, int& exitCode) {
    app.require_subcommand(1);
    app.set_version_flag(VersionFlag, "fived 0.1.0");
    const fived::cli::Commands commands{app, only};
    fived::cli::register_engine_commands(commands, exitCode);
    fived::cli::register_notation_commands(commands, exitCode);
    fived::cli::register_solver_commands(commands, exitCode);
    fived::cli::register_svg_command(commands, exitCode);
    fived::cli::register_html_command(commands, exitCode);
    fived::cli::register_batch_commands(commands, exitCode);
    fived::cli::register_shard_commands(commands, exitCode);
}

} // namespace

int main(int argc, char** argv) {
    const char*             description = "fived: a 5D chess mate-in-N solver and rules engine";
    int                     exitCode    = fived::cli::ExitOk;
    std::optional<CLI::App> app;
    app.emplace(description);
    const std::string_view first = argc > 1 ? std::string_view(argv[1]) : std::string_view();
    build(*app, first, exitCode);
    // A first argument that names no command: all of them, for the help and the usage errors
    // (--version needs none).
    if (app->get_subcommands({}).empty() && first != VersionFlag) {
        app.emplace(description);
        build(*app, {}, exitCode);
    }
    try {
        app->parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int rc = app->exit(e);
        return check_output(rc == 0 ? fived::cli::ExitOk : fived::cli::ExitBadInput);
    }
    return check_output(exitCode);
}
