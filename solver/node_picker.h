#pragma once
// The order in which the reference search (search.h) searches the children of a listed node, as
// Stockfish's movepick.h does for a chess position: a NodePicker scores the node's ActionList
// (history.h) from the table's hint and the ply's killers (killers.h), and yields the actions
// one by one, stage after stage:
//  * attacker: the table hint (the action that last decided this position), the killers
//    (actions that mated sibling defences; the first slot before the second), the actions that
//    give check, then the rest;
//  * defender: the table hint, the killers (defences that refuted sibling attacker actions),
//    the defences without jumps, then those with jumps (fewer jumps first: a defence that stays
//    on its boards keeps the multiverse small, and in practice it is the usual refutation;
//    measured on brawn-tactics-2, no mate in 4: 1,847 -> 383 nodes).
// Within a stage the enumeration order (ActionList index) decides. Before the node is listed
// (and at nodes never listed: attacker nodes with r = 1, wide nodes), first_tries() is the
// stage of the ply's killers and recent deciding actions, each searched if it is legal here. Children the table already
// decided (the enhanced transposition cutoff, Searcher::table_cutoff()) are skipped and never
// yielded. The stages are one score per action (hint, killer and check or jump weights that do
// not overlap), sorted once: the order is fixed for a position and its statistics, so the
// answer does not depend on the thread count.
//
// A picker lives on the stack of one node and works in the ply's ActionList and its order
// buffer, which keep their capacity: it allocates nothing. A node too wide to list is not
// picked here: stream() (stream.cpp) searches its actions in the enumeration's order.

#include <climits>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "solver/history.h"
#include "solver/killers.h"

namespace fived::solver {

class NodePicker {
public:
    // The stages, in the order next() yields them. Skipped: decided by the table, never yielded.
    enum class Stage : std::uint8_t {
        HINT,
        KILLER,
        PREFERRED, // attacker: gives check; defender: no jump
        REST,
        SKIPPED
    };

    // The score weights: each stage's outweighs every later one's (a killer scores at most
    // 2 * KillerWeight; CheckWeight and JumpWeight stay below KillerWeight for actions of fewer
    // than 64 jumps).
    static constexpr std::int32_t HintWeight   = 1 << 20;
    static constexpr std::int32_t KillerWeight = 1 << 16;
    static constexpr std::int32_t CheckWeight  = 1 << 10;
    static constexpr std::int32_t JumpWeight   = 1 << 10;
    static constexpr std::int32_t Skipped      = INT_MIN;
    // Room for first_tries().
    static constexpr std::size_t MaxFirstTries = 2 + RecentActions::Slots;

    // The stage before a node is listed (Searcher::killers_first(), attack_last(),
    // narrow_checks_streamed()): the ply's two killers, each searched if it is legal here, then,
    // at a defender node or an attacker node with r = 1, the ply's recent deciding actions not
    // among them (the refutations, or the mates of r = 1 nodes; Killers::first_tries()). Fills
    // `out` (room for MaxFirstTries) and returns how many; some may be empty (no killer yet).
    static std::size_t first_tries(
        const Killers& killers, int ply, bool attacker, int bound, const std::vector<Move>** out);

    // The picker of the node at `ply` whose actions are in `list` (attacker to move or not);
    // `hint` is the table's action_hint for the node (0: none).
    NodePicker(
        ActionList& list, const Killers& killers, int ply, bool attacker, std::uint32_t hint) :
        list_(list),
        killers_(killers), ply_(ply), attacker_(attacker), hint_(hint) { }

    // Scoring, once per action before order(): score(i) places action i by its stage, skip(i)
    // leaves it out (decided by the table, or answered by the narrow checks).
    void score(std::size_t i) {
        ActionList::Ref&      ref = list_.ref(i);
        std::span<const Move> a   = list_.action(i);
        std::int32_t          s   = 0;
        if (hint_ && action_hint(ref.child) == hint_) s += HintWeight;
        s += killers_.score(ply_, a) * KillerWeight;
        if (attacker_) {
            if (ref.check) s += CheckWeight;
        } else {
            for (const Move& m : a)
                if (!m.is_physical()) s -= JumpWeight;
        }
        ref.score = s;
    }
    void skip(std::size_t i) { list_.ref(i).score = Skipped; }
    bool skipped(std::size_t i) const { return list_.ref(i).score == Skipped; }

    // Sorts the scored actions into the stage order; next() then starts from the first.
    void order() {
        list_.sort_by_score();
        pos_ = 0;
    }
    // The next action to search (its index in the list), skipping the skipped ones; false when
    // none is left.
    bool next(std::uint32_t& i) {
        const std::span<const std::uint32_t> order = list_.ordered();
        while (pos_ < order.size()) {
            i = order[pos_++];
            if (list_.ref(i).score != Skipped) return true;
        }
        return false;
    }
    // The action next() returned last and those after it, in order (skipped ones included:
    // the caller tests skipped()); what a parallel split hands to its tasks.
    std::span<const std::uint32_t> from_current() const {
        return list_.ordered().subspan(pos_ == 0 ? 0 : pos_ - 1);
    }

    // Action i's stage (for tests and diagnostics; next() does not need it).
    Stage             stage(std::size_t i) const;
    bool              attacker() const { return attacker_; }
    const ActionList& actions() const { return list_; }

private:
    ActionList&    list_;
    const Killers& killers_;
    int            ply_;
    bool           attacker_;
    std::uint32_t  hint_;
    std::size_t    pos_ = 0;
};

} // namespace fived::solver
