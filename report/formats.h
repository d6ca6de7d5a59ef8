#pragma once
// The output formats of `solve` and `verify` (Popeye's output writers): one writer a format,
// found by its name (`--format NAME`). A writer writes a report (report/solve_report.h,
// report/verify_report.h) and decides nothing: what was found is the report's.
//
// Adding a format is one new file, report/NAME_writer.cpp, defining
//   const SolveWriter& NAME_solve_writer()   (or NAME_verify_writer(), or both)
// plus its line X(NAME) in the list of report/writers.h; report/CMakeLists.txt compiles every
// *_writer.cpp of the folder.

#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "report/solve_report.h"
#include "report/verify_report.h"

namespace fived::report {

struct SolveWriter {
    std::string_view name;   // as `--format` takes it
    std::string_view help;   // one line for `--help`
    bool             markup; // the tree carries the problemist markup (problemist_markup())
    void (*write)(const SolveReport& rep, std::ostream& out);
};

struct VerifyWriter {
    std::string_view name;
    std::string_view help;
    void (*write)(const VerifyReport& rep, std::ostream& out);
};

// Every writer, in the order of the list; nullptr when no writer has that name.
std::span<const SolveWriter* const>  solve_writers();
std::span<const VerifyWriter* const> verify_writers();
const SolveWriter*                   find_solve_writer(std::string_view name);
const VerifyWriter*                  find_verify_writer(std::string_view name);

// "NAME: HELP" of each writer, one a line (for an option's help text).
std::string solve_formats_help();
std::string verify_formats_help();

} // namespace fived::report
