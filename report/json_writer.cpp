// The JSON formats of solve and verify: one object a run (README "JSON output",
// docs/fived.schema.json), written with json_text().
#include <cstdint>
#include <ostream>

#include <nlohmann/json.hpp>

#include "movegen/action.h"
#include "notation/format.h"
#include "report/exit_status.h"
#include "report/json_text.h"
#include "report/writers.h"

namespace fived::report {

namespace {

using movegen::Multiverse;
using solver::SolutionTree;

nlohmann::json tree_json(const Multiverse& root, const SolutionTree& t) {
    // Built bottom-up (children have larger indices).
    std::vector<nlohmann::json>    js(t.nodes.size());
    const std::vector<std::string> text = action_texts(root, t);
    for (std::size_t i = t.nodes.size(); i-- > 0;) {
        nlohmann::json j;
        if (i) j["action"] = text[i];
        if (t.nodes[i].mate()) j["mate"] = true;
        nlohmann::json kids = nlohmann::json::array();
        for (int c : t.nodes[i].children)
            kids.push_back(std::move(js[std::size_t(c)]));
        if (!kids.empty()) j["children"] = std::move(kids);
        js[i] = std::move(j);
    }
    return js[0];
}

// The main line of the file in full notation, from its start position (so that a line of the
// tree can be replayed elsewhere as prelude + line).
nlohmann::json prelude_json(const notation::LoadedGame& game) {
    Multiverse                     p = game.start.fork();
    std::vector<movegen::MoveUndo> u;
    std::vector<std::string>       prelude;
    for (const auto& a : game.mainLine) {
        prelude.push_back(notation::format_action(p, a));
        movegen::do_action(p, a, u);
    }
    return prelude;
}

const char* side_name(movegen::Color c) { return c == movegen::WHITE ? "white" : "black"; }

void write_solve_json(const SolveReport& rep, std::ostream& out) {
    const solver::SolveResult& r = rep.r;
    nlohmann::json             j;
    j["result"]  = solver::result_name(r.result);
    j["mate_in"] = r.result == solver::Result::MATE ? nlohmann::json(r.mateIn) : nlohmann::json();
    j["no_mate_up_to"] = r.noMateUpTo;
    if (r.stoppedAt)
        j["stopped_at"] = {{"mate_in", r.stoppedAt}, {"keys_refuted", r.keysRefuted},
            {"keys", r.keysInAll ? nlohmann::json(r.keysInAll) : nlohmann::json()}};
    j["max_mate"]    = rep.maxMate;
    j["claim"]       = rep.claimed ? nlohmann::json(rep.claimed) : nlohmann::json();
    j["claim_holds"] = rep.claimHolds ? nlohmann::json(*rep.claimHolds) : nlohmann::json();
    j["side"]        = side_name(rep.root->to_move());
    j["keys"]        = rep.keys;
    j["nodes"]       = r.nodes;
    j["time_ms"]     = std::int64_t(r.ms + 0.5);
    j["threads"]     = rep.threads;
    j["hashfull"]    = r.hashfull;
    j["verified"]    = r.verified && rep.readBack.empty();
    j["prelude"]     = prelude_json(*rep.game);
    j["start_side"]  = side_name(rep.game->start.to_move());
    // A limit that fired once the mate and its whole tree were proven (while the tree was
    // re-checked, say) stopped nothing: a proved mate is not reported beside a limit.
    const bool complete = r.result == solver::Result::MATE && r.treeBuilt;
    if (r.limitHit && !complete) {
        j["limit_hit"] = true;
        j["limit"]     = r.error.empty() ? "limit reached" : r.error;
    } else if (!r.error.empty() && !r.limitHit) {
        j["error"] = r.error; // (with a limit hit, r.error names the limit)
    }
    if (!rep.readBack.empty())
        j["error"] = "internal: the solution tree as written fails the self-check: " + rep.readBack;
    if (r.result == solver::Result::UNKNOWN && r.mateIn) j["mate_proven"] = r.mateIn;
    if (r.treeBuilt) j["tree"] = tree_json(*rep.root, r.tree);
    j["exit_code"] = rep.exitCode;
    out << json_text(j) << '\n';
}

void write_verify_json(const VerifyReport& r, std::ostream& out) {
    const solver::ProofReport& rep = r.rep;
    nlohmann::json             j;
    j["complete"]          = r.proofDecided ? nlohmann::json(rep.complete) : nlohmann::json();
    j["mate_in"]           = rep.length;
    j["side"]              = side_name(r.attacker);
    j["prelude"]           = r.prelude;
    j["claim"]             = r.claimed ? nlohmann::json(r.claimed) : nlohmann::json();
    j["keys"]              = r.treeKeys;
    j["leaves"]            = rep.leaves;
    j["answered_by_group"] = rep.answeredByGroup;
    j["problems"]          = r.problems;
    if (r.decided) {
        j["cooks"]        = r.cooks;
        j["cooks_capped"] = r.cooksCapped;
        j["shortest"]     = r.shortest;
        j["claim_holds"]  = r.claimDecided ? nlohmann::json(r.claimHolds) : nlohmann::json();
        j["duals"]        = r.duals;
        if (r.tries) {
            nlohmann::json tr = nlohmann::json::array();
            for (const auto& [t, line] : r.triesText)
                tr.push_back({{"try", t}, {"refutation", line}});
            j["tries"] = tr;
        }
    } else if (!r.notATree) {
        j["limit"] = r.why;
    }
    j["verdict"]   = r.verdict;
    j["exit_code"] = r.exitCode;
    out << json_text(j) << '\n';
}

} // namespace

const SolveWriter& json_solve_writer() {
    static const SolveWriter w{"json", "one JSON object (as --json)", false, &write_solve_json};
    return w;
}

const VerifyWriter& json_verify_writer() {
    static const VerifyWriter w{"json", "one JSON object (as --json)", &write_verify_json};
    return w;
}

} // namespace fived::report
