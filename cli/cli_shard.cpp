// One puzzle on many machines (README "One puzzle on many machines"): `fived solve FILE --shard
// I/N` and `fived shard-merge RECORD...`.
//
// The split. The root's attacker actions, in the solver's standard order (Solver::
// legal_actions()), are dealt round-robin: action i (from 0) belongs to part (i mod N) + 1. Each
// part solves with SolveOptions::rootActions set to its actions: iterative deepening on the mate
// length as the whole solve does (bound 1, 2, ... max), each bound asking of each of its actions
// whether the defender is lost within bound - 1. Parts share nothing at run time; a part with no
// action (N larger than the root's actions) proves "no mate" for its empty share at once.
//
// What a part proves, for its actions only: MATE in m (no action of it mates in fewer, one
// mates in m; the key is the first such in standard order, with its tree), NO_MATE (none mates
// within max), or UNKNOWN with u = no_mate_up_to (none mates within u; bound u + 1 stopped).
//
// The merge (exactness). Let m be the least mate length any part proved. "Mate in m" is the
// answer of the whole search only if every other part excludes a shorter mate: a MATE part has
// m_p >= m by the choice of m; a NO_MATE part excludes every length; an UNKNOWN part must have
// u_p >= m - 1. Then no action mates in fewer than m and some mates in m: the single-process
// solve's mate length. Its key is the first key of length m in standard order when every part
// with u_p < m is decided at m (the merge takes, among the parts that proved m, the key of least
// root index; an UNKNOWN part with u_p = m - 1 could hold an earlier key of length m, so the key
// is then one of the keys, not necessarily the first). The single solve's key is the first in
// standard order too, except for a mate in 1 (the mate-in-one search's first) and a root wider
// than streamAbove (the search's order): there the keys may differ, not the length. Else the answer
// is UNKNOWN, with "mate in m proven" and no mate within min u_p. Without a mate: NO_MATE only when
// every part proved it, else UNKNOWN within min over parts of what they excluded, naming the
// unfinished parts.
//
// Records are checked before anything is merged: each line must be a whole record of this
// format; all must be of one puzzle (position hash), bound, options that change the answer
// (max_actions), split scheme and part count, with each part 1..N exactly once. Anything else is
// bad input (exit 2) naming the record (FILE:LINE). The chosen tree is read back from its text
// and re-checked with check_proof(), the proof check of `fived verify`, at the position of the
// records' hash.
#include "cli/cli_shard.h"

#include <sys/resource.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "notation/fen.h"
#include "notation/format.h"
#include "notation/reader.h"
#include "notation/tree.h"
#include "notation/writer.h"
#include "report/shard_json.h"
#include "report/solution.h"
#include "solver/verify.h"

namespace fived::cli {

namespace {

using movegen::Move;
using movegen::Multiverse;
using Json = nlohmann::json; // not `json`: a unity build would shadow `bool json` elsewhere
using report::read_back_problem;
using report::written_solution;

using report::ShardRecordKind;
using report::ShardRecordVersion;
using report::ShardSplitName;

double cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec)
        + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

} // namespace

int solve_shard(const notation::LoadedGame& game, const Multiverse& root, const std::string& file,
    const std::string& spec, solver::SolveOptions o, std::size_t group) {
    int part = 1, parts = 1;
    if (!parse_shard(spec, "fived solve", false, part, parts)) return ExitBadInput;
    const double                   cpu0 = cpu_seconds();
    std::vector<std::vector<Move>> all, mine;
    o.rootActions = &mine;
    solver::Solver s(root, o);
    if (!s.table_ok()) {
        std::cerr << "--hash " << o.hashMb << ": cannot allocate a transposition table of "
                  << o.hashMb << " MB\n";
        return ExitBadInput;
    }
    const bool          listed = s.legal_actions({}, all, o.actionLimit ? o.actionLimit : SIZE_MAX);
    solver::SolveResult r;
    if (listed) {
        for (std::size_t i = std::size_t(part - 1); i < all.size(); i += std::size_t(parts))
            mine.push_back(all[i]);
        r = s.solve();
        if (r.noMemory) return ExitBadInput;
    } else {
        r.error = s.limit_reason();
        if (r.error.empty())
            r.error = "the root has more than " + std::to_string(o.actionLimit)
                + " legal actions (--max-actions)";
        r.limitHit = true;
        r.nodes    = s.nodes();
    }
    // The tree as solve writes it, read back and checked before it is recorded.
    std::string written, readBack;
    if (!r.internal && r.result == solver::Result::MATE && r.treeBuilt) {
        const notation::GameTree gt = written_solution(game, root, r.tree, r.mateIn, group);
        written                     = notation::write_tree(gt);
        readBack                    = read_back_problem(written, gt, r.mateIn);
    }
    const int exitCode = r.internal || !readBack.empty() ? ExitInternal
        : r.result == solver::Result::MATE               ? ExitOk
        : r.result == solver::Result::NO_MATE            ? ExitNegative
                                                         : ExitUnknown;
    if (r.internal) std::cerr << display_name(file) << ": internal error: " << r.error << '\n';
    if (!readBack.empty())
        std::cerr << display_name(file)
                  << ": internal error: the solution tree as written fails the self-check: "
                  << readBack << '\n';
    report::ShardPart rec;
    rec.file       = display_name(file);
    rec.root       = &root;
    rec.maxMate    = o.maxMate;
    rec.maxActions = o.actionLimit;
    rec.part       = part;
    rec.parts      = parts;
    if (listed) rec.rootActions = all.size();
    rec.owned = mine.size();
    rec.r     = &r;
    if (!r.keys.empty()) rec.keyIndex = std::find(all.begin(), all.end(), r.keys[0]) - all.begin();
    rec.written  = written;
    rec.readBack = readBack;
    rec.cpuMs    = std::int64_t((cpu_seconds() - cpu0) * 1000.0 + 0.5);
    rec.threads  = o.threads;
    rec.exitCode = exitCode;
    std::cout << report::shard_record_json(rec) << '\n';
    return exitCode;
}

namespace {

// One record of a part, as read by the merge.
struct Part {
    std::string  where; // FILE:LINE
    Json         j;
    int          part = 0, parts = 0, maxMate = 0, mateIn = 0, noMateUpTo = 0;
    std::string  result;
    std::int64_t keyIndex = -1;
};

bool is_count(const Json& v) { return v.is_number_unsigned(); }

// Reads one line as a record; "" when it is a well-formed one, else why not.
std::string read_part(const std::string& line, Part& p) {
    p.j           = Json::parse(line, nullptr, false);
    const Json& j = p.j;
    if (j.is_discarded() || !j.is_object())
        return "not a JSON object (a truncated or damaged record)";
    if (!j.contains("record") || j["record"] != ShardRecordKind)
        return "not a record of `fived solve --shard`";
    if (!j.contains("version") || j["version"] != ShardRecordVersion)
        return "a record of another version (this fived reads version "
            + std::to_string(ShardRecordVersion) + ")";
    static const char* const counts[] = {"max_mate", "max_actions", "part", "parts", "owned",
        "no_mate_up_to", "nodes", "time_ms", "cpu_ms", "exit_code"};
    for (const char* k : counts)
        if (!j.contains(k) || !is_count(j[k]))
            return std::string("field ") + k + " missing or not a count";
    static const char* const strings[] = {"file", "position_hash", "split", "result"};
    for (const char* k : strings)
        if (!j.contains(k) || !j[k].is_string())
            return std::string("field ") + k + " missing or not a string";
    for (const char* k : {"root_actions", "mate_in", "key_index"})
        if (!j.contains(k) || !(j[k].is_null() || is_count(j[k])))
            return std::string("field ") + k + " missing or not a count or null";
    if (!j.contains("tree") || !(j["tree"].is_null() || j["tree"].is_string()))
        return "field tree missing or not a string or null";
    if (!j.contains("keys") || !j["keys"].is_array()) return "field keys missing or not a list";
    p.part       = j["part"].get<int>();
    p.parts      = j["parts"].get<int>();
    p.maxMate    = j["max_mate"].get<int>();
    p.noMateUpTo = j["no_mate_up_to"].get<int>();
    p.result     = j["result"].get<std::string>();
    p.mateIn     = j["mate_in"].is_null() ? 0 : j["mate_in"].get<int>();
    p.keyIndex   = j["key_index"].is_null() ? -1 : j["key_index"].get<std::int64_t>();
    if (p.parts < 1 || p.part < 1 || p.part > p.parts) return "part is not within 1..parts";
    // What the result claims must hold together (a record that does not is not fived's).
    const bool ok = p.result == "mate" ? p.mateIn >= 1 && p.mateIn <= p.maxMate
            && p.noMateUpTo == p.mateIn - 1 && p.keyIndex >= 0 && !j["keys"].empty()
        : p.result == "no-mate" ? p.mateIn == 0 && p.noMateUpTo == p.maxMate
        : p.result == "unknown" ? p.mateIn == 0 && p.noMateUpTo < p.maxMate
                                : false;
    if (!ok) return "result " + p.result + " does not agree with mate_in and no_mate_up_to";
    if (!j["root_actions"].is_null()) {
        const std::int64_t n     = j["root_actions"].get<std::int64_t>();
        const std::int64_t owned = n / p.parts + (std::int64_t(p.part - 1) < n % p.parts ? 1 : 0);
        if (j["owned"].get<std::int64_t>() != owned
            || (p.keyIndex >= 0 && (p.keyIndex >= n || p.keyIndex % p.parts != p.part - 1)))
            return "its actions are not part " + std::to_string(p.part) + " of "
                + std::to_string(p.parts) + " of the split " + ShardSplitName;
    } else if (p.result != "unknown") {
        return "a decided part without the root's actions";
    }
    return "";
}

// Why b is not of the same search as a ("" if it is): puzzle, bound, options, split.
std::string foreign(const Part& a, const Part& b) {
    auto differs = [&](const char* k) { return a.j[k] != b.j[k]; };
    auto says    = [&](const char* what, const char* k) {
        return std::string(what) + ": " + k + " " + b.j[k].dump() + ", not " + a.j[k].dump()
            + " as in " + a.where;
    };
    if (differs("position_hash")) return says("another puzzle", "position_hash");
    if (differs("max_mate")) return says("another bound", "max_mate");
    if (differs("max_actions")) return says("other options", "max_actions");
    if (differs("split")) return says("another split", "split");
    if (differs("parts")) return says("another split", "parts");
    if (!a.j["root_actions"].is_null() && !b.j["root_actions"].is_null() && differs("root_actions"))
        return says("another puzzle", "root_actions");
    return "";
}

// The records of the files, checked; false (the message printed) on a bad one.
bool read_parts(const std::vector<std::string>& files, std::vector<Part>& byPart) {
    std::vector<Part> seen;
    for (const std::string& f : files) {
        std::ifstream in(f, std::ios::binary);
        if (f == "-" ? !std::cin : !in) {
            std::cerr << display_name(f) << ": cannot be read\n";
            return false;
        }
        const std::string text = f == "-"
            ? std::string(std::istreambuf_iterator<char>(std::cin), {})
            : std::string(std::istreambuf_iterator<char>(in), {});
        if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
            std::cerr << display_name(f) << ": no record (an empty file)\n";
            return false;
        }
        int n = 0;
        for (std::size_t pos = 0; pos < text.size();) {
            ++n;
            const std::size_t nl   = text.find('\n', pos);
            const std::string line = text.substr(pos, nl == std::string::npos ? nl : nl - pos);
            pos                    = nl == std::string::npos ? text.size() : nl + 1;
            if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
            Part p;
            p.where         = display_name(f) + ':' + std::to_string(n) + ":1";
            std::string why = read_part(line, p);
            if (!why.empty() && nl == std::string::npos)
                why = "a last record cut short (" + why + "; a part killed while writing it?)";
            if (why.empty() && !seen.empty()) why = foreign(seen.front(), p);
            if (why.empty())
                for (const Part& q : seen)
                    if (q.part == p.part)
                        why = "part " + std::to_string(p.part) + " of " + std::to_string(p.parts)
                            + " given twice (also " + q.where + ")";
            if (!why.empty()) {
                std::cerr << p.where << ": " << why << '\n';
                return false;
            }
            seen.push_back(std::move(p));
        }
    }
    if (seen.empty()) {
        std::cerr << "fived shard-merge: no record in the files given\n";
        return false;
    }
    const Part& any   = seen.front();
    const int   parts = any.parts;
    std::string missing;
    int         nMissing = 0;
    for (int i = 1; i <= parts; ++i)
        if (std::none_of(seen.begin(), seen.end(), [&](const Part& p) { return p.part == i; })) {
            missing += (missing.empty() ? "" : ", ") + std::to_string(i);
            ++nMissing;
        }
    byPart.assign(std::size_t(parts), Part{});
    for (Part& p : seen)
        byPart[std::size_t(p.part - 1)] = p;
    if (nMissing) {
        std::cerr << "fived shard-merge: " << (nMissing > 1 ? "parts " : "part ") << missing
                  << " of " << parts << " missing (no record given): run `fived solve "
                  << any.j["file"].get<std::string>() << " --mate " << any.maxMate << " --shard I/"
                  << parts << "` for " << (nMissing > 1 ? "them" : "it") << '\n';
        return false;
    }
    return true;
}

} // namespace

namespace {

// The tree text of a record read back and re-checked as `fived verify` checks a proof, at the
// position of the records' hash: "" when it is a complete proof of a mate in mateIn.
std::string tree_problem(const std::string& text, const std::string& hash, int mateIn) {
    notation::ReadOptions opt; // strict, as verify reads
    opt.annotate = false;
    std::vector<notation::Diagnostic>       errors;
    const std::optional<notation::GameTree> gt =
        notation::read_game_tree(text, "<tree>", opt, errors);
    if (!gt)
        return "its tree does not read: "
            + (errors.empty() ? std::string("no diagnostic") : errors.front().to_string());
    std::size_t prelude = 0;
    for (const auto& [k, v] : gt->headers)
        if (k == "Prelude") prelude = std::size_t(std::stoul(v));
    const std::vector<int> mainLine = gt->main_line();
    if (prelude >= mainLine.size()) return "its tree's main line is shorter than its prelude";
    const int  top = mainLine[prelude];
    Multiverse at  = notation::position_at(*gt, top);
    if (notation::state_hash(at) != hash) return "its tree is of another position";
    const solver::SolutionTree tree = *gt->subtree(top);
    const solver::ProofReport  rep  = solver::check_proof(at, tree, 1, &notation::format_action);
    const std::string          mismatch = solver::proof_mismatch(rep, mateIn);
    return mismatch.empty() ? "" : "its tree is " + mismatch;
}

int cmd_shard_merge(const std::vector<std::string>& files, bool asJson) {
    std::vector<Part> parts;
    if (!read_parts(files, parts)) return ExitBadInput;
    const Part& first   = parts.front();
    const int   maxMate = first.maxMate;
    // The least mate proved, and of the parts that proved it, the key of least root index.
    const Part* best = nullptr;
    for (const Part& p : parts)
        if (p.result == "mate"
            && (!best || p.mateIn < best->mateIn
                || (p.mateIn == best->mateIn && p.keyIndex < best->keyIndex)))
            best = &p;
    // What every part excludes (no mate within it), and which did not finish.
    int              excluded = maxMate;
    std::vector<int> unfinished;
    std::uint64_t    nodes = 0, cpuMs = 0, timeMs = 0, makespan = 0;
    for (const Part& p : parts) {
        excluded = std::min(excluded, p.noMateUpTo);
        if (p.result == "unknown") unfinished.push_back(p.part);
        nodes += p.j["nodes"].get<std::uint64_t>();
        cpuMs += p.j["cpu_ms"].get<std::uint64_t>();
        timeMs += p.j["time_ms"].get<std::uint64_t>();
        makespan = std::max(makespan, p.j["time_ms"].get<std::uint64_t>());
    }
    // Mate in m is the whole answer when no part leaves a shorter mate open (see the top).
    const bool  mate   = best && excluded >= best->mateIn - 1;
    const bool  noMate = !best && unfinished.empty();
    std::string problem;
    if (mate && !best->j["tree"].is_null()) {
        problem = tree_problem(
            best->j["tree"].get<std::string>(), first.j["position_hash"], best->mateIn);
        if (!problem.empty()) {
            std::cerr << best->where << ": " << problem << '\n';
            return ExitBadInput;
        }
    }
    const int         exitCode = mate ? ExitOk : noMate ? ExitNegative : ExitUnknown;
    const std::string partList = [&] {
        std::string t;
        for (const int u : unfinished)
            t += (t.empty() ? "" : ", ") + std::to_string(u);
        return t;
    }();
    if (!unfinished.empty())
        std::cerr << "fived shard-merge: " << (unfinished.size() > 1 ? "parts " : "part ")
                  << partList << " of " << parts.size()
                  << " unfinished; re-run with more time or nodes: fived solve "
                  << first.j["file"].get<std::string>() << " --mate " << maxMate << " --shard I/"
                  << parts.size() << " for I in " << partList
                  << " (with the parts' other options)\n";
    if (asJson) {
        report::ShardMerge m;
        m.first      = &first.j;
        m.best       = best ? &best->j : nullptr;
        m.bestPart   = best ? best->part : 0;
        m.bestMateIn = best ? best->mateIn : 0;
        m.mate       = mate;
        m.noMate     = noMate;
        m.maxMate    = maxMate;
        m.excluded   = excluded;
        m.parts      = parts.size();
        m.unfinished = unfinished;
        m.nodes      = nodes;
        m.cpuMs      = cpuMs;
        m.timeMs     = timeMs;
        m.makespanMs = makespan;
        m.exitCode   = exitCode;
        std::cout << report::shard_merge_json(m) << '\n';
        return exitCode;
    }
    if (mate && !best->j["tree"].is_null()) {
        std::cout << best->j["tree"].get<std::string>();
    } else if (mate) {
        std::cout << mate_text(best->mateIn) << ": " << best->j["keys"][0].get<std::string>()
                  << " {part " << best->part << ": "
                  << best->j.value("error", std::string("no tree")) << "}\n";
    } else if (noMate) {
        std::cout << "no mate in " << maxMate << " or fewer\n";
    } else {
        std::cout << "unknown (" << (unfinished.size() > 1 ? "parts " : "part ") << partList
                  << " of " << parts.size() << " unfinished";
        if (best)
            std::cout << "; " << mate_text(best->mateIn) << " proven with key "
                      << best->j["keys"][0].get<std::string>();
        if (excluded) std::cout << "; no mate in " << excluded << " or fewer";
        std::cout << "; " << nodes << " nodes)\n";
    }
    return exitCode;
}

} // namespace

void register_shard_commands(const Commands& commands, int& exitCode) {
    struct MergeCli {
        std::vector<std::string> files;
        bool                     json = false;
    };
    auto mc = std::make_shared<MergeCli>();
    if (auto* merge = commands.add("shard-merge",
            "join the records of the N parts of `fived solve FILE --shard I/N` into the answer "
            "of the whole search")) {
        merge->add_option("RECORD", mc->files, "record files (JSON lines; '-' = standard input)")
            ->required();
        merge->add_flag("--json", mc->json, "print one JSON object");
        merge->callback([&exitCode, mc] { exitCode = cmd_shard_merge(mc->files, mc->json); });
    }
}

} // namespace fived::cli
