#include "movegen/picker.h"

#include <algorithm>
#include <memory>

#include "movegen/movegen.h"

namespace fived::movegen {

void ActionPicker::reset(Multiverse& m) {
    mv           = &m;
    visited      = 0;
    base         = 0;
    points       = 0;
    shareCounter = nullptr;
    shareUnits   = 0;
    perUnit      = false;
    prepared     = false;
    probed       = false;
    empty_       = false;
    thrashed_    = false;
}

void ActionPicker::prepare() {
    if (prepared) return;
    dfs.reset(*mv);
    prepared = true;
}

void ActionPicker::share(std::atomic<std::uint32_t>* counter, std::uint32_t units, bool unit) {
    prepare();
    shareCounter = counter;
    shareUnits   = units;
    perUnit      = unit;
    dfs.share(counter, units);
    dfs.set_unit_budget(unit ? thrashNodes : 0, unit ? thrashPerAction : 0);
}

bool ActionPicker::hypercuboid(Visit visit, bool jumps) {
    const bool go = hc.for_each(*mv, visit, jumps);
    points += hc.stats().points;
    return go;
}

bool ActionPicker::any_action() {
    // The hypercuboid search runs to its end iff the visitor, which stops it at the first
    // action, is never called.
    return !hypercuboid([](std::span<const Move>) { return false; });
}

bool ActionPicker::depth_first(Visit visit) {
    thrashed_ = false;
    if (engine == Engine::HYPERCUBOID) {
        thrashed_ = true; // the caller goes on with fallback()
        return true;
    }
    if (engine == Engine::DEPTH_FIRST && !perUnit) {
        prepare();
        dfs.set_node_limit(UINT64_MAX);
        return dfs.for_each(visit);
    }
    // Steps 3 and 4 of the policy on the first pass of an enumeration that is not shared (a
    // share's claims cannot be repeated).
    const bool first = !probed && !shareCounter;
    probed           = true;
    bool known       = false; // a legal action is known to exist
    if (first && in_check_at_turn_start(*mv)) {
        // Checkmates are the usual positions without a legal action: in check, the verdict's
        // question comes before the depth-first search is even prepared.
        known  = any_action();
        empty_ = !known;
    }
    if (empty_) return true;
    prepare();
    if (perUnit) {
        // Each claimed subtree sets its own limit (ActionSearch::claim); none above them.
        dfs.set_node_limit(UINT64_MAX);
        const bool go = dfs.for_each(visit);
        thrashed_     = dfs.aborted();
        return go || thrashed_;
    }
    auto budgeted = [&](std::span<const Move> a) {
        dfs.set_node_limit(
            unbudgeted ? UINT64_MAX : base + thrashNodes + ++visited * thrashPerAction);
        return visit(a);
    };
    if (first && !known) {
        dfs.set_node_limit(std::min(ProbeNodes, thrashNodes));
        const bool go = dfs.for_each(budgeted);
        // Not stopped by the probe's limit: the pass is the one the budget alone would give.
        if (!dfs.aborted() || visited > 0) {
            thrashed_ = dfs.aborted();
            return go || thrashed_;
        }
        if (!any_action()) {
            empty_ = true;
            return true;
        }
        base = dfs.nodes(); // the pass again, on the budget it would have had
    }
    dfs.set_node_limit(base + thrashNodes + visited * thrashPerAction);
    const bool go = dfs.for_each(budgeted);
    thrashed_     = dfs.aborted();
    return go || thrashed_;
}

bool ActionPicker::physical(Visit visit) { return empty_ || hypercuboid(visit, false); }

bool ActionPicker::fallback(Visit visit) {
    thrashed_ = false;
    if (empty_) return true;
    return hypercuboid(visit);
}

bool ActionPicker::for_each(Visit visit, Restart restart) {
    const bool go = depth_first(visit);
    if (!thrashed_) return go;
    restart();
    return fallback(visit);
}

bool ActionPicker::for_each(Visit visit) {
    // The depth-first actions, with the key of the position each leads to. Distinct actions can
    // lead to one position (two equal pieces making branching jumps onto one square, in either
    // order), so after a switch an action is skipped only if its moves equal a visited one's.
    // Kept for SeenCap actions at most: then the depth-first search is found dense enough and
    // finishes the enumeration without a budget (no switch, so nothing more to remember).
    seen.clear();
    seenMoves.clear();
    const bool go = depth_first([&](std::span<const Move> a) {
        if (!unbudgeted) {
            seen.push_back({mv->key(), std::uint32_t(seenMoves.size()), std::uint32_t(a.size())});
            seenMoves.insert(seenMoves.end(), a.begin(), a.end());
            if (seen.size() >= SeenCap) {
                unbudgeted = true;
                dfs.set_node_limit(UINT64_MAX);
            }
        }
        return visit(a);
    });
    unbudgeted    = false;
    if (!thrashed_) return go;
    // (std::sort with the start as the last key: a total order, no temporary buffer.)
    std::sort(seen.begin(), seen.end(), [](const Seen& x, const Seen& y) {
        return x.key != y.key ? x.key < y.key : x.begin < y.begin;
    });
    return fallback([&](std::span<const Move> a) {
        const Key k  = mv->key();
        auto      it = std::lower_bound(
                 seen.begin(), seen.end(), k, [](const Seen& x, Key y) { return x.key < y; });
        for (; it != seen.end() && it->key == k; ++it)
            if (std::equal(a.begin(), a.end(), seenMoves.begin() + it->begin,
                    seenMoves.begin() + it->begin + it->size))
                return true; // visited before the switch
        return visit(a);
    });
}

std::uint64_t ActionPicker::count(std::uint64_t cap) {
    std::uint64_t n = 0;
    if (cap == 0) return 0;
    for_each([&](std::span<const Move>) { return ++n < cap; }, [&] { n = 0; });
    return n;
}

std::uint64_t ActionPicker::count_within(std::uint64_t cap, std::uint64_t effort) {
    std::uint64_t n = 0;
    if (cap == 0 || empty_) return 0;
    prepare();
    dfs.set_node_limit(effort);
    dfs.for_each([&](std::span<const Move>) { return ++n < cap; });
    if (!dfs.aborted()) return n;
    // Given up before any action: none at all is asked of the hypercuboid (step 3's question).
    if (n == 0 && !any_action()) {
        empty_ = true;
        return 0;
    }
    return cap;
}

bool ActionPicker::exists() { return !empty_ && any_action(); }

// --- The free functions of actions.h ------------------------------------------------------------

namespace {

// The pickers behind the free functions: per thread, one per nesting level. A call takes the
// next level for its duration, so a call made from inside another call's visitor (perft's
// recursion, verdict() inside an enumeration) gets a picker of its own. Calls nest strictly, also
// under oneTBB (a thread that runs other tasks while it waits runs them to completion on top of
// its stack), so the levels are used as a stack and never shared; this is why thread_local is
// safe here where one thread_local scratch object would not be (STYLE.md §2.8). Levels are kept
// with their buffers: after warm-up the free functions allocate nothing.
class PickerStack {
public:
    ActionPicker& push(Multiverse& mv) {
        if (depth == levels.size()) levels.push_back(std::make_unique<ActionPicker>());
        ActionPicker& p = *levels[depth]; // unique_ptr: growing keeps the levels in place
        p.reset(mv);
        ++depth;
        return p;
    }
    void pop() { --depth; }

private:
    std::vector<std::unique_ptr<ActionPicker>> levels;
    std::size_t                                depth = 0;
};

thread_local PickerStack pickerStack;

// One level of pickerStack, reset to mv, for the lifetime of the object.
class StackedPicker {
public:
    explicit StackedPicker(Multiverse& mv) : p(pickerStack.push(mv)) { }
    ~StackedPicker() { pickerStack.pop(); }
    StackedPicker(const StackedPicker&)            = delete;
    StackedPicker& operator=(const StackedPicker&) = delete;
    ActionPicker*  operator->() { return &p; }

private:
    ActionPicker& p;
};

} // namespace

std::uint64_t count_legal_actions(Multiverse& mv, std::uint64_t cap) {
    StackedPicker p(mv);
    return p->count(cap);
}

bool exists_legal_action(Multiverse& mv) {
    StackedPicker p(mv);
    return p->exists();
}

std::uint64_t perft(Multiverse& mv, int depth) {
    if (depth <= 0) return 1;
    StackedPicker p(mv);
    if (depth == 1) return p->count();
    std::uint64_t total = 0;
    // The visitor runs with the action made on mv.
    p->for_each([&](std::span<const Move>) {
        total += perft(mv, depth - 1);
        return true;
    });
    return total;
}

bool is_softmate(Multiverse& mv) {
    if (!in_check_at_turn_start(mv)) return false;
    const int    presentBefore = mv.present_v();
    bool         any = false, allRewind = true;
    ActionPicker picker; // the legal-action policy: cannot thrash on a wide position
    picker.reset(mv);
    picker.for_each([&](std::span<const Move>) {
        any = true;
        if (mv.present_v() > presentBefore) { // this action does not rewind the present
            allRewind = false;
            return false;
        }
        return true;
    });
    return any && allRewind;
}

} // namespace fived::movegen
