// The transposition table: packing, merging, and forced collisions (every key in one cluster)
// that must never hand one position's entry to another.
#include <random>

#include <gtest/gtest.h>

#include "solver/tt.h"

namespace fived::solver {
namespace {

TEST(TTData, PackUnpackRoundTrip) {
    TTData t;
    t.proven       = 3;
    t.disproven    = 2;
    t.hint         = 0xDEADBEEF;
    t.work         = 17;
    t.age          = 5;
    const TTData u = TTData::unpack(t.pack());
    EXPECT_EQ(u.proven, 3);
    EXPECT_EQ(u.disproven, 2);
    EXPECT_EQ(u.hint, 0xDEADBEEFu);
    EXPECT_EQ(u.work, 17);
    EXPECT_EQ(u.age, 5);
    EXPECT_NE(TTData{}.pack(), 0u) << "a used entry must never look empty";
    const TTData none = TTData::unpack(TTData{}.pack());
    EXPECT_EQ(none.proven, TTData::None);
    EXPECT_EQ(none.disproven, -1);
}

TEST(TranspositionTable, EmptyTableMissesEveryKeyIncludingZero) {
    TranspositionTable tt;
    ASSERT_TRUE(tt.resize_clusters(4));
    EXPECT_FALSE(tt.probe(0));
    EXPECT_FALSE(tt.probe(12345));
}

TEST(TranspositionTable, FactsMerge) {
    TranspositionTable tt;
    ASSERT_TRUE(tt.resize_mb(1));
    tt.store_disproof(42, 1, 7, 10);
    tt.store_proof(42, 3, 9, 100);
    tt.store_disproof(42, 2, 0, 10);
    const auto e = tt.probe(42);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->proven, 3);
    EXPECT_EQ(e->disproven, 2);
    EXPECT_EQ(e->hint, 9u);
    tt.store_proof(42, 2, 0, 1); // a shorter proof replaces the longer one
    EXPECT_EQ(tt.probe(42)->proven, 2);
}

// One cluster for every key: four entries, thousands of positions. Each stored fact is a
// function of its key, so any answer can be checked.
TEST(TranspositionTable, ForcedCollisionsNeverAnswerForAnotherKey) {
    TranspositionTable tt;
    ASSERT_TRUE(tt.resize_clusters(1));
    std::mt19937_64            rng(7);
    std::vector<std::uint64_t> keys(5000);
    for (auto& k : keys)
        k = rng();
    auto hint_of = [](std::uint64_t k) {
        return std::uint32_t(k * 0x9E3779B97F4A7C15ull >> 32) | 1;
    };
    std::size_t hits = 0;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const std::uint64_t k = keys[i];
        if (k % 2)
            tt.store_proof(k, int(k % 5), hint_of(k), i);
        else
            tt.store_disproof(k, int(k % 5), hint_of(k), i);
        for (std::size_t j = 0; j <= i; j += 1 + i / 50) {
            const std::uint64_t q = keys[j];
            const auto          e = tt.probe(q);
            if (!e) continue;
            ++hits;
            ASSERT_EQ(e->hint, hint_of(q)) << "entry of another key returned";
            if (q % 2) {
                ASSERT_EQ(e->proven, int(q % 5));
                ASSERT_EQ(e->disproven, -1);
            } else {
                ASSERT_EQ(e->disproven, int(q % 5));
                ASSERT_EQ(e->proven, TTData::None);
            }
        }
        // Keys that were never stored never hit.
        ASSERT_FALSE(tt.probe(k ^ 1));
    }
    EXPECT_GT(hits, 0u);
    EXPECT_EQ(tt.hashfull(), 1000);
}

// A torn entry (check and data from different writes) fails the XOR verification.
TEST(TranspositionTable, TornEntryFailsVerification) {
    TranspositionTable tt;
    ASSERT_TRUE(tt.resize_clusters(1));
    tt.store_proof(1111, 1, 5, 1);
    tt.store_proof(2222, 2, 6, 1);
    // Swap the data words of the two entries, as a racing pair of writers could leave them.
    TranspositionTable::Entry* entries = tt.raw_cluster(0).entry;
    std::swap(entries[0].data, entries[1].data);
    EXPECT_FALSE(tt.probe(1111));
    EXPECT_FALSE(tt.probe(2222));
}

} // namespace
} // namespace fived::solver
