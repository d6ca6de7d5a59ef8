// The keys of a proven mate and its solution tree, in a fixed order whatever the threads
// (solver.h, "Determinism"): Solver::Impl's tree builder and key search.
#include <algorithm>

#include <tbb/parallel_for.h>
#include <tbb/task_group.h>

#include "movegen/actions.h"
#include "movegen/mate.h"
#include "movegen/movegen.h"
#include "solver/driver.h"

namespace fived::solver {

bool Solver::Impl::build_or(Searcher& sr, SolutionTree& tree, std::string& error, int node, int r,
    int ply, RecentActions* hints) {
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
    // The answer: a recent sibling's if it mates as fast here, else the first the search meets
    // (a wide node is not listed).
    std::vector<std::vector<Move>> answer;
    for (std::size_t h = 0; hints && h < hints->items().size() && answer.empty(); ++h) {
        const std::vector<Move>& hint = hints->items()[h];
        const Value              v    = sr.mates_with(ply, k, hint);
        if (v == Value::ABORT) return false;
        if (v == Value::YES) answer.push_back(hint);
    }
    if (answer.empty() && !sr.answers(ply, k, 1, answer)) return false;
    if (answer.empty()) {
        error = "internal: no answer found where a mate was proven";
        return false;
    }
    // The answer as it is played here: a sibling's answer carries the sibling's move flags
    // (moves compare equal without them), so its capture mark or en passant could be wrong.
    if (!movegen::restamp_action(sr.position(), answer[0])) {
        error = "internal: an answer is not a move of the position it mates";
        return false;
    }
    if (hints) hints->use(answer[0]);
    const int child = tree.add(node, answer[0]);
    ++treeNodes;
    sr.enter_step(ply, answer[0]);
    const bool ok = build_and(sr, tree, error, child, k - 1, ply + 1, false);
    sr.unmake(ply);
    return ok;
}

bool Solver::Impl::build_and(
    Searcher& sr, SolutionTree& tree, std::string& error, int node, int k, int ply, bool parallel) {
    // A mate leaf is recognised before any listing: from the table when the search decided
    // "mated now" there (build_or() tests its answer so, and the search its mates), else by the
    // existence test (hypercuboid). A wrong leaf would fail check_proof(), which uses no table.
    const std::optional<TTData> known = ctx->tt.probe(sr.position().key());
    if (known && known->proven == 0) {
        tree.set_mate(node, sr.position().to_move());
        return true;
    }
    if (!(known && known->disproven >= 0) && movegen::is_checkmate(sr.position())) {
        tree.set_mate(node, sr.position().to_move());
        return true;
    }
    if (!sr.collect(ply, false)) return false;
    const ActionList& list = sr.list(ply);
    if (list.empty()) {
        tree.set_mate(node, sr.position().to_move());
        return true;
    }
    if (k == 0) {
        error = "internal: a proven line does not end in mate";
        return false;
    }
    if (parallel && parallel_now() && list.size() > 1)
        return build_and_parallel(sr, tree, error, node, k, ply);
    RecentActions     hints;
    const std::size_t chunk = std::max<std::size_t>(1, opt.answerChunk);
    for (std::size_t i = 0; i < list.size(); ++i) {
        if (i % chunk == 0) hints.clear();
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
        const bool ok = build_or(sr, tree, error, child, k, ply + 1, &hints);
        sr.unmake(ply);
        if (!ok) return false;
    }
    return true;
}

bool Solver::Impl::build_and_parallel(
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
    const std::size_t chunk  = std::max<std::size_t>(1, opt.answerChunk);
    const std::size_t chunks = (n + chunk - 1) / chunk;
    tbb::parallel_for(std::size_t(0), chunks, [&](std::size_t c) {
        (void)published.load(std::memory_order_acquire);
        Searcher* t = pool->acquire();
        // The killers below this node as the serial build has them (the tree does not depend on
        // them, only the nodes it takes to build).
        t->copy_killers(sr, ply + 1);
        RecentActions hints;
        for (std::size_t i = c * chunk; i < std::min(n, (c + 1) * chunk); ++i) {
            std::vector<std::vector<Move>> path = prefix;
            path.emplace_back(list.action(i).begin(), list.action(i).end());
            t->enter_path(path);
            if (t->position().key() != list.ref(i).child) {
                ctx->internal_error();
            } else if (treeNodes.load() < opt.maxTreeNodes) {
                ok[i] = build_or(*t, sub[i], errors[i], 0, k, ply + 1, &hints);
            } else {
                errors[i] = "solution tree larger than " + std::to_string(opt.maxTreeNodes)
                    + " nodes; not written";
            }
            t->leave_path(int(path.size()));
            if (!ok[i]) break;
        }
        pool->release(t);
        done.fetch_add(1, std::memory_order_release);
    });
    (void)done.load(std::memory_order_acquire);
    for (std::size_t i = 0; i < n; ++i) {
        if (!ok[i]) {
            error = errors[i];
            return false;
        }
        tree.graft(node, list.action(i), sub[i]);
    }
    return true;
}

bool Solver::Impl::find_keys(SolveResult& res, const ActionList& list) {
    const int         k = res.mateIn - 1;
    const std::size_t n = list.size();
    if (!parallel_now()) {
        for (std::size_t i = 0; i < n; ++i) {
            if (!ctx->owned(0, list.action(i))) continue; // another part's (a shared root)
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
    std::atomic<std::size_t> next{0};
    // Explicit hand-offs (STYLE.md §2.12): TSan does not see oneTBB's own synchronisation.
    std::atomic<bool>        published{false};
    std::atomic<std::size_t> done{0};
    published.store(true, std::memory_order_release);
    // One worker per thread, each taking the next action in standard order (not in blocks, as
    // Searcher::split does: here the first key ends the work after it at once, and a worker on
    // the back half would refute actions no one needs), each on a searcher with the master's
    // killers. A parallel_for over the actions gave each thread a half of them, so the second
    // refuted actions after the key until the first reached it, on searchers with no killers
    // (js-reversed-royalty --at -5 --mate 3: the keys took 22,000 to 205,000 nodes on 2 threads
    // against 105,000 on one).
    auto worker = [&] {
        (void)published.load(std::memory_order_acquire);
        Searcher* s = pool->acquire();
        s->copy_killers(*master, 1);
        for (;;) {
            const std::size_t i = next.fetch_add(1, std::memory_order_relaxed);
            if (i >= n || (!opt.allKeys && i > first.load(std::memory_order_relaxed))) break;
            if (!ctx->owned(0, list.action(i))) {
                value[i] = Value::NO; // another part's (a shared root)
                continue;
            }
            value[i] = s->search_child({}, list.action(i), list.ref(i).child, true, k);
            if (value[i] == Value::ABORT) break;
            if (value[i] == Value::YES && !opt.allKeys) {
                std::size_t f = first.load();
                while (i < f && !first.compare_exchange_weak(f, i)) { }
            }
        }
        pool->release(s);
        done.fetch_add(1, std::memory_order_release);
    };
    tbb::task_group   group;
    const std::size_t workers = std::min<std::size_t>(n, std::size_t(ctx->split_workers()));
    for (std::size_t w = 0; w < workers; ++w)
        group.run(worker);
    group.wait();
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

Solver::Impl::Mate1Keys Solver::Impl::find_mate1_keys(SolveResult& res) {
    res.keys.clear();
    Searcher*                s = pool->acquire();
    movegen::MateInOneSearch search;
    bool                     stopped = false;
    search.for_each_mate(
        s->position(),
        [&](std::span<const Move> a) {
            if (!ctx->owned(0, a)) return true; // another part's (a shared root)
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

} // namespace fived::solver
