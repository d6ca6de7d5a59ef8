#pragma once
// The records of `fived batch` (one JSON object a line, README "Collections"): what an item's
// child printed (its solve or verify JSON, less the tree) with how it ended. The command
// (cli/cli_batch.cpp) runs the children and writes the records; cli/batch_records.h reads them
// back (batch --resume, batch-merge).

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace fived::report {

// The record of an item before it runs: its file and mode.
nlohmann::json batch_record(const std::string& file, bool verify);

// The record of an item that did not run: `error` and the exit status it counts as.
nlohmann::json batch_error_record(
    const std::string& file, bool verify, int exitCode, const std::string& error);

// How an item's child ended.
struct ChildEnd {
    bool        signaled = false; // killed by a signal:
    std::string signal;           //   its name ("SIGSEGV")
    std::string signalText;       //   and description (strsignal())
    int         code = 0;         // else its exit status
};

// The record of an item (rec: batch_record()) whose child printed `out` on standard output
// and `err` (trimmed) on standard error, and ended as `end`.
nlohmann::json batch_child_record(
    nlohmann::json rec, std::string_view out, const std::string& err, const ChildEnd& end);

} // namespace fived::report
