#include "solver/search.h"

#include <algorithm>
#include <cassert>

#include <tbb/task_group.h>

#include "movegen/action.h"
#include "movegen/actions.h"
#include "movegen/movegen.h"
#include "movegen/picker.h"
#include "movegen/rules.h"
#include "solver/node_picker.h"
#include "solver/search_internal.h"

namespace fived::solver {

using detail::AllBounds;
using detail::height;
using detail::same_action;

// --- Searcher ----------------------------------------------------------------------------------

Searcher::Searcher(SearchContext& c) : ctx(c), mv(c.root.fork()) {
    const auto n = std::size_t(ctx.maxPly + 2);
    pickers.resize(n);
    onlySearches.resize(n);
    mateSearches.resize(n);
    classWalks.resize(n);
    classProofs.resize(n);
    classStores.resize(n);
    for (auto& store : classStores)
        store = std::make_unique<ClassStore>();
    classSquares.resize(n);
    classNewSquares.resize(n);
    lists.resize(n);
    undos.resize(n);
    pathMoves.resize(n);
    killers.resize(n);
    narrow.resize(n);
    history.resize(n);
    narrowActions.resize(n);
    conflicts.resize(n);
    splitBlocks.resize(n);
}

Searcher::~Searcher() = default;

void Searcher::clear_killers() {
    killers.clear();
    for (auto& h : history)
        h = CandidateHistory{};
}

void Searcher::flush_nodes() {
    if (unflushed) ctx.nodes.fetch_add(unflushed, std::memory_order_relaxed);
    unflushed = 0;
}

bool Searcher::stopped() {
    if (ctx.stop.load(std::memory_order_relaxed)) return true;
    return ctx.splitHeight > 0 && tbb::is_current_task_group_canceling();
}

bool Searcher::count_node() {
    ++totalNodes;
    if (++unflushed >= 64) flush_nodes();
    if (totalNodes > budgetEnd) {
        budgetOut = true;
        return false;
    }
    if (ctx.nodeLimit && ctx.nodes.load(std::memory_order_relaxed) + unflushed > ctx.nodeLimit) {
        ctx.limitHit.store(true, std::memory_order_relaxed);
        ctx.stop.store(true, std::memory_order_relaxed);
        return false;
    }
    return true;
}

// The check flags: where quiet actions go by classes (MateInOneSearch::cuts_pay()), after the
// listing, from the checks the mate-in-one search's walk meets (MateInOneSearch::for_each_check:
// every legal action that gives check, each made, so known by its child's key); elsewhere each
// action is tested as it is listed. The flags are the same either way; the walk costs a few
// tests per class of quiet actions instead of one per action (tools-dead-timeline --at -5: an
// attacker node at r = 2 lists about 1,600 actions, 6 % of the time went to their tests).
Searcher::Listed Searcher::list_up_to(int ply, bool withChecks, std::size_t cap) {
    ActionList& list = lists[std::size_t(ply)];
    list.clear();
    const bool byWalk  = withChecks && cuts_pay();
    bool       aborted = false;
    bool       over    = false;
    auto       add     = [&](std::span<const Move> a) {
        if (stopped()) {
            aborted = true;
            return false;
        }
        if (ctx.actionLimit && list.size() >= ctx.actionLimit) {
            ctx.actionLimitHit.store(true, std::memory_order_relaxed);
            ctx.limitHit.store(true, std::memory_order_relaxed);
            ctx.stop.store(true, std::memory_order_relaxed);
            aborted = true;
            return false;
        }
        if (cap && list.size() >= cap) {
            over = true;
            return false;
        }
        const bool check = withChecks && !byWalk && movegen::in_check_at_turn_start(mv);
        list.add(a, mv.key(), check);
        return true;
    };
    // The picker's policy; when it switches engine the list starts again, so that it holds
    // the actions in one engine's order.
    movegen::ActionPicker& picker = pickers[std::size_t(ply)];
    picker.reset(mv);
    picker.for_each(add, [&] { list.clear(); });
    if (aborted) return Listed::STOPPED;
    if (over) return Listed::OVER;
    if (byWalk && !list.empty()) {
        checkChildren.clear();
        const bool done = mateSearches[std::size_t(ply)].for_each_check(
            mv,
            [&](std::span<const Move>) {
                checkChildren.push_back(mv.key());
                return true;
            },
            [&] { return !stopped(); }, &ctx.stop);
        if (!done) return Listed::STOPPED;
        std::sort(checkChildren.begin(), checkChildren.end());
        for (std::size_t i = 0; i < list.size(); ++i)
            list.ref(i).check =
                std::binary_search(checkChildren.begin(), checkChildren.end(), list.ref(i).child);
    }
    return Listed::ALL;
}

bool Searcher::make(int ply, std::size_t i) {
    const ActionList&      list = lists[std::size_t(ply)];
    std::span<const Move>  a    = list.action(i);
    std::vector<MoveUndo>& u    = undos[std::size_t(ply)];
    pathMoves[std::size_t(ply)].assign(a.begin(), a.end());
    u.clear();
    movegen::do_action(mv, a, u);
    if (mv.key() != list.ref(i).child) {
        // Replaying the enumerated action reached another position: never trust what follows.
        ctx.internal_error();
        return false;
    }
    return true;
}

void Searcher::unmake(int ply) { movegen::undo_action(mv, undos[std::size_t(ply)]); }

void Searcher::enter_step(int ply, std::span<const Move> action) {
    pathMoves[std::size_t(ply)].assign(action.begin(), action.end());
    undos[std::size_t(ply)].clear();
    movegen::do_action(mv, action, undos[std::size_t(ply)]);
}

void Searcher::enter_path(std::span<const std::vector<Move>> path) {
    for (std::size_t p = 0; p < path.size(); ++p)
        enter_step(int(p), path[p]);
}

void Searcher::leave_path(int n) {
    for (int p = n; p-- > 0;)
        unmake(p);
}

// --- the AND/OR search -------------------------------------------------------------------------

Value Searcher::attack(int r, int ply) {
    assert(r >= 1);
    if (stopped() || !count_node()) return Value::ABORT;
    const Key     key  = mv.key();
    std::uint32_t hint = 0;
    if (const std::optional<TTData> e = ctx.tt.probe(key)) {
        if (e->proven <= r) return Value::YES;
        if (e->disproven >= r) return Value::NO;
        hint = e->hint;
    }
    if (r == 1) return attack_last(key, ply);
    const std::uint64_t nodes0 = totalNodes;

    // (At a shared root the killers may be actions of another part.)
    if (!(ply == 0 && ctx.rootShare))
        if (const Value v = killers_first(true, r, ply, key, nodes0); v != Value::OPEN) return v;
    const Listed listed = list_up_to(ply, true, ctx.streamAbove);
    if (listed == Listed::STOPPED) return Value::ABORT;
    if (listed == Listed::OVER) return stream(true, r, ply, key, nodes0);
    ActionList& list = lists[std::size_t(ply)];
    if (list.empty()) { // the attacker is mated or stalemated: no mate for any bound
        ctx.tt.store_disproof(key, AllBounds, 0, 1);
        return Value::NO;
    }
    NodePicker picker(list, killers, ply, true, hint);
    if (ply == 0) {
        std::size_t mine = list.size();
        if (ctx.rootShare) // another part's actions: skipped, as if refuted
            for (std::size_t i = 0; i < list.size(); ++i)
                if (!ctx.owned(0, list.action(i))) {
                    picker.skip(i);
                    --mine;
                }
        ctx.rootActions.store(mine, std::memory_order_relaxed);
    }
    if (const Value v = table_cutoff(picker, r, ply, key, nodes0); v != Value::OPEN) return v;
    picker.order();
    return search_children(picker, r, ply, key, nodes0);
}

// Attacker to move with bound 1: is there a mating action? The killers (actions that mated
// sibling positions) are tried first, each only if it is legal here (ActionSearch::reset_only
// lists exactly the legal actions made of its moves), each tested for mate by the node's
// mate-in-one search (MateInOneSearch::mated): a killer that does not mate usually meets a check
// that an escape remembered there answers (tools-standard-checkmate-4 --at -5 --mate 3: 16 %
// less time than movegen::is_checkmate, which searches every escape anew); then the search
// (movegen/mate.h) walks the attacker's actions as a hypercuboid, checking actions first
// tested, without listing them: a wide position's mate is not behind millions of actions. One
// thread per node, so the mating action found does not depend on the thread count.
Value Searcher::attack_last(Key key, int ply) {
    const std::uint64_t nodes0   = totalNodes;
    bool                aborted  = false;
    bool                found    = false;
    Key                 winChild = 0;
    auto                tested   = [&] {
        aborted = stopped() || !count_node();
        return !aborted;
    };
    auto mated = [&](std::span<const Move> a) {
        found    = true;
        winChild = mv.key();
        killers.decided_by(ply, a, true);
        return false; // one mating action decides the node
    };
    // The two killers, then the recent mates not among them.
    const std::vector<Move>* tryFirst[NodePicker::MaxFirstTries];
    const std::size_t        nTry = NodePicker::first_tries(killers, ply, true, 1, tryFirst);
    for (std::size_t k = 0; k < nTry && !found && !aborted; ++k) {
        const std::vector<Move>& killer = *tryFirst[k];
        if (killer.empty()) continue;
        with_if_legal(ply, killer, [&](std::span<const Move> a) {
            if (tested() && mateSearches[std::size_t(ply)].mated(mv)) mated(a);
        });
    }
    // The stop flag also ends the search between actions (a time limit); it never answers NO.
    if (!found && !aborted
        && !mateSearches[std::size_t(ply)].for_each_mate(mv, mated, tested, &ctx.stop) && !found)
        aborted = true;
    if (aborted) return Value::ABORT;
    if (found) {
        ctx.tt.store_proof(key, 1, action_hint(winChild), totalNodes - nodes0 + 1);
        return Value::YES;
    }
    ctx.tt.store_disproof(key, 1, 0, totalNodes - nodes0 + 1);
    return Value::NO;
}

Value Searcher::defend(int k, int ply) {
    assert(k >= 0);
    if (stopped() || !count_node()) return Value::ABORT;
    const Key     key  = mv.key();
    std::uint32_t hint = 0;
    if (const std::optional<TTData> e = ctx.tt.probe(key)) {
        if (e->proven <= k) return Value::YES;
        if (e->disproven >= k) return Value::NO;
        hint = e->hint;
    }
    const std::uint64_t nodes0 = totalNodes;
    if (k == 0) {
        // Mated now? In check first (cheap), then one legal-action probe.
        if (movegen::is_checkmate(mv)) {
            ctx.tt.store_proof(key, 0, 0, 1);
            return Value::YES;
        }
        ctx.tt.store_disproof(key, 0, 0, 1);
        return Value::NO;
    }
    // From k = 2 on, a killer that does not refute quickly gives way to the narrow checks
    // (narrow_checks_first()); it is searched in full later, in its place in the order.
    const bool  budgeted = k >= 2 && ctx.narrowBudget > 0;
    const Value byKiller = budgeted
        ? within(ctx.narrowBudget, [&] { return killers_first(false, k, ply, key, nodes0); })
        : killers_first(false, k, ply, key, nodes0);
    if (byKiller != Value::OPEN) return byKiller;
    const Listed listed = list_up_to(ply, budgeted, ctx.streamAbove);
    if (listed == Listed::STOPPED) return Value::ABORT;
    if (listed == Listed::OVER) return stream(false, k, ply, key, nodes0);
    ActionList& list = lists[std::size_t(ply)];
    if (list.empty()) {
        if (movegen::in_check_at_turn_start(mv)) { // checkmate: lost for every bound
            ctx.tt.store_proof(key, 0, 0, 1);
            return Value::YES;
        }
        ctx.tt.store_disproof(key, AllBounds, 0, 1); // stalemate: never a mate
        return Value::NO;
    }
    NodePicker picker(list, killers, ply, false, hint);
    if (const Value v = table_cutoff(picker, k, ply, key, nodes0); v != Value::OPEN) return v;
    if (budgeted)
        if (const Value v = narrow_checks_first(picker, k, ply, key, nodes0); v != Value::OPEN)
            return v;
    picker.order();
    return search_children(picker, k, ply, key, nodes0);
}

// The enhanced transposition cutoff of a listed node: each child the table already decided
// within the child's bound either decides the node (a mating attacker action, a refuting
// defence: the next killer; stored, returned) or is skipped by the picker (a failing attacker
// action, an answered defence); the others are scored (NodePicker::score()). OPEN when no
// child decided the node.
Value Searcher::table_cutoff(
    NodePicker& picker, int bound, int ply, Key key, std::uint64_t nodes0) {
    const bool        orNode     = picker.attacker();
    const int         childBound = orNode ? bound - 1 : bound;
    const ActionList& list       = picker.actions();
    for (std::size_t i = 0; i < list.size(); ++i) {
        if (picker.skipped(i)) continue; // another part's root action
        const Key child = list.ref(i).child;
        if (const std::optional<TTData> e = ctx.tt.probe(child)) {
            // The child's own value: the attacker mates or the defender is mated within it.
            const bool yes = e->proven <= childBound;
            const bool no  = e->disproven >= childBound;
            if (orNode ? yes : no) { // decisive
                killers.decided_by(ply, list.action(i), !orNode);
                if (orNode)
                    ctx.tt.store_proof(key, bound, action_hint(child), totalNodes - nodes0);
                else
                    ctx.tt.store_disproof(key, bound, action_hint(child), totalNodes - nodes0);
                return orNode ? Value::YES : Value::NO;
            }
            if (orNode ? no : yes) { // known to fail, or already answered
                picker.skip(i);
                if (orNode) refuted(ply);
                continue;
            }
        }
        picker.score(i);
    }
    return Value::OPEN;
}

// Searches the children of an OR (attacker) or AND (defender) node in the picker's order
// (node_picker.h), which leaves out those the table decided. Splits into tasks where the height
// (and splitDefender) allows.
Value Searcher::search_children(
    NodePicker& picker, int bound, int ply, Key key, std::uint64_t nodes0) {
    const bool        orNode     = picker.attacker();
    const ActionList& list       = picker.actions();
    const int         childBound = orNode ? bound - 1 : bound;
    const bool        canSplit   = ctx.splitHeight > 0 && height(orNode, bound) >= ctx.splitHeight
        && (orNode || ctx.splitDefender);
    bool          searched = false;
    std::uint32_t i        = 0;
    while (picker.next(i)) {
        // Split only while a second worker can run (SearchContext::splitWorkers): else the
        // node is searched on as one thread would.
        if (canSplit && searched && ctx.split_workers() > 1) {
            const Value v = split(picker, bound, ply);
            if (v == Value::ABORT) return v;
            if (v == (orNode ? Value::YES : Value::NO)) return v; // stored by split()
            break;
        }
        if (!make(ply, i)) {
            unmake(ply);
            return Value::ABORT;
        }
        const Value v = orNode ? defend(childBound, ply + 1) : attack(childBound, ply + 1);
        unmake(ply);
        searched = true;
        if (v == Value::ABORT) return v;
        if (orNode && v == Value::NO) refuted(ply);
        if (orNode && v == Value::YES) {
            killers.decided_by(ply, list.action(i), false);
            ctx.tt.store_proof(key, bound, action_hint(list.ref(i).child), totalNodes - nodes0);
            return v;
        }
        if (!orNode && v == Value::NO) {
            killers.decided_by(ply, list.action(i), true);
            ctx.tt.store_disproof(key, bound, action_hint(list.ref(i).child), totalNodes - nodes0);
            return v;
        }
    }
    if (orNode) {
        ctx.tt.store_disproof(key, bound, 0, totalNodes - nodes0);
        return Value::NO;
    }
    ctx.tt.store_proof(key, bound, 0, totalNodes - nodes0);
    return Value::YES;
}

Value Searcher::child_value(bool orNode, int childBound, int ply, std::span<const Move> a) {
    if (stopped()) return Value::ABORT;
    if (const std::optional<TTData> e = ctx.tt.probe(mv.key())) {
        // The child's own value: mated / mates within childBound, or not.
        if (e->proven <= childBound) return Value::YES;
        if (e->disproven >= childBound) return Value::NO;
    }
    pathMoves[std::size_t(ply)].assign(a.begin(), a.end());
    return orNode ? defend(childBound, ply + 1) : attack(childBound, ply + 1);
}

// Before anything is listed: the ply's killers (actions that decided sibling nodes), each only
// if it is one of the legal actions here (ActionSearch::reset_only). In a wide node the same
// refutation or answer usually works again, and the node is then decided without enumerating
// its actions. A defender node then tries the ply's recent refutations (`recent`, those not
// among the killers; NodePicker::first_tries()). Returns the decisive value (stored), ABORT, or
// OPEN.
Value Searcher::killers_first(bool orNode, int bound, int ply, Key key, std::uint64_t nodes0) {
    const int   childBound = orNode ? bound - 1 : bound;
    const Value decisive   = orNode ? Value::YES : Value::NO;
    // The order of the tries is the picker's (NodePicker::first_tries()); an attacker node here
    // has r >= 2, so only its killers are tried.
    const std::vector<Move>* tries[NodePicker::MaxFirstTries];
    const std::size_t        n     = NodePicker::first_tries(killers, ply, orNode, bound, tries);
    const bool               timed = !orNode && bound == 1; // the killers' costs are kept
    for (std::size_t t = 0; t < n; ++t) {
        const std::vector<Move>& a = *tries[t];
        if (a.empty()) continue;
        Key                 child  = 0;
        const std::uint64_t before = totalNodes;
        const Value         v      = value_if_legal(orNode, childBound, ply, a, &child);
        if (v == Value::ABORT) return v;
        if (v != decisive) continue;
        killers.decided_by(ply, a, !orNode); // a is now the first killer
        if (timed) killers.cost(ply)[0] = totalNodes - before + 1;
        const std::uint64_t effort = totalNodes - nodes0 + 1;
        if (orNode)
            ctx.tt.store_proof(key, bound, action_hint(child), effort);
        else
            ctx.tt.store_disproof(key, bound, action_hint(child), effort);
        return decisive;
    }
    return Value::OPEN;
}

bool Searcher::answers(int ply, int k, std::size_t max, std::vector<std::vector<Move>>& out) {
    std::size_t added = 0;
    if (max == 0) return true;
    if (k == 1 && cuts_pay()) {
        // Where actions multiply, listing them (even up to streamAbove) for each mate-in-one
        // leaf of a tree costs more than the proof did: the mate-in-one search finds the mates
        // without listing, in its own order, fixed for the position.
        bool stopped = false;
        mateSearches[std::size_t(ply)].for_each_mate(
            mv,
            [&](std::span<const Move> a) {
                out.emplace_back(a.begin(), a.end());
                return ++added < max;
            },
            [&] {
                stopped = stopped || this->stopped() || !count_node();
                return !stopped;
            },
            &ctx.stop);
        return !stopped && !ctx.stop.load(std::memory_order_relaxed);
    }
    const Listed listed = list_up_to(ply, true, ctx.streamAbove);
    if (listed == Listed::STOPPED) return false;
    if (listed == Listed::OVER)
        return stream(true, k, ply, mv.key(), totalNodes, &out, max > 1, false) != Value::ABORT;
    const ActionList& list = lists[std::size_t(ply)];
    for (std::size_t i = 0; i < list.size() && added < max; ++i) {
        if (!make(ply, i)) {
            unmake(ply);
            return false;
        }
        const Value v = defend(k - 1, ply + 1);
        unmake(ply);
        if (v == Value::ABORT) return false;
        if (v == Value::YES) {
            out.emplace_back(list.action(i).begin(), list.action(i).end());
            ++added;
        }
    }
    return true;
}

bool Searcher::decisive(
    int ply, bool attacker, int k, std::size_t max, std::vector<std::vector<Move>>& out) {
    if (attacker) return answers(ply, k, max, out);
    if (k >= 1) // a wide node's refutations, met as its search meets them
        return stream(false, k, ply, mv.key(), totalNodes, &out, max > 1, false) != Value::ABORT;
    // No attacker move left: every defence refutes (the first max of them).
    std::size_t            added   = 0;
    bool                   aborted = false;
    movegen::ActionPicker& picker  = pickers[std::size_t(ply)];
    picker.reset(mv);
    picker.for_each([&](std::span<const Move> a) {
        if (added == max) return false;
        if (stopped() || !count_node()) {
            aborted = true;
            return false;
        }
        out.emplace_back(a.begin(), a.end());
        ++added;
        return true;
    });
    return !aborted;
}

Value Searcher::value_if_legal(
    bool orNode, int childBound, int ply, const std::vector<Move>& a, Key* child) {
    Value v = Value::OPEN;
    with_if_legal(ply, a, [&](std::span<const Move> b) {
        if (child) *child = mv.key();
        v = child_value(orNode, childBound, ply, b);
    });
    return v;
}

Value Searcher::mates_with(int ply, int k, const std::vector<Move>& a) {
    const Value v = value_if_legal(true, k - 1, ply, a, nullptr);
    return v == Value::OPEN ? Value::NO : v;
}

Value Searcher::search_child(std::span<const std::vector<Move>> parentPath,
    std::span<const Move> action, Key expect, bool defenderNext, int bound) {
    const auto ply = std::size_t(parentPath.size());
    enter_path(parentPath);
    enter_step(int(ply), action);
    Value v = Value::ABORT;
    if (mv.key() != expect) {
        ctx.internal_error();
    } else {
        v = defenderNext ? defend(bound, int(ply) + 1) : attack(bound, int(ply) + 1);
    }
    leave_path(int(ply) + 1);
    return v;
}

} // namespace fived::solver
