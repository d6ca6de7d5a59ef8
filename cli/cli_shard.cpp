// One puzzle on many machines (README "One puzzle on many machines"): `fived solve FILE --shard
// I/N` and `fived shard-merge RECORD...`.
//
// The split. The root's attacker actions, in the solver's standard order (Solver::
// legal_actions()), are dealt round-robin (--shard-split root, `root-round-robin`): action i (from
// 0) belongs to part (i mod N) + 1; by default in blocks (below). Each
// part solves with SolveOptions::rootActions set to its actions: iterative deepening on the mate
// length as the whole solve does (bound 1, 2, ... max), each bound asking of each of its actions
// whether the defender is lost within bound - 1; the root is searched as in the whole solve, the
// other parts' actions skipped (SearchContext::rootShare). Parts share nothing at run time; a
// part with no action (N larger than the root's actions) proves "no mate" for its empty share at
// once.
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
// The default (--shard-split auto or block, `root-block`): part I owns the run of actions
// [A (I - 1) / N, A I / N) instead; the merge is the same (the key of least root index is still
// the first in standard order).
//
// The split by hash (`root-hash`), taken when the root has more legal actions than --max-actions
// (too wide to list; not when --time, --nodes or SIGINT stopped the listing): root action a belongs
// to part action_part(a, N) + 1 (solver/history.h: a hash of its moves, the same on every machine),
// and each part searches the root as the whole solve does with the others' actions skipped
// (SolveOptions::rootHashParts). Every action is in exactly one part, so the merge above holds;
// no part knows the root's order, so keys have no index and the key is the least part's of those
// that proved m (one of the keys of length m, as the single solve's on a root this wide).
//
// The frontier split (`frontier-round-robin`; cli_shard_frontier.cpp), taken when N exceeds the
// root's actions A and the bound M is 2 or more (--shard-split auto; `frontier` forces it, `root`
// and `block` keep the root's split): the items are, for each root action a in standard order, the
// defender's legal actions d after it in standard order (Solver::legal_actions(), each list
// within --max-actions), and a root action after which the defender has none is one item of its
// own. Item j (from 0, over the whole list) belongs to part (j mod N) + 1. A part searches each
// of its pairs with a Solver of its own at the position after a and d (attacker to move),
// iterative deepening on the bound 1 .. M - 1 (SolveOptions mate M - 1; the part's --time and
// --nodes shared by its items, searched in rounds of growing node budgets, each attempt resuming
// at the bound the last one reached: minMate = no_mate_up_to + 1); an item without defence is
// searched as the share {a} of the root with bound M. What an item proves, with J(a, d) the
// least mate length after a and d: MATE j (J = j, with the tree of the line a, d and the mate
// below), NO_MATE (J > M - 1) or UNKNOWN u (J > u); x_d = j - 1, M - 1 or u is how far it
// excludes J.
//
// The frontier merge (exactness; report/shard_frontier.h counts). a mates within n iff every
// defence d has J(a, d) <= n - 1 (a defence is the defender's choice). So: a mates in exactly
// L(a) = 1 + max_d j_d when every item of a is MATE; and a does not mate within n whenever some d
// has J(a, d) > n - 1, which x_d proves for n <= x_d + 1, so a excludes E(a) = min(M, 1 + max_d
// x_d) (a NO_MATE defence: E(a) = M). An item without defence is a's own answer: L(a) = j, E(a)
// = j - 1, M or u. Let m be the least L(a). "Mate in m" is the whole answer iff every root
// action excludes a shorter mate, E(a) >= m - 1 for all a (a key of length L(a) >= m has E(a) =
// L(a) - 1 >= m - 1): then no action mates in fewer than m and one mates in m, the single
// solve's length. The key is the least root index with L(a) = m; it is the single solve's key
// when every earlier action has E >= m (always, once every item is decided), with the same
// exceptions as above (a mate in 1, a wide root); else one of the keys. "No mate" iff E(a) = M
// for every a; else unknown with "mate in m proven" and no mate within min_a E(a). A pair
// unknown is not always a part unknown's price: a defence that survives excludes its key
// whatever the others, and a root action the defender can answer never mates in 1. The tree:
// each pair's tree (written ungrouped, so every defence reads back as a node) is read back, the
// defences' subtrees are grafted under the key in standard order, and the whole is written as
// solve writes it (with the parts' --group) and re-checked with check_proof() as below.
//
// A part split again (--shard-sub J/M, `within` the part): part I's own root actions (its share
// of the round-robin or block split) are the keys of a frontier split of their own, dealt over M
// sub-parts as above. Their merge is the frontier merge over those keys only (each key's
// defences in order, the keys part I's share): L(a) and E(a) of each of part I's actions, so
// part I proves mate in m (the least L(a), with E(a) >= m - 1 for each of its actions; its key
// the least root index of length m), no mate (E(a) = M for each), or unknown within min E(a),
// which is what a record of part I would say; it joins the other parts by the merge above.
//
// Records are checked before anything is merged: each line must be a whole record of this
// format; all must be of one puzzle (position hash), bound, options that change the answer
// (max_actions), split scheme and part count, with each part 1..N exactly once (a part that
// could not list the root has no scheme and joins either); a frontier record's items must be
// its share of the frontier, and all items together each root action's defences in order.
// Anything else is bad input (exit 2) naming the record (FILE:LINE). The chosen tree is read back
// from its text and re-checked with check_proof(), the proof check of `fived verify`, at the
// position of the records' hash.
#include "cli/cli_shard.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
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
#include "report/shard_frontier.h"
#include "report/shard_json.h"
#include "report/solution.h"
#include "report/solve_report.h"
#include "solver/verify.h"

namespace fived::cli {

namespace {

using movegen::Move;
using movegen::Multiverse;
using Json = nlohmann::json; // not `json`: a unity build would shadow `bool json` elsewhere
using movegen::TreeNode;
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

// The first action of block b (from 0) of n over a actions (`root-block`): floor(a b / n).
std::size_t block_start(std::size_t a, int b, int n) { return a * std::size_t(b) / std::size_t(n); }

// The root indices of part I of N of a actions, ascending: round-robin (i mod N = I - 1) or the
// block [a (I - 1) / N, a I / N).
std::vector<std::int64_t> share_of(std::size_t a, int part, int parts, bool blocks) {
    std::vector<std::int64_t> mine;
    if (blocks)
        for (std::size_t i = block_start(a, part - 1, parts); i < block_start(a, part, parts); ++i)
            mine.push_back(std::int64_t(i));
    else
        for (std::size_t i = std::size_t(part - 1); i < a; i += std::size_t(parts))
            mine.push_back(std::int64_t(i));
    return mine;
}

// How many of a actions part I of N owns: share_of(...).size(), without the list.
std::int64_t share_size(std::int64_t a, int part, int parts, bool blocks) {
    if (blocks)
        return std::int64_t(block_start(std::size_t(a), part, parts)
            - block_start(std::size_t(a), part - 1, parts));
    return a / parts + (part - 1 < a % parts ? 1 : 0);
}

} // namespace

int solve_shard(const notation::LoadedGame& game, const Multiverse& root, const std::string& file,
    const std::string& spec, solver::SolveOptions o, std::size_t group, const std::string& split,
    std::uint64_t firstBudget, const std::string& subSpec) {
    int part = 1, parts = 1, sub = 0, subs = 0;
    if (spec == "slurm" && subSpec == "slurm") {
        std::cerr << "fived solve: --shard slurm with --shard-sub slurm: one job array cannot be "
                     "both; give the part as --shard I/N\n";
        return ExitBadInput;
    }
    if (!parse_shard(spec, "fived solve", false, part, parts)) return ExitBadInput;
    if (!subSpec.empty() && !parse_shard(subSpec, "fived solve", false, sub, subs, "--shard-sub"))
        return ExitBadInput;
    if ((split == "frontier" || sub) && o.maxMate < 2) {
        std::cerr << "fived solve: " << (sub ? "--shard-sub" : "--shard-split frontier")
                  << " needs a bound of 2 or more (--mate " << o.maxMate << ")\n";
        return ExitBadInput;
    }
    if (sub && split == "frontier") {
        std::cerr << "fived solve: --shard-sub splits a part of the root's actions (--shard-split "
                     "auto, root or block), not of the frontier\n";
        return ExitBadInput;
    }
    const double cpu0 = cpu_seconds();
    // --time counts from here for the whole part (the frontier's items share it).
    if (o.timeFrom == std::chrono::steady_clock::time_point{})
        o.timeFrom = std::chrono::steady_clock::now();
    std::vector<std::vector<Move>> all, mine;
    std::vector<std::int64_t>      mineIndex; // the root index of each of mine (ascending)
    o.rootActions = &mine;
    // The solver that lists the root and searches the listed share; the split by hash replaces it
    // with one of its own (one table at a time), so it is only ever named through `owner`.
    auto owner   = std::make_unique<solver::Solver>(root, o);
    auto noTable = [&] {
        std::cerr << "--hash " << o.hashMb << ": cannot allocate a transposition table of "
                  << o.hashMb << " MB\n";
        return ExitBadInput;
    };
    if (!owner->table_ok()) return noTable();
    const bool listed = owner->legal_actions({}, all, o.actionLimit ? o.actionLimit : SIZE_MAX);
    // Too wide to list within --max-actions (not stopped by --time, --nodes or SIGINT): the split
    // by hash.
    const solver::Limit listStop = listed ? solver::Limit::NONE : owner->limit_kind();
    const bool          hashed =
        !listed && (listStop == solver::Limit::NONE || listStop == solver::Limit::ACTIONS);
    solver::SolveResult r;
    report::ShardPart   rec;
    const bool          frontier = listed && o.maxMate >= 2 && !sub
        && (split == "frontier" || (split == "auto" && std::size_t(parts) > all.size()));
    // The root's actions in blocks unless round-robin is asked for (--shard-split root): blocks
    // did less work and had the shorter longest part on most measured rows (README).
    const bool blocks       = split == "block" || split == "auto";
    int        frontierExit = 0;
    if (sub) {
        // The frontier split of this part's own actions, whatever becomes of the root.
        rec.within = report::ShardPart::Within{
            part, parts, blocks ? report::ShardBlockName : report::ShardSplitName};
        rec.split = report::ShardFrontierName;
        rec.owned = 0; // until the frontier is listed
    }
    if (sub && hashed) {
        std::cerr << "fived solve: --shard-sub: the root has more than " << o.actionLimit
                  << " legal actions (--max-actions), so its parts are split by hash and cannot "
                     "be split further\n";
        return ExitBadInput;
    }
    if (frontier) {
        frontierExit =
            solve_frontier({game, root, part, parts, o, group, firstBudget}, *owner, all, rec, r);
        if (frontierExit == ExitBadInput) return noTable();
    } else if (listed) {
        mineIndex = share_of(all.size(), part, parts, blocks);
        for (const std::int64_t i : mineIndex)
            mine.push_back(all[std::size_t(i)]);
        if (sub) { // (solve_frontier() names its split)
            frontierExit = solve_frontier(
                {game, root, sub, subs, o, group, firstBudget, &mineIndex}, *owner, mine, rec, r);
            if (frontierExit == ExitBadInput) return noTable();
        } else {
            if (blocks) rec.split = report::ShardBlockName;
            r = owner->solve();
            if (r.noMemory) return ExitBadInput;
        }
    } else if (hashed) {
        // A solver of its own for the share by hash (its options say so); the listing's is freed
        // first, so one table is allocated at a time.
        solver::SolveOptions ho = o;
        ho.rootActions          = nullptr;
        ho.rootHashParts        = parts;
        ho.rootHashPart         = part - 1;
        owner.reset();
        owner = std::make_unique<solver::Solver>(root, ho);
        if (!owner->table_ok()) return noTable();
        r = owner->solve();
        if (r.noMemory) return ExitBadInput;
        rec.split = report::ShardHashName;
    } else { // the listing stopped by --time, --nodes or SIGINT (else it is split by hash)
        r.error     = owner->limit_reason();
        r.limitKind = listStop;
        r.limitHit  = true;
        r.nodes     = owner->nodes();
    }
    // The tree as solve writes it, read back and checked before it is recorded.
    std::string written, readBack;
    if (!r.internal && r.result == solver::Result::MATE && r.treeBuilt) {
        const notation::GameTree gt = written_solution(game, root, r.tree, r.mateIn, group);
        written                     = notation::write_tree(gt);
        readBack                    = read_back_problem(written, gt, r.mateIn);
    }
    const int exitCode = frontier || sub      ? frontierExit
        : r.internal || !readBack.empty()     ? ExitInternal
        : r.result == solver::Result::MATE    ? ExitOk
        : r.result == solver::Result::NO_MATE ? ExitNegative
                                              : ExitUnknown;
    if (r.internal || ((frontier || sub) && exitCode == ExitInternal))
        std::cerr << display_name(file) << ": internal error: " << r.error << '\n';
    if (!readBack.empty())
        std::cerr << display_name(file)
                  << ": internal error: the solution tree as written fails the self-check: "
                  << readBack << '\n';
    rec.file       = display_name(file);
    rec.root       = &root;
    rec.maxMate    = o.maxMate;
    rec.maxActions = o.actionLimit;
    rec.part       = sub ? sub : part;
    rec.parts      = sub ? subs : parts;
    if (listed) rec.rootActions = all.size();
    if (!frontier && !hashed && !sub) rec.owned = mine.size(); // by hash: not counted (not listed)
    rec.r = &r;
    if (listed && !r.keys.empty())
        rec.keyIndex = std::find(all.begin(), all.end(), r.keys[0]) - all.begin();
    rec.written  = written;
    rec.readBack = readBack;
    rec.cpuMs    = std::int64_t((cpu_seconds() - cpu0) * 1000.0 + 0.5);
    // The part's wall time from its start (--time's), whatever path it took: a part that could
    // not list its root or frontier wrote 0 (cwmtt-ctp1 --at -5 --shard 1/16: 2.6 s of CPU).
    r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - o.timeFrom)
               .count();
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
    // The frontier split: the items, in the order of the record (their index ascending).
    bool                              frontier = false, listed = false;
    std::vector<report::FrontierItem> items;
    std::vector<std::int64_t>         itemIndex, defenceIndex; // -1: root-level
    // --shard-sub: this record is sub-part `part` of `parts` of the frontier of part `within` of
    // `withinParts` of the root's split `withinSplit` (0: a part of the whole split).
    int         within = 0, withinParts = 0;
    std::string withinSplit;
};

// The part of the whole split a record stands for, their count and the split.
int         whole_part(const Part& p) { return p.within ? p.within : p.part; }
int         whole_parts(const Part& p) { return p.within ? p.withinParts : p.parts; }
std::string whole_split(const Part& p) {
    return p.within ? p.withinSplit : p.j["split"].get<std::string>();
}

bool is_count(const Json& v) { return v.is_number_unsigned(); }

// One item of a frontier record; "" when it holds together.
std::string read_item(const Json& o, const Part& p, std::size_t t, std::int64_t rootActions,
    report::FrontierItem& item, std::int64_t& defence) {
    using Res            = report::FrontierItem::Res;
    const std::string at = "item " + std::to_string(t) + ": ";
    if (!o.is_object()) return at + "not an object";
    for (const char* k : {"index", "key_index", "no_mate_up_to", "nodes"})
        if (!o.contains(k) || !is_count(o[k])) return at + "field " + k + " missing or not a count";
    for (const char* k : {"defence_index", "mate_in"})
        if (!o.contains(k) || !(o[k].is_null() || is_count(o[k])))
            return at + "field " + k + " missing or not a count or null";
    if (!o.contains("key") || !o["key"].is_string() || !o.contains("result")
        || !o["result"].is_string() || !o.contains("tree")
        || !(o["tree"].is_null() || o["tree"].is_string()))
        return at + "field key, result or tree missing or of another type";
    const std::int64_t index = o["index"].get<std::int64_t>();
    if (index != p.part - 1 + std::int64_t(t) * p.parts
        || o["key_index"].get<std::int64_t>() >= rootActions)
        return at + "not an item of part " + std::to_string(p.part) + " of "
            + std::to_string(p.parts) + " of the split " + report::ShardFrontierName;
    item.key                = o["key_index"].get<std::int64_t>();
    item.rootLevel          = o["defence_index"].is_null();
    defence                 = item.rootLevel ? -1 : o["defence_index"].get<std::int64_t>();
    item.mateIn             = o["mate_in"].is_null() ? 0 : o["mate_in"].get<int>();
    item.noMateUpTo         = o["no_mate_up_to"].get<int>();
    const std::string r     = o["result"].get<std::string>();
    const int         bound = item.rootLevel ? p.maxMate : p.maxMate - 1;
    item.res      = r == "mate" ? Res::MATE : r == "no-mate" ? Res::NO_MATE : Res::UNKNOWN;
    const bool ok = r == "mate" ? item.mateIn >= 1 && item.mateIn <= bound
            && item.noMateUpTo == item.mateIn - 1 && o["tree"].is_string()
        : r == "no-mate" ? o["mate_in"].is_null() && item.noMateUpTo == bound
        : r == "unknown" ? o["mate_in"].is_null() && item.noMateUpTo < bound
                         : false;
    if (!ok) return at + "result " + r + " does not agree with mate_in, no_mate_up_to and tree";
    return "";
}

// The frontier fields of a record (split frontier-round-robin); "" when they hold together.
std::string read_frontier(Part& p) {
    const Json& j = p.j;
    p.frontier    = true;
    if (!is_count(j["owned"])) return "field owned missing or not a count";
    if (!j.contains("frontier") || !(j["frontier"].is_null() || is_count(j["frontier"])))
        return "field frontier missing or not a count or null";
    if (!j.contains("group") || !is_count(j["group"])) return "field group missing or not a count";
    if (!j.contains("items") || !j["items"].is_array()) return "field items missing or not a list";
    if (!j["mate_in"].is_null() || !j["key_index"].is_null() || !j["tree"].is_null())
        return "a frontier record with a mate_in, key_index or tree of its own";
    p.listed = !j["root_actions"].is_null() && !j["frontier"].is_null();
    if (!p.listed)
        return p.result == "unknown" && j["items"].empty()
            ? ""
            : "a part without the frontier that is not unknown";
    const std::int64_t n     = j["frontier"].get<std::int64_t>();
    const std::int64_t owned = share_size(n, p.part, p.parts, false); // items round-robin
    if (j["owned"].get<std::int64_t>() != owned || std::int64_t(j["items"].size()) != owned)
        return "its items are not part " + std::to_string(p.part) + " of " + std::to_string(p.parts)
            + " of the split " + report::ShardFrontierName;
    for (std::size_t t = 0; t < j["items"].size(); ++t) {
        report::FrontierItem item;
        std::int64_t         defence = -1;
        const std::string    why =
            read_item(j["items"][t], p, t, j["root_actions"].get<std::int64_t>(), item, defence);
        if (!why.empty()) return why;
        p.items.push_back(item);
        p.itemIndex.push_back(j["items"][t]["index"].get<std::int64_t>());
        p.defenceIndex.push_back(defence);
    }
    using Res                 = report::FrontierItem::Res;
    const Res         res     = report::part_result(p.items);
    const std::string summary = res == Res::UNKNOWN ? "unknown"
        : res == Res::MATE                          ? "mate"
                                                    : "no-mate";
    if (p.result != summary) return "result " + p.result + " does not agree with its items";
    return "";
}

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
    static const char* const counts[] = {"max_mate", "max_actions", "part", "parts",
        "no_mate_up_to", "nodes", "time_ms", "cpu_ms", "exit_code"};
    for (const char* k : counts)
        if (!j.contains(k) || !is_count(j[k]))
            return std::string("field ") + k + " missing or not a count";
    static const char* const strings[] = {"file", "position_hash", "split", "result"};
    for (const char* k : strings)
        if (!j.contains(k) || !j[k].is_string())
            return std::string("field ") + k + " missing or not a string";
    for (const char* k : {"root_actions", "owned", "mate_in", "key_index"})
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
    if (j.contains("within") && !j["within"].is_null()) {
        const Json& w = j["within"];
        if (!w.is_object() || !w.contains("part") || !is_count(w["part"]) || !w.contains("parts")
            || !is_count(w["parts"]) || !w.contains("split")
            || !(w["split"] == ShardSplitName || w["split"] == report::ShardBlockName))
            return std::string("field within is not a part of the split ") + ShardSplitName + " or "
                + report::ShardBlockName;
        p.within      = w["part"].get<int>();
        p.withinParts = w["parts"].get<int>();
        p.withinSplit = w["split"].get<std::string>();
        if (p.withinParts < 1 || p.within < 1 || p.within > p.withinParts)
            return "within: part is not within 1..parts";
        if (j["split"] != report::ShardFrontierName)
            return std::string("a record within a part whose split is not ")
                + report::ShardFrontierName;
    }
    if (j["split"] == report::ShardFrontierName) return read_frontier(p);
    const bool hashed = j["split"] == report::ShardHashName;
    const bool blocks = j["split"] == report::ShardBlockName;
    if (!hashed && !blocks && j["split"] != ShardSplitName)
        return "an unknown split " + j["split"].dump() + " (this fived knows " + ShardSplitName
            + ", " + report::ShardBlockName + ", " + report::ShardHashName + " and "
            + report::ShardFrontierName + ")";
    // What the result claims must hold together (a record that does not is not fived's). A
    // split by hash lists no root: its key has no index.
    const bool ok = p.result == "mate" ? p.mateIn >= 1 && p.mateIn <= p.maxMate
            && p.noMateUpTo == p.mateIn - 1 && (hashed || p.keyIndex >= 0) && !j["keys"].empty()
        : p.result == "no-mate" ? p.mateIn == 0 && p.noMateUpTo == p.maxMate
        : p.result == "unknown" ? p.mateIn == 0 && p.noMateUpTo < p.maxMate
                                : false;
    if (!ok) return "result " + p.result + " does not agree with mate_in and no_mate_up_to";
    if (hashed)
        return j["root_actions"].is_null() && j["owned"].is_null() && p.keyIndex < 0
            ? ""
            : "a record of the split " + std::string(report::ShardHashName)
                + " with root_actions, owned or key_index (it lists no root)";
    if (j["owned"].is_null()) return "field owned missing or not a count";
    if (!j["root_actions"].is_null()) {
        const std::int64_t n     = j["root_actions"].get<std::int64_t>();
        const auto         first = std::int64_t(block_start(std::size_t(n), p.part - 1, p.parts));
        const auto         end   = std::int64_t(block_start(std::size_t(n), p.part, p.parts));
        const std::int64_t owned = share_size(n, p.part, p.parts, blocks);
        const bool         mine  = blocks ? p.keyIndex >= first && p.keyIndex < end
                                          : p.keyIndex < n && p.keyIndex % p.parts == p.part - 1;
        if (j["owned"].get<std::int64_t>() != owned || (p.keyIndex >= 0 && !mine))
            return "its actions are not part " + std::to_string(p.part) + " of "
                + std::to_string(p.parts) + " of the split " + j["split"].get<std::string>();
    } else if (p.result != "unknown") {
        return "a decided part without the root's actions";
    }
    return "";
}

// Did the part choose its split: it listed the root, or found it too wide to list (by hash)?
// (A sub-part's split is the one its command named.)
bool has_split(const Part& p) {
    return p.within || !p.j["root_actions"].is_null() || p.j["split"] == report::ShardHashName;
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
    // A part stopped (--time, SIGINT) while it listed the root's actions could not choose the
    // split: it joins either.
    // A sub-part (--shard-sub) is compared by the split of its whole part.
    auto saysWhole = [&](const std::string& k, const Json& av, const Json& bv) {
        return "another split: " + k + " " + bv.dump() + ", not " + av.dump() + " as in " + a.where;
    };
    if (has_split(a) && has_split(b) && whole_split(a) != whole_split(b))
        return saysWhole("split", whole_split(a), whole_split(b));
    if (whole_parts(a) != whole_parts(b)) return saysWhole("parts", whole_parts(a), whole_parts(b));
    if (!a.j["root_actions"].is_null() && !b.j["root_actions"].is_null() && differs("root_actions"))
        return says("another puzzle", "root_actions");
    if (a.listed && b.listed && a.within == b.within && differs("frontier"))
        return says("another puzzle", "frontier");
    return "";
}

// The records of the files, checked, by part of the whole split: its record, or the records of
// its sub-parts (--shard-sub) in order; false (the message printed) on a bad one.
bool read_parts(const std::vector<std::string>& files, std::vector<std::vector<Part>>& byPart) {
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
            if (why.empty() && !seen.empty()) {
                // Compared with a record that chose its split, when there is one.
                const auto ref = std::find_if(
                    seen.begin(), seen.end(), [](const Part& q) { return has_split(q); });
                why = foreign(ref != seen.end() ? *ref : seen.front(), p);
            }
            for (const Part& q : seen) {
                if (!why.empty()) break;
                if (whole_part(q) != whole_part(p)) continue;
                const std::string of =
                    std::to_string(whole_part(p)) + " of " + std::to_string(whole_parts(p));
                if (!q.within || !p.within)
                    why = "part " + of + " given twice (also " + q.where + ")";
                else if (q.parts != p.parts)
                    why = "another split: part " + of + " in " + std::to_string(p.parts)
                        + " sub-parts, not " + std::to_string(q.parts) + " as in " + q.where;
                else if (q.part == p.part)
                    why = "sub-part " + std::to_string(p.part) + " of " + std::to_string(p.parts)
                        + " of part " + of + " given twice (also " + q.where + ")";
                else if (q.listed && p.listed && q.j["frontier"] != p.j["frontier"])
                    why = "another puzzle: frontier " + p.j["frontier"].dump() + ", not "
                        + q.j["frontier"].dump() + " as in " + q.where;
            }
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
    // Named before the records move into byPart.
    const std::string file    = seen.front().j["file"].get<std::string>();
    const int         maxMate = seen.front().maxMate;
    const int         parts   = whole_parts(seen.front());
    std::string       missing;
    int               nMissing = 0;
    byPart.assign(std::size_t(parts), {});
    for (Part& p : seen)
        byPart[std::size_t(whole_part(p) - 1)].push_back(std::move(p));
    for (int i = 1; i <= parts; ++i) {
        std::vector<Part>& g = byPart[std::size_t(i - 1)];
        if (g.empty()) {
            missing += (missing.empty() ? "" : ", ") + std::to_string(i);
            ++nMissing;
            continue;
        }
        if (!g.front().within) continue;
        std::sort(g.begin(), g.end(), [](const Part& a, const Part& b) { return a.part < b.part; });
        const int subs = g.front().parts;
        if (int(g.size()) == subs) continue;
        std::string gaps;
        for (int k = 1, at = 0; k <= subs; ++k)
            if (at < int(g.size()) && g[std::size_t(at)].part == k)
                ++at;
            else
                gaps += (gaps.empty() ? "" : ", ") + std::to_string(k);
        std::cerr << "fived shard-merge: part " << i << " of " << parts << " is split into " << subs
                  << " sub-parts, and " << (subs - int(g.size()) > 1 ? "sub-parts " : "sub-part ")
                  << gaps << " missing (no record given): run `fived solve " << file << " --mate "
                  << maxMate << " --shard " << i << '/' << parts << " --shard-sub J/" << subs
                  << "` for " << (subs - int(g.size()) > 1 ? "them" : "it") << '\n';
        return false;
    }
    if (nMissing) {
        std::cerr << "fived shard-merge: " << (nMissing > 1 ? "parts " : "part ") << missing
                  << " of " << parts << " missing (no record given): run `fived solve " << file
                  << " --mate " << maxMate << " --shard I/" << parts << "` for "
                  << (nMissing > 1 ? "them" : "it") << '\n';
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

// What the merge found: mate in mateIn (or, unknown, a mate of that length proven, 0 none), with
// the key and its tree; noMate; else no mate within `excluded`.
struct Outcome {
    bool         mate = false, noMate = false;
    int          mateIn = 0, excluded = 0;
    std::string  key, tree, noTree;  // noTree: why a proven mate has no tree
    std::int64_t keyIndex = -1;      // the frontier split: the key's root index
    const Part*  best     = nullptr; // the root split: the record of the key
};

// The root split (see the top).
Outcome root_outcome(const std::vector<Part>& parts) {
    Outcome o;
    o.excluded = parts.front().maxMate;
    for (const Part& p : parts)
        if (p.result == "mate"
            && (!o.best || p.mateIn < o.best->mateIn
                || (p.mateIn == o.best->mateIn && p.keyIndex < o.best->keyIndex)))
            o.best = &p;
    for (const Part& p : parts)
        o.excluded = std::min(o.excluded, p.noMateUpTo);
    o.mate   = o.best && o.excluded >= o.best->mateIn - 1;
    o.noMate = !o.best && std::none_of(parts.begin(), parts.end(), [](const Part& p) {
        return p.result == "unknown";
    });
    if (o.best) {
        o.mateIn = o.best->mateIn;
        o.key    = o.best->j["keys"][0].get<std::string>();
        if (!o.best->j["tree"].is_null()) o.tree = o.best->j["tree"].get<std::string>();
        o.noTree = "part " + std::to_string(o.best->part) + ": "
            + o.best->j.value("error", std::string("no tree"));
    }
    return o;
}

// One item of the frontier with its record, in the merge.
struct MergeItem {
    const Part*          part = nullptr;
    std::size_t          t    = 0; // its place in the record's items
    report::FrontierItem item;
    std::int64_t         defence = -1;
    const Json&          json() const { return part->j["items"][t]; }
};

// The pair trees of a key (each the line key, defence and its mate, written ungrouped) joined into
// the key's tree, written as solve writes it with --group `group`; "" with `why` when one does not
// read or is not such a line.
std::string join_trees(
    const std::vector<const MergeItem*>& its, int mateIn, std::size_t group, std::string& why) {
    if (its.front()->item.rootLevel) return its.front()->json()["tree"].get<std::string>();
    notation::ReadOptions opt; // strict, as verify reads
    opt.annotate = false;
    std::optional<notation::GameTree> first;
    std::size_t                       prelude = 0;
    int                               top = 0, key = 0;
    solver::SolutionTree              joined;
    for (const MergeItem* m : its) {
        const std::string                 text = m->json()["tree"].get<std::string>();
        std::vector<notation::Diagnostic> errors;
        std::optional<notation::GameTree> gt =
            notation::read_game_tree(text, "<tree>", opt, errors);
        why = m->part->where + ": item " + std::to_string(m->t) + ": ";
        if (!gt) {
            why += "its tree does not read: "
                + (errors.empty() ? std::string("no diagnostic") : errors.front().to_string());
            return "";
        }
        std::size_t pre = 0;
        for (const auto& [k, v] : gt->headers)
            if (k == "Prelude") pre = std::size_t(std::stoul(v));
        const std::vector<int> line = gt->main_line();
        if (pre + 2 >= line.size()) {
            why += "its tree is not the line of its key and defence";
            return "";
        }
        const solver::SolutionTree sub  = *gt->subtree(line[pre]);
        auto                       only = [&](int n) { // the one child of n, or -1
            const std::vector<int>& c = sub.nodes[std::size_t(n)].children;
            return c.size() == 1 ? c[0] : -1;
        };
        const int k = only(0), d = k < 0 ? -1 : only(k);
        if (d < 0
            || (first
                && sub.nodes[std::size_t(k)].action != joined.nodes[std::size_t(key)].action)) {
            why += "its tree is not the line of its key and defence";
            return "";
        }
        if (!first) {
            joined  = sub;
            key     = joined.nodes[0].children[0];
            prelude = pre;
            top     = line[pre];
            first   = std::move(gt);
            continue;
        }
        const TreeNode&            dn    = sub.nodes[std::size_t(d)];
        const solver::SolutionTree below = *sub.subtree(d);
        const int                  n     = joined.graft(key, dn.action, below);
        TreeNode&                  at    = joined.nodes[std::size_t(n)];
        at.mark                          = dn.mark;
        at.result                        = dn.result;
        at.evaluation                    = dn.evaluation;
        at.comment                       = dn.comment;
    }
    // The puzzle as the first tree gives it: its start, headers and prelude.
    absl::StatusOr<notation::LoadedGame> game =
        notation::load_game(its.front()->json()["tree"].get<std::string>(), "<tree>");
    if (!game.ok() || game->mainLine.size() < prelude) {
        why = its.front()->part->where + ": its tree's prelude does not read";
        return "";
    }
    game->mainLine.resize(prelude);
    const Multiverse root = notation::position_at(*first, top);
    why.clear();
    return notation::write_tree(written_solution(*game, root, joined, mateIn, group));
}
// The frontier split (see the top): every item of every part, checked to cover each root action
// of `keys` (root indices ascending: every root action, or a part's own with --shard-sub) once in
// order, then counted by merge_frontier() and the key's tree joined. False (the message printed)
// on records that do not make one frontier or a tree that does not join.
bool frontier_outcome(
    const std::vector<Part>& parts, const std::vector<std::int64_t>& keys, Outcome& o) {
    const int maxMate = parts.front().maxMate;
    o.excluded        = 0;
    if (!std::all_of(parts.begin(), parts.end(), [](const Part& p) { return p.listed; }))
        return true; // unknown: a part could not list the frontier
    const std::size_t      n = parts.front().j["frontier"].get<std::size_t>();
    std::vector<MergeItem> all(n);
    for (const Part& p : parts) {
        if (p.j["frontier"] != parts.front().j["frontier"]) { // (read_parts() refuses it)
            std::cerr << p.where << ": another puzzle: frontier " << p.j["frontier"].dump()
                      << ", not " << parts.front().j["frontier"].dump() << " as in "
                      << parts.front().where << '\n';
            return false;
        }
        for (std::size_t t = 0; t < p.items.size(); ++t)
            all[std::size_t(p.itemIndex[t])] = {&p, t, p.items[t], p.defenceIndex[t]};
    }
    // Item i starts the next key (defence 0 or root-level) or is the next defence of its key;
    // k: the place in `keys` of item i's key.
    for (std::size_t i = 0, k = 0; i <= n; ++i) {
        bool ok = true;
        if (i == n) {
            ok = n == 0 ? keys.empty() : k + 1 == keys.size();
        } else if (i > 0 && all[i].item.key == all[i - 1].item.key) {
            ok = all[i].defence >= 1 && all[i].defence == all[i - 1].defence + 1;
        } else {
            k  = i == 0 ? 0 : k + 1;
            ok = k < keys.size() && all[i].item.key == keys[k] && all[i].defence <= 0;
        }
        if (!ok) {
            std::cerr << (i < n ? all[i].part->where + ": item " + std::to_string(all[i].t) + ": "
                                : std::string("fived shard-merge: "))
                      << "the items of the records do not make the frontier of "
                      << (parts.front().within
                                 ? "part " + std::to_string(parts.front().within) + "'s "
                                 : std::string("the root's "))
                      << keys.size() << " actions (each key's defences in order)\n";
            return false;
        }
    }
    std::vector<report::FrontierItem> items;
    for (const MergeItem& m : all)
        items.push_back(m.item);
    const report::FrontierAnswer a = report::merge_frontier(items, maxMate);
    o.mate                         = a.mate;
    o.noMate                       = a.noMate;
    o.mateIn                       = a.mate ? a.mateIn : a.provenMate;
    o.excluded                     = a.excluded;
    if (a.key < 0) return true;
    o.keyIndex = a.key;
    std::vector<const MergeItem*> its;
    for (const MergeItem& m : all)
        if (m.item.key == a.key) its.push_back(&m);
    o.key = its.front()->json()["key"].get<std::string>();
    if (!o.mate) return true;
    std::string why;
    o.tree = join_trees(its, o.mateIn, parts.front().j["group"].get<std::size_t>(), why);
    if (!why.empty()) {
        std::cerr << why << '\n';
        return false;
    }
    return true;
}

// Part I of the root's split from the records of its sub-parts (--shard-sub, in order): what
// the frontier merge proves of its own root actions, as a record of the whole split would say it
// (a mate with its key, root index and joined tree; no mate; or unknown within what it excluded).
// False (the message printed) when the records do not make that frontier.
bool join_subparts(const std::vector<Part>& subs, Part& whole) {
    const Part& f = subs.front();
    Outcome     o;
    if (std::all_of(subs.begin(), subs.end(), [](const Part& p) { return p.listed; })) {
        const std::vector<std::int64_t> keys = share_of(f.j["root_actions"].get<std::size_t>(),
            f.within, f.withinParts, f.withinSplit == report::ShardBlockName);
        if (!frontier_outcome(subs, keys, o)) return false;
    }
    whole          = f;
    whole.part     = f.within;
    whole.parts    = f.withinParts;
    whole.within   = 0;
    whole.frontier = false;
    whole.items.clear();
    whole.result     = o.mate ? "mate" : o.noMate ? "no-mate" : "unknown";
    whole.mateIn     = o.mate ? o.mateIn : 0;
    whole.noMateUpTo = o.mate ? o.mateIn - 1 : o.noMate ? f.maxMate : o.excluded;
    whole.keyIndex   = o.mate ? o.keyIndex : -1;
    Json& j          = whole.j;
    j["part"]        = whole.part;
    j["parts"]       = whole.parts;
    j["split"]       = f.withinSplit;
    j["keys"]        = o.mate ? Json::array({o.key}) : Json::array();
    j["tree"]        = o.mate && !o.tree.empty() ? Json(o.tree) : Json();
    j.erase("within");
    j.erase("items");
    return true;
}

} // namespace

int shard_merge(const std::vector<std::string>& files, bool asJson) {
    std::vector<std::vector<Part>> records;
    if (!read_parts(files, records)) return ExitBadInput;
    // One per part of the whole split; a part given by sub-parts joined from them.
    std::vector<Part> parts;
    for (const std::vector<Part>& g : records) {
        if (!g.front().within) {
            parts.push_back(g.front());
            continue;
        }
        Part whole;
        if (!join_subparts(g, whole)) return ExitBadInput;
        parts.push_back(std::move(whole));
    }
    const Part& first   = parts.front();
    const int   maxMate = first.maxMate;
    const bool  frontier =
        std::any_of(parts.begin(), parts.end(), [](const Part& p) { return p.frontier; });
    Outcome o;
    if (frontier) {
        std::vector<std::int64_t> keys;
        if (first.listed) keys = share_of(first.j["root_actions"].get<std::size_t>(), 1, 1, false);
        if (!frontier_outcome(parts, keys, o)) return ExitBadInput;
    } else {
        o = root_outcome(parts);
    }
    // What did not finish, and the work of all (every record: a sub-part is a machine's run).
    std::vector<int> unfinished;
    std::uint64_t    nodes = 0, cpuMs = 0, timeMs = 0, makespan = 0;
    for (const Part& p : parts)
        if (p.result == "unknown") unfinished.push_back(p.part);
    for (const std::vector<Part>& g : records)
        for (const Part& p : g) {
            nodes += p.j["nodes"].get<std::uint64_t>();
            cpuMs += p.j["cpu_ms"].get<std::uint64_t>();
            timeMs += p.j["time_ms"].get<std::uint64_t>();
            makespan = std::max(makespan, p.j["time_ms"].get<std::uint64_t>());
        }
    if (o.mate && !o.tree.empty()) {
        const std::string problem = tree_problem(o.tree, first.j["position_hash"], o.mateIn);
        if (!problem.empty()) {
            std::cerr << (o.best ? o.best->where
                                 : "fived shard-merge: the tree joined from the pairs of " + o.key)
                      << ": " << problem << '\n';
            return ExitBadInput;
        }
    }
    const int         exitCode = o.mate ? ExitOk : o.noMate ? ExitNegative : ExitUnknown;
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
    // An unfinished part given by sub-parts: its unfinished sub-parts.
    for (const std::vector<Part>& g : records) {
        if (!g.front().within || parts[std::size_t(g.front().within - 1)].result != "unknown")
            continue;
        std::string subList;
        for (const Part& p : g)
            if (p.result == "unknown")
                subList += (subList.empty() ? "" : ", ") + std::to_string(p.part);
        if (!subList.empty())
            std::cerr << "fived shard-merge: part " << g.front().within << " is split into "
                      << g.size() << " sub-parts; or re-run its unfinished ones: fived solve "
                      << first.j["file"].get<std::string>() << " --mate " << maxMate << " --shard "
                      << g.front().within << '/' << parts.size() << " --shard-sub J/" << g.size()
                      << " for J in " << subList << '\n';
    }
    if (asJson) {
        report::ShardMerge m;
        m.first      = &first.j;
        m.best       = o.best ? &o.best->j : nullptr;
        m.bestPart   = o.best ? o.best->part : 0;
        m.bestMateIn = o.mateIn;
        m.mate       = o.mate;
        m.noMate     = o.noMate;
        m.maxMate    = maxMate;
        m.excluded   = o.excluded;
        m.parts      = parts.size();
        m.unfinished = unfinished;
        m.nodes      = nodes;
        m.cpuMs      = cpuMs;
        m.timeMs     = timeMs;
        m.makespanMs = makespan;
        m.exitCode   = exitCode;
        m.frontier   = frontier;
        m.key        = o.key;
        m.tree       = o.tree;
        std::cout << report::shard_merge_json(m) << '\n';
        return exitCode;
    }
    if (o.mate && !o.tree.empty()) {
        std::cout << o.tree;
    } else if (o.mate) {
        std::cout << mate_text(o.mateIn) << ": " << o.key << " {" << o.noTree << "}\n";
    } else if (o.noMate) {
        std::cout << report::no_mate_text(maxMate) << '\n';
    } else {
        std::cout << "unknown (" << (unfinished.size() > 1 ? "parts " : "part ") << partList
                  << " of " << parts.size() << " unfinished";
        if (o.mateIn) std::cout << "; " << mate_text(o.mateIn) << " proven with key " << o.key;
        if (o.excluded) std::cout << "; " << report::no_mate_text(o.excluded);
        std::cout << "; " << nodes << " nodes)\n";
    }
    return exitCode;
}

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
        merge->callback([&exitCode, mc] { exitCode = shard_merge(mc->files, mc->json); });
    }
}

} // namespace fived::cli
