// MateInOneSearch (the attacker's actions as a hypercuboid, escapes generalised) against the
// plain enumeration: on random games steered towards checks, every position whose legal actions
// can be listed gets the same set of mating actions from both, and the same set of checking
// actions from for_each_check() as from the enumeration.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "movegen/actions.h"
#include "movegen/mate.h"
#include "movegen/movegen.h"
#include "tests/movegen/variant_util.h"

namespace fived::movegen {
namespace {

using Action = std::vector<Move>;

void play(Multiverse& mv, std::span<const Move> action, std::vector<MoveUndo>& undo) {
    for (const Move& m : action) {
        undo.emplace_back();
        mv.make_move(m, undo.back());
    }
}

bool less(const Action& a, const Action& b) {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
}

// Every mating action `search` finds, in its order.
std::vector<Action> mates_in_order(MateInOneSearch& search, Multiverse& mv) {
    std::vector<Action> mates;
    search.for_each_mate(
        mv,
        [&](std::span<const Move> a) {
            mates.emplace_back(a.begin(), a.end());
            return true;
        },
        [] { return true; });
    return mates;
}

// ... sorted.
std::vector<Action> sorted_mates(MateInOneSearch& search, Multiverse& mv) {
    std::vector<Action> mates = mates_in_order(search, mv);
    std::sort(mates.begin(), mates.end(), less);
    return mates;
}

// How far the comparison goes. CI's default lists up to 2,000 actions per position; with
// FIVED_WIDE_COMPARE set (scripts/wide_compare.sh, about 6 minutes) up to 40,000, on longer and
// more games: that wider run found a mate the cuts lost (an escape's jump onto a created board),
// which the default never meets.
struct Budget {
    std::uint64_t actions = 2000, nodes = 200000;
    int           games = 4, plies = 16, timelines = 7;
};
Budget budget() {
    if (std::getenv("FIVED_WIDE_COMPARE") == nullptr) return {};
    return {40000, 4000000, 8, 22, 9};
}

struct Tally {
    int           positions = 0, compared = 0, withMate = 0, mates = 0;
    int           matedTrue = 0;
    std::uint64_t quietCuts = 0, squareCuts = 0, tested = 0, plainActions = 0, reused = 0,
                  byOtherMove = 0, byAnyStart = 0, byAnyBranch = 0, checks = 0,
                  checkWalkQuietCuts = 0;
};

// The mating actions by enumeration (nullopt when there are too many actions to list) and by
// MateInOneSearch must be the same set.
// `kept` is one search used for every position: the escapes it remembers come from other
// positions (other games, other variants), and a stale one must never cut a mate. `keptPlain`
// is asked the same questions with the hypercuboids' memos off: with the same escapes
// remembered, it must search as `kept` does, whose memos hold answers from other positions.
void compare(Multiverse& mv, const std::string& where, Tally& t, MateInOneSearch& kept,
    MateInOneSearch& keptPlain) {
    ++t.positions;
    std::vector<Action> plain, plainChecks;
    ActionSearch        s(mv);
    const Budget        b = budget();
    s.set_node_limit(b.nodes);
    std::uint64_t listed = 0;
    s.for_each([&](std::span<const Move> a) {
        const bool mate = is_checkmate(mv);
        if (mate) plain.emplace_back(a.begin(), a.end());
        if (in_check_at_turn_start(mv)) plainChecks.emplace_back(a.begin(), a.end());
        // The killers' test (MateInOneSearch::mated), with escapes remembered from other
        // actions and positions, agrees with is_checkmate on every action.
        const bool byKept = kept.mated(mv);
        EXPECT_EQ(byKept, mate) << where << ": MateInOneSearch::mated";
        EXPECT_EQ(keptPlain.mated(mv), mate) << where << ": MateInOneSearch::mated, no memos";
        t.matedTrue += byKept;
        return ++listed < b.actions;
    });
    if (s.aborted() || listed >= b.actions) return;
    const Key           before = mv.key();
    std::vector<Action> fast;
    MateInOneSearch     m1;
    m1.for_each_mate(
        mv,
        [&](std::span<const Move> a) {
            EXPECT_TRUE(is_checkmate(mv)) << where;
            fast.emplace_back(a.begin(), a.end());
            return true;
        },
        [] { return true; });
    ASSERT_EQ(mv.key(), before) << where << ": the multiverse was not restored";
    // The cuts compare two entries of a timeline only where their boards differ from its last
    // board (HypercuboidSearch's Entry::changed): comparing every square must give the same
    // search, action for action.
    // Likewise, the lines from a royal on a board past the old ends whose (ℓ, T) part lands on no
    // board whose contents vary are not walked: walking them must add no rule. And the answers
    // about boards kept across searches (HypercuboidSearch's memos; `kept` carries them from
    // other positions, m1 within this one) are the answers found anew: both run without them.
    for (const bool allSquares : {true, false}) {
        MateInOneSearch same;
        same.set_compare_all_squares(allSquares);
        same.set_walk_every_line(!allSquares);
        same.set_memos(false);
        const char* what = allSquares ? " (every square compared)" : " (every line walked)";
        ASSERT_TRUE(mates_in_order(same, mv) == fast) << where << what;
        ASSERT_EQ(same.stats().actions, m1.stats().actions) << where << what;
        ASSERT_EQ(same.stats().quietCuts, m1.stats().quietCuts) << where << what;
        ASSERT_EQ(same.stats().squareCuts, m1.stats().squareCuts) << where << what;
        ASSERT_EQ(same.stats().byOtherMove, m1.stats().byOtherMove) << where << what;
    }
    t.quietCuts += m1.stats().quietCuts;
    t.squareCuts += m1.stats().squareCuts;
    t.byOtherMove += m1.stats().byOtherMove;
    t.byAnyStart += m1.stats().byAnyStart;
    t.byAnyBranch += m1.stats().byAnyBranch;
    t.tested += m1.stats().actions;
    t.plainActions += listed;
    std::sort(plain.begin(), plain.end(), less);
    std::sort(fast.begin(), fast.end(), less);
    ASSERT_EQ(fast.size(), plain.size()) << where << " (" << listed << " actions)";
    ASSERT_TRUE(fast == plain) << where;
    std::vector<Move> key;
    ASSERT_EQ(MateInOneSearch().find(mv, &key), !plain.empty()) << where;
    // for_each_check: every checking action, once each, whatever the quiet cut leaves out.
    std::vector<Action> checks;
    MateInOneSearch     walk;
    walk.for_each_check(
        mv,
        [&](std::span<const Move> a) {
            EXPECT_TRUE(in_check_at_turn_start(mv)) << where << ": for_each_check";
            checks.emplace_back(a.begin(), a.end());
            return true;
        },
        [] { return true; });
    ASSERT_EQ(mv.key(), before) << where << ": for_each_check did not restore the multiverse";
    std::sort(plainChecks.begin(), plainChecks.end(), less);
    std::sort(checks.begin(), checks.end(), less);
    ASSERT_EQ(checks.size(), plainChecks.size()) << where << " (for_each_check)";
    ASSERT_TRUE(checks == plainChecks) << where << " (for_each_check)";
    t.checks += checks.size();
    t.checkWalkQuietCuts += walk.stats().quietCuts;
    // The cuts stay sound when the hypercuboid forgets its learned slices (bound_learned) and
    // when a box catches up on the last one only (the learned window).
    MateInOneSearch forgetful;
    forgetful.set_learned_cap(8);
    forgetful.set_learned_window(1);
    ASSERT_TRUE(sorted_mates(forgetful, mv) == plain) << where << " (slices forgotten)";
    std::vector<Action> byKept = mates_in_order(kept, mv);
    ASSERT_TRUE(mates_in_order(keptPlain, mv) == byKept)
        << where << " (memos from other positions)";
    ASSERT_EQ(keptPlain.stats().actions, kept.stats().actions) << where;
    ASSERT_EQ(keptPlain.stats().squareCuts, kept.stats().squareCuts) << where;
    ASSERT_EQ(keptPlain.stats().byOtherMove, kept.stats().byOtherMove) << where;
    std::sort(byKept.begin(), byKept.end(), less);
    ASSERT_TRUE(byKept == plain) << where << " (escapes remembered from other positions)";
    t.reused += kept.stats().reused;
    ++t.compared;
    t.withMate += !plain.empty();
    t.mates += int(plain.size());
}

TEST(MateInOne, SameMatesAsEnumerationOnRandomGames) {
    std::uint64_t seed = 0x3a7e1ULL;
    auto          next = [&] {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        return seed;
    };
    Tally           t;
    MateInOneSearch kept, keptPlain;
    keptPlain.set_memos(false);
    for (const char* name : {"Standard", "Very Small", "Focused - Just Brawns",
             "Misc - Timeline Invasion", "Focused - Just Unicorns", "Misc - Timeline Marauders",
             "Small", "Focused - Just Dragons", "Standard - Turn Zero", "Small - Open",
             "Standard - Two Timelines", "Very Small - Open", "Misc - Royal Queen Showdown",
             "Checkmate Practice - Rook", "Checkmate Practice - Queen", "Focused - Just Knights"}) {
        for (int game = 0; game < budget().games; ++game) {
            Multiverse            mv = testing::variant_start(name);
            std::vector<MoveUndo> undo;
            for (int ply = 0; ply < budget().plies; ++ply) {
                const std::string where = std::string(name) + " game " + std::to_string(game)
                    + " ply " + std::to_string(ply);
                compare(mv, where, t, kept, keptPlain);
                if (HasFatalFailure() || mv.timeline_count() > budget().timelines) break;
                // The game ends where it has no legal action.
                const Action chosen = testing::steered_random_action(mv, 300, next);
                if (chosen.empty()) break;
                play(mv, chosen, undo);
            }
        }
    }
    std::printf(
        "positions %d, compared %d, with a mate in 1 %d (%d mating actions); actions "
        "%llu listed, %llu tested by the search, %llu quiet cuts, %llu escapes cut on squares\n",
        t.positions, t.compared, t.withMate, t.mates,
        static_cast<unsigned long long>(t.plainActions), static_cast<unsigned long long>(t.tested),
        static_cast<unsigned long long>(t.quietCuts),
        static_cast<unsigned long long>(t.squareCuts));
    EXPECT_GT(t.compared, 300);
    EXPECT_GT(t.withMate, 20); // the comparison met positions with mates
    // The generalisations were used (the comparison covers them, not only single actions).
    // (Fewer since cuts take actions with more created timelines too: 575 -> 485 quiet cuts.)
    EXPECT_GT(t.quietCuts, 400u);
    EXPECT_GT(t.squareCuts, 100u);
    EXPECT_GT(t.reused, 100u);  // escapes remembered were tried, and some were legal
    EXPECT_GT(t.matedTrue, 20); // mated() met mates, not only actions that do not mate
    std::printf("escapes found among the remembered ones: %llu; entries alike by another "
                "escape move: %llu; branches alike at another time: %llu\n",
        static_cast<unsigned long long>(t.reused), static_cast<unsigned long long>(t.byOtherMove),
        static_cast<unsigned long long>(t.byAnyStart));
    // Entries were taken into cuts by another move of the escape on their board (SquareRules::
    // local), so the comparison covers that too.
    EXPECT_GT(t.byOtherMove, 100u);
    // Branches on inactive created timelines were taken at other times (SquareRules::anyStart).
    // (Most of those actions are now taken by anyBranch below: 1,515 -> 88.)
    EXPECT_GT(t.byAnyStart, 50u);
    // Cuts took actions that create more timelines than the one shown (SquareRules::anyBranch).
    std::printf("cuts open to more created timelines: %llu\n",
        static_cast<unsigned long long>(t.byAnyBranch));
    EXPECT_GT(t.byAnyBranch, 100u);
    EXPECT_LT(t.tested, t.plainActions);
    // for_each_check met checks, and left quiet actions out by classes on the way.
    std::printf("for_each_check: %llu checking actions, %llu quiet cuts\n",
        static_cast<unsigned long long>(t.checks),
        static_cast<unsigned long long>(t.checkWalkQuietCuts));
    EXPECT_GT(t.checks, 1000u);
    EXPECT_GT(t.checkWalkQuietCuts, 500u);
}

} // namespace
} // namespace fived::movegen
