// What a split's workers share (solver/split.cpp): the blocks of children they take
// (SplitBlocks), the blocks of a wide node's walk its walkers claim (BlockClaims), and the killers
// with the recent actions they pass on (Killers::copy_from, Killers::merge_from).
#include <algorithm>
#include <random>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "solver/killers.h"
#include "solver/split_blocks.h"

namespace fived::solver {
namespace {

using movegen::Vec4;

std::vector<Move> act(int square) { return {Move{Vec4(0, 2, square), Vec4(0, 2, square + 1)}}; }

// Every position is taken exactly once, whatever order the workers come in.
TEST(SplitBlocks, EveryPositionIsTakenOnce) {
    std::mt19937 rng(7);
    for (std::size_t n = 0; n <= 40; ++n) {
        for (std::size_t workers = 1; workers <= 5; ++workers) {
            for (int round = 0; round < 20; ++round) {
                SplitBlocks blocks;
                blocks.reset(n, workers);
                std::vector<std::size_t> taken;
                std::vector<bool>        done(workers, false);
                std::size_t              left = workers;
                while (left > 0) {
                    const std::size_t w = rng() % workers;
                    if (done[w]) continue;
                    std::size_t pos   = 0;
                    bool        fresh = false;
                    if (!blocks.take(w, pos, fresh)) {
                        done[w] = true;
                        --left;
                        continue;
                    }
                    taken.push_back(pos);
                }
                std::sort(taken.begin(), taken.end());
                ASSERT_EQ(taken.size(), n) << "n " << n << ", " << workers << " workers";
                for (std::size_t i = 0; i < n; ++i)
                    ASSERT_EQ(taken[i], i) << "n " << n << ", " << workers << " workers";
            }
        }
    }
}

// A class walk's patterns are taken from both ends in turn, each once (a pattern never taken
// would be searched by no share: a wrong "no mate").
TEST(SplitBlocks, BothEndsTakesEveryShareOnce) {
    EXPECT_EQ(both_ends(0, 8), 0);
    EXPECT_EQ(both_ends(1, 8), 7);
    EXPECT_EQ(both_ends(2, 8), 1);
    EXPECT_EQ(both_ends(7, 8), 4);
    for (int parts = 1; parts <= 64; ++parts) {
        std::vector<int> seen(std::size_t(parts), 0);
        for (int taken = 0; taken < parts; ++taken) {
            const int part = both_ends(taken, parts);
            ASSERT_GE(part, 0) << parts;
            ASSERT_LT(part, parts) << parts;
            ++seen[std::size_t(part)];
        }
        for (int part = 0; part < parts; ++part)
            EXPECT_EQ(seen[std::size_t(part)], 1) << "share " << part << " of " << parts;
    }
}

// Walkers walking the same blocks in order, each claiming each block it reaches: every block is
// claimed by exactly one walker, whichever starts first or runs faster, and a walker alone
// claims them all (one thread: the serial search).
TEST(BlockClaims, EveryBlockHasExactlyOneWalker) {
    constexpr std::uint64_t Blocks = 2000;
    for (std::size_t walkers = 1; walkers <= 4; ++walkers) {
        for (unsigned round = 0; round < 5; ++round) {
            BlockClaims                             claims;
            std::vector<std::vector<std::uint64_t>> mine(walkers);
            std::vector<int>                        gaps(walkers, 0);
            std::vector<std::thread>                threads;
            for (std::size_t w = 0; w < walkers; ++w)
                threads.emplace_back([&, w] {
                    std::mt19937 rng(round * 10 + unsigned(w));
                    for (std::uint64_t b = 0; b < Blocks; ++b) {
                        const BlockClaims::Claim c = claims.claim(b);
                        if (c == BlockClaims::Claim::GAP) ++gaps[w];
                        if (c != BlockClaims::Claim::MINE) continue;
                        mine[w].push_back(b);
                        if (rng() % 8 == 0) std::this_thread::yield(); // a block searched
                    }
                });
            for (std::thread& t : threads)
                t.join();
            std::vector<int> owners(Blocks, 0);
            for (std::size_t w = 0; w < walkers; ++w) {
                EXPECT_EQ(gaps[w], 0);
                for (const std::uint64_t b : mine[w])
                    ++owners[b];
            }
            for (std::uint64_t b = 0; b < Blocks; ++b)
                ASSERT_EQ(owners[b], 1) << "block " << b << ", " << walkers << " walkers";
            if (walkers == 1) {
                EXPECT_EQ(mine[0].size(), Blocks);
            }
        }
    }
}

// A walker that arrives at a block before the one ahead of it was claimed skipped a block (its
// walk differs from the others'): told so, and the block stays unclaimed for no one.
TEST(BlockClaims, ABlockSkippedIsAGap) {
    BlockClaims claims;
    EXPECT_EQ(claims.claim(0), BlockClaims::Claim::MINE);
    EXPECT_EQ(claims.claim(0), BlockClaims::Claim::TAKEN); // a second walker at block 0
    EXPECT_EQ(claims.claim(2), BlockClaims::Claim::GAP);   // block 1 never reached
    EXPECT_EQ(claims.claim(1), BlockClaims::Claim::MINE);
    EXPECT_EQ(claims.claim(2), BlockClaims::Claim::MINE);
}

// A worker walks its own block front first; when it is empty it takes the back half of the
// largest block left, and is told the position starts elsewhere.
TEST(SplitBlocks, AWorkerWalksItsBlockThenTakesTheBackHalfOfTheLargest) {
    SplitBlocks blocks;
    blocks.reset(10, 2); // worker 0: 0..4, worker 1: 5..9
    std::size_t pos   = 0;
    bool        fresh = false;
    ASSERT_TRUE(blocks.take(1, pos, fresh));
    EXPECT_EQ(pos, 5u);
    EXPECT_FALSE(fresh);
    for (std::size_t i = 0; i < 5; ++i) {
        ASSERT_TRUE(blocks.take(0, pos, fresh));
        EXPECT_EQ(pos, i);
        EXPECT_FALSE(fresh);
    }
    // Worker 1 has 6..9 left: worker 0 takes 8 and 9.
    ASSERT_TRUE(blocks.take(0, pos, fresh));
    EXPECT_EQ(pos, 8u);
    EXPECT_TRUE(fresh);
    fresh = false;
    ASSERT_TRUE(blocks.take(0, pos, fresh));
    EXPECT_EQ(pos, 9u);
    EXPECT_FALSE(fresh);
    ASSERT_TRUE(blocks.take(1, pos, fresh));
    EXPECT_EQ(pos, 6u);
    ASSERT_TRUE(blocks.take(1, pos, fresh));
    EXPECT_EQ(pos, 7u);
    // The last one of a block of one goes whole.
    EXPECT_FALSE(blocks.take(1, pos, fresh));
    EXPECT_FALSE(blocks.take(0, pos, fresh));
}

TEST(SplitBlocks, MoreWorkersThanPositions) {
    SplitBlocks blocks;
    blocks.reset(2, 4);
    std::vector<std::size_t> taken;
    std::size_t              pos   = 0;
    bool                     fresh = false;
    for (std::size_t w = 0; w < 4; ++w)
        while (blocks.take(w, pos, fresh))
            taken.push_back(pos);
    std::sort(taken.begin(), taken.end());
    EXPECT_EQ(taken, (std::vector<std::size_t>{0, 1}));
}

// A worker starts with the parent's killers and recent actions; what it learnt goes back, its
// most recent first.
TEST(Killers, CopyAndMergeCarryTheRecentActions) {
    Killers parent, worker;
    parent.resize(4);
    worker.resize(4);
    parent.decided_by(2, act(9), true);
    parent.decided_by(2, act(10), true);
    parent.decided_by(2, act(11), true);
    parent.decided_by(1, act(12), true); // the split node's own ply: not copied
    worker.copy_from(parent, 2);
    const std::vector<Move>* tries[2 + RecentActions::Slots];
    ASSERT_EQ(worker.first_tries(2, true, tries), 3u); // the killers, then the recent act(9)
    EXPECT_EQ(*tries[0], act(11));
    EXPECT_EQ(*tries[1], act(10));
    EXPECT_EQ(*tries[2], act(9));
    EXPECT_EQ(worker.first_tries(1, true, tries), 2u);
    EXPECT_TRUE(tries[0]->empty()) << "the plies before the split's children are not copied";

    // The worker refutes with three more actions at ply 2; the parent meanwhile learnt another.
    worker.decided_by(2, act(20), true);
    worker.decided_by(2, act(21), true);
    worker.decided_by(2, act(22), true);
    parent.decided_by(2, act(30), true);
    parent.merge_from(worker, 2);
    EXPECT_EQ(parent.first(2), act(22));
    const std::size_t              n = parent.first_tries(2, true, tries);
    std::vector<std::vector<Move>> order;
    for (std::size_t i = 0; i < n; ++i)
        order.push_back(*tries[i]);
    // Killers act(22) and act(30) (the parent's first before the merge), then the recent ones:
    // the worker's, most recent first, then the parent's own.
    const std::vector<std::vector<Move>> expected{
        act(22), act(30), act(21), act(20), act(11), act(10), act(9)};
    EXPECT_EQ(order, expected);
}

} // namespace
} // namespace fived::solver
