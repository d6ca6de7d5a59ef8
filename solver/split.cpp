// The parallel split of the reference search (search.h, "Parallelism"): the searcher pool and
// Searcher::split, the remaining children of a node as oneTBB tasks.
#include <algorithm>
#include <mutex>
#include <thread>

#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include "solver/node_picker.h"
#include "solver/search.h"

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
            if (decided.load(std::memory_order_acquire) || stopped() || leaves()) break;
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

} // namespace fived::solver
