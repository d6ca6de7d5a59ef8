// The frontier split of `fived solve FILE --shard I/N` (README "One puzzle on many machines";
// the split and its merge are explained at the head of cli_shard.cpp): the (root action,
// defence) pairs in standard order, pair j to part (j mod N) + 1, each searched by a Solver of
// its own at the position after both actions, the part's limits shared over its pairs.
#include <chrono>
#include <iostream>

#include "cli/cli.h"
#include "cli/cli_shard.h"
#include "movegen/action.h"
#include "notation/format.h"
#include "notation/writer.h"
#include "report/shard_json.h"
#include "report/solution.h"

namespace fived::cli {

namespace {

using movegen::Move;
using movegen::Multiverse;
using report::ShardItem;
using Actions = std::vector<std::vector<Move>>;

// Per root action its defences (empty: the defender has none); false with why when a position
// has more actions than --max-actions or a limit stopped the listing.
bool list_frontier(solver::Solver& s, const Multiverse& root, const Actions& all, std::size_t limit,
    std::vector<Actions>& defences, std::string& why) {
    for (std::size_t i = 0; i < all.size(); ++i) {
        Actions d;
        if (!s.legal_actions({&all[i], 1}, d, limit ? limit : SIZE_MAX)) {
            why = s.limit_reason();
            if (why.empty()) {
                Multiverse printer = root.fork();
                why = "the position after the root's " + notation::format_action(printer, all[i])
                    + " has more than " + std::to_string(limit) + " legal actions (--max-actions)";
            }
            return false;
        }
        defences.push_back(std::move(d));
    }
    return true;
}

// One item searched: the pair (key, *defence) at bound maxMate - 1 from the position after both,
// or (no defence) the key alone at the root with bound maxMate. `nodesLeft` (0 = no limit) is
// what the part's --nodes leaves it.
ShardItem solve_item(const FrontierPart& f, const std::vector<Move>& key,
    const std::vector<Move>* defence, std::uint64_t nodesLeft, bool& internal, bool& noMemory) {
    ShardItem            item;
    solver::SolveOptions so           = f.o;
    so.minMate                        = 1;
    so.progress                       = false;
    so.nodeLimit                      = nodesLeft;
    Multiverse                     at = f.root.fork();
    std::vector<movegen::MoveUndo> undo;
    const Actions                  share{key};
    if (defence) {
        movegen::do_action(at, key, undo);
        movegen::do_action(at, *defence, undo);
        so.maxMate     = f.o.maxMate - 1;
        so.rootActions = nullptr;
    } else {
        so.rootActions = &share;
    }
    solver::Solver            s(at, so);
    const solver::SolveResult r = s.solve();
    noMemory                    = noMemory || r.noMemory;
    internal                    = internal || r.internal;
    item.result                 = r.internal ? solver::Result::UNKNOWN : r.result;
    item.nodes                  = r.nodes;
    item.noMateUpTo             = r.result == solver::Result::NO_MATE ? so.maxMate : r.noMateUpTo;
    if (item.result == solver::Result::MATE && !(r.treeBuilt && r.verified)) {
        // The merge joins trees: a mate without its tree is a length not yet usable.
        item.result     = solver::Result::UNKNOWN;
        item.noMateUpTo = r.mateIn - 1;
        item.limit      = "mate in " + std::to_string(r.mateIn) + " without its tree ("
            + (r.error.empty() ? std::string("not built") : r.error) + ")";
    } else if (item.result == solver::Result::MATE) {
        item.mateIn = r.mateIn;
        solver::SolutionTree t;
        if (defence)
            t.graft(t.add(0, key), *defence, r.tree);
        else
            t = r.tree;
        // Written ungrouped (--group 0): the merge reads every defence back as a node.
        item.tree = notation::write_tree(
            report::written_solution(f.game, f.root, t, defence ? 1 + r.mateIn : r.mateIn, 0));
    } else if (item.result == solver::Result::UNKNOWN) {
        item.limit = r.error.empty() ? "limit reached" : r.error;
    }
    return item;
}

// The item's key and defence as solve writes actions.
void name_item(const Multiverse& root, const std::vector<Move>& key,
    const std::vector<Move>* defence, ShardItem& item) {
    Multiverse printer = root.fork();
    item.key           = notation::format_action(printer, key);
    if (!defence) return;
    std::vector<movegen::MoveUndo> undo;
    movegen::do_action(printer, key, undo);
    item.defence = notation::format_action(printer, *defence);
}

} // namespace

int solve_frontier(const FrontierPart& f, solver::Solver& s, const Actions& all,
    report::ShardPart& rec, solver::SolveResult& r) {
    std::vector<Actions> defences;
    std::string          why;
    rec.split = report::ShardFrontierName;
    rec.group = f.group;
    r.result  = solver::Result::UNKNOWN;
    if (!list_frontier(s, f.root, all, f.o.actionLimit, defences, why)) {
        r.error    = why;
        r.limitHit = true;
        r.nodes    = s.nodes();
        return ExitUnknown;
    }
    std::int64_t        index    = 0;
    std::uint64_t       nodes    = s.nodes();
    bool                internal = false, noMemory = false, anyMate = false, anyUnknown = false;
    const std::uint64_t cap    = f.o.nodeLimit;
    const std::string   capped = "node limit of " + std::to_string(cap) + " reached";
    auto                take   = [&](std::size_t k, const std::vector<Move>* d, std::int64_t di) {
        const std::int64_t at = index++;
        if (at % f.parts != f.part - 1) return; // another part's item
        ShardItem  item;
        const bool wasInternal = internal;
        if (cap && nodes >= cap)
            item.limit = capped; // the part's nodes are spent: not searched
        else
            item = solve_item(f, all[k], d, cap ? cap - nodes : 0, internal, noMemory);
        if (item.result == solver::Result::UNKNOWN && cap && nodes + item.nodes >= cap)
            item.limit = capped; // the part's limit, not the item's share of it
        name_item(f.root, all[k], d, item);
        item.defenceIndex = d ? std::optional<std::int64_t>(di) : std::nullopt;
        item.index        = at;
        item.keyIndex     = std::int64_t(k);
        nodes += item.nodes;
        anyMate    = anyMate || item.result == solver::Result::MATE;
        anyUnknown = anyUnknown || item.result == solver::Result::UNKNOWN;
        if (item.result == solver::Result::UNKNOWN && (r.error.empty() || internal != wasInternal))
            r.error = item.limit;
        rec.items.push_back(std::move(item));
    };
    for (std::size_t k = 0; k < all.size() && !noMemory; ++k) {
        if (defences[k].empty()) take(k, nullptr, 0);
        for (std::size_t d = 0; d < defences[k].size() && !noMemory; ++d)
            take(k, &defences[k][d], std::int64_t(d));
    }
    if (noMemory) return ExitBadInput;
    rec.frontier = std::size_t(index);
    rec.owned    = rec.items.size();
    r.nodes      = nodes;
    r.ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - f.o.timeFrom)
            .count();
    r.result   = anyUnknown ? solver::Result::UNKNOWN
          : anyMate         ? solver::Result::MATE
                            : solver::Result::NO_MATE;
    r.limitHit = anyUnknown;
    if (internal) return ExitInternal;
    return anyUnknown ? ExitUnknown : anyMate ? ExitOk : ExitNegative;
}

} // namespace fived::cli
