// The stage order of a listed node (solver/node_picker.h) on Rook Tactics II (tests/solver/data):
// the exact sequence of actions NodePicker::next() yields, built here from the stages' definition
// (hint, killers, then checks or defences without jumps, then the rest, each in enumeration
// order), and the stage each action is in.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "movegen/actions.h"
#include "notation/game.h"
#include "solver/node_picker.h"
#include "solver/search.h"
#include "tests/test_data.h"

namespace fived::solver {
namespace {

using movegen::Multiverse;
using Stage = NodePicker::Stage;

// The puzzle's position (after 1. Re2 / Kf4: two boards per side, so rooks can jump).
std::optional<Multiverse> rook_tactics() {
    const std::string text =
        testdata::read_file(std::filesystem::path(FIVED_SOLVER_DATA_DIR) / "rook-tactics-2.5dpgn");
    auto g = notation::load_game(text, "test", notation::read_options(true));
    if (!g.ok()) {
        ADD_FAILURE() << g.status().message();
        return std::nullopt;
    }
    Multiverse                     mv = g->start.fork();
    std::vector<movegen::MoveUndo> undo;
    notation::play_main_line(mv, *g, g->mainLine.size(), undo);
    return mv;
}

int jumps(std::span<const Move> a) {
    return int(std::count_if(a.begin(), a.end(), [](const Move& m) { return !m.is_physical(); }));
}

// Everything next() yields, with the stage of each.
std::vector<std::uint32_t> drain(NodePicker& picker, std::vector<Stage>& stages) {
    std::vector<std::uint32_t> out;
    std::uint32_t              i = 0;
    while (picker.next(i)) {
        out.push_back(i);
        stages.push_back(picker.stage(i));
    }
    return out;
}

// The node's actions split by a predicate, in enumeration order, leaving out `taken`.
template <class Keep>
std::vector<std::uint32_t> indices_where(
    const ActionList& list, const std::vector<std::uint32_t>& taken, Keep keep) {
    std::vector<std::uint32_t> out;
    for (std::uint32_t i = 0; i < list.size(); ++i)
        if (std::find(taken.begin(), taken.end(), i) == taken.end() && keep(i)) out.push_back(i);
    return out;
}

// next() yields the hint, the two killers (`head`), then `preferred`, then `rest`, each in the
// stage of its name.
void expect_stages(NodePicker& picker, const std::vector<std::uint32_t>& head,
    const std::vector<std::uint32_t>& preferred, const std::vector<std::uint32_t>& rest) {
    std::vector<std::uint32_t> want = head;
    want.insert(want.end(), preferred.begin(), preferred.end());
    want.insert(want.end(), rest.begin(), rest.end());
    std::vector<Stage> wantStages = {Stage::HINT, Stage::KILLER, Stage::KILLER};
    wantStages.insert(wantStages.end(), preferred.size(), Stage::PREFERRED);
    wantStages.insert(wantStages.end(), rest.size(), Stage::REST);
    std::vector<Stage> stages;
    EXPECT_EQ(drain(picker, stages), want);
    EXPECT_EQ(stages, wantStages);
}

// Rook Tactics II's root, a searcher over it (to list actions) and killers of the test's own.
class Picker : public ::testing::Test {
protected:
    void SetUp() override {
        root = rook_tactics();
        ASSERT_TRUE(root);
        ctx.emplace(tt, *root, 4, PlainSearch);
        searcher = std::make_unique<Searcher>(*ctx);
        killers.resize(4);
    }
    // The root's legal actions (with check flags when `checks`), copied out of the searcher.
    ActionList listed(bool checks) {
        EXPECT_TRUE(searcher->collect(0, checks));
        return searcher->list(0);
    }

    std::optional<Multiverse>    root;
    TranspositionTable           tt;
    std::optional<SearchContext> ctx;
    std::unique_ptr<Searcher>    searcher;
    Killers                      killers;
};

// Attacker: the table hint, the first killer, the second, the checks, then the quiet actions;
// a skipped action (decided by the table) is never yielded.
TEST_F(Picker, AttackerYieldsHintKillersChecksThenTheRest) {
    ActionList list  = listed(true);
    const auto quiet = indices_where(list, {}, [&](std::uint32_t i) { return !list.ref(i).check; });
    const auto checks = indices_where(list, {}, [&](std::uint32_t i) { return list.ref(i).check; });
    ASSERT_GE(quiet.size(), 4u);
    ASSERT_GE(checks.size(), 2u);
    // The hint and both killers are quiet actions from the end of the enumeration, which the
    // stages bring forward; the skipped action is a check.
    const std::uint32_t hinted = quiet[quiet.size() - 1];
    const std::uint32_t first  = quiet[quiet.size() - 2];
    const std::uint32_t second = quiet[quiet.size() - 3];
    const std::uint32_t known  = checks[0];
    killers.set(0, list.action(second));
    killers.set(0, list.action(first)); // the first slot: the most recent
    NodePicker picker(list, killers, 0, true, action_hint(list.ref(hinted).child));
    for (std::uint32_t i = 0; i < list.size(); ++i)
        i == known ? picker.skip(i) : picker.score(i);
    picker.order();

    const std::vector<std::uint32_t> head  = {hinted, first, second};
    std::vector<std::uint32_t>       taken = head;
    taken.push_back(known);
    const auto restChecks =
        indices_where(list, taken, [&](std::uint32_t i) { return list.ref(i).check; });
    const auto restQuiet =
        indices_where(list, taken, [&](std::uint32_t i) { return !list.ref(i).check; });
    expect_stages(picker, head, restChecks, restQuiet);
    EXPECT_EQ(picker.stage(known), Stage::SKIPPED);
    EXPECT_EQ(head.size() + restChecks.size() + restQuiet.size(), list.size() - 1);
}

// Defender (after the attacker's first action): the hint, the killers, the defences without
// jumps in enumeration order, then those with jumps, fewer jumps first.
TEST_F(Picker, DefenderYieldsHintKillersThenDefencesWithoutJumpsFirst) {
    ASSERT_FALSE(listed(false).empty());
    ASSERT_TRUE(searcher->make(0, 0));
    ASSERT_TRUE(searcher->collect(1, false));
    ActionList list = searcher->list(1);
    searcher->unmake(0);
    const auto physical =
        indices_where(list, {}, [&](std::uint32_t i) { return jumps(list.action(i)) == 0; });
    const auto jumping =
        indices_where(list, {}, [&](std::uint32_t i) { return jumps(list.action(i)) > 0; });
    ASSERT_GE(physical.size(), 2u);
    ASSERT_GE(jumping.size(), 3u);
    // Hint: a jump; killers: the last jump and the last defence without one.
    const std::uint32_t hinted = jumping[1];
    const std::uint32_t first  = jumping.back();
    const std::uint32_t second = physical.back();
    killers.set(1, list.action(second));
    killers.set(1, list.action(first));
    NodePicker picker(list, killers, 1, false, action_hint(list.ref(hinted).child));
    for (std::uint32_t i = 0; i < list.size(); ++i)
        picker.score(i);
    picker.order();

    const std::vector<std::uint32_t> head = {hinted, first, second};
    const auto                       restPhysical =
        indices_where(list, head, [&](std::uint32_t i) { return jumps(list.action(i)) == 0; });
    auto restJumping =
        indices_where(list, head, [&](std::uint32_t i) { return jumps(list.action(i)) > 0; });
    std::stable_sort(restJumping.begin(), restJumping.end(), [&](std::uint32_t a, std::uint32_t b) {
        return jumps(list.action(a)) < jumps(list.action(b));
    });
    expect_stages(picker, head, restPhysical, restJumping);
}

// Without hint or killers: the checks in enumeration order, then the rest; from_current() is
// the action next() returned last and those after it (what a parallel split hands on), and a
// picker that is done stays done.
TEST_F(Picker, WithoutStatisticsChecksComeFirstAndFromCurrentIsTheRemainder) {
    ActionList list = listed(true);
    NodePicker picker(list, killers, 0, true, 0);
    for (std::uint32_t i = 0; i < list.size(); ++i)
        picker.score(i);
    picker.order();
    auto       want  = indices_where(list, {}, [&](std::uint32_t i) { return list.ref(i).check; });
    const auto quiet = indices_where(list, {}, [&](std::uint32_t i) { return !list.ref(i).check; });
    ASSERT_GE(want.size(), 1u);
    want.insert(want.end(), quiet.begin(), quiet.end());
    std::uint32_t i = 0;
    ASSERT_TRUE(picker.next(i));
    ASSERT_TRUE(picker.next(i));
    EXPECT_EQ(i, want[1]);
    const std::span<const std::uint32_t> rest = picker.from_current();
    EXPECT_EQ(std::vector<std::uint32_t>(rest.begin(), rest.end()),
        std::vector<std::uint32_t>(want.begin() + 1, want.end()));
    std::vector<Stage> stages;
    EXPECT_EQ(drain(picker, stages), std::vector<std::uint32_t>(want.begin() + 2, want.end()));
    EXPECT_FALSE(picker.next(i));
}

// The stage before listing: the first killer, the second, then (defender, or attacker with
// r = 1) the recent deciding actions not among them; at a defender node with k = 1 the second
// killer first when its last refutation was cheaper.
TEST_F(Picker, FirstTriesAreTheKillersThenTheRecentOnes) {
    const ActionList list = listed(false);
    ASSERT_GE(list.size(), 3u);
    std::vector<std::vector<Move>> a;
    for (std::size_t i = 0; i < 3; ++i)
        a.emplace_back(list.action(i).begin(), list.action(i).end());
    const int ply = 1;
    for (int i = 2; i >= 0; --i)
        killers.decided_by(ply, a[std::size_t(i)], true); // killers a[0], a[1]; recent all three
    auto tries = [&](bool attacker, int bound) {
        const std::vector<Move>* out[NodePicker::MaxFirstTries];
        const std::size_t        n = NodePicker::first_tries(killers, ply, attacker, bound, out);
        std::vector<std::vector<Move>> got;
        for (std::size_t t = 0; t < n; ++t)
            got.push_back(*out[t]);
        return got;
    };
    const std::vector<std::vector<Move>> all = {a[0], a[1], a[2]};
    EXPECT_EQ(tries(false, 2), all);
    EXPECT_EQ(tries(true, 1), all);
    EXPECT_EQ(tries(true, 2), (std::vector<std::vector<Move>>{a[0], a[1]}));
    EXPECT_EQ(tries(false, 1), all); // no cost known yet
    killers.cost(ply)[0] = 100;
    killers.cost(ply)[1] = 200;
    EXPECT_EQ(tries(false, 1), all);
    killers.cost(ply)[1] = 50;
    EXPECT_EQ(tries(false, 1), (std::vector<std::vector<Move>>{a[1], a[0], a[2]}));
    EXPECT_EQ(tries(false, 2), all); // only k = 1 looks at the costs
}

} // namespace
} // namespace fived::solver
