#pragma once
// The exit statuses a report carries (README "Exit status"; the CLI's own list is cli/cli.h).

namespace fived::report {

constexpr int ExitOk       = 0; // proved as asked (mate found, sound, complete proof)
constexpr int ExitNegative = 1; // answered, negative (no mate, cooked, wrong claim, incomplete)
constexpr int ExitBadInput = 2; // bad input (a batch record of an item that could not be read)
constexpr int ExitUnknown  = 3; // a limit (time, nodes, actions, signal) ended it
constexpr int ExitInternal = 4; // internal error (a self-check failed)

} // namespace fived::report
