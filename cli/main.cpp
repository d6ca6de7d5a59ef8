// fived: the command line. It ties the notation reader to the rules engine and the solver;
// the subcommands are registered by cli/cli_*.cpp.
#include "cli/cli.h"

int main(int argc, char** argv) {
    CLI::App app{"fived: a 5D chess mate-in-N solver and rules engine"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "fived 0.1.0");
    int exitCode = fived::cli::ExitOk;
    fived::cli::register_engine_commands(app, exitCode);
    fived::cli::register_notation_commands(app, exitCode);
    fived::cli::register_solver_commands(app, exitCode);
    fived::cli::register_svg_command(app, exitCode);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int rc = app.exit(e);
        return rc == 0 ? 0 : fived::cli::ExitBadInput;
    }
    return exitCode;
}
