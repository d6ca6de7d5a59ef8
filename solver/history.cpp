#include "solver/history.h"

#include <algorithm>

#include <xxhash.h>

namespace fived::solver {

using detail::same_action;

// --- ActionList --------------------------------------------------------------------------------

void ActionList::add(std::span<const Move> a, Key child, bool check) {
    Ref r;
    r.begin = std::uint32_t(moves.size());
    r.size  = std::uint32_t(a.size());
    r.child = child;
    r.check = check;
    moves.insert(moves.end(), a.begin(), a.end());
    order.push_back(std::uint32_t(refs.size()));
    refs.push_back(r);
}

void ActionList::sort_by_score() {
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return refs[a].score != refs[b].score ? refs[a].score > refs[b].score : a < b;
    });
}

std::uint64_t move_hash(const Move& m, std::uint64_t seed) {
    const std::uint64_t fromTo = (std::uint64_t(m.from.raw()) << 32) | m.to.raw();
    return XXH3_64bits_withSeed(&fromTo, sizeof fromTo, seed);
}

std::uint64_t action_id(std::span<const Move> a) {
    std::uint64_t id = 0;
    for (const Move& m : a)
        id += move_hash(m, m.promotion);
    return id | 1;
}

int action_part(std::span<const Move> a, int parts) {
    // action_id()'s low bit is always set: a finalizer (splitmix64's) spreads every bit before
    // the remainder picks the part.
    std::uint64_t z = action_id(a);
    z               = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z               = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return int(z % std::uint64_t(std::max(parts, 1)));
}

const CandidateHistory::Entry* CandidateHistory::find(std::uint64_t id) const {
    for (const Entry& e : entries)
        if (e.id == id) return &e;
    return nullptr;
}

int CandidateHistory::score(std::uint64_t id) const {
    const Entry* e = find(id);
    return e ? e->score : 0;
}

int CandidateHistory::lead(std::uint64_t id) const {
    const Entry* e = find(id);
    return e && e->score > 0 ? e->round : 0;
}

void CandidateHistory::add(std::uint64_t id, int delta, int round) {
    Entry* slot = &entries[0];
    for (Entry& e : entries) {
        if (e.id == id) {
            slot = &e;
            break;
        }
        if (e.used < slot->used) slot = &e; // the least recently used (or an empty one)
    }
    if (slot->id != id) *slot = Entry{id, 0, 0, 0};
    slot->score += delta;
    if (delta > 0) slot->round = round;
    slot->used = ++tick;
}

void RecentActions::use(std::span<const Move> a) {
    std::size_t i = 0;
    while (i < n && !same_action(a, slots[i]))
        ++i;
    if (i == n) { // new: a free slot, or the oldest, takes it
        if (n < Slots) ++n;
        i = n - 1;
        slots[i].assign(a.begin(), a.end());
    }
    const auto first = slots.begin();
    std::rotate(first, first + std::ptrdiff_t(i), first + std::ptrdiff_t(i) + 1);
}

} // namespace fived::solver
