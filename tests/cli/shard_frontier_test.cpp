// The frontier merge's arithmetic (report/shard_frontier.h): what (key, defence) pairs prove of
// their key and of the root, exactly (README "One puzzle on many machines").
#include "report/shard_frontier.h"

#include <gtest/gtest.h>

namespace fived::report {
namespace {

using Res = FrontierItem::Res;

FrontierItem pair(std::int64_t key, Res r, int n) { // n: mate_in (MATE) or no_mate_up_to
    FrontierItem i;
    i.key        = key;
    i.res        = r;
    i.mateIn     = r == Res::MATE ? n : 0;
    i.noMateUpTo = r == Res::MATE ? n - 1 : n;
    return i;
}
FrontierItem alone(std::int64_t key, Res r, int n) {
    FrontierItem i = pair(key, r, n);
    i.rootLevel    = true;
    return i;
}

TEST(ShardFrontier, KeyMatesInOneMoreThanItsLongestDefence) {
    const FrontierItem its[] = {pair(0, Res::MATE, 1), pair(0, Res::MATE, 2)};
    const KeyBound     b     = key_bound(its, 3);
    EXPECT_TRUE(b.mate);
    EXPECT_EQ(b.length, 3);
    EXPECT_EQ(b.excluded, 2);
}

// A part's own result: its unknown items count only where no defence of the part refutes their
// key (the part leaves a refuted key's other defences unsearched).
TEST(ShardFrontier, APartIsUnknownOnlyForKeysNotRefuted) {
    const FrontierItem refuted[] = {
        pair(0, Res::UNKNOWN, 0), pair(0, Res::NO_MATE, 2), pair(0, Res::UNKNOWN, 1)};
    EXPECT_EQ(part_result(refuted), Res::NO_MATE);
    const FrontierItem withMate[] = {
        pair(0, Res::NO_MATE, 2), pair(0, Res::UNKNOWN, 0), pair(1, Res::MATE, 1)};
    EXPECT_EQ(part_result(withMate), Res::MATE);
    // Another key's refutation does not decide this one; nor does a root-level no-mate (the key
    // itself) refute anything but itself.
    const FrontierItem open[] = {pair(0, Res::NO_MATE, 2), pair(1, Res::UNKNOWN, 0)};
    EXPECT_EQ(part_result(open), Res::UNKNOWN);
    const FrontierItem alone0[] = {alone(0, Res::NO_MATE, 3), pair(1, Res::MATE, 1)};
    EXPECT_EQ(part_result(alone0), Res::MATE);
    const FrontierItem unknownMate[] = {pair(0, Res::MATE, 1), pair(0, Res::UNKNOWN, 1)};
    EXPECT_EQ(part_result(unknownMate), Res::UNKNOWN);
    EXPECT_EQ(part_result({}), Res::NO_MATE);
}

TEST(ShardFrontier, OneSurvivingDefenceRefutesTheKey) {
    // A defence with no mate within max - 1: the key does not mate within max, whatever the rest.
    const FrontierItem a[] = {
        pair(0, Res::MATE, 1), pair(0, Res::NO_MATE, 2), pair(0, Res::UNKNOWN, 0)};
    EXPECT_EQ(key_bound(a, 3).excluded, 3);
    EXPECT_FALSE(key_bound(a, 3).mate);
    // Unknown at 1 and a mate in 2: the key needs 3 or more (the mate in 2 alone says so).
    const FrontierItem b[] = {pair(0, Res::UNKNOWN, 1), pair(0, Res::MATE, 2)};
    EXPECT_EQ(key_bound(b, 4).excluded, 2);
    const FrontierItem c[] = {pair(0, Res::UNKNOWN, 2), pair(0, Res::MATE, 1)};
    EXPECT_EQ(key_bound(c, 4).excluded, 3);
    EXPECT_FALSE(key_bound(c, 4).mate);
    // Every defence unknown at bound 1: only mates in 1 are excluded.
    const FrontierItem d[] = {pair(0, Res::UNKNOWN, 0), pair(0, Res::UNKNOWN, 0)};
    EXPECT_EQ(key_bound(d, 3).excluded, 1);
}

TEST(ShardFrontier, KeyWithoutDefence) {
    const FrontierItem mate[] = {alone(0, Res::MATE, 1)}, stale[] = {alone(0, Res::NO_MATE, 3)},
                       open[] = {alone(0, Res::UNKNOWN, 0)};
    EXPECT_TRUE(key_bound(mate, 3).mate);
    EXPECT_EQ(key_bound(mate, 3).length, 1);
    EXPECT_EQ(key_bound(mate, 3).excluded, 0);
    EXPECT_EQ(key_bound(stale, 3).excluded, 3);
    EXPECT_EQ(key_bound(open, 3).excluded, 0);
}

TEST(ShardFrontier, LeastLengthThenLeastIndex) {
    // Key 0 mates in 3, key 1 in 2, key 2 in 2, key 3 none: mate in 2 by key 1.
    const FrontierItem its[] = {pair(0, Res::MATE, 2), pair(1, Res::MATE, 1), pair(1, Res::MATE, 1),
        pair(2, Res::MATE, 1), pair(3, Res::NO_MATE, 2)};
    const FrontierAnswer a   = merge_frontier(its, 3);
    EXPECT_TRUE(a.mate);
    EXPECT_EQ(a.mateIn, 2);
    EXPECT_EQ(a.key, 1);
    EXPECT_EQ(a.excluded, 1);
    // A key the defender cannot answer mating in 1 comes before every longer mate.
    const FrontierItem one[] = {pair(0, Res::MATE, 1), alone(1, Res::MATE, 1)};
    EXPECT_EQ(merge_frontier(one, 2).mateIn, 1);
    EXPECT_EQ(merge_frontier(one, 2).key, 1);
}

TEST(ShardFrontier, AShorterMateNotExcludedLeavesItUnknown) {
    // Key 1 mates in 3; key 0's only defence is unknown at 0: key 0 might mate in 2.
    const FrontierItem   its[] = {pair(0, Res::UNKNOWN, 0), pair(1, Res::MATE, 2)};
    const FrontierAnswer a     = merge_frontier(its, 3);
    EXPECT_FALSE(a.mate);
    EXPECT_FALSE(a.noMate);
    EXPECT_EQ(a.provenMate, 3);
    EXPECT_EQ(a.key, 1);
    EXPECT_EQ(a.excluded, 1);
    // Excluded up to 2 (bound 1 done at the defence): the mate in 3 is the answer.
    const FrontierItem done[] = {pair(0, Res::UNKNOWN, 1), pair(1, Res::MATE, 2)};
    EXPECT_TRUE(merge_frontier(done, 3).mate);
    EXPECT_EQ(merge_frontier(done, 3).mateIn, 3);
}

TEST(ShardFrontier, NoMateOnlyWhenEveryKeyIsRefutedWithinTheBound) {
    const FrontierItem   all[] = {pair(0, Res::NO_MATE, 2), pair(0, Res::MATE, 1),
          alone(1, Res::NO_MATE, 3), pair(2, Res::UNKNOWN, 0), pair(2, Res::NO_MATE, 2)};
    const FrontierAnswer a     = merge_frontier(all, 3);
    EXPECT_TRUE(a.noMate);
    EXPECT_EQ(a.excluded, 3);
    const FrontierItem   open[] = {pair(0, Res::NO_MATE, 2), pair(1, Res::UNKNOWN, 1)};
    const FrontierAnswer b      = merge_frontier(open, 3);
    EXPECT_FALSE(b.noMate);
    EXPECT_FALSE(b.mate);
    EXPECT_EQ(b.excluded, 2);
    EXPECT_EQ(b.key, -1);
    EXPECT_TRUE(merge_frontier({}, 2).noMate); // no root action: no mate
}

} // namespace
} // namespace fived::report
