#include "solver/driver.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <thread>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include "movegen/actions.h"
#include "movegen/movegen.h"
#include "movegen/picker.h"

namespace fived::solver {

const char* result_name(Result r) {
    switch (r) {
        case Result::MATE: return "mate";
        case Result::NO_MATE: return "no-mate";
        default: return "unknown";
    }
}

Solver::Solver(const Multiverse& root, const SolveOptions& opt) :
    impl(std::make_unique<Impl>(root, opt)) { }

Solver::~Solver() = default;

std::uint64_t Solver::nodes() const { return impl->nodes(); }
bool          Solver::limit_hit() const { return impl->ctx->limitHit.load(); }

bool Solver::table_ok() const { return impl->ttOk; }

Limit Solver::limit_kind() const {
    const Impl& s = *impl;
    if (s.interrupted.load()) return Limit::INTERRUPTED;
    if (s.timeHit.load()) return Limit::TIME;
    if (s.ctx->actionLimitHit.load()) return Limit::ACTIONS;
    if (s.ctx->limitHit.load() && s.opt.nodeLimit) return Limit::NODES;
    return Limit::NONE;
}

std::string Solver::limit_reason() const {
    const Impl& s    = *impl;
    const Limit kind = limit_kind();
    return limit_message(kind,
        kind == Limit::TIME          ? s.opt.timeLimit
            : kind == Limit::ACTIONS ? double(s.opt.actionLimit)
                                     : double(s.opt.nodeLimit));
}

// Iterative deepening from opt.minMate to opt.maxMate: res.result MATE with res.mateIn, the bound
// proved without a mate (res.noMateUpTo), or where a limit stopped it (res.stoppedAt). Returns
// whether the mate-in-1 search at the root also found the keys.
bool Solver::Impl::deepen(SolveResult& res) {
    bool keysFound = false; // by the mate-in-1 search at the root
    for (int n = std::max(opt.minMate, 1); n <= opt.maxMate; ++n) {
        depth.store(n);
        master->clear_killers();
        tt.new_search();
        Value v = Value::ABORT;
        // Mate in 1 at the root: the key search is the search (it stops at the first key
        // unless every key is wanted), so the keys need no second enumeration.
        if (n == 1) {
            const Impl::Mate1Keys k = find_mate1_keys(res);
            keysFound               = k == Impl::Mate1Keys::FOUND;
            v = k == Impl::Mate1Keys::STOPPED ? Value::ABORT : keysFound ? Value::YES : Value::NO;
        } else {
            ctx->rootRefuted.store(0);
            ctx->rootActions.store(0);
            v = opt.algorithm == Algorithm::DFPN ? master->dfpn_root(n) : master->attack(n, 0);
        }
        master->flush_nodes();
        if (v == Value::ABORT) {
            if (counts_keys(n)) {
                res.stoppedAt   = n;
                res.keysRefuted = ctx->rootRefuted.load();
                res.keysInAll   = ctx->rootActions.load();
            }
            break;
        }
        if (v == Value::YES) {
            res.result = Result::MATE;
            res.mateIn = n;
            break;
        }
        res.noMateUpTo = n;
        if (opt.progress) {
            std::fprintf(stderr, "depth %d: no mate in %d (nodes %llu, %.2fs)\n", n, n,
                static_cast<unsigned long long>(nodes()), elapsed());
        }
    }
    return keysFound;
}

// The keys of the mate proved, in standard order, with the flags of the root position. Mate in 1:
// straight from the enumeration, without listing every action first (a wide position can have
// millions). False (res says why) when they could not be had.
bool Solver::Impl::root_keys(SolveResult& res, bool keysFound) {
    // A wide root (more than streamAbove actions) is not listed: its keys are those the
    // search meets in its order (Searcher::answers), one thread.
    if (!keysFound) {
        const Searcher::Listed listed = master->list_up_to(0, false, ctx->streamAbove);
        bool                   ok     = listed != Searcher::Listed::STOPPED;
        if (ok && listed == Searcher::Listed::OVER) {
            ok = master->answers(0, res.mateIn, opt.allKeys ? SIZE_MAX : 1, res.keys);
            std::sort(res.keys.begin(), res.keys.end());
        } else if (ok) {
            ok = find_keys(res, master->list(0));
        }
        if (!ok) {
            res.result = Result::UNKNOWN;
            return false;
        }
    }
    if (res.keys.empty()) {
        res.result = Result::UNKNOWN;
        res.error  = "internal: mate proven but no key found";
        return false;
    }
    // The keys as the move generator makes them at the root (moves compare equal without
    // their flags: a key met elsewhere may carry another position's capture flag).
    {
        Multiverse at = root.fork();
        for (std::vector<Move>& key : res.keys)
            if (!movegen::restamp_action(at, key)) {
                res.result = Result::UNKNOWN;
                res.error  = "internal: a key is not a move of the root position";
                return false;
            }
    }
    return true;
}

// The solution tree below each key.
void Solver::Impl::build_tree(SolveResult& res) {
    if (!opt.buildTree) return;
    treeNodes.store(res.tree.nodes.size() + res.keys.size());
    bool ok = true;
    for (const std::vector<Move>& key : res.keys) {
        // A limit or SIGINT between keys (issue 55): a mate in 1 with --all-keys can have
        // 500,000 keys, each leaf tested for mate here.
        if (stopped()) {
            ok = false;
            break;
        }
        const int child = res.tree.add(0, key);
        master->enter_path({&key, 1});
        ok = build_and(*master, res.tree, res.error, child, res.mateIn - 1, 1, true);
        master->leave_path(1);
        if (!ok) break;
    }
    res.treeBuilt = ok;
    if (!ok && stopped()) res.result = Result::UNKNOWN;
}

// The search of solve(), inside the arena: the mate, its keys and its tree.
void Solver::Impl::search_mate(SolveResult& res) {
    // A share of the root (fived solve --shard): the other actions are skipped at the root
    // (SearchContext::rootShare); bound n then asks whether one of the share mates within n.
    if (opt.rootActions) {
        ctx->rootShare = true;
        ctx->rootOwned.clear();
        for (const std::vector<Move>& a : *opt.rootActions)
            ctx->rootOwned.push_back(action_id(a));
        std::sort(ctx->rootOwned.begin(), ctx->rootOwned.end());
        if (opt.rootActions->empty()) { // nothing to search: no mate by these keys
            res.noMateUpTo = opt.maxMate;
            res.result     = Result::NO_MATE;
            return;
        }
    } else if (opt.rootHashParts > 0) {
        ctx->rootShare = true;
        ctx->hashParts = opt.rootHashParts;
        ctx->hashPart  = opt.rootHashPart;
    }
    const bool keysFound = deepen(res);
    if (res.result != Result::MATE && res.noMateUpTo == opt.maxMate) res.result = Result::NO_MATE;
    if (res.result != Result::MATE) return;
    if (opt.progress)
        std::fprintf(stderr, "depth %d: mate in %d (nodes %llu, %.2fs)\n", res.mateIn, res.mateIn,
            static_cast<unsigned long long>(nodes()), elapsed());
    if (root_keys(res, keysFound)) build_tree(res);
}

SolveResult Solver::solve() {
    Impl&       s = *impl;
    SolveResult res;
    if (!s.ttOk) {
        res.error    = "cannot allocate the transposition table";
        res.noMemory = true;
        return res;
    }
    s.run([&] { s.search_mate(res); });
    if (s.ctx->internalError.load()) {
        res.result = Result::UNKNOWN;
        res.error  = "internal: an action replay reached an unexpected position";
    }
    if (res.error.empty()) {
        res.error     = limit_reason();
        res.limitKind = limit_kind();
    }
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
        Multiverse scratch = s.root.fork();
        // Every move with the flags of the position it is played in, as it will be printed.
        const bool        stamped = res.tree.restamp_moves(scratch);
        const ProofReport rep     = check_proof(scratch, res.tree, 1, nullptr, s.recheck_limits());
        if (stamped && !rep.limit.empty() && rep.problems.empty()) {
            // A limit (time, SIGINT) stopped the re-check: the mate and its keys are proven, the
            // tree is not (issue 55: every limit honoured in every phase).
            res.result    = Result::UNKNOWN;
            res.limitHit  = true;
            res.treeBuilt = false;
            res.tree      = {};
            res.error     = rep.limit;
            res.limitKind = rep.limitKind;
        } else if (!stamped || !rep.complete || rep.length != res.mateIn) {
            res.result    = Result::UNKNOWN;
            res.error     = "internal: the solution tree failed verification";
            res.limitKind = Limit::NONE;
        } else {
            res.verified = true;
        }
    }
    res.internal      = res.error.starts_with("internal");
    res.nodes         = s.nodes();
    res.classesCut    = s.ctx->classesCut.load();
    res.splits        = s.ctx->splits.load();
    res.streamSplits  = s.ctx->streamSplits.load();
    res.defenceSplits = s.ctx->defenceSplits.load();
    res.countSplits   = s.ctx->countSplits.load();
    res.ms            = s.elapsed() * 1000.0;
    res.hashfull      = s.tt.hashfull();
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
    return impl->node_value(path, true, r);
}

Value Solver::mated_within(std::span<const std::vector<Move>> path, int k) {
    return impl->node_value(path, false, k);
}

bool Solver::legal_actions(
    std::span<const std::vector<Move>> path, std::vector<std::vector<Move>>& out, std::size_t max) {
    Impl& s   = *impl;
    bool  all = true;
    // As a question (the limits are watched): each action listed counts as a node.
    s.run([&] {
        const int p = s.enter(path);
        s.actions.reset(s.master->position());
        all = s.actions.for_each([&](std::span<const Move> a) {
            if (!s.master->count_node() || s.ctx->stop.load(std::memory_order_relaxed))
                return false;
            if (out.size() == max) return false;
            out.emplace_back(a.begin(), a.end());
            return true;
        });
        s.master->leave_path(p);
    });
    return all;
}

SolveResult solve(const Multiverse& root, const SolveOptions& opt) {
    Solver s(root, opt);
    return s.solve();
}

} // namespace fived::solver
