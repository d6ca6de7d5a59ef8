#include "solver/killers.h"

#include <algorithm>
#include <utility>

namespace fived::solver {

using detail::same_action;

void Killers::resize(std::size_t plies) {
    slots.resize(2 * plies);
    costs.assign(2 * plies, 0);
    recent.resize(plies);
    for (auto& m : recent)
        m.reserve(16);
    // Room for the usual action (set() copies into these and never swaps them, so each grows
    // only to the largest action it held).
    for (auto& k : slots)
        k.reserve(16);
}

void Killers::clear() {
    for (auto& k : slots)
        k.clear();
    std::fill(costs.begin(), costs.end(), 0);
    for (auto& m : recent)
        m.clear();
}

void Killers::set(int ply, std::span<const Move> a) {
    std::vector<Move>& k0 = slots[2 * std::size_t(ply)];
    std::vector<Move>& k1 = slots[2 * std::size_t(ply) + 1];
    if (same_action(a, k0)) return;
    std::uint64_t* cost = &costs[2 * std::size_t(ply)];
    if (same_action(a, k1)) { // also when a is k1 itself, which the copies below would clobber
        std::swap(k0, k1);
        std::swap(cost[0], cost[1]);
        return;
    }
    k1.assign(k0.begin(), k0.end());
    k0.assign(a.begin(), a.end());
    cost[1] = cost[0];
    cost[0] = 0;
}

void Killers::decided_by(int ply, std::span<const Move> a, bool keepRecent) {
    set(ply, a);
    if (keepRecent) recent[std::size_t(ply)].use(slots[2 * std::size_t(ply)]);
}

std::size_t Killers::first_tries(int ply, bool withRecent, const std::vector<Move>** out) const {
    const std::vector<Move>& k0 = first(ply);
    const std::vector<Move>& k1 = second(ply);
    std::size_t              n  = 0;
    out[n++]                    = &k0;
    out[n++]                    = &k1;
    if (withRecent)
        for (const std::vector<Move>& a : recent[std::size_t(ply)].items())
            if (!same_action(a, k0) && !same_action(a, k1)) out[n++] = &a;
    return n;
}

int Killers::score(int ply, std::span<const Move> a) const {
    if (same_action(a, first(ply))) return 2;
    if (same_action(a, second(ply))) return 1;
    return 0;
}

void Killers::copy_from(const Killers& other, int ply) {
    for (std::size_t k = 2 * std::size_t(ply); k < slots.size(); ++k) {
        slots[k].assign(other.slots[k].begin(), other.slots[k].end());
        costs[k] = other.costs[k];
    }
    for (std::size_t p = std::size_t(ply); p < recent.size(); ++p)
        recent[p] = other.recent[p];
}

void Killers::merge_from(const Killers& other, int ply) {
    for (std::size_t p = std::size_t(ply); 2 * p + 1 < slots.size(); ++p) {
        const std::vector<Move>& k0 = other.slots[2 * p];
        if (!k0.empty()) set(int(p), k0);
        // The other's recent actions, its most recent ending first.
        const std::span<const std::vector<Move>> items = other.recent[p].items();
        for (std::size_t i = items.size(); i-- > 0;)
            recent[p].use(items[i]);
    }
}

} // namespace fived::solver
