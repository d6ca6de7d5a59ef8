// The JSON of a split search: a part's record and the merged answer (report/shard_json.h).
#include "report/shard_json.h"

#include <algorithm>

#include "notation/fen.h"
#include "notation/format.h"
#include "report/exit_status.h"
#include "report/json_text.h"

namespace fived::report {

using Json = nlohmann::json;

std::string shard_record_json(const ShardPart& p) {
    const solver::SolveResult& r = *p.r;
    Json                       j;
    j["record"]        = ShardRecordKind;
    j["version"]       = ShardRecordVersion;
    j["file"]          = p.file;
    j["position_hash"] = notation::state_hash(*p.root);
    j["max_mate"]      = p.maxMate;
    j["max_actions"]   = p.maxActions;
    j["split"]         = p.split;
    j["part"]          = p.part;
    j["parts"]         = p.parts;
    j["root_actions"]  = p.rootActions ? Json(*p.rootActions) : Json();
    j["owned"]         = p.owned ? Json(*p.owned) : Json();
    j["result"]        = p.exitCode == ExitInternal ? "unknown" : solver::result_name(r.result);
    j["mate_in"]       = r.result == solver::Result::MATE ? Json(r.mateIn) : Json();
    j["no_mate_up_to"] = r.result == solver::Result::NO_MATE ? p.maxMate : r.noMateUpTo;
    if (r.stoppedAt)
        j["stopped_at"] = {
            {"mate_in", r.stoppedAt}, {"keys_refuted", r.keysRefuted}, {"keys", r.keysInAll}};
    movegen::Multiverse printer = p.root->fork();
    Json                keys    = Json::array();
    for (const auto& k : r.keys)
        keys.push_back(notation::format_action(printer, k));
    j["keys"]      = keys;
    j["key_index"] = p.keyIndex ? Json(*p.keyIndex) : Json();
    j["tree"]      = p.written.empty() || !p.readBack.empty() ? Json() : Json(p.written);
    j["verified"]  = r.verified && p.readBack.empty() && !p.written.empty();
    j["nodes"]     = r.nodes;
    j["time_ms"]   = std::int64_t(r.ms + 0.5);
    j["cpu_ms"]    = p.cpuMs;
    j["threads"]   = p.threads;
    if (r.limitHit && r.result != solver::Result::MATE)
        j["limit"] = r.error.empty() ? "limit reached" : r.error;
    else if (!r.error.empty() && !r.limitHit)
        j["error"] = r.error;
    if (std::string(p.split) == ShardFrontierName) {
        // What a frontier part proved is in its items; the part's own fields only summarise.
        int least = p.items.empty() ? 0 : p.items.front().noMateUpTo;
        for (const ShardItem& i : p.items)
            least = std::min(least, i.noMateUpTo);
        j["mate_in"]       = Json();
        j["no_mate_up_to"] = least;
        j["frontier"]      = p.frontier ? Json(*p.frontier) : Json();
        j["group"]         = p.group;
        Json items         = Json::array();
        for (const ShardItem& i : p.items) {
            const bool mate = i.result == solver::Result::MATE;
            Json       o;
            o["index"]         = i.index;
            o["key_index"]     = i.keyIndex;
            o["defence_index"] = i.defenceIndex ? Json(*i.defenceIndex) : Json();
            o["key"]           = i.key;
            o["defence"]       = i.defenceIndex ? Json(i.defence) : Json();
            o["result"]        = solver::result_name(i.result);
            o["mate_in"]       = mate ? Json(i.mateIn) : Json();
            o["no_mate_up_to"] = i.noMateUpTo;
            o["tree"]          = mate ? Json(i.tree) : Json();
            o["nodes"]         = i.nodes;
            if (!i.limit.empty()) o["limit"] = i.limit;
            items.push_back(o);
        }
        j["items"] = items;
    }
    if (p.within)
        j["within"] = {
            {"part", p.within->part}, {"parts", p.within->parts}, {"split", p.within->split}};
    j["exit_code"] = p.exitCode;
    return json_text(j);
}

std::string shard_merge_json(const ShardMerge& m) {
    const Json& first = *m.first;
    Json        j;
    j["result"]        = m.mate ? "mate" : m.noMate ? "no-mate" : "unknown";
    j["mate_in"]       = m.mate ? Json(m.bestMateIn) : Json();
    j["no_mate_up_to"] = m.mate ? m.bestMateIn - 1 : m.excluded;
    if ((m.best || m.frontier) && m.bestMateIn && !m.mate) j["mate_proven"] = m.bestMateIn;
    j["max_mate"]      = m.maxMate;
    j["file"]          = first["file"];
    j["position_hash"] = first["position_hash"];
    j["parts"]         = m.parts;
    j["unfinished"]    = m.unfinished;
    j["keys"]          = m.best ? (*m.best)["keys"] : Json::array();
    j["key_part"]      = m.best ? Json(m.bestPart) : Json();
    j["nodes"]         = m.nodes;
    j["cpu_ms"]        = m.cpuMs;
    j["time_ms"]       = m.timeMs;
    j["makespan_ms"]   = m.makespanMs;
    j["verified"]      = m.mate && m.best && !(*m.best)["tree"].is_null();
    j["tree"]          = m.mate && m.best ? (*m.best)["tree"] : Json();
    if (m.frontier) {
        j["keys"]     = m.key.empty() ? Json::array() : Json::array({m.key});
        j["key_part"] = Json();
        j["verified"] = m.mate && !m.tree.empty();
        j["tree"]     = m.mate && !m.tree.empty() ? Json(m.tree) : Json();
    }
    j["exit_code"] = m.exitCode;
    return json_text(j);
}

} // namespace fived::report
