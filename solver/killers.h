#pragma once
// The killer table of one searcher: per ply, the two actions that last decided one of its nodes
// (the first slot the most recent), the node cost of each slot's last refutation at a defender
// node with k = 1, and the ply's last distinct deciding actions (RecentActions). Data the search
// consults to order a node's tries (Searcher::killers_first(), stream(), the narrow rounds); it
// searches nothing itself. Every buffer keeps its capacity, so after warm-up nothing allocates.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "movegen/types.h"
#include "solver/history.h"

namespace fived::solver {

class Killers {
public:
    // Room for plies 0 .. plies - 1.
    void        resize(std::size_t plies);
    std::size_t plies() const { return recent.size(); }
    void        clear();

    const std::vector<Move>& first(int ply) const { return slots[2 * std::size_t(ply)]; }
    const std::vector<Move>& second(int ply) const { return slots[2 * std::size_t(ply) + 1]; }
    // The ply's two costs (first slot, second slot): nodes of the slot's last refutation at a
    // defender node with k = 1 (0: none). Swapped with the slots.
    std::uint64_t*       cost(int ply) { return &costs[2 * std::size_t(ply)]; }
    const std::uint64_t* cost(int ply) const { return &costs[2 * std::size_t(ply)]; }

    // `a` decided a node at `ply`: it becomes the first killer (the first moves to second).
    void set(int ply, std::span<const Move> a);
    // set(), and with `keepRecent` (a defender node, or an attacker node with r = 1) the most
    // recent of the ply's recent actions.
    void decided_by(int ply, std::span<const Move> a, bool keepRecent);
    // The ply's two killers, then (withRecent) its recent actions not among them, into `out`
    // (room for 2 + RecentActions::Slots); returns how many.
    std::size_t first_tries(int ply, bool withRecent, const std::vector<Move>** out) const;
    // 2 for the first killer, 1 for the second, else 0.
    int score(int ply, std::span<const Move> a) const;
    // Killers of plies >= ply, with the recent actions: replaced by another searcher's, or
    // merged from them (their first slot becomes this one's first, their recent actions the most
    // recent here). A split's workers share the recent refutations so: without them a worker on
    // a leased searcher met each defence's usual mate anew (slavrick writenwrong --at -5 --mate
    // 3, searched in splits by one worker: 3.07M nodes instead of the serial search's 1.64M;
    // with them, 1.64M).
    void copy_from(const Killers& other, int ply);
    void merge_from(const Killers& other, int ply);

private:
    std::vector<std::vector<Move>> slots; // per ply, two: 2 * ply, 2 * ply + 1
    std::vector<std::uint64_t>     costs; // per slot
    // Per ply: the last distinct actions that decided one of its nodes, tried after the two
    // killers (first_tries()). At an attacker ply the mates of nodes with r = 1: in a wide
    // defender node the defences share a few dozen mating answers, more than two (cwmtt-ctp2
    // --at -3: 25,528 defences after the key). At a defender ply the refutations: facing a threat
    // most defences lose to the mate in one, and the refutation is usually one met before.
    std::vector<RecentActions> recent;
};

} // namespace fived::solver
