// The solver subcommands (registered by main.cpp).
#include "solver/cli.h"

namespace fived::cli {

void register_solver_commands(CLI::App& app, int& exitCode) {
    (void)app;
    (void)exitCode;
}

}  // namespace fived::cli
