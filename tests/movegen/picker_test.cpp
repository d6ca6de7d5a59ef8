// ActionPicker, the one legal-action policy (movegen/picker.h), against its two engines.
//
// Random games in several variants, steered towards checks (so that checkmates and positions
// with few actions come up). At every position:
//  * with the real budget, the picker visits exactly the depth-first search's actions in its
//    order (these positions are small: the depth-first search never thrashes on them), and
//    counts them;
//  * with a tiny thrash budget (the switch forced), for_each(visit) still visits every action
//    exactly once, for_each(visit, restart) restarts once and then visits them all, and count()
//    is exact;
//  * each engine alone (ActionPicker::set_engine) visits every action once and counts them;
//  * physical() visits exactly the actions without a jump;
//  * where there is no legal action, the picker costs no more than the verdict: no depth-first
//    node beyond the probe, and no more hypercuboid points than the verdict's existence test.
#include <gtest/gtest.h>

#include <algorithm>

#include "movegen/actions.h"
#include "movegen/hypercuboid.h"
#include "movegen/movegen.h"
#include "movegen/picker.h"
#include "tests/movegen/variant_util.h"

namespace fived::movegen {
namespace {

void play(Multiverse& mv, std::span<const Move> action, std::vector<MoveUndo>& undo) {
    for (const Move& m : action) {
        undo.emplace_back();
        mv.make_move(m, undo.back());
    }
}

// An action as a comparable value: the key of the position it leads to, then its moves. (Two
// actions can lead to one position: equal pieces making branching jumps onto one square.)
using Action = std::vector<std::uint64_t>;
Action action_of(const Multiverse& mv, std::span<const Move> a) {
    Action r{mv.key()};
    for (const Move& m : a) {
        r.push_back(std::uint64_t(m.from.raw()) << 32 | m.to.raw());
        r.push_back(std::uint64_t(m.promotion));
    }
    return r;
}

struct Tally {
    int positions = 0, none = 0, switched = 0, switchedAfterSome = 0;
    int physical = 0; // positions with actions both with and without jumps
    int gaveUp   = 0; // count_within() ran out of effort
};

void check_position(Multiverse& mv, const std::string& where, Tally& t) {
    const Key before = mv.key();
    // The reference: the depth-first search alone, without a budget.
    std::vector<Action> ref;
    ActionSearch        s(mv);
    s.for_each([&](std::span<const Move> a) {
        ref.push_back(action_of(mv, a));
        return true;
    });
    std::vector<Action> sorted = ref;
    std::sort(sorted.begin(), sorted.end());

    // Every action p's for_each() visits, in its order, into `got`.
    std::vector<Action> got;
    auto                list_all = [&](ActionPicker& p) {
        p.reset(mv);
        got.clear();
        return p.for_each([&](std::span<const Move> a) {
            got.push_back(action_of(mv, a));
            return true;
        });
    };

    // 1. The real budget: the depth-first order, the count, existence.
    ActionPicker picker;
    EXPECT_TRUE(list_all(picker)) << where;
    EXPECT_EQ(got, ref) << where;
    picker.reset(mv);
    EXPECT_EQ(picker.count(), ref.size()) << where;
    // count_within(): the count up to its cap where the depth-first search ends within the
    // effort given, else the cap (a width estimate that gives up on sparse positions).
    picker.reset(mv);
    EXPECT_EQ(picker.count_within(UINT64_MAX, UINT64_MAX), ref.size()) << where;
    picker.reset(mv);
    EXPECT_EQ(picker.count_within(3, UINT64_MAX), std::min<std::uint64_t>(3, ref.size())) << where;
    picker.reset(mv);
    const std::uint64_t within = picker.count_within(1000000, 1);
    EXPECT_TRUE(within == ref.size() || (within == 1000000 && !ref.empty()))
        << where << ": " << within;
    t.gaveUp += within == 1000000;
    // No effort at all: a position without legal action still counts 0, not as wide.
    picker.reset(mv);
    if (ref.empty()) {
        EXPECT_EQ(picker.count_within(1000000, 0), 0u) << where;
    }
    picker.reset(mv);
    EXPECT_EQ(picker.exists(), !ref.empty()) << where;
    EXPECT_EQ(count_legal_actions(mv), ref.size()) << where;
    ASSERT_EQ(mv.key(), before) << where;

    // 2. The switch forced: a budget of a few nodes per action.
    for (const std::uint64_t budget : {1u, 8u, 40u}) {
        ActionPicker tiny;
        tiny.set_thrash_budget(budget, 1);
        tiny.reset(mv);
        got.clear();
        int           restarts = 0;
        std::uint64_t early    = 0; // actions visited before the switch
        tiny.for_each(
            [&](std::span<const Move> a) {
                got.push_back(action_of(mv, a));
                return true;
            },
            [&] {
                ++restarts;
                early = got.size();
                got.clear();
            });
        EXPECT_LE(restarts, 1) << where << ", budget " << budget;
        t.switched += restarts;
        t.switchedAfterSome += restarts && early > 0;
        std::sort(got.begin(), got.end());
        EXPECT_EQ(got, sorted) << where << ", budget " << budget << " (restart)";

        EXPECT_TRUE(list_all(tiny)) << where;
        std::sort(got.begin(), got.end());
        EXPECT_EQ(got, sorted) << where << ", budget " << budget << ": not each action once";

        tiny.reset(mv);
        EXPECT_EQ(tiny.count(), ref.size()) << where << ", budget " << budget;
        tiny.reset(mv);
        EXPECT_EQ(tiny.count(3), std::min<std::uint64_t>(3, ref.size())) << where;
        ASSERT_EQ(mv.key(), before) << where;
    }

    // 3. One engine alone (fived count --engine): the same actions, each once, and the count.
    for (const ActionPicker::Engine e :
        {ActionPicker::Engine::DEPTH_FIRST, ActionPicker::Engine::HYPERCUBOID}) {
        ActionPicker alone;
        alone.set_engine(e);
        EXPECT_TRUE(list_all(alone)) << where;
        // The depth-first engine alone keeps the reference order; the hypercuboid has its own.
        if (e == ActionPicker::Engine::DEPTH_FIRST) {
            EXPECT_EQ(got, ref) << where;
        }
        std::sort(got.begin(), got.end());
        EXPECT_EQ(got, sorted) << where << ", engine " << int(e);
        EXPECT_EQ(alone.depth_first_nodes() > 0, e == ActionPicker::Engine::DEPTH_FIRST) << where;
        alone.reset(mv);
        EXPECT_EQ(alone.count(), ref.size()) << where << ", engine " << int(e);
        ASSERT_EQ(mv.key(), before) << where;
    }

    // 4. physical(): exactly the actions without a jump.
    {
        std::vector<Action> physical, want;
        ActionSearch        all(mv);
        all.for_each([&](std::span<const Move> a) {
            if (std::all_of(a.begin(), a.end(), [](const Move& m) { return m.is_physical(); }))
                want.push_back(action_of(mv, a));
            return true;
        });
        std::sort(want.begin(), want.end());
        picker.reset(mv);
        EXPECT_TRUE(picker.physical([&](std::span<const Move> a) {
            for (const Move& m : a)
                EXPECT_TRUE(m.is_physical()) << where;
            physical.push_back(action_of(mv, a));
            return true;
        })) << where;
        std::sort(physical.begin(), physical.end());
        EXPECT_EQ(physical, want) << where;
        t.physical += int(want.size() < sorted.size() && !want.empty());
        ASSERT_EQ(mv.key(), before) << where;
    }

    // 5. No legal action: the cost of the verdict.
    if (ref.empty()) {
        ++t.none;
        HypercuboidSearch verdictSearch;
        ASSERT_FALSE(verdictSearch.exists(mv)) << where;
        picker.reset(mv);
        std::uint64_t listed = 0;
        picker.for_each([&](std::span<const Move>) { return ++listed, true; });
        EXPECT_EQ(listed, 0u) << where;
        EXPECT_LE(picker.depth_first_nodes(), ActionPicker::ProbeNodes + 1) << where;
        if (in_check_at_turn_start(mv)) {
            EXPECT_EQ(picker.depth_first_nodes(), 0u) << where;
        }
        EXPECT_LE(picker.hypercuboid_points(), verdictSearch.stats().points) << where;
    }
    ++t.positions;
}

TEST(ActionPicker, AgreesWithTheEnginesOnRandomGames) {
    testing::XorShift next{0x9e3779b97f4a7c15ULL};
    Tally             t;
    for (const char* name : {"Standard", "Very Small", "Focused - Just Brawns", "Small",
             "Very Small - Open", "Checkmate Practice - Rook", "Checkmate Practice - Queen",
             "Misc - Timeline Invasion"}) {
        for (int game = 0; game < 4; ++game) {
            Multiverse            mv = testing::variant_start(name);
            std::vector<MoveUndo> undo;
            for (int ply = 0; ply < 12; ++ply) {
                const std::string where = std::string(name) + " game " + std::to_string(game)
                    + " ply " + std::to_string(ply);
                // Positions small enough to enumerate in full many times.
                if (mv.timeline_count() > 4 || count_legal_actions(mv, 3001) > 3000) break;
                check_position(mv, where, t);
                if (HasFatalFailure()) return;
                // A random action, preferring checks.
                std::vector<std::vector<Move>> all, checks;
                ActionSearch                   s(mv);
                s.for_each([&](std::span<const Move> a) {
                    all.emplace_back(a.begin(), a.end());
                    if (in_check_at_turn_start(mv)) checks.push_back(all.back());
                    return all.size() < 400;
                });
                if (all.empty()) break;
                const std::vector<Move>& chosen = (next() % 4 < 3 && !checks.empty())
                    ? checks[next() % checks.size()]
                    : all[next() % all.size()];
                play(mv, chosen, undo);
            }
        }
    }
    std::printf("positions %d, no legal action %d, switched %d (after some actions %d), "
                "physical() fewer %d, count_within() gave up %d\n",
        t.positions, t.none, t.switched, t.switchedAfterSome, t.physical, t.gaveUp);
    EXPECT_GT(t.positions, 100);
    EXPECT_GT(t.none, 3);               // checkmates came up
    EXPECT_GT(t.switchedAfterSome, 20); // the exactly-once path was exercised
    EXPECT_GT(t.physical, 20);          // physical() left out some actions with jumps
    EXPECT_GT(t.gaveUp, 20);            // count_within() gave up within a tiny effort
}

// Passes of one position share one thrash budget, and a later pass starts from the beginning.
TEST(ActionPicker, StagedPassesShareOneBudget) {
    Multiverse       mv = testing::variant_start("Standard");
    std::vector<Key> all, again;
    ActionPicker     picker;
    picker.reset(mv);
    int first = 0;
    EXPECT_FALSE(picker.depth_first([&](std::span<const Move>) { return ++first < 3; }));
    EXPECT_FALSE(picker.thrashed());
    EXPECT_TRUE(picker.depth_first([&](std::span<const Move>) {
        all.push_back(mv.key());
        return true;
    }));
    EXPECT_EQ(all.size(), 20u);
    // A budget the first pass spends: the second pass thrashes, and the fallback lists all.
    picker.set_thrash_budget(25, 0);
    picker.reset(mv);
    EXPECT_TRUE(picker.depth_first([](std::span<const Move>) { return true; }));
    EXPECT_FALSE(picker.thrashed());
    EXPECT_TRUE(picker.depth_first([](std::span<const Move>) { return true; }));
    EXPECT_TRUE(picker.thrashed());
    EXPECT_TRUE(picker.fallback([&](std::span<const Move>) {
        again.push_back(mv.key());
        return true;
    }));
    std::sort(all.begin(), all.end());
    std::sort(again.begin(), again.end());
    EXPECT_EQ(again, all);
}

} // namespace
} // namespace fived::movegen
