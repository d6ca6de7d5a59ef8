#pragma once
// The one policy for the legal actions of a position. The free functions of actions.h, the
// `fived` commands and the solver's search list, count and test legal actions through an
// ActionPicker; the two exact engines, ActionSearch (depth-first, actions.h) and
// HypercuboidSearch (hypercuboid.h), are its internals, and the budgets below exist only here.
// (ActionSearch stays public for what is not a listing of a position's actions: the legality
// test of one action, ActionSearch::reset_only, and the tests of the engines themselves.)
//
// The policy:
//  1. Existence (exists(), the verdicts): the hypercuboid search, which decides a position in
//     milliseconds whether or not it has legal actions.
//  2. Enumeration and counting: the depth-first search, fastest where actions are dense.
//  3. No-action probe, so that a position without legal action costs no more than its verdict:
//     in check at the start of the turn (a checkmate is the usual position without legal
//     action), the hypercuboid search is asked first whether any action exists; otherwise the
//     depth-first search is asked after its first ProbeNodes nodes if they found no action.
//     None: the enumeration is over. Some: the depth-first search runs (again from the start)
//     with the budget it would have had without the probe. The probe changes the cost, never
//     which actions are visited, in which order, nor where the search thrashes.
//  4. Thrash: once the depth-first search has used more than ThrashNodes + ThrashNodesPerAction
//     nodes per action found (sparse actions in a wide position), it gives way to the hypercuboid
//     enumeration, which cannot thrash. Both engines are exact: the set of actions never
//     depends on the switch, only their order (the hypercuboid's is its own).
//
// On a switch the hypercuboid enumerates every action again. for_each(visit) hides that: it
// skips the actions the depth-first search has visited already (kept with their moves: 16 bytes
// an action plus 8 a move), so the visitor sees each action exactly once. It keeps SeenCap
// actions at most (about 20 MB): a search that has found that many within its budget is on a
// dense position, and it finishes without a budget, so that memory does not grow with the
// number of actions (`fived actions` on a position with 40 million, issue 55). for_each(visit,
// restart) calls restart() and then shows every action again, for callers that collect the actions
// and want them all in one engine's order (the solver's action lists).
//
// The staged interface (depth_first(), fallback(), share()) is for the solver's nodes that
// enumerate in passes (hinted actions first, then the rest, possibly shared among threads):
// every pass of one position spends the same thrash budget, and thrashed() says when the caller
// has to finish with fallback().
//
// A picker is reusable: reset() keeps the capacity of every buffer, so a picker kept per ply (or
// per thread) allocates nothing once it has seen positions as large as the current one.

#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include <absl/functional/function_ref.h>

#include "movegen/actions.h"
#include "movegen/hypercuboid.h"
#include "movegen/multiverse.h"

namespace fived::movegen {

class ActionPicker {
public:
    // The thrash budget (step 4) and the no-action probe (step 3).
    static constexpr std::uint64_t ThrashNodes          = 100000;
    static constexpr std::uint64_t ThrashNodesPerAction = 2000;
    static constexpr std::uint64_t ProbeNodes           = 256;
    // for_each(visit): most depth-first actions remembered before the budget is lifted.
    static constexpr std::size_t SeenCap = std::size_t(1) << 18;

    using Visit   = absl::FunctionRef<bool(std::span<const Move>)>;
    using Restart = absl::FunctionRef<void()>;

    ActionPicker()                               = default;
    ActionPicker(const ActionPicker&)            = delete;
    ActionPicker& operator=(const ActionPicker&) = delete;
    ActionPicker(ActionPicker&&)                 = default;
    ActionPicker& operator=(ActionPicker&&)      = default;

    // Picks the actions of the side to move of mv (used for make/unmake and restored; it must
    // stay at this position, apart from what visitors make and unmake, until the next reset()).
    // Cheap: the depth-first search is prepared when first needed.
    void reset(Multiverse& mv);

    // Calls visit(action) for each legal action exactly once, with the action made on mv (the
    // visitor must leave mv as it found it and must not use this picker); stops when visit
    // returns false. Returns false iff stopped by the visitor.
    bool for_each(Visit visit);
    // The same, but after a switch of engine restart() is called and visit sees every action
    // again, in the hypercuboid's order.
    bool          for_each(Visit visit, Restart restart);
    std::uint64_t count(std::uint64_t cap = UINT64_MAX);
    // A width estimate: count(cap) by the depth-first search alone, which gives up after
    // `effort` of its nodes; a position it gives up on counts as cap (wide, or too sparse to
    // count cheaply), unless it has no legal action at all (0, asked of the hypercuboid when
    // the search gave up before finding one). Exact below cap when the search ends within the
    // effort.
    std::uint64_t count_within(std::uint64_t cap, std::uint64_t effort);
    bool          exists();

    // --- Staged enumeration ---------------------------------------------------------------------
    // One depth-first pass over the actions (all of them, or this picker's share), on the thrash
    // budget of the position: every pass since reset() counts against the same budget. Returns
    // false iff stopped by the visitor; when the budget ran out it returns true and thrashed()
    // is set: the caller then finishes with fallback(). A later pass enumerates from the start.
    bool depth_first(Visit visit);
    bool thrashed() const { return thrashed_; }
    // Every legal action, by the hypercuboid enumeration (after a thrash).
    bool fallback(Visit visit);
    // Every legal action made of physical moves only (no jump), by the hypercuboid enumeration
    // restricted to those moves (it cannot thrash, however rare they are among the actions). A
    // stage of its own, outside the thrash budget: the solver's defender nodes try these first.
    bool physical(Visit visit);
    // The following depth_first() passes enumerate a share of the actions, as
    // ActionSearch::share() (several pickers reset to the same position with the same counter
    // enumerate each action once between them). perUnit: each claimed subtree gets the thrash
    // budget of its own (ActionSearch::set_unit_budget), so whether one runs out does not depend
    // on which picker claims it; unit() then names the subtree being enumerated.
    void share(std::atomic<std::uint32_t>* counter, std::uint32_t units, bool perUnit = false);
    std::int64_t unit() const { return dfs.unit(); }

    // Which engine enumerates: the policy above (AUTO), or one exact engine alone, so that the
    // two can be checked against each other (`fived count --engine`): DEPTH_FIRST has no thrash
    // budget and no no-action probe, HYPERCUBOID skips the depth-first search. The set of
    // actions is the same; only the order and the cost differ. Kept across reset().
    enum class Engine : std::uint8_t {
        AUTO,
        DEPTH_FIRST,
        HYPERCUBOID
    };
    void set_engine(Engine e) { engine = e; }

    // --- For tests and benchmarks ---------------------------------------------------------------
    // Replaces the thrash budget (kept across reset()).
    void set_thrash_budget(std::uint64_t nodes, std::uint64_t perAction) {
        thrashNodes     = nodes;
        thrashPerAction = perAction;
    }
    // Effort since reset(): depth-first nodes and hypercuboid points tested (a measure of work
    // that does not depend on the machine).
    std::uint64_t depth_first_nodes() const { return prepared ? dfs.nodes() : 0; }
    std::uint64_t hypercuboid_points() const { return points; }
    // The probe (step 3) proved that the position has no legal action.
    bool proved_empty() const { return empty_; }

private:
    void prepare();
    bool hypercuboid(Visit visit, bool jumps = true);
    bool any_action();

    Multiverse*       mv = nullptr;
    ActionSearch      dfs;
    HypercuboidSearch hc;
    struct Seen {
        Key           key;         // of the position the action leads to
        std::uint32_t begin, size; // its moves in seenMoves
    };
    std::vector<Seen>           seen;      // for_each(visit): the actions of the depth-first passes
    std::vector<Move>           seenMoves; // their moves
    std::uint64_t               visited = 0; // actions found by depth-first passes since reset()
    std::uint64_t               base    = 0; // depth-first nodes spent by the probe
    std::uint64_t               points  = 0; // hypercuboid points since reset()
    std::uint64_t               thrashNodes     = ThrashNodes;
    std::uint64_t               thrashPerAction = ThrashNodesPerAction;
    std::atomic<std::uint32_t>* shareCounter    = nullptr;
    std::uint32_t               shareUnits      = 0;
    bool                        perUnit         = false;
    Engine                      engine          = Engine::AUTO;
    bool                        prepared        = false;
    bool                        probed          = false;
    bool                        empty_          = false;
    bool                        thrashed_       = false;
    bool                        unbudgeted      = false; // for_each(visit) past SeenCap
};

// Whether the side to move of mv is softmated (RULES.md §5.5): in check at the start of the
// turn, with legal actions, every one of which moves the present back. mv is restored.
bool is_softmate(Multiverse& mv);

} // namespace fived::movegen
