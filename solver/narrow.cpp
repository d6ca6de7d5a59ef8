// The narrow checks of the reference search (search.h): at a defender node with two or more
// attacker actions to go, the defences that give check with the fewest attacker answers,
// searched first within growing node budgets (Searcher::narrow_checks_first() for a listed node,
// narrow_checks_streamed() for one too wide to list, both through narrow_rounds()).
#include <algorithm>
#include <atomic>

#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include "movegen/action.h"
#include "movegen/actions.h"
#include "movegen/movegen.h"
#include "movegen/picker.h"
#include "movegen/rules.h"
#include "solver/node_picker.h"
#include "solver/search.h"
#include "solver/search_internal.h"

namespace fived::solver {

using detail::same_action;

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
Value Searcher::narrow_checks_first(
    NodePicker& picker, int k, int ply, Key key, std::uint64_t nodes0) {
    const ActionList& list = picker.actions();
    auto&             cand = narrow[std::size_t(ply)];
    cand.clear();
    for (std::size_t i = 0; i < list.size() && cand.size() < NarrowCounted; ++i)
        if (list.ref(i).check && !picker.skipped(i)) cand.push_back({0, std::uint32_t(i), 0});
    return narrow_rounds(
        k, ply, key, nodes0, 0, [&](std::uint32_t i) { return make(ply, i); },
        [&](std::uint32_t i) { return list.action(i); }, [&](std::uint32_t i) { picker.skip(i); });
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
    const std::vector<Move>* tries[NodePicker::MaxFirstTries];
    const std::size_t        nTries = NodePicker::first_tries(killers, ply, false, k, tries);
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

// Each count is a walk of up to NarrowCountEffort nodes, and a wide node has up to
// NarrowCounted candidates: where most reach the cap, the counts are much of the search
// (cwmtt-ctp1 --at -5: 507 of 512 at the cap, 2.9 s of 5.8 s, in its eldest key, searched before
// the root splits). With a second worker free (SearchContext::splitWorkers) the candidates are
// taken in turn by this searcher and a leased one at the same position; a count depends on the
// position only, so the order and the search do not depend on which thread counted. Two threads,
// median of 5 (search time): cwmtt-ctp1 --at -5 --mate 3 2.98 s -> 2.67 s (one thread 4.24 s).
template <class Enter, class Action>
bool Searcher::count_narrow(int ply, std::span<NarrowCandidate> cs, Enter enter, Action action) {
    auto count = [ply](Searcher& s, NarrowCandidate& c) {
        c.sig                        = s.check_signature();
        movegen::ActionPicker& width = s.pickers[std::size_t(ply) + 1];
        width.reset(s.mv);
        c.width = width.count_within(NarrowCountCap, NarrowCountEffort);
    };
    // The candidates taken in turn on searcher s, each made by make(i) (false: an internal
    // error, with the action made); a limit or an error ends the loop with some not counted.
    std::atomic<std::size_t> next{0}, done{0};
    auto                     take = [&](Searcher& s, auto make) {
        for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < cs.size();) {
            if (stopped()) return;
            const bool made = make(cs[i].index);
            if (made) count(s, cs[i]);
            s.unmake(ply);
            if (!made) return;
            done.fetch_add(1, std::memory_order_release);
        }
    };
    auto mine = [&] { take(*this, enter); };
    auto all  = [&] { return done.load(std::memory_order_acquire) == cs.size(); };
    if (cs.size() < NarrowSplitAt || ctx.splitHeight == 0 || ctx.split_workers() < 2
        || tbb::this_task_arena::max_concurrency() < 2) {
        mine();
        return all();
    }
    // The parent's state (path, candidates) published to the task (STYLE.md §2.12), as in split().
    std::atomic<bool> published{false};
    published.store(true, std::memory_order_release);
    ctx.countSplits.fetch_add(1, std::memory_order_relaxed);
    tbb::task_group group;
    group.run([&] {
        (void)published.load(std::memory_order_acquire);
        if (next.load(std::memory_order_relaxed) >= cs.size()) return; // all taken already
        Searcher* s = ctx.pool->acquire();
        s->enter_path(path(ply));
        take(*s, [&](std::uint32_t i) {
            s->enter_step(ply, action(i));
            return true;
        });
        s->leave_path(ply);
        ctx.pool->release(s);
    });
    mine();
    group.wait();
    return all();
}

// The candidates in narrow[ply] (width 0, index): enter(i) makes candidate i at `ply` (false: an
// internal error, the search stops), action(i) is its moves, answered(i) is told when it is
// proved lost. The first `fixed` keep their place; the others are counted and ordered.
template <class Enter, class Action, class Answered>
Value Searcher::narrow_rounds(int k, int ply, Key key, std::uint64_t nodes0, std::size_t fixed,
    Enter enter, Action action, Answered answered) {
    auto& cand = narrow[std::size_t(ply)];
    if (cand.empty()) return Value::OPEN;
    CandidateHistory& hist = history[std::size_t(ply)];
    const auto        rest = cand.begin() + std::ptrdiff_t(fixed);
    for (auto& c : cand) {
        const std::uint64_t id = action_id(action(c.index));
        c.score                = hist.score(id);
        c.lead                 = hist.lead(id);
    }
    // Counted; then the narrowest of each check (check_signature(): the same check with other
    // choices on the other boards).
    if (!count_narrow(ply, std::span(rest, cand.end()), enter, action)) return Value::ABORT;
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

} // namespace fived::solver
