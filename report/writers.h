#pragma once
// The registry of output formats (report/formats.h): one line X(NAME) a writer, defined in
// report/NAME_writer.cpp as NAME_solve_writer() or NAME_verify_writer() (text_writer.cpp also
// defines fivedpgn, the text under the name `5dpgn`). The first of each list is the default.

#include "report/formats.h"

// clang-format off
#define FIVED_SOLVE_WRITERS(X) \
    X(text)                    \
    X(fivedpgn)                \
    X(problemist)              \
    X(csv)                     \
    X(json)
#define FIVED_VERIFY_WRITERS(X) \
    X(text)                     \
    X(json)
// clang-format on

namespace fived::report {

#define FIVED_DECLARE_SOLVE_WRITER(NAME) const SolveWriter& NAME##_solve_writer();
#define FIVED_DECLARE_VERIFY_WRITER(NAME) const VerifyWriter& NAME##_verify_writer();
FIVED_SOLVE_WRITERS(FIVED_DECLARE_SOLVE_WRITER)
FIVED_VERIFY_WRITERS(FIVED_DECLARE_VERIFY_WRITER)
#undef FIVED_DECLARE_SOLVE_WRITER
#undef FIVED_DECLARE_VERIFY_WRITER

} // namespace fived::report
