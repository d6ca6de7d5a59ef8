// Per-position checks of the puzzles: [ActionCounts], [MateFlags], the exact counts of COUNTS.md
// and the final-position verdict claims (see puzzle_positions.h for the sources).
//
//  * Data/PuzzlePositions.Fast/<game>: every position of a game of tests/data/puzzles (each
//    expected within FastBudgetSeconds x time_scale()).
//  * Shared/PuzzlePositions.Fast/<game>: the same with every source, for the games left in
//    ../shared, the embedded games and the copied games COUNTS.md counts, except the slow
//    positions. Label `shared`.
//  * Shared/SlowPuzzlePositions.Slow/<game>_k<k>: one test per slow position, with its own
//    expected time. Labelled `shared` and `slow` in ctest.
// Times are printed, not asserted; speed regressions are caught by bench/ and `fived bench`.
//
// Every failure names the game, the position index k (actions played from the start), the
// sources of the expectation, the expected and the computed value. Each position is checked in a
// forked child that is stopped when it hangs, so a regression fails instead of hanging.

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <sstream>

#include <gtest/gtest.h>

#include "movegen/hypercuboid.h"
#include "movegen/movegen.h"
#include "movegen/picker.h"
#include "tests/puzzles/puzzle_positions.h"
#include "tests/puzzles/puzzle_util.h"

namespace fived::testutil {
namespace {

std::string sanitize(std::string s) {
    for (char& c : s)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return s;
}

std::vector<std::string> ids_of(const std::vector<GamePositions>& games) {
    std::vector<std::string> ids;
    for (const GamePositions& g : games)
        ids.push_back(g.id);
    return ids;
}

const GamePositions* find_game(const std::vector<GamePositions>& games, const std::string& id) {
    for (const GamePositions& g : games)
        if (g.id == id) return &g;
    return nullptr;
}

const GamePositions* find_game(const std::string& id) {
    return find_game(all_game_positions(), id);
}

bool has_needs(const PositionNeeds& n) {
    return n.exact || n.capped || n.exists || n.verdict || n.inCheck || n.timelines;
}

// The outcome of one position's check, computed in a child process (see run_position).
struct ChildResult {
    bool          finished = false;
    double        seconds  = 0;
    std::uint64_t nodes    = 0;
    std::string   err, note;
};

// Runs check_position() on a fork of this process, so that a position that overruns its budget
// is stopped (the search cannot be interrupted from inside) and the test never hangs. The child
// writes "seconds nodes\nnote\x1eerr" to a pipe; the parent waits up to `wallLimit` seconds.
ChildResult check_in_child(movegen::Multiverse& mv, const PositionNeeds& need, double wallLimit) {
    ChildResult r;
    int         fd[2];
    if (pipe(fd) != 0) {
        r.err = "pipe() failed";
        return r;
    }
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        double            seconds = 0;
        std::uint64_t     nodes   = 0;
        std::string       note;
        const std::string err = check_position(mv, need, seconds, nodes, &note);
        const std::string out =
            std::to_string(seconds) + " " + std::to_string(nodes) + "\n" + note + "\x1e" + err;
        for (std::size_t at = 0; at < out.size();) {
            const ssize_t w = write(fd[1], out.data() + at, out.size() - at);
            if (w <= 0) break;
            at += std::size_t(w);
        }
        _exit(0);
    }
    close(fd[1]);
    const Stopwatch sw;
    std::string     data;
    char            buf[4096];
    for (;;) {
        pollfd    p{fd[0], POLLIN, 0};
        const int remaining = int(std::max(0.0, wallLimit - sw.seconds()) * 1000);
        if (poll(&p, 1, std::min(remaining, 1000)) > 0) {
            const ssize_t n = read(fd[0], buf, sizeof buf);
            if (n <= 0) break; // the child closed the pipe: done
            data.append(buf, std::size_t(n));
        } else if (sw.seconds() >= wallLimit) {
            kill(pid, SIGKILL);
            break;
        }
    }
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    const std::size_t nl = data.find('\n'), rs = data.find('\x1e');
    if (WIFEXITED(status) && nl != std::string::npos && rs != std::string::npos) {
        r.finished = true;
        std::istringstream head(data.substr(0, nl));
        head >> r.seconds >> r.nodes;
        r.note = data.substr(nl + 1, rs - nl - 1);
        r.err  = data.substr(rs + 1);
    }
    return r;
}

// Checks position k of game g on w; `budget` is the time it is expected to take. Times are
// printed, never asserted (a loaded machine must not fail a right answer; speed is measured in
// bench/): the child is only stopped, as a hang, after HangFactor times the budget plus a minute.
// Returns the seconds spent (the wall limit when it was stopped).
double run_position(const GamePositions& g, Walker& w, std::size_t k, double budget) {
    constexpr double  HangFactor = 30;
    const double      wallLimit  = HangFactor * budget + 60;
    const ChildResult r          = check_in_child(w.at(k), g.needs[k], wallLimit);
    if (!r.finished) {
        ADD_FAILURE() << g.id << " position k=" << k << " [" << g.needs[k].sources
                      << "]: stopped as hung after " << wallLimit << " s wall time (expected "
                      << budget << " s)";
        return wallLimit;
    }
    if (!r.note.empty()) std::printf("  %s k=%zu: %s\n", g.id.c_str(), k, r.note.c_str());
    EXPECT_EQ(r.err, "") << g.id << " position k=" << k << " [" << g.needs[k].sources << "]\n"
                         << r.err;
    return r.seconds;
}

class PuzzlePositions : public testing::TestWithParam<std::string> { };

// The instantiation's prefix says which games: Data (tests/data alone) or Shared (all).
const std::vector<GamePositions>& games_of_this_test() {
    const std::string suite =
        testing::UnitTest::GetInstance()->current_test_info()->test_suite_name();
    return suite.rfind("Shared/", 0) == 0 ? all_game_positions() : data_game_positions();
}

TEST_P(PuzzlePositions, Fast) {
    const GamePositions* g = find_game(games_of_this_test(), GetParam());
    ASSERT_NE(g, nullptr) << GetParam() << " has no per-position expectations";
    ASSERT_EQ(g->error, "") << g->id;
    const Loaded l = load_text(g->text, g->id, g->lenient);
    ASSERT_TRUE(l.game) << l.err.to_string();
    Walker       w(*l.game);
    const double budget  = FastBudgetSeconds * time_scale();
    int          checked = 0, skipped = 0;
    double       total = 0, worst = 0;
    for (std::size_t k = 0; k < g->needs.size(); ++k) {
        if (!has_needs(g->needs[k])) continue;
        if (is_slow(g->id, k)) {
            ++skipped;
            continue;
        }
        const double s = run_position(*g, w, k, budget);
        total += s;
        worst = std::max(worst, s);
        ++checked;
    }
    RecordProperty("positions_checked", checked);
    RecordProperty("positions_slow", skipped);
    std::printf("  %s: %d positions in %.2f s (slowest %.3f s), %d in the slow group\n",
        g->id.c_str(), checked, total, worst, skipped);
}

std::string game_name(const testing::TestParamInfo<std::string>& i) { return sanitize(i.param); }

INSTANTIATE_TEST_SUITE_P(
    Data, PuzzlePositions, testing::ValuesIn(ids_of(data_game_positions())), game_name);
INSTANTIATE_TEST_SUITE_P(Shared, PuzzlePositions, testing::ValuesIn(shared_game_ids()), game_name);

// The Shared instantiation (built from the lists) names exactly the games with expectations
// that tests/data alone does not cover in full.
TEST(SharedPuzzlePositionsTable, IdsAreTheGamesWithExpectations) {
    std::vector<std::string> all = ids_of(all_game_positions()), both = shared_game_ids();
    for (const std::string& id : ids_of(data_game_positions()))
        if (!std::binary_search(both.begin(), both.end(), id)) both.push_back(id);
    std::sort(both.begin(), both.end());
    EXPECT_EQ(both, all);
}

class SlowPuzzlePositions : public testing::TestWithParam<SlowPosition> { };

TEST_P(SlowPuzzlePositions, Slow) {
    const SlowPosition&  s = GetParam();
    const GamePositions* g = find_game(s.id);
    ASSERT_NE(g, nullptr) << s.id << " has no per-position expectations";
    ASSERT_EQ(g->error, "") << g->id;
    ASSERT_LT(std::size_t(s.k), g->needs.size());
    ASSERT_TRUE(has_needs(g->needs[std::size_t(s.k)])) << "nothing to check at k=" << s.k;
    const Loaded l = load_text(g->text, g->id, g->lenient);
    ASSERT_TRUE(l.game) << l.err.to_string();
    Walker       w(*l.game);
    const double seconds = run_position(*g, w, std::size_t(s.k), s.budgetSeconds * time_scale());
    std::printf("  %s k=%d: %.2f s (measured before: %s)\n", s.id, s.k, seconds, s.measured);
}

INSTANTIATE_TEST_SUITE_P(Shared, SlowPuzzlePositions, testing::ValuesIn(slow_positions()),
    [](const testing::TestParamInfo<SlowPosition>& i) {
        return sanitize(std::string(i.param.id)) + "_k" + std::to_string(i.param.k);
    });

// Every slow entry names a position that exists and is checked.
TEST(SharedSlowPuzzlePositionsTable, EntriesAreCheckedPositions) {
    for (const SlowPosition& s : slow_positions()) {
        const GamePositions* g = find_game(s.id);
        ASSERT_NE(g, nullptr) << s.id;
        ASSERT_LT(std::size_t(s.k), g->needs.size()) << s.id;
        EXPECT_TRUE(has_needs(g->needs[std::size_t(s.k)])) << s.id << " k=" << s.k;
    }
}

// COUNTS.md: every game row is mapped (to a puzzle file, an embedded text, or a stated absence),
// and the number of exact counts is the 363 the file announces.
TEST(SharedCountsMd, EveryRowIsMapped) {
    EXPECT_EQ(unmapped_counts_rows(), std::vector<std::string>{});
    std::size_t       checked = 0;
    const std::size_t total   = counts_md_exact_total(checked);
    EXPECT_EQ(total, 363u);
    std::size_t needs = 0;
    for (const GamePositions& g : all_game_positions())
        for (const PositionNeeds& n : g.needs)
            needs += n.exactFromFtxi;
    EXPECT_EQ(needs, checked) << "every exact count of a present game is checked";
    std::printf(
        "  COUNTS.md: %zu exact counts, %zu of them for games present here\n", total, checked);
}

// Issue 13: listing or counting the actions of a position that has none costs no more than its
// verdict. Every position of these games known to have no legal action (an exact count of 0, a
// mate flag 0, a checkmate or stalemate claim), through the one legal-action policy as `fived
// actions` and `fived count` use it: nothing listed, a count of 0, and an effort bound instead
// of a time budget: no depth-first node beyond the picker's probe (none at all when in check),
// and no more hypercuboid points than the verdict's existence test. (Before the picker, `fived
// actions` on cwmtt-manyChecks k=52 ran its depth-first search for minutes and `fived count`
// spent 100,000 nodes there before switching engines.)
// The number of positions of `games` checked.
int check_no_action_positions(const std::vector<GamePositions>& games) {
    int checked = 0;
    for (const GamePositions& g : games) {
        if (!g.error.empty()) continue;
        const Loaded l = load_text(g.text, g.id, g.lenient);
        if (!l.game) continue;
        Walker w(*l.game);
        for (std::size_t k = 0; k < g.needs.size(); ++k) {
            const PositionNeeds& n    = g.needs[k];
            const bool           none = (n.exact && *n.exact == 0) || (n.exists && !*n.exists)
                || (n.verdict && *n.verdict != movegen::Verdict::Ongoing);
            if (!none) continue;
            movegen::Multiverse&       mv    = w.at(k);
            const std::string          where = g.id + " k=" + std::to_string(k);
            movegen::HypercuboidSearch verdictSearch;
            EXPECT_FALSE(verdictSearch.exists(mv)) << where;
            movegen::ActionPicker picker;
            picker.reset(mv);
            std::uint64_t listed = 0;
            picker.for_each([&](std::span<const movegen::Move>) { return ++listed, true; });
            EXPECT_EQ(listed, 0u) << where;
            const std::uint64_t nodes = picker.depth_first_nodes();
            EXPECT_LE(nodes, movegen::ActionPicker::ProbeNodes + 1) << where;
            if (movegen::in_check_at_turn_start(mv)) {
                EXPECT_EQ(nodes, 0u) << where;
            }
            EXPECT_LE(picker.hypercuboid_points(), verdictSearch.stats().points) << where;
            picker.reset(mv);
            EXPECT_EQ(picker.count(), 0u) << where;
            EXPECT_EQ(movegen::count_legal_actions(mv), 0u) << where;
            ++checked;
        }
    }
    testing::Test::RecordProperty("positions", checked);
    std::printf("  %d positions without a legal action\n", checked);
    return checked;
}

TEST(NoActionPositions, ListedAndCountedAtTheCostOfTheVerdict) {
    // The mates and stalemates claimed by the copied files.
    EXPECT_GE(check_no_action_positions(data_game_positions()), 8);
}

TEST(SharedNoActionPositions, ListedAndCountedAtTheCostOfTheVerdict) {
    // The final positions of the COUNTS.md games with 0 actions, and the mates of the claims.
    EXPECT_GE(check_no_action_positions(all_game_positions()), 8);
}

} // namespace
} // namespace fived::testutil
