// fived: the command line. It ties the notation reader to the rules engine and the solver;
// the subcommands are registered by cli/cli_*.cpp.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

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

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"fived: a 5D chess mate-in-N solver and rules engine"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "fived 0.1.0");
    int exitCode = fived::cli::ExitOk;
    fived::cli::register_engine_commands(app, exitCode);
    fived::cli::register_notation_commands(app, exitCode);
    fived::cli::register_solver_commands(app, exitCode);
    fived::cli::register_svg_command(app, exitCode);
    fived::cli::register_batch_commands(app, exitCode);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int rc = app.exit(e);
        return check_output(rc == 0 ? fived::cli::ExitOk : fived::cli::ExitBadInput);
    }
    return check_output(exitCode);
}
