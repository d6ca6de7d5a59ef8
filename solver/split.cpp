// The parallel split of the reference search (search.h, "Parallelism"): the searcher pool and
// Searcher::split, the remaining children of a node as oneTBB tasks.
#include <algorithm>
#include <mutex>
#include <thread>

#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include "solver/node_picker.h"
#include "solver/search.h"
#include "solver/search_internal.h"

namespace fived::solver {

// --- SearcherPool ------------------------------------------------------------------------------

Searcher* SearcherPool::acquire() {
    std::lock_guard lock(mutex);
    if (idle.empty()) {
        all.push_back(std::make_unique<Searcher>(ctx));
        return all.back().get();
    }
    Searcher* s = idle.back();
    idle.pop_back();
    return s;
}

void SearcherPool::release(Searcher* s) {
    s->flush_nodes();
    std::lock_guard lock(mutex);
    idle.push_back(s);
}

// Runs the remaining children as tasks: the picker's current action and those after it. Returns the
// decisive value (already stored), the non-decisive one when every child finished without deciding
// (the caller stores it), or ABORT.
//
// Who searches which child (split_blocks.h). The remaining children are cut into one block of
// consecutive children per worker, in the picker's order; a worker searches its block from the
// front, and when it is empty takes the back half of the largest block left. Neighbours in the
// order are alike (the actions of a listed node differ on one board at a time), and the serial
// search refutes each with what refuted the one before (killers, recent refutations): a worker
// walking a block keeps that, where workers taking the next child in turn each met every other
// one. A worker takes the node's killers when it starts a block, and merges what each child
// taught it back. Measured on a quiet 2-core machine, 2 threads against 1 (whole process,
// median of 5 pairs; 3 for the two slowest): slavrick samet --at -5 --mate 3 1.12x -> 1.88x,
// tools-standard-checkmate-4 --at -5 1.35x -> 1.95x, cwmtt-futures --at -5 1.40x -> 1.99x,
// js-reversed-royalty --at -5 1.16x -> 1.87x, slavrick writenwrong --at -5 1.10x -> 1.63x,
// cwmtt-standard --at -5 1.17x -> 1.65x, cwmtt-ctp1 --at -5 1.29x -> 1.35x (8 root actions).
// The eldest child, searched before the split, stays first; a node that a late child decides is
// decided by the worker whose block holds it.
Value Searcher::split(const NodePicker& picker, int bound, int ply) {
    const bool                     orNode     = picker.attacker();
    const ActionList&              list       = picker.actions();
    std::span<const std::uint32_t> rest       = picker.from_current();
    const int                      childBound = orNode ? bound - 1 : bound;
    const Value                    decisive   = orNode ? Value::YES : Value::NO;
    std::atomic<bool>              decided{false};
    std::atomic<bool>              aborted{false};
    std::atomic<std::size_t>       finished{0};
    std::atomic<std::uint32_t>     winner{0};
    std::size_t                    pending = 0;
    for (const std::uint32_t i : rest)
        pending += !picker.skipped(i);
    const Key       key = mv.key();
    tbb::task_group group;
    ctx.splits.fetch_add(1, std::memory_order_relaxed);
    const std::uint64_t lent = lent_budget(); // each worker's (search.h, budgetEnd)
    std::atomic<bool>   ranOut{false};
    // The killers below this node are shared by its workers through this searcher's (idle while
    // it waits): a worker starts a block with them and merges what each child taught it back, so
    // the refutation one sibling found is tried first on the next, as in the serial search.
    std::mutex        killerMutex;
    const std::size_t workers = std::min({pending,
        std::size_t(tbb::this_task_arena::max_concurrency()), std::size_t(ctx.split_workers())});
    // The blocks (split_blocks.h; this searcher's, per ply) and which worker owns which.
    SplitBlocks& blocks = splitBlocks[std::size_t(ply)];
    blocks.reset(rest.size(), workers);
    std::mutex               blockMutex;
    std::atomic<std::size_t> owners{0};
    // Explicit hand-offs (STYLE.md §2.12): TSan does not see oneTBB's own synchronisation, so
    // the parent publishes its state (path, list) with a release store that every task
    // acquires, and each task releases its work into `finished`/`decided`/`aborted`.
    std::atomic<bool> published{false};
    published.store(true, std::memory_order_release);
    // One worker per thread, each on its block. A task per child would be run last-in first-out
    // by the thread that spawned them, that is, worst-ordered first: in a node that a late child
    // decides, the speculative siblings are then the expensive ones.
    // Workers beyond SearchContext::splitWorkers (lowered by the watcher while other processes
    // take the cores) leave between children, the parent's thread last: a worker without a core
    // would make it wait. What is left of a block whose worker left is taken by the others.
    const std::thread::id parentThread = std::this_thread::get_id();
    std::atomic<int>      active{0};
    auto                  leaves = [&] {
        if (std::this_thread::get_id() == parentThread) return false;
        int a = active.load(std::memory_order_relaxed);
        return a > ctx.split_workers()
            && active.compare_exchange_strong(a, a - 1, std::memory_order_relaxed);
    };
    auto worker = [&] {
        (void)published.load(std::memory_order_acquire);
        active.fetch_add(1, std::memory_order_relaxed);
        const std::size_t own   = owners.fetch_add(1, std::memory_order_relaxed);
        Searcher*         s     = nullptr;
        bool              fresh = true;
        std::size_t       pos   = 0;
        for (;;) {
            // Another worker's ABORT (a limit, or out of the budget): the node is not decided.
            if (decided.load(std::memory_order_acquire) || aborted.load(std::memory_order_relaxed)
                || stopped() || leaves())
                break;
            {
                std::lock_guard lock(blockMutex);
                if (!blocks.take(own, pos, fresh)) break;
            }
            const std::uint32_t i = rest[pos];
            if (picker.skipped(i)) continue;
            if (!s) {
                s = ctx.pool->acquire();
                lend_to(*s, lent);
            }
            if (fresh) {
                std::lock_guard lock(killerMutex);
                s->killers.copy_from(killers, ply + 1);
                fresh = false;
            }
            const Value v =
                s->search_child(path(ply), list.action(i), list.ref(i).child, orNode, childBound);
            {
                std::lock_guard lock(killerMutex);
                killers.merge_from(s->killers, ply + 1);
            }
            if (v == decisive) {
                if (!decided.exchange(true)) winner.store(i, std::memory_order_relaxed);
                group.cancel();
                break;
            }
            if (v == Value::ABORT) {
                aborted.store(true, std::memory_order_release);
                break;
            }
            if (orNode) refuted(ply);
            finished.fetch_add(1, std::memory_order_release);
        }
        if (s) {
            if (took_back(*s)) ranOut.store(true, std::memory_order_relaxed);
            ctx.pool->release(s);
        }
    };
    for (std::size_t w = 0; w < workers; ++w)
        group.run(worker);
    group.wait();
    if (ranOut.load()) budgetOut = true; // a worker ran out of this searcher's budget
    if (decided.load()) {
        const std::uint32_t i = winner.load();
        killers.set(ply, list.action(i));
        if (orNode)
            ctx.tt.store_proof(key, bound, action_hint(list.ref(i).child), 1 << 10);
        else
            ctx.tt.store_disproof(key, bound, action_hint(list.ref(i).child), 1 << 10);
        return decisive;
    }
    if (aborted.load() || finished.load() != pending) return Value::ABORT;
    return orNode ? Value::NO : Value::YES;
}

bool Searcher::Shared::stays(int workers) {
    int a = active.load(std::memory_order_relaxed);
    if (a > workers && std::this_thread::get_id() != parentThread
        && active.compare_exchange_strong(a, a - 1, std::memory_order_relaxed))
        return false;
    while (a < std::min(workers, maxWalkers) && next.load(std::memory_order_relaxed) < MaxShares)
        if (active.compare_exchange_weak(a, a + 1, std::memory_order_relaxed)) {
            spawn(spawnArg);
            break;
        }
    return true;
}

void Searcher::Shared::decided_at(std::uint64_t p, int part) {
    std::uint64_t was = stopAt.load(std::memory_order_relaxed);
    while (p < was && !stopAt.compare_exchange_weak(was, p, std::memory_order_relaxed)) { }
    std::lock_guard lock(killerMutex);
    for (std::size_t q = 0; q < groups.size(); ++q)
        if (int(q) != part && groups[q] && at[q].load(std::memory_order_relaxed) > p)
            groups[q]->cancel();
}

// A wide attacker node splits from the split's height on; a wide defender node whatever its
// height (see stream_split()), whatever the watcher says now (SearchContext::splitWorkers): such
// a node is entered once and searched long, and its walkers come and go with the watcher's count
// (Shared::stays()).
bool Searcher::stream_splits(bool orNode, int bound) const {
    if (!ctx.splitWide || ctx.splitHeight == 0 || tbb::this_task_arena::max_concurrency() < 2)
        return false;
    if (!orNode) return true;
    if (detail::height(true, bound) < ctx.splitHeight) return false;
    // A class walk splits by its patterns only where they are about four per thread: with fewer,
    // one pattern is most of the work (tools-princess-checkmate --at -3 --mate 2: of its four
    // patterns, the one that moves on both boards ahead took 301,000 of 354,000 nodes), and the
    // shares only run beside it what the serial walk would have answered from the classes it
    // refuted (two threads 4.33 s against 3.45 s on one, median of 5).
    if (!class_walks(bound)) return true;
    const int threads = std::clamp(tbb::this_task_arena::max_concurrency(), 1, Shared::MaxShares);
    PatternTimelines ls{};
    return share_pattern(ls, pattern_boards(threads)) >= split_pattern_boards(threads);
}

// A wide node (stream()) over the threads. Its actions are not listed, so they cannot
// be handed out as split() hands out a list: each worker walks the node as stream() does and
// searches only its share (one share per thread, taken in turn: one whose task has not started
// is taken by the next thread free, the parent's included). Every action the walks meet is in
// exactly one share, so the node mates iff a share finds a mating action, and has no mate iff
// every share finished without.
//  * Without a class walk, the shares are walkers of the whole node, up to one per thread, and the
//    node's positions in the walk's order, which is fixed for the position, are cut into blocks
//    of SearchSettings::shareBlock consecutive ones, each searched by the first walker to reach
//    it (Wide::take(), BlockClaims): a walker refutes runs of neighbouring actions, which share
//    their refutations, and one that starts late (its thread busy, or a while without a core)
//    passes the blocks taken and claims the next. With fixed shares (block b to share b mod
//    threads) a share whose thread had no core held the node up, so a defender node split only
//    when the watcher's estimate at its entry allowed: cwmtt-ctp2 --at -3 --mate 2, whose search
//    is one wide defender node entered at once, ran on one thread whenever that first estimate
//    saw the process that started it still running (2 runs of 5: 4.2 and 4.9 s against 3.0 s).
//    With claims it is always split (stream_splits()), its walkers as many as the watcher
//    allows at each block (Shared::stays()): one at first, a second when the watcher's window
//    shows the core free. 8 runs of 8 at 2.5-2.9 s. Beside a busy process (a second walker
//    leaves, or never starts), two threads against one, 2 pairs run in turn: cwmtt-ctp2 --at -3
//    4.2 s against 4.3-5.1 s, tools-standard-checkmate-4 --at -5 5.7-5.9 s against 5.7 s.
//    Shares by a hash of the action (tried first) refuted each action with about twice the
//    nodes, and an action that the serial search refuted with 21 nodes after its neighbour took
//    a share 1M (tools-standard-checkmate-3 --at -5 --mate 3, its mate-in-2 root: 1.38M nodes on
//    one thread, 3.3M on two). A share that mates at position p sets Shared::stopAt; the others go
//    on up to p and stop, and those already past it are cancelled (their own task groups), so
//    every action before the first mate in the walk's order is refuted in the table and the key
//    search (Searcher::answers(): the first key in that order, the same for any thread count)
//    does not search them again (it did: 894k nodes).
//  * With a class walk, a share is one pattern of walk_patterns(): the actions that pass or move
//    on some boards ahead of the present as its number's bits say (HypercuboidSearch::
//    only_pattern()), about four per thread, taken in turn; the classes it cuts keep the
//    pattern, and the node's ClassStore gives each share the classes the others refuted. Where
//    the mover has no board ahead, the actions of some entries on one timeline at the present
//    (HypercuboidSearch::only_share()), which the classes usually keep. A walk's positions
//    depend on its cuts, so a share that mates cancels the others.
// Each walk meets the node's actions (enumeration is cheap next to a child's search) and
// searches its own. The shares trade their killers below the node as they go (Wide::take()).
// Measured on a quiet 2-core machine, 2 threads against 1, whole process, median of 5 pairs:
// tools-standard-checkmate-3 --at -5 --mate 3 7.07 s -> 3.36 s, cwmtt-test1 --at -5 7.14 s ->
// 3.38 s, cwmtt-silly --at -5 4.73 s -> 2.44 s, tools-princess-checkmate --at -3 --mate 2 7.31 s
// -> 5.09 s (a class walk), cwmtt-wide --at -3 9.82 s -> 9.74 s (a class walk: twice the CPU,
// the shares meet most classes again; before patterns). With a busy process beside it, 3 pairs:
// tools-standard-checkmate-3 --at -5, 2 threads' wall 0.70 of 1 thread's.
// A wide defender node splits the same way, by blocks of positions of its passes (the killers and
// the conflict pass are the first share's, before its blocks): it is refuted iff a share finds a
// refutation, and a share that does stops the others as a mate does. Unlike a listed defender
// node (splitDefender), it splits at any height: after a key every defence must be searched, and
// a wide node is where they are many (cwmtt-ctp2 --at -3 --mate 2: its key's 25,528 defences were
// one thread's, 2.40 s of search on 1 thread and 2.26 s on 2; split, 1.27 s). Where a defence
// refutes, the shares past it are cancelled when it is found.
Value Searcher::stream_split(bool orNode, int bound, int ply, Key key) {
    const int threads = std::clamp(tbb::this_task_arena::max_concurrency(), 1, Shared::MaxShares);
    // A class walk by patterns (walk_patterns(): about four shares per thread, taken in turn), or
    // without boards for them, by entry; another node, walkers.
    PatternTimelines patternLs{};
    const bool       classWalk = orNode && class_walks(bound);
    const int patternBoards    = classWalk ? share_pattern(patternLs, pattern_boards(threads)) : 0;
    // Without a class walk the shares are walkers of the whole node, each searching the blocks
    // it claims first (Wide::take(), BlockClaims): as many as the watcher allows now
    // (SearchContext::splitWorkers), more when it allows more, fewer when it allows fewer
    // (Shared::stays()). The node is entered once and searched long, often before the
    // watcher's first reading, whose first estimate may count the process that started fived:
    // a walker that joins late passes the blocks taken and claims the next. A class walk's
    // patterns, one share per thread whatever the watcher says, taken in turn by the next
    // thread free.
    const bool                 walkers = !classWalk;
    const int                  parts   = walkers ? Shared::MaxShares
                           : patternBoards > 0   ? 1 << patternBoards
                                                 : threads;
    std::atomic<int>           finished{0};
    std::atomic<bool>          decided{false}, aborted{false}, walked{false};
    std::atomic<Key>           winChild{0};
    std::atomic<std::uint64_t> effort{1};
    const std::uint64_t        lent = lent_budget(); // each worker's (search.h, budgetEnd)
    std::atomic<bool>          ranOut{false};
    Shared                     shared; // what the shares share (Wide::take())
    if (classWalk) {
        shared.store = classStores[std::size_t(ply)].get();
        shared.store->clear();
    }
    std::mutex& killerMutex = shared.killerMutex;
    shared.parent           = &killers;
    tbb::task_group group;
    // Counted as split once a second share runs (a node whose walkers the watcher kept to one
    // was searched as on one thread).
    std::atomic<bool> counted{false};
    auto              count_split = [&] {
        if (counted.exchange(true, std::memory_order_relaxed)) return;
        ctx.splits.fetch_add(1, std::memory_order_relaxed);
        (orNode ? ctx.streamSplits : ctx.defenceSplits).fetch_add(1, std::memory_order_relaxed);
    };
    // The parent's state (path, killers) published to every task (STYLE.md §2.12), as in split().
    std::atomic<bool> published{false};
    published.store(true, std::memory_order_release);
    // One share: YES when it decided the node, ABORT, NO, or OPEN when a walker left.
    auto share = [&](Searcher& s, int part) {
        {
            std::lock_guard lock(killerMutex);
            s.killers.copy_from(killers, ply);
        }
        const std::uint64_t before = s.nodes();
        Key                 child  = 0;
        // In a task group of its own, which another share may cancel (Shared::decided_at()).
        tbb::task_group own;
        {
            std::lock_guard lock(killerMutex);
            shared.groups[std::size_t(part)] = &own;
        }
        Value v = Value::ABORT;
        own.run_and_wait([&] {
            v = s.stream_share(path(ply), key, orNode, bound, classWalk, patternBoards, parts, part,
                shared, child);
        });
        std::lock_guard lock(killerMutex);
        shared.groups[std::size_t(part)] = nullptr;
        effort.fetch_add(s.nodes() - before, std::memory_order_relaxed);
        killers.merge_from(s.killers, ply);
        if (v == Value::YES && !decided.exchange(true)) {
            winChild.store(child, std::memory_order_relaxed);
            const std::vector<Move>& a = s.killers.first(ply);
            shareWinner.assign(a.begin(), a.end());
        }
        return v;
    };
    auto release = [&](Searcher* s) {
        if (!s) return;
        if (took_back(*s)) ranOut.store(true, std::memory_order_relaxed);
        ctx.pool->release(s);
    };
    auto over = [&] {
        return decided.load(std::memory_order_acquire) || aborted.load(std::memory_order_relaxed)
            || stopped();
    };
    auto worker = [&] {
        (void)published.load(std::memory_order_acquire);
        Searcher* s = nullptr;
        for (;;) {
            if (over()) break;
            const int taken = shared.next.fetch_add(1, std::memory_order_relaxed);
            if (taken >= parts) break;
            // A walker that starts after one walked the whole node has nothing left.
            if (walkers && walked.load(std::memory_order_acquire)) break;
            // A class walk's patterns from both ends in turn (both_ends()).
            const int part = patternBoards > 0 ? both_ends(taken, parts) : taken;
            if (!s) {
                s = ctx.pool->acquire();
                lend_to(*s, lent);
            }
            const Value v = share(*s, part);
            if (v == Value::YES) {
                if (classWalk) group.cancel();
                break;
            }
            if (v == Value::ABORT) {
                aborted.store(true, std::memory_order_release);
                break;
            }
            if (v == Value::OPEN) return release(s); // it left (Shared::stays())
            walked.store(true, std::memory_order_release);
            finished.fetch_add(1, std::memory_order_release);
            if (walkers) break; // one walk per walker
        }
        if (walkers) shared.active.fetch_sub(1, std::memory_order_relaxed);
        release(s);
    };
    auto spawnOne = [&] {
        count_split();
        group.run(worker);
    };
    int first = parts;
    if (walkers) {
        first               = std::min(threads, ctx.split_workers());
        shared.walkers      = true;
        shared.maxWalkers   = threads;
        shared.parentThread = std::this_thread::get_id();
        shared.spawn        = [](void* f) { (*static_cast<decltype(spawnOne)*>(f))(); };
        shared.spawnArg     = &spawnOne;
        shared.active.store(first, std::memory_order_relaxed);
    }
    if (first > 1) count_split();
    for (int w = 0; w < first; ++w)
        group.run(worker);
    group.wait();
    if (ranOut.load()) budgetOut = true; // a share ran out of this searcher's budget
    // A share's YES: it found a decisive child (a mate, a refutation).
    if (decided.load()) {
        killers.set(ply, shareWinner);
        return store_wide(orNode, bound, key, true, winChild.load(), effort.load());
    }
    if (aborted.load() || (walkers ? !walked.load() : finished.load() != parts))
        return Value::ABORT;
    return store_wide(orNode, bound, key, false, 0, effort.load());
}

} // namespace fived::solver
