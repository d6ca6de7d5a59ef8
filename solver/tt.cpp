#include "solver/tt.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace fived::solver {

namespace {

constexpr std::uint64_t Occupied = std::uint64_t(1) << 63;

int work_of(std::uint64_t nodes) { return std::min(63, int(std::bit_width(nodes))); }

} // namespace

std::uint64_t TTData::pack() const {
    const std::uint64_t p = proven == None ? 0 : std::uint64_t(proven + 1) & 0xFF;
    const std::uint64_t d = disproven < 0 ? 0 : std::uint64_t(std::min(disproven, 253) + 1);
    return std::uint64_t(hint) | (p << 32) | (d << 40) | (std::uint64_t(work & 63) << 48)
        | (std::uint64_t(age & 63) << 54) | Occupied;
}

TTData TTData::unpack(std::uint64_t d) {
    TTData t;
    t.hint        = std::uint32_t(d);
    const int p   = int((d >> 32) & 0xFF);
    const int dis = int((d >> 40) & 0xFF);
    t.proven      = p == 0 ? None : p - 1;
    t.disproven   = dis - 1;
    t.work        = int((d >> 48) & 63);
    t.age         = int((d >> 54) & 63);
    return t;
}

void ZeroedClusters::Free::operator()(void* p) const noexcept { std::free(p); }

bool ZeroedClusters::allocate(std::size_t n) {
    reset();
    if (n > (SIZE_MAX - sizeof(TTCluster)) / sizeof(TTCluster)) return false;
    // One cluster more, to align the start on a cache line.
    raw.reset(std::calloc(n + 1, sizeof(TTCluster)));
    if (!raw) return false;
    const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(raw.get());
    const std::uintptr_t aligned =
        (a + alignof(TTCluster) - 1) & ~std::uintptr_t(alignof(TTCluster) - 1);
    data = reinterpret_cast<TTCluster*>(aligned);
    return true;
}

void ZeroedClusters::reset() {
    raw.reset();
    data = nullptr;
}

bool TranspositionTable::resize_clusters(std::size_t clusters) {
    clusterCount = 0;
    generation   = 0;
    if (clusters == 0) clusters = 1;
    if (!table.allocate(clusters)) return false;
    clusterCount = clusters;
    return true;
}

bool TranspositionTable::resize_mb(std::size_t mb) {
    return resize_clusters(std::max<std::size_t>(1, (mb << 20) / sizeof(Cluster)));
}

void TranspositionTable::clear() {
    if (table) std::memset(static_cast<void*>(table.get()), 0, clusterCount * sizeof(Cluster));
    generation = 0;
}

std::optional<TTData> TranspositionTable::probe(Key key) const {
    if (!table) return std::nullopt;
    Cluster& c = cluster_of(key);
    for (Entry& e : c.entry) {
        const std::uint64_t d = std::atomic_ref(e.data).load(std::memory_order_relaxed);
        if (d != 0 && (std::atomic_ref(e.check).load(std::memory_order_relaxed) ^ d) == key)
            return TTData::unpack(d);
    }
    return std::nullopt;
}

void TranspositionTable::store_proof(Key key, int r, std::uint32_t hint, std::uint64_t nodes) {
    TTData t;
    t.proven = r;
    t.hint   = hint;
    t.work   = work_of(nodes);
    store(key, t);
}

void TranspositionTable::store_disproof(Key key, int r, std::uint32_t hint, std::uint64_t nodes) {
    TTData t;
    t.disproven = r;
    t.hint      = hint;
    t.work      = work_of(nodes);
    store(key, t);
}

void TranspositionTable::store(Key key, const TTData& add) {
    if (!table) return;
    Cluster& c      = cluster_of(key);
    Entry*   victim = nullptr;
    int      worst  = 1 << 30;
    TTData   merged = add;
    for (Entry& e : c.entry) {
        const std::uint64_t d = std::atomic_ref(e.data).load(std::memory_order_relaxed);
        if (d == 0) {
            if (worst > -(1 << 20)) {
                worst  = -(1 << 20); // an empty entry is the best victim
                victim = &e;
            }
            continue;
        }
        if ((std::atomic_ref(e.check).load(std::memory_order_relaxed) ^ d) == key) {
            // Same position: merge the facts (both are true, so the union is).
            const TTData old = TTData::unpack(d);
            merged.proven    = std::min(old.proven, add.proven);
            merged.disproven = std::max(old.disproven, add.disproven);
            if (add.hint == 0) merged.hint = old.hint;
            merged.work = std::max(old.work, add.work);
            victim      = &e;
            break;
        }
        const TTData old   = TTData::unpack(d);
        const int    age   = (generation - old.age) & 63;
        int          value = old.work - 8 * age;
        if (old.proven != TTData::None) value += 4; // proofs are the expensive facts
        if (value < worst) {
            worst  = value;
            victim = &e;
        }
    }
    merged.age            = generation;
    const std::uint64_t d = merged.pack();
    // Write data first, then check: a reader that sees a mix of old and new fails the XOR test.
    std::atomic_ref(victim->data).store(d, std::memory_order_relaxed);
    std::atomic_ref(victim->check).store(key ^ d, std::memory_order_relaxed);
}

int TranspositionTable::hashfull() const {
    if (!table) return 0;
    const std::size_t n    = std::min<std::size_t>(clusterCount, 1000);
    std::size_t       used = 0;
    for (std::size_t i = 0; i < n; ++i)
        for (Entry& e : table[i].entry)
            used += std::atomic_ref(e.data).load(std::memory_order_relaxed) != 0;
    return int(used * 1000 / (n * 4));
}

// --- PnTable --------------------------------------------------------------------------------

bool PnTable::resize_mb(std::size_t mb) {
    clusterCount = 0;
    const std::size_t n =
        std::max<std::size_t>(1, (mb << 20) / sizeof(TranspositionTable::Cluster));
    if (!table.allocate(n)) return false;
    clusterCount = n;
    return true;
}

void PnTable::clear() {
    if (table)
        std::memset(
            static_cast<void*>(table.get()), 0, clusterCount * sizeof(TranspositionTable::Cluster));
}

bool PnTable::probe(Key key, int bound, std::uint32_t& pn, std::uint32_t& dn) const {
    if (!table) return false;
    const Key k = salted(key, bound);
    for (TranspositionTable::Entry& e : cluster_of(k).entry) {
        const std::uint64_t d = std::atomic_ref(e.data).load(std::memory_order_relaxed);
        if (d != 0 && (std::atomic_ref(e.check).load(std::memory_order_relaxed) ^ d) == k) {
            pn = std::uint32_t(d >> 32);
            dn = std::uint32_t(d);
            return true;
        }
    }
    return false;
}

void PnTable::store(Key key, int bound, std::uint32_t pn, std::uint32_t dn) {
    if (!table) return;
    const Key                  k      = salted(key, bound);
    TranspositionTable::Entry* victim = nullptr;
    std::uint64_t              least  = UINT64_MAX;
    for (TranspositionTable::Entry& e : cluster_of(k).entry) {
        const std::uint64_t d = std::atomic_ref(e.data).load(std::memory_order_relaxed);
        if (d != 0 && (std::atomic_ref(e.check).load(std::memory_order_relaxed) ^ d) == k) {
            victim = &e;
            break;
        }
        // Evict the entry with the smallest numbers (the cheapest to re-derive); empty first.
        const std::uint64_t size = d == 0 ? 0 : (d >> 32) + (d & 0xFFFFFFFFu);
        if (size < least) {
            least  = size;
            victim = &e;
        }
    }
    const std::uint64_t d =
        (std::uint64_t(std::max<std::uint32_t>(pn, 1)) << 32) | std::max<std::uint32_t>(dn, 1);
    std::atomic_ref(victim->data).store(d, std::memory_order_relaxed);
    std::atomic_ref(victim->check).store(k ^ d, std::memory_order_relaxed);
}

} // namespace fived::solver
