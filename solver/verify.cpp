#include "solver/verify.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <optional>
#include <string_view>
#include <tuple>
#include <utility>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include "movegen/action.h"
#include "movegen/actions.h"
#include "movegen/movegen.h"
#include "movegen/picker.h"

namespace fived::solver {

std::string limit_message(Limit kind, double value) {
    switch (kind) {
        case Limit::INTERRUPTED: return "interrupted";
        case Limit::TIME: {
            char buf[64];
            std::snprintf(buf, sizeof buf, "time limit of %g s reached", value);
            return buf;
        }
        case Limit::ACTIONS:
            return "a position has more than " + std::to_string(std::uint64_t(value))
                + " legal actions (--max-actions)";
        case Limit::NODES:
            return "node limit of " + std::to_string(std::uint64_t(value)) + " reached";
        case Limit::NONE: break;
    }
    return {};
}

using movegen::Move;
using movegen::MoveUndo;
using movegen::Multiverse;

using movegen::TreeNode;

namespace {

// If `a` is one of the legal actions of m, f() with it made on m; returns whether it was.
// (ActionSearch::reset_only: looked for among the legal actions made of its own moves, not
// among the position's others, which can be millions.)
template <class F>
bool if_legal(movegen::ActionSearch& search, Multiverse& m, std::span<const Move> a, F f) {
    bool found = false;
    search.reset_only(m, a);
    search.for_each([&](std::span<const Move> l) {
        if (!std::equal(l.begin(), l.end(), a.begin(), a.end())) return true;
        found = true;
        f();
        return false;
    });
    return found;
}

// Does `answer` mate, legally, after `defence`, both from `here`? (here restored)
bool mates_after(movegen::ActionSearch& search, Multiverse& here, std::span<const Move> defence,
    std::span<const Move> answer, std::vector<MoveUndo>& u) {
    bool answered = false;
    movegen::do_action(here, defence, u);
    if_legal(search, here, answer, [&] { answered = movegen::is_checkmate(here); });
    movegen::undo_action(here, u);
    return answered;
}

// A group's defences named in its list, by name (a defender node can have 200,000 defences, most
// of them named in groups): each entry is (name, group, position in its list).
struct NameIndex {
    struct Entry {
        std::string_view name;
        std::size_t      group, at;
        bool             met = false;
        auto             operator<=>(const Entry& o) const {
                        return std::tie(name, group, at) <=> std::tie(o.name, o.group, o.at);
        }
        bool operator==(const Entry& o) const = default;
    };
    std::vector<Entry> entries; // sorted

    template <class Groups>
    explicit NameIndex(const Groups& groups) {
        for (std::size_t g = 0; g < groups.size(); ++g)
            for (std::size_t i = 0; i < groups[g].names.size(); ++i)
                entries.push_back({groups[g].names[i], g, i});
        std::sort(entries.begin(), entries.end());
    }

    // The defence named `text` is met: in each group that names it, its first name not met
    // before is marked met. f(group) for each such group, in the groups' order.
    template <class F>
    void meet(std::string_view text, F f) {
        auto it = std::lower_bound(entries.begin(), entries.end(), text,
            [](const Entry& e, std::string_view t) { return e.name < t; });
        for (; it != entries.end() && it->name == text; ++it) {
            if (it->met) continue;
            it->met = true;
            f(it->group);
            const std::size_t g = it->group;
            while (it + 1 != entries.end() && (it + 1)->name == text && (it + 1)->group == g)
                ++it; // one name per group for each meeting
        }
    }

    // The names never met: f(group, position), in the groups' and the lists' order.
    template <class F>
    void for_each_unmet(F f) const {
        std::vector<const Entry*> left;
        for (const Entry& e : entries)
            if (!e.met) left.push_back(&e);
        std::sort(left.begin(), left.end(), [](const Entry* x, const Entry* y) {
            return std::tie(x->group, x->at) < std::tie(y->group, y->at);
        });
        for (const Entry* e : left)
            f(e->group, e->at);
    }
};

// The hand-offs between the walk's thread and the tasks it runs, as atomics (oneTBB's own are
// not seen by ThreadSanitizer, tests/solver/tsan.supp): what the walk wrote before give() is seen
// by a task after take(); what the tasks wrote before done() is seen by the walk after join().
struct HandOff {
    std::atomic<std::uint64_t> given{0}, finished{0};
    void                       give() { given.fetch_add(1, std::memory_order_release); }
    void                       take() const { (void)given.load(std::memory_order_acquire); }
    void                       done() { finished.fetch_add(1, std::memory_order_release); }
    void                       join() const { (void)finished.load(std::memory_order_acquire); }
};

// The walk, iterative: a node is checked when it is entered (its own problems first, so the
// first problems reported are those nearest the root, in pre-order), then its legal children
// are entered in order, each with its action made on mv.
struct Walker {
    Walker(Multiverse& m, const SolutionTree& t, std::size_t maxP, ActionFormatter f,
        const ProofLimits& l) :
        mv(m),
        tree(t), maxProblems(maxP), format(f), limits(l) { }

    Multiverse&           mv;
    const SolutionTree&   tree;
    std::size_t           maxProblems;
    ActionFormatter       format;
    const ProofLimits&    limits;
    ProofReport           report;
    bool                  stop = false; // a limit, or the problems list is full
    movegen::ActionPicker picker;       // the defences of a node (the one legal-action policy)
    movegen::ActionSearch search;       // if_legal(), reused

    bool full() const { return report.problems.size() >= maxProblems; }

    void problem(ProofProblem::Kind kind, int node, std::span<const Move> a, std::string detail) {
        if (full()) return;
        ProofProblem p;
        p.kind = kind;
        p.node = node;
        p.action.assign(a.begin(), a.end());
        p.detail = std::move(detail);
        report.problems.push_back(std::move(p));
        if (full()) stop = true; // nothing more would be reported
    }

    void limit(Limit kind, std::string why) {
        if (report.limit.empty()) {
            report.limit     = std::move(why);
            report.limitKind = kind;
            limitAt          = report.nodes;
        }
        stop = true;
    }
    std::uint64_t limitAt = 0; // the walk's units when the limit was met

    // The problems list filled at the defence met after `nodes` units (GroupChecks, whose walk
    // went on past it): the report as the walk that stopped there gives it.
    void stopped_at(std::uint64_t nodes) {
        if (!report.limit.empty() && limitAt > nodes) {
            report.limit.clear();
            report.limitKind = Limit::NONE;
        }
        report.nodes = nodes;
    }

    // One unit of work; the clock and the interrupt are polled every 1024 units, from the first.
    // False once a limit stopped the walk.
    bool spend() {
        ++report.nodes;
        if (limits.nodeLimit && report.nodes > limits.nodeLimit)
            limit(Limit::NODES, limit_message(Limit::NODES, double(limits.nodeLimit)));
        if ((report.nodes & 1023) == 1) poll(); // the first unit too
        return !stop;
    }

    void poll() {
        if (limits.interrupt && limits.interrupt->load(std::memory_order_relaxed))
            limit(Limit::INTERRUPTED, limit_message(Limit::INTERRUPTED, 0));
        if (limits.timeLimit > 0 && std::chrono::steady_clock::now() >= limits.deadline)
            limit(Limit::TIME, limit_message(Limit::TIME, limits.timeLimit));
    }

    // Is `a` legal here?
    bool legal(std::span<const Move> a) {
        return if_legal(search, mv, a, [] {});
    }

    // A leaf: checkmate, else a problem.
    void check_leaf(int node, bool attackerToMove) {
        if (attackerToMove) {
            problem(
                ProofProblem::Kind::NO_ANSWER, node, {}, "the line ends with the attacker to move");
            return;
        }
        // A leaf only needs the number of legal actions: counted with the hypercuboid
        // fallback where the depth-first enumeration thrashes (a mated wide position).
        constexpr std::uint64_t Cap   = 1000;
        const std::uint64_t     count = movegen::count_legal_actions(mv, Cap);
        report.nodes += count;
        if (count > 0)
            problem(ProofProblem::Kind::NOT_MATE, node, {},
                "the defender has " + std::string(count >= Cap ? "at least " : "")
                    + std::to_string(count) + " legal action(s)");
        else if (!movegen::in_check_at_turn_start(mv))
            problem(ProofProblem::Kind::NOT_MATE, node, {}, "stalemate");
        else
            ++report.leaves;
    }

    // Checks an inner node; returns the children to walk (legal, not duplicates), in order.
    std::vector<int> check_inner(int node, bool attackerToMove) {
        const TreeNode&   n      = tree.nodes[std::size_t(node)];
        const std::size_t kids   = n.children.size();
        const auto        action = [&](int c) -> const std::vector<Move>& {
            return tree.nodes[std::size_t(c)].action;
        };
        // status[i] of n.children[i]: 0 illegal, 1 legal, 2 duplicate of an earlier sibling.
        std::vector<char> status(kids, 0);
        // at[j]: the children's indices sorted by action (ties in child order); sorted[j] the
        // child itself.
        std::vector<std::size_t> at(kids);
        for (std::size_t i = 0; i < kids; ++i)
            at[i] = i;
        std::stable_sort(at.begin(), at.end(), [&](std::size_t x, std::size_t y) {
            return action(n.children[x]) < action(n.children[y]);
        });
        std::vector<int> sorted(kids);
        for (std::size_t j = 0; j < kids; ++j)
            sorted[j] = n.children[at[j]];
        // Duplicates: equal actions, sorted together (stable: the first in child order leads).
        for (std::size_t j = 1; j < kids; ++j)
            if (action(sorted[j]) == action(sorted[j - 1])) status[at[j]] = 2;

        if (attackerToMove) {
            // 1. Each answer is looked for among the legal actions made of its own moves.
            for (std::size_t i = 0; i < kids && !stop; ++i)
                if (status[i] != 2 && spend() && legal(action(n.children[i]))) status[i] = 1;
        } else {
            ++report.defenderNodes;
            check_defences(node, sorted, at, status);
        }
        // Stopped: the children not met yet are not known to be illegal.
        if (stop) return {};
        // 2. The children's own problems, in order; the legal ones are walked.
        std::vector<int> walk;
        for (std::size_t i = 0; i < kids; ++i) {
            const int c = n.children[i];
            if (status[i] == 0)
                problem(ProofProblem::Kind::ILLEGAL_ACTION, c, action(c), "not a legal action");
            else if (status[i] == 2)
                problem(ProofProblem::Kind::DUPLICATE, c, action(c), "duplicate variation");
            else
                walk.push_back(c);
        }
        return walk;
    }

    // At a defender node: streams the legal defences (never listing them). Each is matched to a
    // child by its moves (both in standard order), not by the position it reaches: two actions
    // that reach the same position are two defences, each to be answered (issue 14). A legal
    // defence that is not a child must be declared by a child's group (named in its list, or
    // counted by a list-less group) and be answered by that child's answer; else it is missing.
    // A name in a list that is no legal defence here is a problem too (a misspelt or illegal
    // defence).
    void check_defences(int node, const std::vector<int>& sorted,
        const std::vector<std::size_t>& at, std::vector<char>& status) {
        const TreeNode& n = tree.nodes[std::size_t(node)];
        struct Group {
            int                      child;
            const std::vector<Move>* answer;
            int                      unnamed; // list-less: defences it may still cover
            std::vector<std::string> names;   // normalised; matched ones are cleared
        };
        std::vector<Group> groups;
        for (const int c : n.children) {
            movegen::DefenceGroup declared;
            if (!movegen::read_group(tree.nodes[std::size_t(c)].comment, declared)) continue;
            const TreeNode& d = tree.nodes[std::size_t(c)];
            if (d.children.size() != 1
                || !tree.nodes[std::size_t(d.children[0])].children.empty()) {
                problem(ProofProblem::Kind::BAD_GROUP, c, d.action,
                    "a group of defences needs one answer that mates at once");
                continue;
            }
            Group g{c, &tree.nodes[std::size_t(d.children[0])].action, 0, {}};
            if (format && !declared.names.empty())
                g.names = std::move(declared.names); // normalised
            else
                g.unnamed = declared.size - 1;
            groups.push_back(std::move(g));
        }
        const bool named = std::any_of(
            groups.begin(), groups.end(), [](const Group& g) { return !g.names.empty(); });
        NameIndex names(groups);
        // Groups are checked on a copy of the node's position: the picker shows each defence
        // made on mv.
        std::optional<Multiverse> here;
        if (!groups.empty()) here.emplace(mv.fork());
        // The grouped defences' answers are tested in batches on the threads while the picker
        // goes on (GroupChecks); their problems are reported in the picker's order.
        std::optional<GroupChecks> checks;
        if (parallel && here) checks.emplace(*this, node, *here);
        std::vector<MoveUndo> u;
        std::size_t           count = 0;
        picker.reset(mv);
        picker.for_each([&](std::span<const Move> a) {
            if (!spend()) return false;
            if (limits.actionLimit && ++count > limits.actionLimit) {
                limit(Limit::ACTIONS, limit_message(Limit::ACTIONS, double(limits.actionLimit)));
                return false;
            }
            // A child?
            const auto it = std::lower_bound(sorted.begin(), sorted.end(), a, [&](int c, auto x) {
                const auto& ca = tree.nodes[std::size_t(c)].action;
                return std::lexicographical_compare(ca.begin(), ca.end(), x.begin(), x.end());
            });
            const bool isChild = it != sorted.end()
                && std::equal(a.begin(), a.end(), tree.nodes[std::size_t(*it)].action.begin(),
                    tree.nodes[std::size_t(*it)].action.end());
            if (isChild) status[at[std::size_t(it - sorted.begin())]] = 1;
            if (groups.empty()) {
                if (!isChild)
                    problem(ProofProblem::Kind::MISSING_DEFENCE, node, a,
                        "defence neither written nor declared by a group");
                return !stop;
            }
            Group* cover = nullptr;
            if (named)
                names.meet(normalise_action_text(format(*here, a)), [&](std::size_t g) {
                    if (!cover && !isChild) cover = &groups[g];
                });
            if (isChild) return !stop;
            if (!cover)
                for (Group& g : groups)
                    if (g.unnamed > 0) {
                        cover = &g;
                        --g.unnamed;
                        break;
                    }
            const std::vector<Move>* answer = cover ? cover->answer : nullptr;
            if (checks)
                checks->add(a, answer);
            else
                group_check(node, a, answer, answer && mates_after(search, *here, a, *answer, u));
            return !stop;
        });
        if (checks) checks->finish();
        if (stop) return;
        names.for_each_unmet([&](std::size_t g, std::size_t i) {
            problem(ProofProblem::Kind::BAD_GROUP, groups[g].child, {},
                "a group names '" + groups[g].names[i] + "', which is not a legal defence here");
        });
    }

    // A defence not written as a child, declared by a group whose answer is `answer` (none: by
    // no group), which `mates` or not after it.
    void group_check(
        int node, std::span<const Move> a, const std::vector<Move>* answer, bool mates) {
        if (!answer)
            problem(ProofProblem::Kind::MISSING_DEFENCE, node, a,
                "defence neither written nor declared by a group");
        else if (!mates)
            problem(ProofProblem::Kind::MISSING_DEFENCE, node, a,
                "declared by a group whose answer does not mate after it");
        else
            ++report.answeredByGroup;
    }

    // The answers of grouped defences tested on the threads (ProofLimits::threads), in batches
    // of ProofLimits::groupBatch: a batch is tested while the picker collects the next one, and
    // reported (group_check()) in the picker's order before the next is started. When the
    // problems list fills in a batch, the walk ends as the serial walk would have: its units
    // counted up to that defence, the defences after it not reported.
    struct GroupChecks {
        struct Check {
            std::size_t              at, size; // its moves in `moves`
            const std::vector<Move>* answer;
            std::uint64_t            nodes; // the walk's units once it was met
            bool                     mates = false;
        };
        struct Batch {
            std::vector<Check> checks;
            std::vector<Move>  moves;
        };
        // One per thread of the arena: a copy of the node's position and the tools to test.
        struct Tester {
            explicit Tester(const Multiverse& m) : here(m.fork()) { }
            Multiverse            here;
            movegen::ActionSearch search;
            std::vector<MoveUndo> undo;
        };

        Walker&                            w;
        const int                          node; // the defender node whose defences these are
        tbb::task_arena                    arena;
        tbb::task_group                    running;
        std::vector<std::optional<Tester>> testers;
        Batch                              batch[2]; // collecting, tested (running until reported)
        HandOff                            handOff;

        GroupChecks(Walker& walker, int node_, const Multiverse& here) :
            w(walker), node(node_), arena(walker.limits.threads),
            testers(std::size_t(walker.limits.threads)) {
            for (std::optional<Tester>& t : testers)
                t.emplace(here);
        }

        void add(std::span<const Move> a, const std::vector<Move>* answer) {
            Batch& b = batch[0];
            b.checks.push_back({b.moves.size(), a.size(), answer, w.report.nodes});
            b.moves.insert(b.moves.end(), a.begin(), a.end());
            if (b.checks.size() >= std::max<std::size_t>(w.limits.groupBatch, 1)) turn();
        }

        // The tested batch reported; the collected one started.
        void turn() {
            report();
            std::swap(batch[0], batch[1]);
            Batch& b = batch[1];
            if (b.checks.empty()) return;
            handOff.give();
            arena.execute([&] {
                running.run([this, &b] {
                    tbb::parallel_for(std::size_t(0), b.checks.size(), [&](std::size_t i) {
                        handOff.take();
                        Check& c = b.checks[i];
                        if (c.answer) {
                            Tester&                     t = *testers[std::size_t(
                                                    std::max(0, tbb::this_task_arena::current_thread_index()))];
                            const std::span<const Move> a(b.moves.data() + c.at, c.size);
                            c.mates = mates_after(t.search, t.here, a, *c.answer, t.undo);
                        }
                        handOff.done();
                    });
                });
            });
        }

        // Waits for the tested batch and reports it.
        void report() {
            Batch& b = batch[1];
            if (b.checks.empty()) return;
            arena.execute([&] { running.wait(); });
            handOff.join();
            for (const Check& c : b.checks) {
                if (w.full()) break;
                w.group_check(node, {b.moves.data() + c.at, c.size}, c.answer, c.mates);
                if (w.full()) w.stopped_at(c.nodes); // where the serial walk stopped
            }
            b.checks.clear();
            b.moves.clear();
        }

        // The rest tested and reported.
        void finish() {
            turn();
            turn();
        }

        ~GroupChecks() {
            if (!batch[1].checks.empty()) arena.execute([&] { running.wait(); });
        }
    };

    // The subtrees of a defender node are walked on threads (ProofLimits::threads) by this walker,
    // not by those it starts.
    bool parallel = false;

    // The subtrees of `kids` (children of the defender node at mv), in chunks on the threads,
    // each chunk by a walker of its own on a copy of mv; their reports joined in order.
    void walk_parallel(const std::vector<int>& kids) {
        const std::size_t        chunk  = std::max<std::size_t>(1, limits.parallelKids / 4);
        const std::size_t        chunks = (kids.size() + chunk - 1) / chunk;
        std::vector<ProofReport> parts(chunks);
        tbb::task_arena          arena(limits.threads);
        HandOff                  handOff;
        handOff.give();
        arena.execute([&] {
            tbb::parallel_for(std::size_t(0), chunks, [&](std::size_t c) {
                handOff.take();
                Multiverse here = mv.fork();
                Walker     w(here, tree, maxProblems, format, limits);
                for (std::size_t i = c * chunk;
                     i < std::min(kids.size(), (c + 1) * chunk) && !w.stop; ++i)
                    w.walk(kids[i], true);
                parts[c] = std::move(w.report);
                handOff.done();
            });
        });
        handOff.join();
        for (ProofReport& p : parts) {
            report.nodes += p.nodes;
            report.leaves += p.leaves;
            report.defenderNodes += p.defenderNodes;
            report.answeredByGroup += p.answeredByGroup;
            for (ProofProblem& q : p.problems)
                problem(q.kind, q.node, q.action, std::move(q.detail));
            if (stop) return; // full: the serial walk stopped here too
            if (!p.limit.empty()) {
                limit(p.limitKind, p.limit);
                return;
            }
        }
    }

    // Walks the subtree of `start` (its own action is made on mv by the caller unless it is the
    // root), then restores mv to what it was before that action.
    void walk(int start, bool startAttacker) {
        struct Frame {
            std::vector<int> kids; // to walk, in order
            std::size_t      next;
            std::size_t      undoBase; // where this node's action's undo records begin
            bool             attacker; // to move at this node
        };
        std::vector<Frame> stack;
        const std::size_t  base0 = undo.size();
        auto               enter = [&](int node, bool attacker, std::size_t base) {
            if (!spend()) return;
            std::vector<int> kids;
            if (tree.nodes[std::size_t(node)].children.empty())
                check_leaf(node, attacker);
            else
                kids = check_inner(node, attacker);
            if (!stop && parallel && !attacker && kids.size() >= limits.parallelKids) {
                walk_parallel(kids);
                kids.clear();
            }
            if (!stop) stack.push_back({std::move(kids), 0, base, attacker});
        };
        if (start != 0) movegen::do_action(mv, tree.nodes[std::size_t(start)].action, undo);
        enter(start, startAttacker, base0);
        while (!stack.empty() && !stop) {
            Frame& f = stack.back();
            if (f.next == f.kids.size()) {
                movegen::undo_action(mv, undo, f.undoBase);
                stack.pop_back();
                continue;
            }
            const int         c        = f.kids[f.next++];
            const bool        attacker = !f.attacker;
            const std::size_t base     = undo.size();
            movegen::do_action(mv, tree.nodes[std::size_t(c)].action, undo);
            enter(c, attacker, base);
        }
        movegen::undo_action(mv, undo, base0); // restores mv however the walk ended
    }

    void run() {
        parallel = limits.threads > 1 && limits.nodeLimit == 0;
        walk(0, true);
        report.finished = !stop;
    }

    std::vector<MoveUndo> undo; // the walk's undo records (walk())
};

} // namespace

ProofReport check_proof(Multiverse& mv, const SolutionTree& tree, std::size_t maxProblems,
    ActionFormatter format, const ProofLimits& limits) {
    Walker w(mv, tree, std::max<std::size_t>(maxProblems, 1), format, limits);
    w.run();
    w.report.length   = tree.length();
    w.report.complete = w.report.finished && w.report.problems.empty();
    return w.report;
}

std::string proof_mismatch(const ProofReport& rep, int mateIn) {
    if (!rep.complete)
        return "not a complete proof"
            + (rep.problems.empty() ? std::string() : ": " + rep.problems.front().detail);
    if (rep.length != mateIn)
        return "a mate in " + std::to_string(rep.length) + ", not " + std::to_string(mateIn);
    return "";
}

} // namespace fived::solver
