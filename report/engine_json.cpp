// The JSON of the rules-engine and notation commands (report/engine_json.h).
#include "report/engine_json.h"

#include <nlohmann/json.hpp>

#include "report/exit_status.h"
#include "report/json_text.h"

namespace fived::report {

std::string status_json(const StatusFacts& s) {
    nlohmann::json j;
    j["to_move"]        = s.toMove;
    j["present"]        = s.present;
    j["in_check"]       = s.inCheck;
    j["verdict"]        = s.verdict;
    j["timelines"]      = s.timelines;
    j["actions_played"] = s.actionsPlayed;
    j["exit_code"]      = ExitOk;
    return json_text(j);
}

std::string moves_json(const std::vector<std::string>& moves) {
    nlohmann::json list = nlohmann::json::array();
    for (const std::string& m : moves)
        list.push_back(m);
    return json_text(nlohmann::json{{"moves", list}, {"exit_code", ExitOk}});
}

std::string action_json(std::string_view action) {
    return json_text(nlohmann::json{{"action", action}});
}

std::string actions_end_json(std::uint64_t count, bool complete) {
    return json_text(
        nlohmann::json{{"count", count}, {"complete", complete}, {"exit_code", ExitOk}});
}

std::string count_json(std::uint64_t count, bool capped) {
    return json_text(nlohmann::json{{"count", count}, {"capped", capped}, {"exit_code", ExitOk}});
}

std::string counts_json(const std::vector<std::uint64_t>& counts) {
    nlohmann::json list = nlohmann::json::array();
    for (const std::uint64_t n : counts)
        list.push_back(n);
    return json_text(nlohmann::json{{"counts", list}, {"exit_code", ExitOk}});
}

std::string perft_json(int depth, std::uint64_t total,
    const std::vector<std::pair<std::string, std::uint64_t>>* divide) {
    nlohmann::json j;
    j["depth"] = depth;
    j["total"] = total;
    if (divide) {
        nlohmann::json d = nlohmann::json::array();
        for (const auto& [a, n] : *divide)
            d.push_back({{"action", a}, {"count", n}});
        j["divide"] = d;
    }
    j["exit_code"] = ExitOk;
    return json_text(j);
}

std::string fen_json(const std::string& fen) {
    return json_text(nlohmann::json{{"fen", fen}, {"exit_code", ExitOk}});
}

std::string hash_json(const std::string& hash) {
    return json_text(nlohmann::json{{"hash", hash}, {"exit_code", ExitOk}});
}

std::string check_notation_json(const std::vector<CheckedFile>& files, int exitCode) {
    nlohmann::json report = nlohmann::json::array();
    for (const CheckedFile& f : files)
        report.push_back(
            {{"file", f.file}, {"ok", f.ok}, {"errors", f.errors}, {"warnings", f.warnings}});
    return json_text(nlohmann::json{{"files", report}, {"exit_code", exitCode}});
}

} // namespace fived::report
