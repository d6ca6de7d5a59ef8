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

namespace {

// The workers of one split and who may leave: workers beyond SearchContext::splitWorkers
// (lowered by the watcher while other processes take the cores) leave between children or
// shares, the parent's thread last: a worker without a core would make it wait. At least one
// stays, so what a leaver leaves is taken by the others.
class Crew {
public:
    // A worker starts.
    void join() { active.fetch_add(1, std::memory_order_relaxed); }
    // Does the calling worker leave now?
    bool leaves(const SearchContext& ctx) {
        if (std::this_thread::get_id() == parentThread) return false;
        int a = active.load(std::memory_order_relaxed);
        return a > ctx.split_workers()
            && active.compare_exchange_strong(a, a - 1, std::memory_order_relaxed);
    }

private:
    const std::thread::id parentThread = std::this_thread::get_id();
    std::atomic<int>      active{0};
};

} // namespace

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
    // Workers may leave between children (Crew); what is left of a block whose worker left is
    // taken by the others.
    Crew crew;
    auto worker = [&] {
        (void)published.load(std::memory_order_acquire);
        crew.join();
        const std::size_t own   = owners.fetch_add(1, std::memory_order_relaxed);
        Searcher*         s     = nullptr;
        bool              fresh = true;
        std::size_t       pos   = 0;
        for (;;) {
            if (decided.load(std::memory_order_acquire) || stopped() || crew.leaves(ctx)) break;
            {
                std::lock_guard lock(blockMutex);
                if (!blocks.take(own, pos, fresh)) break;
            }
            const std::uint32_t i = rest[pos];
            if (picker.skipped(i)) continue;
            if (!s) s = ctx.pool->acquire();
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
        if (s) ctx.pool->release(s);
    };
    for (std::size_t w = 0; w < workers; ++w)
        group.run(worker);
    group.wait();
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

bool Searcher::stream_splits(int bound) const {
    return ctx.splitWide && ctx.splitHeight > 0 && detail::height(true, bound) >= ctx.splitHeight
        && budgetEnd == NoBudget && ctx.split_workers() > 1;
}

// A wide attacker node (stream()) over the threads. Its actions are not listed, so they cannot
// be handed out as split() hands out a list: each worker walks the node as stream() does and
// searches only its share (one share per worker, taken in turn; the parent's thread takes what
// a worker that left did not). Every action the walks meet is in exactly one share, so the node
// mates iff a share finds a mating action, and has no mate iff every share finished without.
//  * Without a class walk, the shares are blocks of 64 consecutive positions in the walk's
//    order, which is fixed for the position (Wide::take()): each share refutes runs of
//    neighbouring actions, which share their refutations. Shares by a hash of the action
//    refuted each action with 2.4 times the nodes (tools-standard-checkmate-3 --at -5 --mate 3,
//    its mate-in-2 root, 38,129 actions: 1.34M nodes serial; each hash half, searched alone,
//    1.7M). A share that mates sets stopAt, its position: the others go on up to it and stop,
//    so every action before the first mate in the walk's order is refuted in the table, and
//    the key search (Searcher::answers(), the first key in that order, the same for any thread
//    count) finds it without searching them again.
//  * With a class walk, a share is the actions of some entries on one timeline at the present
//    (Wide::byEntry, HypercuboidSearch::only_share()), which the classes it cuts usually keep; a
//    walk's positions depend on its cuts, so a share that mates cancels the others.
// Each walk meets the node's actions (enumeration is cheap next to a child's search) and
// searches its own: measured on tools-princess-checkmate --at -5 --mate 3, whose mate-in-2
// iteration is such a node (every board at the present, no class walk), by hash shares: 3M
// nodes in 16.0 s on 2 threads against 32.0 s on one. A worker starts from the node's killers
// (of this ply and below) and merges back what its share taught it.
Value Searcher::stream_split(int bound, int ply, Key key) {
    const int parts =
        std::max(std::min(tbb::this_task_arena::max_concurrency(), ctx.split_workers()), 1);
    std::atomic<int>           next{0}, finished{0};
    std::atomic<bool>          decided{false}, aborted{false};
    std::atomic<Key>           winChild{0};
    std::atomic<std::uint64_t> effort{1};
    Shared                     shared; // what the shares share (Wide::take())
    const bool                 cancel      = class_walks(bound);
    std::mutex&                killerMutex = shared.killerMutex;
    shared.parent                          = &killers;
    tbb::task_group group;
    ctx.splits.fetch_add(1, std::memory_order_relaxed);
    ctx.streamSplits.fetch_add(1, std::memory_order_relaxed);
    // The parent's state (path, killers) published to every task (STYLE.md §2.12), as in split().
    std::atomic<bool> published{false};
    published.store(true, std::memory_order_release);
    Crew crew;
    auto worker = [&] {
        (void)published.load(std::memory_order_acquire);
        crew.join();
        Searcher* s = nullptr;
        for (;;) {
            if (decided.load(std::memory_order_acquire) || stopped() || crew.leaves(ctx)) break;
            const int part = next.fetch_add(1, std::memory_order_relaxed);
            if (part >= parts) break;
            if (!s) s = ctx.pool->acquire();
            {
                std::lock_guard lock(killerMutex);
                s->killers.copy_from(killers, ply);
            }
            const std::uint64_t before = s->nodes();
            Key                 child  = 0;
            const Value v = s->stream_share(path(ply), key, bound, parts, part, shared, child);
            effort.fetch_add(s->nodes() - before, std::memory_order_relaxed);
            {
                std::lock_guard lock(killerMutex);
                killers.merge_from(s->killers, ply);
                if (v == Value::YES && !decided.exchange(true)) {
                    winChild.store(child, std::memory_order_relaxed);
                    const std::vector<Move>& a = s->killers.first(ply);
                    shareWinner.assign(a.begin(), a.end());
                }
            }
            if (v == Value::YES) {
                if (cancel) group.cancel();
                break;
            }
            if (v == Value::ABORT) {
                aborted.store(true, std::memory_order_release);
                break;
            }
            finished.fetch_add(1, std::memory_order_release);
        }
        if (s) ctx.pool->release(s);
    };
    for (int w = 0; w < parts; ++w)
        group.run(worker);
    group.wait();
    if (decided.load()) {
        killers.set(ply, shareWinner);
        ctx.tt.store_proof(key, bound, action_hint(winChild.load()), effort.load());
        return Value::YES;
    }
    if (aborted.load() || finished.load() != parts) return Value::ABORT;
    ctx.tt.store_disproof(key, bound, 0, effort.load());
    return Value::NO;
}

} // namespace fived::solver
