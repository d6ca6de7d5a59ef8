#include "cli/batch_records.h"

namespace fived::cli {

bool is_record(const nlohmann::json& j) {
    // The summary reads "result" and "verdict" as strings (fuzz/records_fuzz.cpp found a number
    // there ending batch-merge with an uncaught exception): a line with another type there is
    // no record of fived's.
    auto text_or_none = [&](const char* key) { return !j.contains(key) || j[key].is_string(); };
    return j.is_object() && j.contains("file") && j["file"].is_string() && text_or_none("result")
        && text_or_none("verdict");
}

// A last line cut short (a run killed while writing it) is dropped: the caller truncates the
// file after its last whole line and the item is done again (a last line that is a whole record
// without its newline gets one: `newline`). Any other line that is no record is an error:
// appending to a file batch-merge cannot read would hide it.
DoneRecords read_done_records(std::string_view text) {
    DoneRecords r;
    int         n = 0;
    for (std::size_t pos = 0; pos < text.size();) {
        ++n;
        const std::size_t      nl   = text.find('\n', pos);
        const std::string_view line = text.substr(pos, nl == std::string::npos ? nl : nl - pos);
        const nlohmann::json   j    = nlohmann::json::parse(line, nullptr, false);
        if (nl == std::string::npos) { // the last line, without its newline
            if (is_record(j)) {
                r.done.insert(j["file"].get<std::string>());
                r.newline = true;
                break;
            }
            r.cutAt   = pos;
            r.cutLine = n;
            break;
        }
        pos = nl + 1;
        if (line.empty()) continue;
        if (!is_record(j)) {
            r.badLine = n;
            return r;
        }
        r.done.insert(j["file"].get<std::string>());
    }
    return r;
}

bool merge_records(std::istream& in, const std::string& path,
    std::map<std::string, nlohmann::json>& byFile, std::string& error) {
    int n = 0;
    for (std::string line; std::getline(in, line);) {
        ++n;
        if (line.empty()) continue;
        const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        if (!is_record(j)) {
            error = path + ':' + std::to_string(n) + ":1: "
                + (in.eof() ? "a last record cut short (a run killed while writing it; `fived "
                              "batch --resume -o FILE ...` repairs it)"
                            : "not a batch record");
            return false;
        }
        byFile[j["file"].get<std::string>()] = j;
    }
    return true;
}

std::string record_class(const nlohmann::json& j) {
    // An item without a status of fived's (a crash recorded by an older batch as 128 + the
    // signal) is an error too; one stopped by a limit before it printed a result (the timeline
    // limit, README "Limits") is unknown.
    const nlohmann::json& code = j.contains("exit_code") ? j["exit_code"] : nlohmann::json();
    const int             rc = code.is_number_integer() ? code.get<int>() : RecordStatus::Internal;
    if (rc != RecordStatus::Ok && rc != RecordStatus::Negative && rc != RecordStatus::Unknown)
        return "errors";
    return j.value(
        "result", j.value("verdict", std::string(rc == RecordStatus::Unknown ? "unknown" : "?")));
}

std::optional<double> record_time_ms(const nlohmann::json& j) {
    if (j.contains("time_ms") && j["time_ms"].is_number()) return j["time_ms"].get<double>();
    return std::nullopt;
}

} // namespace fived::cli
