#include "solver/search.h"

#include <algorithm>
#include <cassert>
#include <climits>

#include <tbb/task_group.h>

#include "movegen/action.h"
#include "movegen/actions.h"
#include "movegen/movegen.h"
#include "movegen/picker.h"
#include "movegen/rules.h"
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
}

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
    const bool byWalk  = withChecks && movegen::MateInOneSearch::cuts_pay(mv);
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
        ctx.internalError.store(true, std::memory_order_relaxed);
        ctx.stop.store(true, std::memory_order_relaxed);
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

template <class F>
bool Searcher::with_if_legal(int ply, const std::vector<Move>& a, F f) {
    if (!movegen::starts_from_playable_boards(mv, a)) return false;
    bool                   legal  = false;
    movegen::ActionSearch& search = onlySearches[std::size_t(ply)];
    search.reset_only(mv, a);
    search.for_each([&](std::span<const Move> b) {
        if (!same_action(b, a)) return true;
        legal = true;
        f(b);
        return false;
    });
    return legal;
}

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

    if (const Value v = killers_first(true, r, ply, key, nodes0); v != Value::OPEN) return v;
    const Listed listed = list_up_to(ply, true, ctx.streamAbove);
    if (listed == Listed::STOPPED) return Value::ABORT;
    if (listed == Listed::OVER) return stream(true, r, ply, key, nodes0);
    ActionList& list = lists[std::size_t(ply)];
    if (list.empty()) { // the attacker is mated or stalemated: no mate for any bound
        ctx.tt.store_disproof(key, AllBounds, 0, 1);
        return Value::NO;
    }
    if (ply == 0) ctx.rootActions.store(list.size(), std::memory_order_relaxed);
    // Children decided by the table (enhanced transposition cutoff), then the ordering.
    for (std::size_t i = 0; i < list.size(); ++i) {
        ActionList::Ref& ref = list.ref(i);
        ref.score            = 0;
        if (const std::optional<TTData> e = ctx.tt.probe(ref.child)) {
            if (e->proven <= r - 1) {
                killers.set(ply, list.action(i));
                ctx.tt.store_proof(key, r, action_hint(ref.child), totalNodes - nodes0);
                return Value::YES;
            }
            if (e->disproven >= r - 1) {
                ref.score = INT_MIN; // known to fail
                refuted(ply);
                continue;
            }
        }
        if (hint && action_hint(ref.child) == hint) ref.score += 1 << 20;
        ref.score += killers.score(ply, list.action(i)) << 16;
        if (ref.check) ref.score += 1 << 10;
    }
    list.sort_by_score();
    return search_children(true, r, ply, key, nodes0);
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
    const std::vector<Move>* tryFirst[2 + RecentActions::Slots];
    const std::size_t        nTry = killers.first_tries(ply, true, tryFirst);
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
    for (std::size_t i = 0; i < list.size(); ++i) {
        ActionList::Ref& ref = list.ref(i);
        ref.score            = 0;
        if (const std::optional<TTData> e = ctx.tt.probe(ref.child)) {
            if (e->disproven >= k) { // a refutation known from the table: the next killer
                killers.decided_by(ply, list.action(i), true);
                ctx.tt.store_disproof(key, k, action_hint(ref.child), totalNodes - nodes0);
                return Value::NO;
            }
            if (e->proven <= k) {
                ref.score = INT_MIN; // already answered
                continue;
            }
        }
        if (hint && action_hint(ref.child) == hint) ref.score += 1 << 20;
        // Killers: defences that refuted sibling attacker actions at this ply.
        ref.score += killers.score(ply, list.action(i)) << 16;
        // Jumps last: a defence that stays on its boards keeps the multiverse small, and in
        // practice it is the usual refutation (measured: brawn-tactics-2, no mate in 4, 1847 ->
        // 383 nodes); a defence that branches gives the attacker new boards to play on.
        for (const Move& m : list.action(i))
            if (!m.is_physical()) ref.score -= 1 << 10;
    }
    if (budgeted)
        if (const Value v = narrow_checks_first(k, ply, key, nodes0); v != Value::OPEN) return v;
    list.sort_by_score();
    return search_children(false, k, ply, key, nodes0);
}

template <class F>
Value Searcher::within(std::uint64_t budget, F f) {
    const std::uint64_t outer = budgetEnd;
    const std::uint64_t mine  = std::min(outer, totalNodes + budget);
    if (outer == NoBudget) budgetOut = false; // left set by a search that stopped
    budgetEnd     = mine;
    const Value v = f();
    budgetEnd     = outer;
    if (v == Value::ABORT && budgetOut && mine < outer
        && !ctx.stop.load(std::memory_order_relaxed)) {
        budgetOut = false; // this budget ran out, not an enclosing one
        return Value::OPEN;
    }
    return v;
}

// A defender node with k >= 2 whose killers did not refute it within ctx.narrowBudget nodes. Its
// refutation, when it has one, is usually cheapest where the attacker has least to choose
// from: a defence that gives check leaves the attacker only its answers to the check (measured:
// slavrick samet --at -5, the 325th key; its killer, a quiet defence, leaves the attacker over
// 66,000 actions and was not refuted in 1.3M nodes; 36 of its 3,169 defences give check, and
// the narrowest of them, 960 attacker actions, refutes in 19,000 nodes). So the (at most
// NarrowChecks) defences that give check with the fewest attacker actions (counted up to
// NarrowCountCap, within NarrowCountEffort depth-first nodes; of the defences that give the same
// checks, check_signature(), only the narrowest: slavrick writenwrong --at -5 had a key whose
// eight candidates were one check with eight pawn moves on another board, 2.3M nodes in the
// rounds before the first defence of the list refuted in 9,677) are searched first, in rounds of
// node budgets growing from ctx.narrowBudget by NarrowGrowth (ordered by CandidateHistory): the
// first refutation decides the node; a defence proved lost is answered; one whose budget ran out is
// searched again in the next round, and in full in the usual order after the rounds. At most
// NarrowCounted checks are counted, the first in list order. A budget only stops a search early:
// what it decided is exact and stored, what it did not finish stores nothing, so the node's value
// is the same as without budgets (which refutation decides it may depend on what other threads put
// in the table).
Value Searcher::narrow_checks_first(int k, int ply, Key key, std::uint64_t nodes0) {
    ActionList& list = lists[std::size_t(ply)];
    auto&       cand = narrow[std::size_t(ply)];
    cand.clear();
    for (std::size_t i = 0; i < list.size() && cand.size() < NarrowCounted; ++i)
        if (list.ref(i).check && list.ref(i).score != INT_MIN)
            cand.push_back({0, std::uint32_t(i), 0});
    return narrow_rounds(
        k, ply, key, nodes0, 0, [&](std::uint32_t i) { return make(ply, i); },
        [&](std::uint32_t i) { return list.action(i); },
        [&](std::uint32_t i) { list.ref(i).score = INT_MIN; });
}

// narrow_checks_first() for a defender node too wide to list (stream()), which would otherwise
// search its defences in full in the enumeration's order: where the first of them leaves the
// attacker a wide node, that one search can take the rest of the time (cwmtt-standard --at -5
// --mate 3: after the 985th key the defender has 14,477,119 defences, and the first took the
// last 21 s of the minute; slavrick writenwrong --at -5 and cwmtt-ctp1 --at -5 stalled alike).
// The candidates, in budget rounds as there:
//  * first the ply's killers and recent refutations, completed: their moves on the boards they
//    play on (where those moves are among the board's), with the first legal choice on the other
//    boards (ActionSearch::reset_prefer). A sibling's refutation is usually a few moves that
//    matter, but as an action it is not legal where the playable boards differ (after a key
//    that branches);
//  * then the checks, from the mate-in-one search's walk (MateInOneSearch::for_each_check, which
//    leaves the quiet defences out by classes), at most NarrowCounted of them and
//    SameCheckCollected of each check_signature(), met within NarrowCountEffort tested actions.
Value Searcher::narrow_checks_streamed(int k, int ply, Key key, std::uint64_t nodes0) {
    auto& cand = narrow[std::size_t(ply)];
    auto& acts = narrowActions[std::size_t(ply)];
    cand.clear();
    std::size_t   n       = 0;
    std::uint64_t effort  = 0;
    bool          aborted = false;
    auto          keep    = [&](std::span<const Move> a) {
        for (std::size_t j = 0; j < n; ++j)
            if (same_action(a, acts[j])) return;
        if (n == acts.size()) acts.emplace_back();
        acts[n].assign(a.begin(), a.end());
        cand.push_back({0, std::uint32_t(n++), 0});
    };
    // The killers and recent refutations, completed: their moves where they are legal here,
    // with the first legal choice on the other boards, found within NarrowCountEffort
    // depth-first nodes (a completion that does not exist must not cost a whole enumeration).
    const std::vector<Move>* tries[2 + RecentActions::Slots];
    const std::size_t        nTries = killers.first_tries(ply, true, tries);
    movegen::ActionSearch&   search = onlySearches[std::size_t(ply)];
    search.set_node_limit(NarrowCountEffort);
    for (std::size_t t = 0; t < nTries; ++t) {
        if (tries[t]->empty()) continue;
        search.reset_prefer(mv, *tries[t]);
        search.for_each([&](std::span<const Move> a) {
            keep(a);
            return false;
        });
    }
    search.set_node_limit(UINT64_MAX); // with_if_legal() tests legality without a limit
    const std::size_t nExt = n;
    // The checks, at most SameCheckCollected of each set of checking moves (narrow_rounds() keeps
    // the narrowest): in a wide node most checks are one check with other choices on the other
    // boards (slavrick writenwrong --at -5 had a key whose eight checks were one).
    auto& seen = narrowSeen;
    seen.clear();
    const bool done = mateSearches[std::size_t(ply)].for_each_check(
        mv,
        [&](std::span<const Move> a) {
            const std::uint64_t sig = check_signature();
            if (std::count(seen.begin(), seen.end(), sig) >= std::ptrdiff_t(SameCheckCollected))
                return true;
            seen.push_back(sig);
            keep(a);
            return n < nExt + NarrowCounted;
        },
        [&] {
            aborted = aborted || stopped() || !count_node();
            return !aborted && ++effort <= NarrowCountEffort;
        },
        &ctx.stop);
    if (aborted || (!done && ctx.stop.load(std::memory_order_relaxed))) return Value::ABORT;
    return narrow_rounds(
        k, ply, key, nodes0, nExt,
        [&](std::uint32_t i) {
            enter_step(ply, acts[i]);
            return true;
        },
        [&](std::uint32_t i) { return std::span<const Move>(acts[i]); }, [](std::uint32_t) {});
}

std::uint64_t Searcher::check_signature() {
    checkMoves.clear();
    movegen::turn_start_checks(mv, checkMoves);
    std::uint64_t sig = 0;
    for (const Move& m : checkMoves)
        sig += move_hash(m);
    return sig;
}

// The candidates in narrow[ply] (width 0, index): enter(i) makes candidate i at `ply` (false: an
// internal error, the search stops), action(i) is its moves, answered(i) is told when it is
// proved lost. The first `fixed` keep their place; the others are counted and ordered.
template <class Enter, class Action, class Answered>
Value Searcher::narrow_rounds(int k, int ply, Key key, std::uint64_t nodes0, std::size_t fixed,
    Enter enter, Action action, Answered answered) {
    auto& cand = narrow[std::size_t(ply)];
    if (cand.empty()) return Value::OPEN;
    movegen::ActionPicker& width = pickers[std::size_t(ply) + 1];
    CandidateHistory&      hist  = history[std::size_t(ply)];
    const auto             rest  = cand.begin() + std::ptrdiff_t(fixed);
    for (auto& c : cand) {
        const std::uint64_t id = action_id(action(c.index));
        c.score                = hist.score(id);
        c.lead                 = hist.lead(id);
    }
    // Counted; then the narrowest of each check (check_signature(): the same check with other
    // choices on the other boards).
    for (auto c = rest; c != cand.end(); ++c) {
        if (stopped()) return Value::ABORT;
        if (!enter(c->index)) {
            unmake(ply);
            return Value::ABORT;
        }
        c->sig = check_signature();
        width.reset(mv);
        c->width = width.count_within(NarrowCountCap, NarrowCountEffort);
        unmake(ply);
    }
    std::sort(rest, cand.end()); // by history, width, then index (no buffer)
    auto kept = rest;
    for (auto c = rest; c != cand.end(); ++c)
        if (std::find_if(rest, kept, [&](const NarrowCandidate& d) { return d.sig == c->sig; })
            == kept)
            *kept++ = *c;
    cand.erase(kept, cand.end());
    if (cand.size() > fixed + NarrowChecks) cand.resize(fixed + NarrowChecks);
    // All by history; among equals the fixed ones first.
    for (auto c = rest; c != cand.end(); ++c)
        c->counted = true;
    std::sort(cand.begin(), cand.end());
    constexpr std::uint64_t Answered_ = UINT64_MAX;
    // The budget of the round numbered n (from 0), the last one's past the last round.
    auto budget = [&](int n) {
        std::uint64_t b = ctx.narrowBudget;
        for (int i = std::min(n, NarrowRounds - 1); i > 0; --i)
            b *= NarrowGrowth;
        return b;
    };
    for (int round = 0; round < NarrowRounds; ++round) {
        bool open = false;
        for (auto& c : cand) {
            if (c.width == Answered_) continue;
            // A candidate that started ahead has had the last round's budget already.
            if (round > 0 && round - 1 + c.lead >= NarrowRounds - 1) continue;
            if (!enter(c.index)) {
                unmake(ply);
                return Value::ABORT;
            }
            const Key   child = mv.key();
            const Value v     = within(budget(round + c.lead), [&] { return attack(k, ply + 1); });
            unmake(ply);
            if (v == Value::ABORT) return v;
            if (v == Value::NO) {
                // For the siblings: this refutation, and the candidates searched without an
                // answer or lost.
                for (const auto& d : cand)
                    if (&d != &c && (d.width == Answered_ || &d < &c || round > 0))
                        hist.add(action_id(action(d.index)), -1);
                hist.add(action_id(action(c.index)), 2, std::min(round + c.lead, NarrowRounds - 1));
                killers.decided_by(ply, action(c.index), true);
                ctx.tt.store_disproof(key, k, action_hint(child), totalNodes - nodes0);
                return v;
            }
            if (v == Value::YES) {
                c.width = Answered_;
                answered(c.index);
            } else {
                open = true;
            }
        }
        if (!open) break;
    }
    return Value::OPEN;
}

// Searches the children of an OR (attacker) or AND (defender) node in list order, skipping
// those marked INT_MIN (already decided by the table: a failing attacker action, or an
// answered defence). Splits into tasks where the height (and splitDefender) allows.
Value Searcher::search_children(bool orNode, int bound, int ply, Key key, std::uint64_t nodes0) {
    const ActionList&              list       = lists[std::size_t(ply)];
    const int                      childBound = orNode ? bound - 1 : bound;
    std::span<const std::uint32_t> order      = list.ordered();
    const bool canSplit = ctx.splitHeight > 0 && height(orNode, bound) >= ctx.splitHeight
        && (orNode || ctx.splitDefender) && budgetEnd == NoBudget;
    bool searched = false;
    for (std::size_t pos = 0; pos < order.size(); ++pos) {
        const std::uint32_t i = order[pos];
        if (list.ref(i).score == INT_MIN) continue;
        if (canSplit && searched) {
            const Value v = split(orNode, bound, ply, order.subspan(pos));
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
// among the killers; first_tries()). Returns the decisive value (stored), ABORT, or OPEN.
Value Searcher::killers_first(bool orNode, int bound, int ply, Key key, std::uint64_t nodes0) {
    const int   childBound = orNode ? bound - 1 : bound;
    const Value decisive   = orNode ? Value::YES : Value::NO;
    // An attacker node here has r >= 2: its ply's recent actions are the mates of r = 1 nodes.
    const std::vector<Move>* tries[2 + RecentActions::Slots];
    const std::size_t        n = killers.first_tries(ply, !orNode, tries);
    // A defender node with k = 1: the second killer first when its last refutation took fewer
    // nodes than the first's. Either refutes as well, but the mate-in-one search after them
    // (the refutation's whole cost) can differ twice over: after a defence that leaves the
    // attacker fewer checks it probes fewer actions (tools-dead-timeline --at -5: 10,042,954
    // nodes instead of 12,164,683).
    const bool     timed = !orNode && bound == 1;
    std::uint64_t* cost  = killers.cost(ply);
    if (timed && cost[1] && cost[1] < cost[0]) std::swap(tries[0], tries[1]);
    for (std::size_t t = 0; t < n; ++t) {
        const std::vector<Move>& a = *tries[t];
        if (a.empty()) continue;
        Key                 child  = 0;
        const std::uint64_t before = totalNodes;
        const Value         v      = value_if_legal(orNode, childBound, ply, a, &child);
        if (v == Value::ABORT) return v;
        if (v != decisive) continue;
        killers.decided_by(ply, a, !orNode); // a is now the first killer
        if (timed) cost[0] = totalNodes - before + 1;
        const std::uint64_t effort = totalNodes - nodes0 + 1;
        if (orNode)
            ctx.tt.store_proof(key, bound, action_hint(child), effort);
        else
            ctx.tt.store_disproof(key, bound, action_hint(child), effort);
        return decisive;
    }
    return Value::OPEN;
}

// A wide node, searched without listing its actions. Killers first (each only if legal here,
// ActionSearch::reset_only), then two passes of the ply's picker (the depth-first engine, and
// the hypercuboid enumeration after a thrash, which shows every action again: an action seen
// twice is searched twice, the second time answered by the table), each action searched as it
// comes: attacker, checks then the rest; defender, defences without jumps then with jumps. With
// two or more playable boards the attacker's checks come from the mate-in-one search's walk
// instead (MateInOneSearch::for_each_check), which leaves the quiet actions out by classes.
// The table decides a child at once where it can (enhanced transposition cutoff). The first
// decisive child ends the node (unless `out` and `all`: every key is wanted).
Value Searcher::stream(bool orNode, int bound, int ply, Key key, std::uint64_t nodes0,
    std::vector<std::vector<Move>>* out, bool all, bool useKillers) {
    const int   childBound = orNode ? bound - 1 : bound;
    const Value decisive   = orNode ? Value::YES : Value::NO;
    bool        aborted = false, decided = false;
    Key         winChild = 0;
    auto        visit    = [&](std::span<const Move> a) {
        const Key   child = mv.key();
        const Value v     = child_value(orNode, childBound, ply, a);
        if (v == Value::ABORT) {
            aborted = true;
            return false;
        }
        if (v != decisive) {
            if (orNode) refuted(ply);
            return true;
        }
        if (!decided) {
            winChild = child;
            killers.decided_by(ply, a, !orNode);
        }
        decided = true;
        if (!out) return false;
        if (std::find_if(out->begin(), out->end(),
                          [&](const std::vector<Move>& k) { return same_action(a, k); })
            == out->end())
            out->emplace_back(a.begin(), a.end());
        return all;
    };
    // A defender with two or more moves to go: the ply's refutations completed, and its narrow
    // checks, first, within budgets (narrow_checks_streamed()).
    if (!orNode && bound >= 2 && ctx.narrowBudget > 0 && useKillers && !out
        && movegen::MateInOneSearch::cuts_pay(mv))
        if (const Value v = narrow_checks_streamed(bound, ply, key, nodes0); v != Value::OPEN)
            return v;
    // The killers of this ply, each only if it is one of the legal actions here.
    const std::vector<Move>* killer[2] = {&killers.first(ply), &killers.second(ply)};
    for (const std::vector<Move>* k : killer) {
        if (!useKillers || k->empty() || aborted || (decided && !all)) continue;
        with_if_legal(ply, *k, [&](std::span<const Move> a) { visit(a); });
    }
    // A killer was searched above, before the passes.
    auto searchedKiller = [&](std::span<const Move> a) {
        return useKillers && (same_action(a, *killer[0]) || same_action(a, *killer[1]));
    };
    // The class walk: an attacker with two moves to go, too wide to list. Each action is
    // searched as in the passes below; when refuted, the refutation may refute its class too
    // (class_refuted(): the actions that differ from it only in their moves on timelines far
    // ahead of the present), and the walk leaves that class out (HypercuboidSearch::
    // for_each_cut). Where most boards are ahead of the present (cwmtt-silly --at -5, about
    // 10^9 actions), the classes are few. The walk shows every legal action not left out, so
    // it replaces the passes.
    const bool classWalk = orNode && bound == 2 && ctx.classCuts && !out
        && movegen::MateInOneSearch::cuts_pay(mv) && classes_possible();
    using Cut     = movegen::HypercuboidSearch::Verdict;
    const int lo0 = mv.min_l(), hi0 = mv.max_l();
    // An action just searched and refuted (made on mv): its class left out when its refutation
    // refutes the class, by the rules given.
    auto classCut = [&](std::span<const Move> a, std::vector<int>& keep,
                        std::span<movegen::SquareRules> squares,
                        std::span<movegen::SquareRules> newSquares) {
        bool       interrupted = false;
        const bool cut = class_refuted(ply, a, lo0, hi0, keep, squares, newSquares, interrupted);
        if (interrupted) {
            aborted = true;
            return Cut::STOP;
        }
        if (!cut) return Cut::NEXT;
        ctx.classesCut.fetch_add(1, std::memory_order_relaxed);
        return Cut::CUT_ON_SQUARES;
    };
    // The checks without meeting the quiet actions one by one: the mate-in-one search's walk
    // leaves them out by classes (MateInOneSearch::for_each_check). Where quiet actions are most
    // of a wide node, the checks come after a few of them instead of after all (cwmtt-silly
    // --at -7: 22 million actions met in 30 s, none a check). Before a class walk, the checks'
    // classes are left out too (cwmtt-100-timelines --at -9: its key, a check, came after
    // 108,000 refuted actions of the walk's order, 3.4M nodes; the checks found it in 1.3M).
    auto checksPass = [&](bool cuts) {
        movegen::MateInOneSearch& walk   = mateSearches[std::size_t(ply)];
        auto                      tested = [&] {
            aborted = aborted || stopped() || !count_node();
            return !aborted;
        };
        const bool done = walk.for_each_check_cut(
            mv,
            [&](std::span<const Move> a, std::vector<int>& keep) {
                if (!searchedKiller(a) && !visit(a)) return Cut::STOP;
                return cuts ? classCut(a, keep, walk.cut_squares(), walk.cut_new_squares())
                            : Cut::NEXT;
            },
            tested, &ctx.stop);
        // Stopped without a decision and not by the visitor: the stop flag (a limit).
        if (!done && !decided) aborted = true;
    };
    bool walked = false;
    // The checks first, their classes cut too (a mate in two usually starts with one: the
    // walk's order alone took tools-standard-checkmate --at -3 from 2 s to 32 s); what they did
    // not decide, the walk does, each check met again answered by the table.
    if (classWalk && ctx.classChecks && !aborted && !decided) checksPass(true);
    if (classWalk && !aborted && !decided) {
        auto onAction = [&](std::span<const Move> a, std::vector<int>& keep) {
            if (stopped() || !count_node()) {
                aborted = true;
                return Cut::STOP;
            }
            if (!visit(a)) return Cut::STOP;
            return classCut(
                a, keep, classSquares[std::size_t(ply)], classNewSquares[std::size_t(ply)]);
        };
        const std::size_t n = std::size_t(hi0 - lo0 + 1);
        classSquares[std::size_t(ply)].resize(n);
        classNewSquares[std::size_t(ply)].resize(n); // at most one new timeline per timeline
        const bool done = classWalks[std::size_t(ply)].for_each_cut(mv, onAction,
            classSquares[std::size_t(ply)], lo0, classNewSquares[std::size_t(ply)], &ctx.stop);
        // Stopped without a decision and not by the visitor: the stop flag (a limit).
        if (!done && !decided) aborted = true;
        walked = true;
    }
    // The conflict pass: a defender with one move to go. Its defences are one move per board,
    // and facing a mate threat most of them lose, usually to the same mate M: those that keep
    // the move that let M in on the board where M checks (the timeline of the royal it
    // attacks). The enumeration varies one board's move fastest, so when that board is another
    // one, every defence in between is searched and lost (measured on tools-standard-checkmate-4
    // --at -5: 941 defences on average before the refutation). Here each lost defence leaves
    // out, for this pass only, the defences that make the same choice on the timelines M checks
    // on (HypercuboidSearch::for_each_cut): the pass tries another move there next (measured
    // there: 1.7 defences on average; the case took 147 s instead of 315 s). The pass is only
    // an order: what it leaves out is searched by the passes after it (those it searched are
    // answered by the table), so the node's value does not depend on it.
    if (!orNode && bound == 1 && !out && !aborted && !decided) {
        const std::vector<Move>& mate = killers.first(ply + 1);
        // Each defence: searched; when lost, the timelines of the royals its mate checks.
        auto onDefence = [&](std::span<const Move> a, std::vector<int>& keep) {
            if (stopped() || !count_node()) {
                aborted = true;
                return Cut::STOP;
            }
            if (!visit(a)) return Cut::STOP;
            // Lost: where does the mate that answered it (the killer of the next ply, when it is
            // legal here) check?
            if (mate.empty()) return Cut::NEXT;
            mateChecks.clear();
            with_if_legal(ply + 1, mate,
                [&](std::span<const Move>) { movegen::turn_start_checks(mv, mateChecks); });
            for (const Move& c : mateChecks)
                keep.push_back(c.to.l());
            return mateChecks.empty() ? Cut::NEXT : Cut::CUT;
        };
        const bool done =
            conflicts[std::size_t(ply)].for_each_cut(mv, onDefence, {}, 0, {}, &ctx.stop);
        // Stopped without a refutation and not by the visitor: the stop flag (a limit).
        if (!done && !decided) aborted = true;
    }
    // The passes. A defender's first pass is the defences without jumps, enumerated alone
    // (ActionPicker::physical()): where they are rare among millions of actions with jumps, the
    // picker does not meet the others to find them.
    movegen::ActionPicker& picker = pickers[std::size_t(ply)];
    picker.reset(mv);
    for (int pass = 0; pass < 2 && !walked && !aborted && !(decided && !all); ++pass) {
        auto filtered = [&](std::span<const Move> a) {
            // Most actions of a pass are filtered out: stop checks come here, not only in
            // visit(), or a limit would wait for the whole enumeration; and each action met
            // counts as a node (as each tested action of the mate-in-one search does), so a
            // node limit bounds a pass too.
            if (stopped() || !count_node()) {
                aborted = true;
                return false;
            }
            if (searchedKiller(a)) return true;
            bool first = true;
            if (orNode) {
                first = movegen::in_check_at_turn_start(mv);
            } else {
                for (const Move& m : a)
                    first = first && m.is_physical();
            }
            if (first != (pass == 0)) return true;
            return visit(a);
        };
        if (!orNode && pass == 0) {
            picker.physical(filtered);
        } else if (orNode && pass == 0 && movegen::MateInOneSearch::cuts_pay(mv)) {
            checksPass(false);
        } else if (picker.depth_first(filtered) && picker.thrashed()) {
            picker.fallback(filtered);
        }
    }
    if (aborted) return Value::ABORT;
    const std::uint64_t effort = totalNodes - nodes0 + 1;
    if (decided == orNode) {
        if (orNode)
            ctx.tt.store_proof(key, bound, action_hint(winChild), effort);
        else
            ctx.tt.store_proof(key, bound, 0, effort);
        return Value::YES;
    }
    if (orNode)
        ctx.tt.store_disproof(key, bound, 0, effort);
    else
        ctx.tt.store_disproof(key, bound, action_hint(winChild), effort);
    return Value::NO;
}

// Can a class be frozen here at all: does some timeline end after the present's next board
// (class_refuted() freezes only timelines that end, after the action and its refutation, more
// than a turn after an active one)? Where every board is at the present (tools-princess --at -5:
// four boards), the walk would only be slower than the passes (195,890 keys refuted in 60 s
// instead of 1,589,626).
bool Searcher::classes_possible() const {
    const int present = mv.present_v();
    for (int l = mv.min_l(); l <= mv.max_l(); ++l)
        if (mv.end_v(l) > present + 1) return true;
    return false;
}

// The class of `a` (made on mv): the actions that make the same choices as `a` on every
// timeline except some it moves from (G), where they may move otherwise. The first killer of
// the next ply (D, usually the defence that just refuted `a`) refutes them all when:
//  * D is legal after `a` and moves on, arrives on or passes across no timeline of G;
//  * each T of G ends, after a and D, later than the present by more than a turn of some other
//    active timeline U (end_v(U) + 1 < end_v(T));
//  * MateInOneSearch::no_mate_over_class() proves no mate in one after a and D with G frozen.
// Then for a' in the class, D is legal after a' as after a (D reads no board of G; the
// attacks on D's royals come from boards of the attacker's colour, and G's last boards are the
// defender's: RULES.md 5.2), and no_mate_over_class() gives no mate in one after a' and D.
// Every a' of the class that is legal is refuted, so none needs its own search.
bool Searcher::class_refuted(int ply, std::span<const Move> a, int lo0, int hi0,
    std::vector<int>& keep, std::span<movegen::SquareRules> squares,
    std::span<movegen::SquareRules> newSquares, bool& interrupted) {
    const std::vector<Move>& d = killers.first(ply + 1);
    if (d.empty()) return false;
    const movegen::Color attacker = ~mv.to_move(); // `a` is made
    const int            lo = mv.min_l(), hi = mv.max_l();
    bool                 refutes = false;
    int                  behind  = INT32_MAX;
    with_if_legal(ply + 1, d, [&](std::span<const Move>) {
        // Frozen: the timelines `a` moves from or created that D does not touch, each ending
        // more than a turn after `behind`, the earliest end of an active timeline not frozen
        // (the same for every action of the class: the others keep their boards).
        std::vector<int>& frozen = frozenScratch;
        frozen.clear();
        auto consider = [&](int t) {
            if (std::find(frozen.begin(), frozen.end(), t) == frozen.end()
                && !movegen::touches_any(d, std::span<const int>(&t, 1)))
                frozen.push_back(t);
        };
        for (const Move& m : a)
            consider(m.from.l());
        for (int l = lo; l <= hi; ++l)
            if (l < lo0 || l > hi0) consider(l); // the timelines `a` created
        for (std::size_t before = SIZE_MAX; before != frozen.size();) {
            before = frozen.size();
            behind = INT32_MAX;
            for (int l = mv.min_l(); l <= mv.max_l(); ++l)
                if (mv.is_active(l) && std::find(frozen.begin(), frozen.end(), l) == frozen.end())
                    behind = std::min(behind, mv.end_v(l));
            if (behind == INT32_MAX) {
                frozen.clear();
                break;
            }
            std::erase_if(frozen, [&](int t) { return mv.end_v(t) <= behind + 1; });
        }
        if (frozen.empty()) return;
        refutes = classProofs[std::size_t(ply + 1)].no_mate_over_class(
            mv, frozen,
            [&] {
                interrupted = interrupted || stopped() || !count_node();
                return !interrupted;
            },
            &ctx.stop);
        interrupted = interrupted || stopped();
    });
    if (!refutes || interrupted) return false;
    if (ctx.classHook) ctx.classHook(ctx.classHookArg, mv, ply, a, d, frozenScratch);
    for (int l = lo; l <= hi; ++l)
        if (std::find(frozenScratch.begin(), frozenScratch.end(), l) == frozenScratch.end())
            keep.push_back(l);
    // A frozen timeline that existed: any board (the same royals of the defender); one that `a`
    // created: any branching arrival whose board is later than behind + 1.
    for (movegen::SquareRules& r : squares)
        r.clear();
    for (movegen::SquareRules& r : newSquares)
        r.clear();
    for (const int t : frozenScratch)
        if (t < lo0 || t > hi0) {
            const int k = std::abs(t - movegen::next_timeline_index(attacker, lo0, hi0));
            newSquares[std::size_t(k)].laterThan = behind + 1;
        }
    return true;
}

bool Searcher::answers(int ply, int k, bool all, std::vector<std::vector<Move>>& out) {
    if (k == 1 && movegen::MateInOneSearch::cuts_pay(mv)) {
        // Where actions multiply, listing them (even up to streamAbove) for each mate-in-one
        // leaf of a tree costs more than the proof did: the mate-in-one search finds the mates
        // without listing, in its own order, fixed for the position.
        bool stopped = false;
        mateSearches[std::size_t(ply)].for_each_mate(
            mv,
            [&](std::span<const Move> a) {
                out.emplace_back(a.begin(), a.end());
                return all;
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
        return stream(true, k, ply, mv.key(), totalNodes, &out, all, false) != Value::ABORT;
    const ActionList& list = lists[std::size_t(ply)];
    for (std::size_t i = 0; i < list.size(); ++i) {
        if (!make(ply, i)) {
            unmake(ply);
            return false;
        }
        const Value v = defend(k - 1, ply + 1);
        unmake(ply);
        if (v == Value::ABORT) return false;
        if (v == Value::YES) {
            out.emplace_back(list.action(i).begin(), list.action(i).end());
            if (!all) break;
        }
    }
    return true;
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
        ctx.internalError.store(true, std::memory_order_relaxed);
        ctx.stop.store(true, std::memory_order_relaxed);
    } else {
        v = defenderNext ? defend(bound, int(ply) + 1) : attack(bound, int(ply) + 1);
    }
    leave_path(int(ply) + 1);
    return v;
}

} // namespace fived::solver
