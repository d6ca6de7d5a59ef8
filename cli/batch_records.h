#pragma once
// The records of `fived batch` (one JSON object per line, README "Collections"), as
// `batch --resume` and `batch-merge` read them back. Text in, results or a message out: no file
// or process handling here (cli_batch.cpp does that), so tests and fuzz/records_fuzz.cpp feed
// these any bytes.

#include <cstddef>
#include <istream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace fived::cli {

// The exit statuses of cli.h that record_class() tells apart (cli_batch.cpp checks they agree;
// this library does not depend on CLI11).
struct RecordStatus {
    static constexpr int Ok = 0, Negative = 1, Unknown = 3, Internal = 4;
};

// A record: a JSON object whose "file" is a string, and "result" and "verdict", if any, too.
bool is_record(const nlohmann::json& j);

// What --resume finds in an output file's text.
struct DoneRecords {
    std::set<std::string> done; // the files recorded
    // The last line has no newline but is a whole record: the next record needs one first.
    bool newline = false;
    // The last line is cut short (a run killed while writing it): the text up to here is kept,
    // and cutLine is its line number (1-based).
    std::optional<std::size_t> cutAt;
    int                        cutLine = 0;
    // A line that is no record (not the last one): its number, and the text is not appended to.
    int badLine = 0;
};
DoneRecords read_done_records(std::string_view text);

// batch-merge: adds each record of `in` to byFile (the last one read for a file wins). On a
// line that is no record returns false with `error` = "PATH:LINE:1: cause".
bool merge_records(std::istream& in, const std::string& path,
    std::map<std::string, nlohmann::json>& byFile, std::string& error);

// The summary's class of a record: "errors" for an item without a normal exit status of
// fived's, else its "result" or "verdict" string, "unknown" or "?".
std::string record_class(const nlohmann::json& j);

// The record's time_ms, when it has a number there.
std::optional<double> record_time_ms(const nlohmann::json& j);

} // namespace fived::cli
