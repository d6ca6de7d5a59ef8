// The frontier split of `fived solve FILE --shard I/N` (README "One puzzle on many machines";
// the split and its merge are explained at the head of cli_shard.cpp): the (root action,
// defence) pairs in standard order, pair j to part (j mod N) + 1, each searched by a Solver of
// its own at the position after both actions, the part's limits shared over its pairs, in rounds
// of growing node budgets (--shard-budget, 4 times more each round); a key one of whose defences
// refutes it gets no more search of its other defences.
#include <algorithm>
#include <iostream>

#include "cli/cli.h"
#include "cli/cli_shard.h"
#include "movegen/action.h"
#include "notation/format.h"
#include "notation/writer.h"
#include "report/shard_frontier.h"
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

// How an attempt at an item ended: decided (or left unknown for good: --max-actions inside, an
// internal error, a mate whose tree is larger than --max-tree), stopped by its round's budget (try
// again with a larger one), or stopped by the part's limit (--time, --nodes, SIGINT: stop the
// part). Told apart by SolveResult::limitKind, never by the message.
enum class Attempt : std::uint8_t {
    DONE,
    BUDGET,
    STOP
};

// One attempt at an item: the pair (key, *defence) from the position after both with bound
// maxMate - 1, or (no defence) the key alone at the root with bound maxMate; bounds from
// item.noMateUpTo + 1 (those below are proven without mate), with at most `nodes` nodes (0: no
// limit; `budget`: that many is the round's budget, not the part's limit). `stoppedBy`: the limit
// that stopped the attempt, if one did.
Attempt attempt(const FrontierPart& f, const std::vector<Move>& key,
    const std::vector<Move>* defence, std::uint64_t nodes, bool budget, ShardItem& item,
    bool& internal, bool& noMemory, solver::Limit& stoppedBy) {
    solver::SolveOptions so           = f.o;
    so.minMate                        = item.noMateUpTo + 1;
    so.progress                       = false;
    so.nodeLimit                      = nodes;
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
    stoppedBy                   = r.limitKind;
    noMemory                    = noMemory || r.noMemory;
    internal                    = internal || r.internal;
    item.nodes += r.nodes;
    item.result = r.internal ? solver::Result::UNKNOWN : r.result;
    item.limit.clear();
    if (item.result == solver::Result::NO_MATE) {
        item.noMateUpTo = so.maxMate;
    } else if (item.result == solver::Result::MATE && !(r.treeBuilt && r.verified)) {
        // The merge joins trees: a mate without its tree is a length not yet usable.
        item.result     = solver::Result::UNKNOWN;
        item.noMateUpTo = r.mateIn - 1;
        item.limit      = "mate in " + std::to_string(r.mateIn) + " without its tree ("
            + (r.error.empty() ? std::string("not built") : r.error) + ")";
    } else if (item.result == solver::Result::MATE) {
        item.mateIn     = r.mateIn;
        item.noMateUpTo = r.mateIn - 1;
        solver::SolutionTree t;
        if (defence)
            t.graft(t.add(0, key), *defence, r.tree);
        else
            t = r.tree;
        // Written ungrouped (--group 0): the merge reads every defence back as a node.
        item.tree = notation::write_tree(
            report::written_solution(f.game, f.root, t, defence ? 1 + r.mateIn : r.mateIn, 0));
    } else {
        item.noMateUpTo = std::max(item.noMateUpTo, r.noMateUpTo);
        item.limit      = r.error.empty() ? "limit reached" : r.error;
    }
    if (item.result != solver::Result::UNKNOWN || r.internal || r.noMemory) return Attempt::DONE;
    switch (r.limitKind) {
        case solver::Limit::NODES: return budget ? Attempt::BUDGET : Attempt::STOP;
        case solver::Limit::TIME:
        case solver::Limit::INTERRUPTED: return Attempt::STOP;
        case solver::Limit::ACTIONS:
        case solver::Limit::NONE: break;
    }
    return Attempt::DONE;
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
    rec.owned = 0; // until the frontier is listed
    r.result  = solver::Result::UNKNOWN;
    if (!list_frontier(s, f.root, all, f.o.actionLimit, defences, why)) {
        r.error    = why;
        r.limitHit = true;
        r.nodes    = s.nodes();
        return ExitUnknown;
    }
    // The part's items, named, in the order of the frontier.
    std::int64_t index = 0;
    struct Mine {
        std::size_t              key;
        const std::vector<Move>* defence;
    };
    std::vector<Mine> mine;
    for (std::size_t k = 0; k < all.size(); ++k)
        for (std::size_t d = 0; d < std::max<std::size_t>(defences[k].size(), 1); ++d) {
            const std::int64_t at = index++;
            if (at % f.parts != f.part - 1) continue; // another part's item
            const std::vector<Move>* def = defences[k].empty() ? nullptr : &defences[k][d];
            ShardItem                item;
            name_item(f.root, all[k], def, item);
            item.defenceIndex = def ? std::optional<std::int64_t>(std::int64_t(d)) : std::nullopt;
            item.index        = at;
            item.keyIndex     = f.keyIndex ? (*f.keyIndex)[k] : std::int64_t(k);
            rec.items.push_back(std::move(item));
            mine.push_back({k, def});
        }
    // Rounds: each item still open gets f.firstBudget nodes (--shard-budget), then 4 times more
    // each round, so that quick answers (a key's mates, short refutations) come first and a part
    // stopped by its limit leaves every item as deep as it could (the merge needs one surviving
    // defence per key).
    std::uint64_t       nodes = s.nodes(), budget = std::max<std::uint64_t>(f.firstBudget, 1);
    bool                internal = false, noMemory = false, stop = false;
    const std::uint64_t cap    = f.o.nodeLimit;
    const std::string   capped = solver::limit_message(solver::Limit::NODES, double(cap));
    std::vector<bool>   open(mine.size(), true);
    std::vector<bool>   refuted(all.size(), false); // by a defence of the part (see below)
    std::string         stopWhy;
    while (!stop && !noMemory && std::find(open.begin(), open.end(), true) != open.end()) {
        for (std::size_t i = 0; i < mine.size() && !stop && !noMemory; ++i) {
            if (!open[i]) continue;
            // A key with a defence after which the attacker has no mate within the bound is
            // refuted whatever its other defences (the merge excludes it for every length:
            // report::key_bound()): they are not searched further.
            if (refuted[mine[i].key]) {
                open[i]            = false;
                rec.items[i].limit = "not searched further: another defence refutes its key";
                continue;
            }
            if (cap && nodes >= cap) {
                stop    = true;
                stopWhy = capped;
                break;
            }
            const bool          byBudget  = !cap || budget < cap - nodes;
            ShardItem&          item      = rec.items[i];
            const std::uint64_t before    = item.nodes;
            solver::Limit       stoppedBy = solver::Limit::NONE;
            const Attempt       a         = attempt(f, all[mine[i].key], mine[i].defence,
                byBudget ? budget : cap - nodes, byBudget, item, internal, noMemory, stoppedBy);
            nodes += item.nodes - before;
            open[i] = a != Attempt::DONE;
            if (mine[i].defence && item.result == solver::Result::NO_MATE)
                refuted[mine[i].key] = true;
            if (a == Attempt::STOP) {
                stop    = true;
                stopWhy = stoppedBy == solver::Limit::NODES ? capped : item.limit;
            }
        }
        budget *= 4;
    }
    // Items left open say what stopped the part, not their round's budget.
    std::vector<report::FrontierItem> counted;
    for (std::size_t i = 0; i < rec.items.size(); ++i) {
        ShardItem& item = rec.items[i];
        if (open[i] && stop) item.limit = stopWhy;
        if (item.result == solver::Result::UNKNOWN && !refuted[mine[i].key] && r.error.empty())
            r.error = item.limit;
        using Res = report::FrontierItem::Res;
        counted.push_back({item.keyIndex, !mine[i].defence,
            item.result == solver::Result::MATE          ? Res::MATE
                : item.result == solver::Result::NO_MATE ? Res::NO_MATE
                                                         : Res::UNKNOWN,
            item.mateIn, item.noMateUpTo});
    }
    const report::FrontierItem::Res summary    = report::part_result(counted);
    const bool                      anyUnknown = summary == report::FrontierItem::Res::UNKNOWN;
    const bool                      anyMate    = summary == report::FrontierItem::Res::MATE;
    if (noMemory) return ExitBadInput;
    rec.frontier = std::size_t(index);
    rec.owned    = rec.items.size();
    r.nodes      = nodes;
    r.result     = anyUnknown ? solver::Result::UNKNOWN
            : anyMate         ? solver::Result::MATE
                              : solver::Result::NO_MATE;
    r.limitHit   = anyUnknown;
    if (internal) return ExitInternal;
    return anyUnknown ? ExitUnknown : anyMate ? ExitOk : ExitNegative;
}

} // namespace fived::cli
