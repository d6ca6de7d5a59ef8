// The notation subcommands (registered by main.cpp).
#include "solver/cli.h"

namespace fived::cli {

void register_notation_commands(CLI::App& app, int& exitCode) {
    (void)app;
    (void)exitCode;
}

}  // namespace fived::cli
