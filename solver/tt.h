#pragma once
// The transposition table of the mate search (STYLE.md §2.7).
//
// A fixed-size array of 64-byte clusters of four 16-byte entries, shared by every search thread
// without locks. Each entry stores `check = key ^ data` next to `data`; a probe accepts an entry
// only if `check ^ data` equals the full 64-bit probe key (the Hyatt/Mann lockless XOR trick).
// A torn write by two racing threads therefore fails verification instead of handing one
// position's facts to another, and an index collision (many keys in one cluster) can only evict
// entries, never answer for the wrong key. Accesses go through std::atomic_ref with relaxed
// order: the races are well-defined and TSan sees them.
//
// What an entry says. The search asks "can the attacker force mate within r more attacker
// actions from this position?" The game graph is a DAG (an action only appends boards), so the
// answer depends on the position and r only, and it is monotone in r:
//   * a proof for r holds for every bound >= r  -> we keep the smallest proven bound;
//   * a disproof for r holds for every bound <= r -> we keep the largest disproven bound.
// Both facts can live in one entry. Positions with the defender to move use the same scale:
// r counts the attacker actions still to come (r = 0: "the defender is mated now").
//
// Replacement: in the probed cluster, an entry of the same key is updated in place (facts are
// merged, never lost); otherwise the entry with the lowest `work - 8 * age` is evicted, where
// work is log2 of the subtree size that produced the entry and age counts new_search() calls.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "movegen/types.h"

namespace fived::solver {

using Key                = movegen::Key;
__extension__ using U128 = unsigned __int128;

// The unpacked content of an entry.
struct TTData {
    static constexpr int None      = 255;
    int                  proven    = None; // smallest r with a forced mate; None if unknown
    int                  disproven = -1;   // largest r without a forced mate; -1 if unknown
    std::uint32_t        hint      = 0;    // fingerprint of the best action (ordering only)
    int                  work      = 0;    // log2 of the nodes spent, 0..63
    int                  age       = 0;    // generation that wrote it, 0..63

    // data bits: 0-31 hint | 32-39 proven+1 (0 = none) | 40-47 disproven+1 (0 = none)
    //            48-53 work | 54-59 generation | 63 occupied (so a used entry is never 0)
    std::uint64_t pack() const;
    static TTData unpack(std::uint64_t d);
};

struct TTEntry {
    std::uint64_t check; // key ^ data
    std::uint64_t data;  // 0 = empty
};
struct alignas(64) TTCluster {
    TTEntry entry[4];
};
static_assert(sizeof(TTCluster) == 64, "one cache line");

// An array of zeroed clusters, cache-line aligned, from calloc: fresh pages come zeroed from
// the system, so allocating is immediate whatever the size (a 3 GB table used to take seconds
// of page faults before the search, and the time limit, began).
class ZeroedClusters {
public:
    bool       allocate(std::size_t n); // false if there is no memory (then empty)
    void       reset();
    TTCluster* get() const { return data; }
    TTCluster& operator[](std::size_t i) const { return data[i]; }
    explicit   operator bool() const { return data != nullptr; }

private:
    struct Free {
        void operator()(void* p) const noexcept;
    };
    std::unique_ptr<void, Free> raw;
    TTCluster*                  data = nullptr;
};

class TranspositionTable {
public:
    using Entry   = TTEntry;
    using Cluster = TTCluster;

    TranspositionTable() = default;
    // Allocates about `mb` megabytes (at least one cluster). Returns false if the allocation
    // failed; the table is then empty and probes miss. The memory comes zeroed from the system
    // (ZeroedClusters), so a large table costs nothing until its pages are first used.
    bool resize_mb(std::size_t mb);
    // Exactly `clusters` clusters (tests use 1 to force every key into one cluster).
    bool resize_clusters(std::size_t clusters);
    void clear();
    // Starts a new search: entries written before age and become cheaper to replace.
    void new_search() { generation = (generation + 1) & 63; }

    std::optional<TTData> probe(Key key) const;
    // Merges a proof (r) into the entry of key, or creates it.
    void store_proof(Key key, int r, std::uint32_t hint, std::uint64_t nodes);
    // Merges a disproof (r) into the entry of key, or creates it.
    void store_disproof(Key key, int r, std::uint32_t hint, std::uint64_t nodes);

    std::size_t cluster_count() const { return clusterCount; }
    std::size_t size_bytes() const { return clusterCount * sizeof(Cluster); }
    // Direct access for tests (torn-write simulation).
    Cluster& raw_cluster(std::size_t i) const { return table[i]; }
    // Per mille of used entries, sampled over the first 1000 clusters.
    int hashfull() const;

private:
    void     store(Key key, const TTData& add);
    Cluster& cluster_of(Key key) const {
        // Multiply-shift: the high 64 bits of key * clusterCount.
        const U128 product = U128(key) * clusterCount;
        return table[std::size_t(product >> 64)];
    }

    ZeroedClusters table;
    std::size_t    clusterCount = 0;
    int            generation   = 0;
};

// Proof and disproof numbers of df-pn nodes that are not decided yet (search.h, dfpn), keyed
// by (position, bound): the same position searched with another bound is another node. Decided
// nodes go to the TranspositionTable as facts. Same layout and lockless verification as above;
// data = pn << 32 | dn with pn, dn >= 1, so a used entry is never 0. A lost or torn entry only
// costs work: df-pn re-derives the numbers from (1, 1).
class PnTable {
public:
    bool resize_mb(std::size_t mb);
    void clear();
    bool probe(Key key, int bound, std::uint32_t& pn, std::uint32_t& dn) const;
    void store(Key key, int bound, std::uint32_t pn, std::uint32_t dn);

private:
    static Key salted(Key key, int bound) {
        return key ^ (std::uint64_t(bound + 1) * 0x9E3779B97F4A7C15ull);
    }
    TranspositionTable::Cluster& cluster_of(Key key) const {
        const U128 product = U128(key) * clusterCount;
        return table[std::size_t(product >> 64)];
    }

    ZeroedClusters table;
    std::size_t    clusterCount = 0;
};

} // namespace fived::solver
