// The records of `fived batch` (report/batch_json.h).
#include "report/batch_json.h"

#include "report/exit_status.h"

namespace fived::report {

nlohmann::json batch_record(const std::string& file, bool verify) {
    nlohmann::json rec;
    rec["file"] = file;
    rec["mode"] = verify ? "verify" : "solve";
    return rec;
}

nlohmann::json batch_error_record(
    const std::string& file, bool verify, int exitCode, const std::string& error) {
    nlohmann::json rec = batch_record(file, verify);
    rec["exit_code"]   = exitCode;
    rec["error"]       = error;
    return rec;
}

nlohmann::json batch_child_record(
    nlohmann::json rec, std::string_view out, const std::string& err, const ChildEnd& end) {
    const nlohmann::json j = nlohmann::json::parse(out, nullptr, false);
    if (j.is_object()) {
        for (const auto& [k, v] : j.items())
            if (k != "tree" && k != "prelude") rec[k] = v; // the record stays one short line
    }
    if (end.signaled) {
        // A crash: an internal error, whatever the child printed before it.
        rec.erase("result");
        rec.erase("verdict");
        rec["exit_code"] = ExitInternal;
        rec["signal"]    = end.signal;
        rec["error"]     = "crashed: killed by " + end.signal + " (" + end.signalText + ")"
            + (err.empty() ? std::string() : ": " + err);
        return rec;
    }
    const int code = end.code;
    if (code > ExitInternal) { // no status of fived's (the program could not be run, ...)
        rec.erase("result");
        rec.erase("verdict");
        rec["exit_code"] = ExitInternal;
        rec["error"]     = "no result: the child exited with status " + std::to_string(code)
            + (err.empty() ? std::string() : ": " + err);
        return rec;
    }
    rec["exit_code"] = code;
    if (!j.is_object() || code == ExitBadInput || code == ExitInternal) {
        if (!err.empty() || !rec.contains("error"))
            rec["error"] = err.empty() ? "no result (exit " + std::to_string(code) + ")" : err;
    }
    return rec;
}

} // namespace fived::report
