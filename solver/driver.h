#pragma once
// The solver driver's state (internal, not installed): Solver::Impl, shared by driver.cpp (the
// arena, the watcher, iterative deepening, limits, the Solver API) and proof_tree.cpp (the keys
// and the solution tree).

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include <tbb/task_arena.h>

#include "movegen/picker.h"
#include "solver/cpu_share.h"
#include "solver/search.h"
#include "solver/solver.h"
#include "solver/tt.h"
#include "solver/verify.h"

namespace fived::solver {

using Clock = std::chrono::steady_clock;

struct Solver::Impl {
    SolveOptions                     opt;
    Multiverse                       root;
    TranspositionTable               tt;
    PnTable                          pnTable;
    std::unique_ptr<SearchContext>   ctx;
    std::unique_ptr<SearcherPool>    pool;
    std::unique_ptr<tbb::task_arena> arena;
    Searcher*                        master = nullptr;
    movegen::ActionPicker            actions; // legal_actions(), reused
    Clock::time_point                start;
    Clock::time_point                timeStart; // where opt.timeLimit counts from
    bool                             ttOk = true;

    // The watcher thread: enforces the time limit and prints progress while a question runs.
    std::mutex              watchMutex;
    std::condition_variable watchCv;
    bool                    watchDone = true;
    std::thread             watcher;
    std::atomic<int>        depth{0};

    // With threads: how many of them the machine can run now (cpu_share.h), read by the watcher
    // into ctx->splitWorkers. opt.cores, else the machine's readings.
    std::unique_ptr<CoreSource> machine;
    std::unique_ptr<CoreShare>  coreShare;

    std::atomic<bool> timeHit{false};
    std::atomic<bool> interrupted{false};

    Impl(const Multiverse& r, const SolveOptions& o) : opt(o), root(r.fork()) {
        // The time limit counts from here: the table's allocation is part of the solve.
        start     = Clock::now();
        timeStart = opt.timeFrom == Clock::time_point{} ? start : opt.timeFrom;
        ttOk      = opt.ttClusters ? tt.resize_clusters(opt.ttClusters) : tt.resize_mb(opt.hashMb);
        // Deep enough for a question at a path of up to 2 * maxMate actions plus a search of
        // maxMate attacker actions below it.
        ctx = std::make_unique<SearchContext>(tt, root, 4 * std::max(opt.maxMate, 1) + 4, opt);
        if (opt.algorithm == Algorithm::DFPN) {
            ttOk         = ttOk && pnTable.resize_mb(std::max<std::size_t>(opt.hashMb / 2, 1));
            ctx->pnTable = &pnTable;
        }
        ctx->splitHeight = opt.threads > 1 ? std::max(opt.splitHeight, 1) : 0;
        ctx->splitWorkers.store(std::max(opt.threads, 1));
        if (opt.threads > 1 && !opt.fixedThreads) {
            CoreSource* src = opt.cores;
            if (!src) {
                machine = std::make_unique<MachineCores>();
                src     = machine.get();
            }
            coreShare = std::make_unique<CoreShare>(*src, opt.threads);
        }
        pool      = std::make_unique<SearcherPool>(*ctx);
        ctx->pool = pool.get();
        arena     = std::make_unique<tbb::task_arena>(std::max(opt.threads, 1));
        master    = pool->acquire();
    }
    ~Impl() { stop_watch(); }

    // The re-check's limits (check_proof()): the time limit from `timeStart`, and SIGINT; on the
    // solve's threads.
    ProofLimits recheck_limits() const {
        ProofLimits lim = ProofLimits::timed(opt.timeLimit, timeStart, opt.interrupt);
        lim.threads     = opt.threads;
        return lim;
    }
    double elapsed() const { return std::chrono::duration<double>(Clock::now() - start).count(); }
    bool   time_up() const {
          return opt.timeLimit > 0
              && std::chrono::duration<double>(Clock::now() - timeStart).count() >= opt.timeLimit;
    }
    std::uint64_t nodes() const { return ctx->nodes.load(std::memory_order_relaxed); }

    // Does the search of bound n count its keys (SearchContext::rootRefuted)? The reference
    // search does, from bound 2 on (bound 1 is the mate-in-one search, df-pn has no key loop).
    bool counts_keys(int n) const { return n >= 2 && opt.algorithm != Algorithm::DFPN; }

    void print_progress() {
        const double        t = elapsed();
        const std::uint64_t n = nodes();
        // The attacker's first actions refuted at this depth, of how many (when listed).
        char                keys[64] = "";
        const std::uint64_t refuted  = ctx->rootRefuted.load(std::memory_order_relaxed);
        const std::uint64_t all      = ctx->rootActions.load(std::memory_order_relaxed);
        if (counts_keys(depth.load())) {
            if (all)
                std::snprintf(keys, sizeof keys, " keys %llu/%llu",
                    static_cast<unsigned long long>(refuted), static_cast<unsigned long long>(all));
            else
                std::snprintf(
                    keys, sizeof keys, " keys %llu", static_cast<unsigned long long>(refuted));
        }
        std::fprintf(stderr, "info depth %d%s nodes %llu nps %.0f hashfull %.1f%% time %.2fs\n",
            depth.load(), keys, static_cast<unsigned long long>(n), t > 0 ? double(n) / t : 0.0,
            tt.hashfull() / 10.0, t);
    }

    // Stops the search at a limit; `why` (timeHit or interrupted) names it for limit_reason().
    void stop_by(std::atomic<bool>& why) {
        why.store(true);
        ctx->limitHit.store(true);
        ctx->stop.store(true);
    }

    void start_watch() {
        if (coreShare) ctx->splitWorkers.store(coreShare->initial());
        if (opt.timeLimit <= 0 && !opt.progress && !opt.interrupt && !coreShare) return;
        {
            std::lock_guard lock(watchMutex);
            watchDone = false;
        }
        watcher = std::thread([this] {
            std::unique_lock lock(watchMutex);
            double           nextPrint = 1.0;
            while (!watchDone) {
                watchCv.wait_for(lock, std::chrono::milliseconds(20));
                const double t = elapsed();
                if (time_up()) stop_by(timeHit);
                if (opt.interrupt && opt.interrupt->load()) stop_by(interrupted);
                if (coreShare) ctx->splitWorkers.store(coreShare->update(t));
                if (opt.progress && t >= nextPrint) {
                    print_progress(); // shared counter only: the searchers belong to their threads
                    nextPrint = t + 1.0;
                }
            }
        });
    }
    void stop_watch() {
        {
            std::lock_guard lock(watchMutex);
            watchDone = true;
        }
        watchCv.notify_all();
        if (watcher.joinable()) watcher.join();
    }
    bool stopped() const { return ctx->stop.load(); }
    // Do the keys and the tree use several threads now (threads, and the cores for them)?
    bool parallel_now() const { return ctx->splitHeight > 0 && ctx->split_workers() > 1; }

    // --- the solution tree (fixed order) ----------------------------------------------------
    // A subtree is built on one searcher `sr` into `tree`, with `error` for the reason of a
    // failure. With threads, the defences after a key are built in parallel, each on a leased
    // searcher into a tree of its own, and grafted in order: what is built does not depend on
    // the searcher (exact answers, standard order), so the tree is the same.
    std::atomic<std::size_t> treeNodes{0}; // nodes built so far, over all subtrees

    // Tree answers: the answers chosen at the OR nodes after earlier defences of the same chunk
    // of opt.answerChunk consecutive defences (RecentActions, search.h). At an OR node the
    // shortest mate is chosen: the first of these that is legal there and mates as fast, else
    // the first answer the search meets (Searcher::answers). The chunks are fixed by the list's
    // order, and each is built in order by one searcher, so the tree does not depend on threads.
    // In a wide node most defences share an answer, which is then tested instead of searched
    // for: cwmtt-ctp2 --at -3 has 25,528 defences after the key; 344 of them need a search.
    bool build_or(Searcher& sr, SolutionTree& tree, std::string& error, int node, int r, int ply,
        RecentActions* hints = nullptr);

    bool build_and(Searcher& sr, SolutionTree& tree, std::string& error, int node, int k, int ply,
        bool parallel);

    // The defences of sr's list at ply, one chunk of opt.answerChunk defences per task, each
    // answered on a leased searcher into its own tree.
    bool build_and_parallel(
        Searcher& sr, SolutionTree& tree, std::string& error, int node, int k, int ply);

    // The keys: root actions (standard order) whose defender node is lost within mateIn - 1;
    // all of them, or the first. With several threads the children are searched in parallel
    // and the answer is assembled in standard order, so it is the same.
    bool find_keys(SolveResult& res, const ActionList& list);

    // The keys of a mate in 1 (attacker actions after which the defender is checkmated): the
    // mate-in-one search (movegen/mate.h) on one searcher, which walks the attacker's actions as
    // a hypercuboid and never lists them. The first key is the first it meets, the same for any
    // thread count; with allKeys every key, sorted. FOUND: res.keys set; NONE: no mate in 1;
    // STOPPED if stopped (a limit). Each tested action counts as a node.
    enum class Mate1Keys : std::uint8_t {
        FOUND,
        NONE,
        STOPPED
    };
    Mate1Keys find_mate1_keys(SolveResult& res);

    // Solver::solve()'s stages (driver.cpp): the search, iterative deepening, the keys, the tree.
    void search_mate(SolveResult& res);
    bool deepen(SolveResult& res);
    bool root_keys(SolveResult& res, bool keysFound);
    void build_tree(SolveResult& res);

    // Enters a path on the master searcher (inside the arena).
    int enter(std::span<const std::vector<Move>> path) {
        master->enter_path(path);
        return int(path.size());
    }

    // The value of the node after path: an attacker node with bound `bound`, or a defender node.
    Value node_value(std::span<const std::vector<Move>> path, bool attacker, int bound) {
        Value v = Value::ABORT;
        run([&] {
            const int p = enter(path);
            v           = attacker ? master->attack(bound, p) : master->defend(bound, p);
            master->leave_path(p);
        });
        return v;
    }

    // Runs f in the arena, with the watcher, and flushes the master's node count.
    template <class F>
    void run(F&& f) {
        // A question asked after the time is up (a later phase of one command) stops at once.
        if (time_up()) stop_by(timeHit);
        start_watch();
        arena->execute(f);
        master->flush_nodes();
        stop_watch();
    }

    // The actions at the position reached by path whose child is decided the wanted way, in
    // standard order, at most max: attacker to move, those mating within bound (the defender
    // node after them is lost within bound - 1); defender to move, those after which the
    // attacker has no mate within bound (all of them if bound = 0). False if a limit stopped it.
    // A node with more than streamAbove actions is not listed (the attacker's position after a
    // defence can have millions): its actions are those the search meets (Searcher::decisive()),
    // sorted.
    bool select(std::span<const std::vector<Move>> path, bool attackerToMove, int bound,
        std::vector<std::vector<Move>>& out, std::size_t max) {
        const Value wanted = attackerToMove ? Value::YES : Value::NO;
        bool        ok     = true;
        run([&] {
            const int              p      = enter(path);
            const Searcher::Listed listed = master->list_up_to(p, false, ctx->streamAbove);
            if (listed == Searcher::Listed::STOPPED) {
                ok = false;
            } else if (listed == Searcher::Listed::OVER) {
                std::vector<std::vector<Move>> found;
                ok = master->decisive(p, attackerToMove, bound, max, found);
                std::sort(found.begin(), found.end());
                for (std::size_t i = 0; i < found.size() && out.size() < max; ++i)
                    out.push_back(std::move(found[i]));
            } else {
                const ActionList& list = master->list(p);
                for (std::size_t i = 0; i < list.size() && out.size() < max; ++i) {
                    Value v = Value::NO; // a defender with bound 0: every defence refutes
                    if (attackerToMove || bound > 0) {
                        if (!master->make(p, i)) {
                            master->unmake(p);
                            ok = false;
                            break;
                        }
                        v = attackerToMove ? master->defend(bound - 1, p + 1)
                                           : master->attack(bound, p + 1);
                        master->unmake(p);
                    }
                    if (v == Value::ABORT) {
                        ok = false;
                        break;
                    }
                    if (v == wanted) out.emplace_back(list.action(i).begin(), list.action(i).end());
                }
            }
            master->leave_path(p);
        });
        return ok;
    }
};

} // namespace fived::solver
