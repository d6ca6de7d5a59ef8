// libFuzzer target of the batch records as `fived batch --resume` and `fived batch-merge` read
// them (cli/batch_records.h): any bytes (truncated lines, hostile JSON, huge numbers, invalid
// UTF-8, the same file twice) as an output file's text must give the files done or a line
// number, and as merge input the records or a "PATH:LINE:1: cause", never a crash or an
// exception; the summary's class and time of every record read must be computable. Records
// written by the writer (json_text, as batch writes them) must read back equal, with the same
// file names when the names are valid UTF-8 (README "JSON output").
//
// Build and run with scripts/fuzz.sh (clang, ASan + UBSan).

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "cli/batch_records.h"
#include "report/json_text.h"

namespace {

using nlohmann::json;
using namespace fived::cli;
using fived::report::json_text;
using fived::report::readable_utf8;

[[noreturn]] void fail(const char* what, const std::string& detail) {
    std::fprintf(stderr, "records_fuzz: %s\n%s\n", what, detail.c_str());
    std::abort();
}

// The resume reading of text: consistent with itself and with the merge reading.
void check_resume(std::string_view text) {
    const DoneRecords r = read_done_records(text);
    if (r.cutAt && (*r.cutAt > text.size() || r.cutLine < 1))
        fail("a cut outside the text", std::string(text));
    if (r.cutAt && r.newline) fail("both a cut line and a whole last line", std::string(text));
    if (r.badLine && (r.cutAt || r.newline)) fail("a bad line and more", std::string(text));
    if (r.cutAt && *r.cutAt > 0 && text[*r.cutAt - 1] != '\n')
        fail("a cut in the middle of a line", std::string(text));
    if (r.badLine || r.cutAt) return;
    // Every line is a record (or empty): merge reads the same files.
    std::istringstream          in{std::string(text)};
    std::map<std::string, json> byFile;
    std::string                 error;
    if (!merge_records(in, "fuzz", byFile, error))
        fail("resume reads what merge refuses", error + "\n" + std::string(text));
    std::set<std::string> merged;
    for (const auto& [f, j] : byFile)
        merged.insert(f);
    if (merged != r.done) fail("resume and merge read different files", std::string(text));
}

// The merge reading of text, then the summary and the writer's round trip of what it read.
void check_merge(std::string_view text) {
    std::istringstream          in{std::string(text)};
    std::map<std::string, json> byFile;
    std::string                 error;
    if (!merge_records(in, "fuzz", byFile, error)) {
        if (error.rfind("fuzz:", 0) != 0 || error.find(":1: ") == std::string::npos)
            fail("a merge error without its line", error);
        return;
    }
    std::string written;
    for (const auto& [f, j] : byFile) {
        if (!is_record(j) || j["file"].get<std::string>() != f)
            fail("a record under another file", f);
        if (record_class(j).empty()) fail("a record without a class", j.dump());
        (void)record_time_ms(j);
        written += json_text(j) + '\n';
    }
    std::istringstream          again(written);
    std::map<std::string, json> back;
    if (!merge_records(again, "written", back, error))
        fail("records written do not read back", error + "\n" + written);
    if (back != byFile) fail("records written read back different", written);
}

// A record made by the writer from raw bytes as its file name and message.
void check_written(std::string_view name, std::string_view message) {
    json rec;
    rec["file"]            = std::string(name);
    rec["mode"]            = "solve";
    rec["exit_code"]       = 2;
    rec["error"]           = std::string(message);
    const std::string line = json_text(rec) + '\n';
    const DoneRecords r    = read_done_records(line);
    if (r.badLine || r.cutAt || r.done.size() != 1) fail("a written record does not read", line);
    if (*r.done.begin() != readable_utf8(name)) fail("a written record names another file", line);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    check_resume(text);
    check_merge(text);
    const std::size_t cut = text.find('\0');
    if (cut != std::string_view::npos)
        check_written(text.substr(0, cut), text.substr(cut + 1));
    else
        check_written(text, text);
    return 0;
}
