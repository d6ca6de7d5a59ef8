#include "solver/parallel.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include "movegen/actions.h"
#include "movegen/picker.h"

namespace fived::solver {

const char* result_name(Result r) {
    switch (r) {
        case Result::MATE: return "mate";
        case Result::NO_MATE: return "no-mate";
        default: return "unknown";
    }
}

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
    bool                             ttOk = true;

    // The watcher thread: enforces the time limit and prints progress while a question runs.
    std::mutex              watchMutex;
    std::condition_variable watchCv;
    bool                    watchDone = true;
    std::thread             watcher;
    std::atomic<int>        depth{0};

    std::atomic<bool> timeHit{false};
    std::atomic<bool> interrupted{false};

    Impl(const Multiverse& r, const SolveOptions& o) : opt(o), root(r.fork()) {
        // The time limit counts from here: the table's allocation is part of the solve.
        start = Clock::now();
        ttOk  = opt.ttClusters ? tt.resize_clusters(opt.ttClusters) : tt.resize_mb(opt.hashMb);
        // Deep enough for a question at a path of up to 2 * maxMate actions plus a search of
        // maxMate attacker actions below it.
        ctx = std::make_unique<SearchContext>(tt, root, 4 * std::max(opt.maxMate, 1) + 4);
        if (opt.algorithm == Algorithm::DFPN) {
            ttOk         = ttOk && pnTable.resize_mb(std::max<std::size_t>(opt.hashMb / 2, 1));
            ctx->pnTable = &pnTable;
        }
        ctx->nodeLimit     = opt.nodeLimit;
        ctx->actionLimit   = opt.actionLimit;
        ctx->streamAbove   = opt.streamAbove;
        ctx->splitDefender = opt.splitDefender;
        ctx->splitHeight   = opt.threads > 1 ? std::max(opt.splitHeight, 1) : 0;
        pool               = std::make_unique<SearcherPool>(*ctx);
        ctx->pool          = pool.get();
        arena              = std::make_unique<tbb::task_arena>(std::max(opt.threads, 1));
        master             = pool->acquire();
    }
    ~Impl() { stop_watch(); }

    double elapsed() const { return std::chrono::duration<double>(Clock::now() - start).count(); }
    std::uint64_t nodes() const { return ctx->nodes.load(std::memory_order_relaxed); }

    void print_progress() {
        const double        t = elapsed();
        const std::uint64_t n = nodes();
        std::fprintf(stderr, "info depth %d nodes %llu nps %.0f hashfull %.1f%% time %.2fs\n",
            depth.load(), static_cast<unsigned long long>(n), t > 0 ? double(n) / t : 0.0,
            tt.hashfull() / 10.0, t);
    }

    void start_watch() {
        if (opt.timeLimit <= 0 && !opt.progress && !opt.interrupt) return;
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
                if (opt.timeLimit > 0 && t >= opt.timeLimit) {
                    timeHit.store(true);
                    ctx->limitHit.store(true);
                    ctx->stop.store(true);
                }
                if (opt.interrupt && opt.interrupt->load()) {
                    interrupted.store(true);
                    ctx->limitHit.store(true);
                    ctx->stop.store(true);
                }
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

    // --- the solution tree (fixed order) ----------------------------------------------------
    // A subtree is built on one searcher `sr` into `tree`, with `error` for the reason of a
    // failure. With threads, the defences after a key are built in parallel, each on a leased
    // searcher into a tree of its own, and grafted in order: what is built does not depend on
    // the searcher (exact answers, standard order), so the tree is the same.
    std::atomic<std::size_t> treeNodes{0}; // nodes built so far, over all subtrees

    bool build_or(Searcher& sr, SolutionTree& tree, std::string& error, int node, int r, int ply) {
        int k = 0;
        for (int b = 1; b <= r && !k; ++b) {
            const Value v = sr.attack(b, ply);
            if (v == Value::ABORT) return false;
            if (v == Value::YES) k = b;
        }
        if (!k) {
            error = "internal: no answer found where a mate was proven";
            return false;
        }
        // The answer: the first the search meets (a wide node is not listed).
        std::vector<std::vector<Move>> answer;
        if (!sr.answers(ply, k, false, answer)) return false;
        if (answer.empty()) {
            error = "internal: no answer found where a mate was proven";
            return false;
        }
        const int child = tree.add(node, answer[0]);
        ++treeNodes;
        sr.enter_step(ply, answer[0]);
        const bool ok = build_and(sr, tree, error, child, k - 1, ply + 1, false);
        sr.unmake(ply);
        return ok;
    }

    bool build_and(Searcher& sr, SolutionTree& tree, std::string& error, int node, int k, int ply,
        bool parallel) {
        // A mate leaf is recognised by the existence test (hypercuboid) before any listing.
        if (movegen::is_checkmate(sr.position())) {
            tree.nodes[std::size_t(node)].mate = true;
            return true;
        }
        if (!sr.collect(ply, false)) return false;
        const ActionList& list = sr.list(ply);
        if (list.empty()) {
            tree.nodes[std::size_t(node)].mate = true;
            return true;
        }
        if (k == 0) {
            error = "internal: a proven line does not end in mate";
            return false;
        }
        if (parallel && ctx->splitHeight > 0 && list.size() > 1)
            return build_and_parallel(sr, tree, error, node, k, ply);
        for (std::size_t i = 0; i < list.size(); ++i) {
            if (treeNodes.load() >= opt.maxTreeNodes) {
                error = "solution tree larger than " + std::to_string(opt.maxTreeNodes)
                    + " nodes; not written";
                return false;
            }
            if (!sr.make(ply, i)) {
                sr.unmake(ply);
                return false;
            }
            const int child = tree.add(node, list.action(i));
            ++treeNodes;
            const bool ok = build_or(sr, tree, error, child, k, ply + 1);
            sr.unmake(ply);
            if (!ok) return false;
        }
        return true;
    }

    // The defences of sr's list at ply, each answered on a leased searcher into its own tree.
    bool build_and_parallel(
        Searcher& sr, SolutionTree& tree, std::string& error, int node, int k, int ply) {
        const ActionList&                    list = sr.list(ply);
        const std::size_t                    n    = list.size();
        std::vector<SolutionTree>            sub(n);
        std::vector<std::string>             errors(n);
        std::vector<char>                    ok(n, 0);
        const std::vector<std::vector<Move>> prefix(sr.path(ply).begin(), sr.path(ply).end());
        // Explicit hand-offs for TSan, as in Searcher::split().
        std::atomic<bool>        published{false};
        std::atomic<std::size_t> done{0};
        published.store(true, std::memory_order_release);
        tbb::parallel_for(std::size_t(0), n, [&](std::size_t i) {
            (void)published.load(std::memory_order_acquire);
            std::vector<std::vector<Move>> path = prefix;
            path.emplace_back(list.action(i).begin(), list.action(i).end());
            Searcher* t = pool->acquire();
            t->enter_path(path);
            if (t->position().key() != list.ref(i).child) {
                ctx->internalError.store(true);
                ctx->stop.store(true);
            } else if (treeNodes.load() < opt.maxTreeNodes) {
                ok[i] = build_or(*t, sub[i], errors[i], 0, k, ply + 1);
            } else {
                errors[i] = "solution tree larger than " + std::to_string(opt.maxTreeNodes)
                    + " nodes; not written";
            }
            t->leave_path(int(path.size()));
            pool->release(t);
            done.fetch_add(1, std::memory_order_release);
        });
        (void)done.load(std::memory_order_acquire);
        for (std::size_t i = 0; i < n; ++i) {
            if (!ok[i]) {
                error = errors[i];
                return false;
            }
            // Graft: sub[i]'s root is the position after defence i; its nodes follow their
            // parents, so one pass in order rebuilds the children lists in order.
            std::vector<int> id(sub[i].nodes.size());
            id[0] = tree.add(node, list.action(i));
            for (std::size_t j = 1; j < sub[i].nodes.size(); ++j) {
                const SolutionNode& x               = sub[i].nodes[j];
                id[j]                               = tree.add(id[std::size_t(x.parent)], x.action);
                tree.nodes[std::size_t(id[j])].mate = x.mate;
            }
            tree.nodes[std::size_t(id[0])].mate = sub[i].nodes[0].mate;
        }
        return true;
    }

    // The keys: root actions (standard order) whose defender node is lost within mateIn - 1;
    // all of them, or the first. With several threads the children are searched in parallel
    // and the answer is assembled in standard order, so it is the same.
    bool find_keys(SolveResult& res, const ActionList& list) {
        const int         k = res.mateIn - 1;
        const std::size_t n = list.size();
        if (ctx->splitHeight == 0) {
            for (std::size_t i = 0; i < n; ++i) {
                if (!master->make(0, i)) {
                    master->unmake(0);
                    return false;
                }
                const Value v = master->defend(k, 1);
                master->unmake(0);
                if (v == Value::ABORT) return false;
                if (v == Value::YES) {
                    res.keys.emplace_back(list.action(i).begin(), list.action(i).end());
                    if (!opt.allKeys) break;
                }
            }
            return true;
        }
        std::vector<Value>       value(n, Value::ABORT);
        std::atomic<std::size_t> first{SIZE_MAX};
        // Explicit hand-offs (STYLE.md §2.12): TSan does not see oneTBB's own synchronisation.
        std::atomic<bool>        published{false};
        std::atomic<std::size_t> done{0};
        published.store(true, std::memory_order_release);
        tbb::parallel_for(std::size_t(0), n, [&](std::size_t i) {
            (void)published.load(std::memory_order_acquire);
            if (!opt.allKeys && i > first.load(std::memory_order_relaxed)) return;
            Searcher* s = pool->acquire();
            value[i]    = s->search_child({}, list.action(i), list.ref(i).child, true, k);
            pool->release(s);
            if (value[i] == Value::YES && !opt.allKeys) {
                std::size_t f = first.load();
                while (i < f && !first.compare_exchange_weak(f, i)) { }
            }
            done.fetch_add(1, std::memory_order_release);
        });
        (void)done.load(std::memory_order_acquire);
        for (std::size_t i = 0; i < n; ++i) {
            if (value[i] == Value::ABORT) return false; // only reached before the first key
            if (value[i] == Value::YES) {
                res.keys.emplace_back(list.action(i).begin(), list.action(i).end());
                if (!opt.allKeys) break;
            }
        }
        return true;
    }

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
    Mate1Keys find_mate1_keys(SolveResult& res) {
        res.keys.clear();
        Searcher*                s = pool->acquire();
        movegen::MateInOneSearch search;
        bool                     stopped = false;
        search.for_each_mate(
            s->position(),
            [&](std::span<const Move> a) {
                res.keys.emplace_back(a.begin(), a.end());
                return opt.allKeys;
            },
            [&] {
                stopped = !s->count_node() || ctx->stop.load(std::memory_order_relaxed);
                return !stopped;
            });
        pool->release(s);
        if (stopped) return Mate1Keys::STOPPED;
        std::sort(res.keys.begin(), res.keys.end());
        return res.keys.empty() ? Mate1Keys::NONE : Mate1Keys::FOUND;
    }

    // Enters a path on the master searcher (inside the arena).
    int enter(std::span<const std::vector<Move>> path) {
        master->enter_path(path);
        return int(path.size());
    }

    // Runs f in the arena, with the watcher, and flushes the master's node count.
    template <class F>
    void run(F&& f) {
        start_watch();
        arena->execute(f);
        master->flush_nodes();
        stop_watch();
    }

    // The actions at the position reached by path whose child is decided the wanted way, in
    // standard order, at most max: attacker to move, those mating within bound (the defender
    // node after them is lost within bound - 1); defender to move, those after which the
    // attacker has no mate within bound (all of them if bound = 0). False if a limit stopped it.
    bool select(std::span<const std::vector<Move>> path, bool attackerToMove, int bound,
        std::vector<std::vector<Move>>& out, std::size_t max) {
        const Value wanted = attackerToMove ? Value::YES : Value::NO;
        bool        ok     = true;
        run([&] {
            const int p = enter(path);
            if (!master->collect(p, false)) {
                ok = false;
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

Solver::Solver(const Multiverse& root, const SolveOptions& opt) :
    impl(std::make_unique<Impl>(root, opt)) { }

Solver::~Solver() = default;

std::uint64_t Solver::nodes() const { return impl->nodes(); }
bool          Solver::limit_hit() const { return impl->ctx->limitHit.load(); }

bool Solver::table_ok() const { return impl->ttOk; }

std::string Solver::limit_reason() const {
    const Impl& s = *impl;
    if (s.interrupted.load()) return "interrupted";
    if (s.timeHit.load()) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "time limit of %g s reached", s.opt.timeLimit);
        return buf;
    }
    if (s.ctx->actionLimitHit.load())
        return "a position has more than " + std::to_string(s.opt.actionLimit)
            + " legal actions (--max-actions)";
    if (s.ctx->limitHit.load() && s.opt.nodeLimit)
        return "node limit of " + std::to_string(s.opt.nodeLimit) + " reached";
    return {};
}

SolveResult Solver::solve() {
    Impl&       s = *impl;
    SolveResult res;
    if (!s.ttOk) {
        res.error    = "cannot allocate the transposition table";
        res.noMemory = true;
        return res;
    }
    s.run([&] {
        bool keysFound = false; // by the mate-in-1 search at the root
        for (int n = std::max(s.opt.minMate, 1); n <= s.opt.maxMate; ++n) {
            s.depth.store(n);
            s.master->clear_killers();
            s.tt.new_search();
            Value v = Value::ABORT;
            // Mate in 1 at the root: the key search is the search (it stops at the first key
            // unless every key is wanted), so the keys need no second enumeration.
            if (n == 1) {
                const Impl::Mate1Keys k = s.find_mate1_keys(res);
                keysFound               = k == Impl::Mate1Keys::FOUND;
                v                       = k == Impl::Mate1Keys::STOPPED ? Value::ABORT
                                          : keysFound                   ? Value::YES
                                                                        : Value::NO;
            } else {
                v = s.opt.algorithm == Algorithm::DFPN ? s.master->dfpn_root(n)
                                                       : s.master->attack(n, 0);
            }
            s.master->flush_nodes();
            if (v == Value::ABORT) break;
            if (v == Value::YES) {
                res.result = Result::MATE;
                res.mateIn = n;
                break;
            }
            res.noMateUpTo = n;
            if (s.opt.progress) {
                std::fprintf(stderr, "depth %d: no mate in %d (nodes %llu, %.2fs)\n", n, n,
                    static_cast<unsigned long long>(s.nodes()), s.elapsed());
            }
        }
        if (res.result != Result::MATE && res.noMateUpTo == s.opt.maxMate)
            res.result = Result::NO_MATE;
        if (res.result != Result::MATE) return;
        if (s.opt.progress)
            std::fprintf(stderr, "depth %d: mate in %d (nodes %llu, %.2fs)\n", res.mateIn,
                res.mateIn, static_cast<unsigned long long>(s.nodes()), s.elapsed());
        // The keys, in standard order. Mate in 1: straight from the enumeration, without listing
        // every action first (a wide position can have millions).
        // A wide root (more than streamAbove actions) is not listed: its keys are those the
        // search meets in its order (Searcher::answers), one thread.
        if (!keysFound) {
            const Searcher::Listed listed = s.master->list_up_to(0, false, s.ctx->streamAbove);
            bool                   ok     = listed != Searcher::Listed::STOPPED;
            if (ok && listed == Searcher::Listed::OVER) {
                ok = s.master->answers(0, res.mateIn, s.opt.allKeys, res.keys);
                std::sort(res.keys.begin(), res.keys.end());
            } else if (ok) {
                ok = s.find_keys(res, s.master->list(0));
            }
            if (!ok) {
                res.result = Result::UNKNOWN;
                return;
            }
        }
        if (res.keys.empty()) {
            res.result = Result::UNKNOWN;
            res.error  = "internal: mate proven but no key found";
            return;
        }
        if (!s.opt.buildTree) return;
        s.treeNodes.store(res.tree.nodes.size() + res.keys.size());
        bool ok = true;
        for (const std::vector<Move>& key : res.keys) {
            const int child = res.tree.add(0, key);
            s.master->enter_path({&key, 1});
            ok = s.build_and(*s.master, res.tree, res.error, child, res.mateIn - 1, 1, true);
            s.master->leave_path(1);
            if (!ok) break;
        }
        res.treeBuilt = ok;
        if (!ok && s.stopped()) res.result = Result::UNKNOWN;
    });
    if (s.ctx->internalError.load()) {
        res.result = Result::UNKNOWN;
        res.error  = "internal: an action replay reached an unexpected position";
    }
    if (res.error.empty()) res.error = limit_reason();
    if (s.ctx->limitHit.load() && res.result != Result::MATE) {
        res.result   = Result::UNKNOWN;
        res.limitHit = true;
    }
    if (res.result == Result::MATE && s.ctx->limitHit.load()) {
        // The mate itself was proven; only the tree (or the keys) may be incomplete.
        res.limitHit = true;
    }
    // Every reported mate is re-checked without the table.
    if (res.result == Result::MATE && res.treeBuilt && s.opt.verifyTree) {
        Multiverse        scratch = s.root.fork();
        const ProofReport rep     = check_proof(scratch, res.tree, 1);
        if (!rep.complete || rep.length != res.mateIn) {
            res.result = Result::UNKNOWN;
            res.error  = "internal: the solution tree failed verification";
        } else {
            res.verified = true;
        }
    }
    res.internal = res.error.starts_with("internal");
    res.nodes    = s.nodes();
    res.ms       = s.elapsed() * 1000.0;
    res.hashfull = s.tt.hashfull();
    if (s.opt.progress) s.print_progress();
    return res;
}

bool Solver::mating_actions(std::span<const std::vector<Move>> path, int r,
    std::vector<std::vector<Move>>& out, std::size_t max) {
    return impl->select(path, true, r, out, max);
}

bool Solver::refutations(std::span<const std::vector<Move>> path, int k,
    std::vector<std::vector<Move>>& out, std::size_t max) {
    return impl->select(path, false, k, out, max);
}

Value Solver::mate_within(std::span<const std::vector<Move>> path, int r) {
    Impl& s = *impl;
    Value v = Value::ABORT;
    s.run([&] {
        const int p = s.enter(path);
        v           = s.master->attack(r, p);
        s.master->leave_path(p);
    });
    return v;
}

void Solver::legal_actions(
    std::span<const std::vector<Move>> path, std::vector<std::vector<Move>>& out) {
    Impl&     s = *impl;
    const int p = s.enter(path);
    s.actions.reset(s.master->position());
    s.actions.for_each([&](std::span<const Move> a) {
        out.emplace_back(a.begin(), a.end());
        return true;
    });
    s.master->leave_path(p);
}

SolveResult solve(const Multiverse& root, const SolveOptions& opt) {
    Solver s(root, opt);
    return s.solve();
}

Analysis analyse(const Multiverse& root, const SolutionTree& tree, int n, const SolveOptions& opt,
    bool withTries) {
    SolveOptions o = opt;
    o.maxMate      = std::max(n, 1);
    Solver   s(root, o);
    Analysis a;
    if (!s.table_ok()) {
        a.complete = false;
        a.noMemory = true;
        a.why      = "cannot allocate the transposition table";
        return a;
    }
    // 1. Keys of mate in n, and the shortest mate.
    a.complete &= s.mating_actions({}, n, a.keys);
    for (int k = 1; k <= n; ++k) {
        const Value v = s.mate_within({}, k);
        if (v == Value::ABORT) {
            a.complete = false;
            break;
        }
        if (v == Value::YES) {
            a.shortest = k;
            break;
        }
    }
    // 2. Duals: at each defender node of the tree, each present defence with >= 2 answers.
    //    Paths are rebuilt from the parent links; depth gives the bound left.
    for (std::size_t i = 1; i < tree.nodes.size() && a.complete; ++i) {
        std::vector<int> chain;
        for (int q = int(i); q > 0; q = tree.nodes[std::size_t(q)].parent)
            chain.push_back(q);
        if (chain.size() % 2 != 0) continue; // attacker actions lead to odd depths
        if (tree.nodes[i].children.empty()) continue;
        const int                      attackerMoves = int(chain.size()) / 2;
        const int                      left          = n - attackerMoves;
        std::vector<std::vector<Move>> path;
        for (auto it = chain.rbegin(); it != chain.rend(); ++it)
            path.push_back(tree.nodes[std::size_t(*it)].action);
        if (left < 1) continue;
        std::vector<std::vector<Move>> answers;
        a.complete &= s.mating_actions(path, left, answers, 2);
        if (answers.size() >= 2) a.duals.push_back(path);
    }
    if (!a.complete) a.why = s.limit_reason();
    // 3. Tries: non-keys refuted by exactly one defence.
    if (withTries && a.complete) {
        std::vector<std::vector<Move>> first;
        s.legal_actions({}, first);
        for (const std::vector<Move>& act : first) {
            if (std::find(a.keys.begin(), a.keys.end(), act) != a.keys.end()) continue;
            std::vector<std::vector<Move>> refs;
            a.complete &= s.refutations({&act, 1}, n - 1, refs, 2);
            if (!a.complete) break;
            if (refs.size() == 1) a.tries.emplace_back(act, refs.front());
        }
        if (!a.complete) a.why = s.limit_reason();
    }
    return a;
}

} // namespace fived::solver
