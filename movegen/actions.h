#pragma once
// Legal actions (RULES.md §3.4-§5.3) and the verdicts built on them.
//
// An action is a set of moves, at most one per playable board (as the source, or as the target
// of a non-branching jump), plus an order of its branching jumps (the k-th branching jump gets
// the k-th new timeline, §3.6). It is legal iff afterwards the present has passed to the
// opponent and no royal piece of the mover is attacked.
//
// Enumeration is a depth-first search over the playable timelines in ascending ℓ: each timeline
// passes, makes a physical move, departs with a piece (the arrival is a non-branching "hop"
// onto another playable board, made at once, or a branching jump, whose arrival is deferred),
// or receives a hop. At the leaves the deferred branching arrivals are made in every valid order.
//
// Pruning rests on one fact: within an action an attack, once present, never goes away. Every
// board is immutable, the mover only adds boards of the opponent's colour, and the opponent's
// last boards stay last (only the opponent can extend those timelines). So a partial action
// whose state already has a royal of the mover attacked has no legal completion.
//
// Actions are reported in the standard order of NOTATION.md §6: physical moves and hops sorted
// by arrival ℓ (ascending for White, descending for Black), then branching jumps in order.

#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include <absl/functional/function_ref.h>

#include "movegen/movegen.h"
#include "movegen/multiverse.h"

namespace fived::movegen {

enum class Verdict {
    Ongoing,
    Checkmate,
    Stalemate
};

// A search is reusable: reset() re-initialises it for another position and keeps the capacity
// of every buffer, so a search kept per ply (or per thread) allocates nothing once it has seen
// positions as large as the current one (STYLE.md §2.5). Constructing one per position works
// too, but allocates its tables each time.
class ActionSearch {
public:
    // An idle search: reset() it before enumerating. Allocates nothing.
    ActionSearch() = default;
    // Convenience: a search reset() to mv.
    explicit ActionSearch(Multiverse& mv, bool reference = false);
    // Not copyable (its buffers are large and no caller needs a copy); movable, for containers.
    ActionSearch(const ActionSearch&)            = delete;
    ActionSearch& operator=(const ActionSearch&) = delete;
    ActionSearch(ActionSearch&&)                 = default;
    ActionSearch& operator=(ActionSearch&&)      = default;

    // Prepares a search of the actions of the side to move of mv (mv is used for make/unmake
    // and restored; it must outlive the enumeration). Generates and filters the moves of every
    // playable board. Clears nodes() and aborted(); keeps the node limit.
    // reference: for tests, use the slow reference attack test (royal_attacked_reference) at
    // every node instead of the incremental one.
    void reset(Multiverse& mv, bool reference = false);
    // reset() restricted to the given moves: the search then enumerates exactly the legal
    // actions made of these moves only (legality is a property of the action, so an action is
    // legal iff reset_only(mv, action) enumerates it): a legality test for one action without
    // enumerating the position's others.
    void reset_only(Multiverse& mv, std::span<const Move> only);
    // reset() with the moves of `prefer` imposed on the boards they start from (where at least
    // one of them is among the board's moves; elsewhere, and on the other boards, every move):
    // the legal actions that make those choices there, whatever they play on the other boards.
    // The search's way to try a refutation found in a sibling node where the sibling's action
    // itself is not legal (another set of playable boards).
    void reset_prefer(Multiverse& mv, std::span<const Move> prefer);

    // Calls visit(action) for each legal action; stops when visit returns false.
    // visit runs with the action made on the multiverse: it may search on from there (make and
    // unmake further moves) but must leave the multiverse as it found it. It must not use this
    // search (use another one, e.g. the next ply's). May be called again while mv is at the same
    // position: it enumerates the same actions (nodes() and the node limit count across calls
    // until the next reset()).
    // Returns false iff stopped by the visitor or by the node limit (aborted(), cleared here).
    bool          for_each(absl::FunctionRef<bool(std::span<const Move>)> visit);
    std::uint64_t count(std::uint64_t cap = UINT64_MAX);
    bool          exists();

    // Shares one enumeration among several searches (threads): each search reset on the same
    // position and given the same counter (starting at 0) enumerates a disjoint share of the
    // actions, and together they enumerate each action exactly once, provided every one of them
    // runs its for_each() to the end. The shares are subtrees of the DFS claimed from the
    // counter as they are reached, at the first position where the DFS has at least `units`
    // options (so that a share is small and the threads stay busy); above it the searches do
    // not backjump, so they meet the same subtrees in the same order. Cleared by reset().
    void share(std::atomic<std::uint32_t>* counter, std::uint32_t units);
    // With share(): a node budget per subtree instead of the node limit. A claimed subtree may
    // visit `base` nodes plus `perAction` per action it yields; one that needs more stops the
    // enumeration (aborted(), and unit() names it). The subtrees and their budgets depend only
    // on the position and `units`, not on which search claims them, so whether one runs out
    // is the same for any number of searches.
    void set_unit_budget(std::uint64_t base, std::uint64_t perAction) {
        unitBase      = base;
        unitPerAction = perAction;
    }
    // With share(): the index of the subtree being enumerated (subtrees are numbered in the
    // order of the unshared enumeration, which they follow).
    std::int64_t unit() const { return shareClaimed; }

    std::uint64_t nodes() const { return nodes_; }
    // Stops the search (as if the visitor had) once this many nodes were visited; aborted()
    // then tells that the enumeration is incomplete.
    void set_node_limit(std::uint64_t limit) { nodeLimit = limit; }
    bool aborted() const { return aborted_; }

private:
    enum TimelineState : std::uint8_t {
        OPEN,     // not decided yet
        PASSED,   // decided: no move (may still receive a hop from a later timeline)
        MOVED,    // its last board was replaced by its own move (physical or departure)
        RECEIVED, // its last board was replaced by a hop arrival
        DEPARTED, // its last board is replaced by the departure of a deferred branching jump
    };
    struct Deferred {
        Move move;
        bool ontoTip; // lands on a start-of-turn last board (needs that timeline replaced first)
    };

    // The stages of reset(): forget the previous position; keep the moves of one playable
    // board that are in some legal action (step 1); the tables of the pass rule (step 3) and of
    // the optimistic present test (step 4).
    void forget(Multiverse& m, bool reference);
    void keep_board_moves(int l);
    void prepare_pass_rule();
    void prepare_present_test();
    bool dfs(std::size_t i);
    bool leaf();
    bool arrive();
    bool emit(std::span<const Move> branching);
    // acrossOnly: the boards u added were each tested alone by reset() (within the enumeration
    // every made board is one reset() tested: the same tip, departure or arrival board).
    bool attacked_after(
        const MoveUndo& u, AttackInfo* info = nullptr, bool acrossOnly = false) const;
    int descend(std::size_t i);
    // Conflict sets: one row of bits (DFS positions) per depth.
    std::uint64_t* row(std::size_t i) { return confWords.data() + i * words; }
    static void    set_bit(std::uint64_t* r, int b) {
           r[std::size_t(b) >> 6] |= std::uint64_t(1) << (b & 63);
    }
    static bool test_bit(const std::uint64_t* r, int b) {
        return (r[std::size_t(b) >> 6] >> (b & 63)) & 1;
    }
    void add_creator(std::uint64_t* conf, int l, int v) const;
    void add_attack(std::uint64_t* conf, const AttackInfo& a) const;
    bool alterable(std::size_t i, const std::uint64_t* c) const;
    int  absorb(std::size_t i);
    int  try_pass(std::size_t i);
    bool present_passed() const;
    bool claim(); // at the share position: is the next subtree this search's?
    bool present_feasible(std::size_t i) const;

    // One playable timeline while the DFS order is chosen (reset() step 2).
    struct Row {
        int         l;
        bool        mandatory;
        std::size_t begin, end; // into allMoves
        int         options;    // number of ways to decide it (pass, and each kind of each move)
    };

    Multiverse*               mv             = nullptr;
    bool                      referenceCheck = false;
    Color                     us             = WHITE;
    int                       presentV       = 0;
    std::vector<Row>          rows;     // scratch of reset()
    std::vector<Move>         gen;      // scratch of reset(): one board's pseudo-legal moves
    std::vector<int>          playable; // playable timelines, in DFS order
    std::vector<std::uint8_t> mandatory;
    std::vector<std::size_t>  moveBegin, moveEnd; // per playable timeline, into allMoves
    std::vector<Move>         allMoves;
    enum MoveKindBits : std::uint8_t {
        KIND_PHYSICAL = 1,
        KIND_HOP      = 2, // a jump made as a non-branching hop onto a playable board
        KIND_BRANCH   = 4, // a jump made as a branching jump (arrival deferred)
        KIND_REWIND   = 8, // a branching jump that may move the present back
    };
    std::vector<std::uint8_t>  moveKinds;       // per allMoves entry: the viable ways to make it
    std::vector<int>           lastHopSource;   // per DFS position: last position hopping onto it
    std::vector<std::uint8_t>  rewindFrom;      // suffix: a rewinding jump is viable at ≥ i
    std::vector<int>           passedMandatory; // DFS positions of passed mandatory boards
    int                        deferredRewinds = 0;
    std::vector<int>           posOf;         // DFS position of each timeline (ℓ - minL0), or -1
    std::vector<std::uint8_t>  canMove;       // per position: has any move option
    std::vector<int>           branchersFrom; // suffix: positions that can branch
    std::vector<int>           minTargetFrom; // suffix: lowest v of a branching target
    int                        whiteCreated = 0, blackCreated = 0;
    std::size_t                words     = 1;
    std::uint64_t              nodeLimit = UINT64_MAX;
    bool                       aborted_  = false;
    std::vector<std::uint64_t> confWords;
    std::vector<std::uint8_t>  confFull;
    std::vector<int>           receivedFrom; // per timeline: the position whose hop landed on it
    bool                       rootAttacked = false;
    std::vector<TimelineState> state;    // indexed by ℓ - mv.min_l() at the start
    std::vector<int>           startEnd; // end v per timeline at the start (ℓ - minL0)
    int                        minL0 = 0;
    std::vector<Move>          others; // made moves that are not deferred, in standard order
    std::vector<Deferred>      deferred;
    std::vector<Move>          out;      // the action handed to the visitor
    std::vector<std::uint8_t>  placed;   // deferred jumps already arrived, at the leaf
    std::vector<Board>         arrivals; // the board each deferred jump's arrival adds
    std::vector<Move>          order;    // the arrivals made so far, in order
    // At a leaf, attacks found between new boards only: an attack between the boards of two new
    // timelines (and those between them) depends only on which deferred jumps made the boards
    // of that run of consecutive new timelines, so the run is remembered and skipped in every
    // later order of the same leaf. Keyed by the run's deferred indices and the leaf's number.
    // The same table keeps the arrivals found safe whose window (LineRuns::window()) holds only
    // new boards, keyed by the window's jumps (arrival_attacked()).
    struct Conflict {
        std::uint64_t run      = 0;
        std::uint64_t leaf     = 0;
        bool          attacked = true;
    };
    std::vector<int>            orderIdx;  // deferred index of each arrival in order
    std::vector<int>            arrivalL;  // the timeline each arrival in order created
    std::vector<Conflict>       conflicts; // open addressing, ConflictSlots entries
    std::uint64_t               leafNo       = 0;
    int                         leafKept     = 0; // runs kept at this leaf
    int                         leafLongest  = 0; // the longest run known to attack, at this leaf
    std::uint32_t               leafLastMask = 0; // the last deferred indices of those runs
    bool                        learned_run(int j) const;
    void                        learn_run(const AttackInfo& a);
    const Conflict*             kept_run(std::uint64_t run) const;
    bool                        arrival_attacked();
    void                        remember(std::uint64_t run, bool attacked);
    std::vector<MoveUndo>       undoStack;
    std::uint64_t               nodes_ = 0;
    std::vector<int>            optionsAt; // per DFS position: number of options (Row::options)
    std::span<const Move>       only_;     // reset_only(): the moves allowed, else empty
    bool                        preferOnly_  = false;   // only_ binds only the boards it reaches
    std::atomic<std::uint32_t>* shareCounter = nullptr; // share(): the shared claim counter
    std::size_t                 shareAt      = 0;  // the DFS position whose options are claimed
    std::int64_t                shareUnit    = 0;  // subtrees met at shareAt so far
    std::int64_t                shareClaimed = -1; // the last subtree claimed
    std::uint64_t               unitBase = 0, unitPerAction = 0; // set_unit_budget()
    // The visitor of the running for_each() (it lives on for_each's frame).
    const absl::FunctionRef<bool(std::span<const Move>)>* visitor = nullptr;
};

// Convenience wrappers over the one legal-action policy, ActionPicker (picker.h), which owns the
// choice between this search and the hypercuboid one. Each takes a picker from a per-thread
// stack with one level per nesting depth, so they may be called from inside the visitor of
// another enumeration (perft calls itself there). All exact; all allocation-free after warm-up.
// count_legal_actions, perft: ActionPicker::count / for_each. exists_legal_action and verdict:
// the hypercuboid search (ActionPicker::exists).
std::uint64_t count_legal_actions(Multiverse& mv, std::uint64_t cap = UINT64_MAX);
bool          exists_legal_action(Multiverse& mv);
// Checkmate (RULES.md §5.4): in check at the start of the turn and no legal action. The check
// test comes first: it is cheap, and most positions a mate search asks about are not in check.
bool    is_checkmate(Multiverse& mv);
Verdict verdict(Multiverse& mv);
// "checkmate", "stalemate" or "ongoing", as `fived status` writes it.
const char* verdict_name(Verdict v);

// Number of action sequences of the given length from mv (perft).
std::uint64_t perft(Multiverse& mv, int depth);

} // namespace fived::movegen
