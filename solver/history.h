#pragma once
// Ordering statistics of the search, data with no search in them (as Stockfish's history.h):
// the legal actions of a node stored flat with their ordering scores (ActionList), the last
// actions that decided nodes of a ply (RecentActions), how the narrow rounds' candidates fared
// at sibling nodes (CandidateHistory), and the hashes that name an action (action_hint from
// the key it leads to, action_id from its moves).

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "movegen/types.h"

namespace fived::solver {

using movegen::Key;
using movegen::Move;

namespace detail {
inline bool same_action(std::span<const Move> a, const std::vector<Move>& b) {
    return !b.empty() && std::equal(a.begin(), a.end(), b.begin(), b.end());
}
} // namespace detail

// 32-bit fingerprint of an action, taken from the key of the position it leads to (0 = none).
inline std::uint32_t action_hint(Key childKey) {
    const auto h = std::uint32_t(childKey ^ (childKey >> 32));
    return h ? h : 1;
}

// The legal actions of one node, stored flat: moves of action i are
// moves[refs[i].begin, refs[i].begin + refs[i].size). Buffers keep their capacity across nodes,
// so after warm-up collecting allocates nothing.
class ActionList {
public:
    struct Ref {
        std::uint32_t begin = 0;
        std::uint32_t size  = 0;
        Key           child = 0;      // key of the position after the action
        std::int32_t  score = 0;      // ordering score, higher first
        bool          check = false;  // leaves the opponent in check (attacker nodes only)
        std::uint32_t pn = 1, dn = 1; // df-pn: the child's current numbers
    };

    void clear() {
        moves.clear();
        refs.clear();
        order.clear();
    }
    void                  add(std::span<const Move> a, Key child, bool check);
    std::size_t           size() const { return refs.size(); }
    bool                  empty() const { return refs.empty(); }
    const Ref&            ref(std::size_t i) const { return refs[i]; }
    Ref&                  ref(std::size_t i) { return refs[i]; }
    std::span<const Move> action(std::size_t i) const {
        return {moves.data() + refs[i].begin, refs[i].size};
    }
    // Sorts order[] by score (descending), ties by enumeration index: deterministic.
    void                           sort_by_score();
    std::span<const std::uint32_t> ordered() const { return order; }

private:
    std::vector<Move>          moves;
    std::vector<Ref>           refs;
    std::vector<std::uint32_t> order;
};

// The last distinct actions used, most recent first, at most Slots of them. The slots are
// swapped, never reallocated, once they have held actions as large (reserve()).
// 32: the mates of cwmtt-ctp2 --at -3's 25,528 defences after the key are a few dozen actions
// used in turn, and with 8 slots the proof re-found the ones that had fallen out (451,329 nodes,
// 14-20 s) where 32 keep them (172,498 nodes, 8 s). The tree's hints are RecentActions too
// (SolveOptions::answerChunk).
class RecentActions {
public:
    static constexpr std::size_t Slots = 32;
    void                         reserve(std::size_t moves) {
                                for (auto& s : slots)
            s.reserve(moves);
    }
    void clear() { n = 0; }
    // Puts a first (moving it up if present, else in place of the oldest when full).
    void                               use(std::span<const Move> a);
    std::span<const std::vector<Move>> items() const { return {slots.data(), n}; }

private:
    std::array<std::vector<Move>, Slots> slots;
    std::size_t                          n = 0;
};

// How the candidates of Searcher's narrow rounds (by an id of their action) fared at sibling
// nodes of one ply, for the last Slots of them: a refutation scores 2, a budget run out (or a
// defence proved lost) while another candidate refuted scores -1. The same defence usually fares
// the same way after the next key (cwmtt-standard --at -5: the completion of the ply's killer, a
// quiet action, ran out of 292,000 nodes on key after key before the second candidate refuted).
// Candidates are searched by score, and one with a positive score starts with the budget of
// the round it last refuted in (there, a check refuted key after key in the third round,
// after 36,000 nodes in the first two, and another check spent as many before it). Measured
// there, keys refuted within 6M nodes (rounds of 4,000, 32,000, 256,000): 1,167 without the
// history, 1,508 with the scores, 1,630 with the leads too.
class CandidateHistory {
public:
    static constexpr std::size_t Slots = 32;

    int score(std::uint64_t id) const;
    // With a positive score: the round of its last refutation (its budget then), else 0.
    int  lead(std::uint64_t id) const;
    void add(std::uint64_t id, int delta, int round = 0);

private:
    struct Entry {
        std::uint64_t id    = 0; // 0: empty
        int           score = 0;
        int           round = 0; // of its last refutation
        std::uint64_t used  = 0; // tick of the last add()
    };
    const Entry*             find(std::uint64_t id) const;
    std::array<Entry, Slots> entries{};
    std::uint64_t            tick = 0;
};

// A move's from and to, hashed (XXH3 with seed 0 is XXH3_64bits). Summed over a set of moves, so
// the order of the moves does not matter.
std::uint64_t move_hash(const Move& m, std::uint64_t seed = 0);
// An id of an action from its moves, whatever their order; never 0 (the empty slot).
std::uint64_t action_id(std::span<const Move> a);
// The part (0 .. parts - 1) an action belongs to in a root split by hash (`fived solve --shard`
// of a root too wide to list): action_id() mixed, modulo `parts`. The same on every machine.
int action_part(std::span<const Move> a, int parts);

} // namespace fived::solver
