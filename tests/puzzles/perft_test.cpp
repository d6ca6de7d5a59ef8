// TEST_P over tests/data/perft.txt (STYLE.md §2.10): fived's perft against numbers known from
// independent engines. Entries in the `slow` group are instantiated as PerftSlow/... and labelled
// slow in ctest; entries on a puzzle file left in ../shared (`shared:` positions, GPL/AGPL) as
// SharedPerft/... or SharedPerftSlow/..., labelled `shared`. Times are printed, never asserted (a
// loaded machine must not fail a right count): speed is measured in bench/ (movegen_bench) and by
// `fived bench`; ctest's timeout catches hangs.

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "movegen/actions.h"
#include "movegen/variants.h"
#include "tests/puzzles/puzzle_util.h"

namespace fived::testutil {
namespace {

struct PerftEntry {
    std::string   id, position, source;
    int           depth  = 0;
    std::uint64_t count  = 0;
    bool          slow   = false;
    double        budget = 0;
};

std::string trim(std::string s) {
    const auto b = s.find_first_not_of(" \t");
    const auto e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<PerftEntry> read_table() {
    std::vector<PerftEntry> out;
    std::ifstream           in(fs::path(FIVED_TEST_DATA_DIR) / "perft.txt");
    std::string             line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> f;
        for (std::size_t at = 0;;) {
            const std::size_t bar = line.find(" | ", at);
            f.push_back(trim(line.substr(at, bar == std::string::npos ? bar : bar - at)));
            if (bar == std::string::npos) break;
            at = bar + 3;
        }
        PerftEntry e;
        if (f.size() != 6) {
            e.id = "malformed: " + line; // fails in the test
            out.push_back(e);
            continue;
        }
        e.id       = f[0];
        e.position = f[1];
        e.depth    = std::stoi(f[2]);
        e.count    = std::stoull(f[3]);
        std::istringstream g(f[4]);
        std::string        group;
        g >> group >> e.budget;
        e.slow   = group == "slow";
        e.source = f[5];
        out.push_back(e);
    }
    return out;
}

// Whether the entry's position is a puzzle file left in ../shared.
bool on_shared_file(const PerftEntry& e) {
    const auto c = e.position.find(':');
    return (e.position.rfind("shared:", 0) == 0 || e.position.rfind("shared-nostartcheck:", 0) == 0)
        && testdata::is_shared_only("puzzles/" + e.position.substr(c + 1));
}

std::vector<PerftEntry> entries(bool slow, bool shared) {
    std::vector<PerftEntry> v;
    for (const PerftEntry& e : read_table())
        if (e.slow == slow && on_shared_file(e) == shared) v.push_back(e);
    return v; // an empty group instantiates no test (no placeholder that skips)
}

// The position of an entry, or nullopt and a failure message in `error`. `shared:` positions are
// puzzle files (tests/data/puzzles, or ../shared/puzzles for those left there).
std::optional<movegen::Multiverse> position_of(const PerftEntry& e, std::string& error) {
    auto starts = [&](const char* p) { return e.position.rfind(p, 0) == 0; };
    if (starts("variant:")) {
        const movegen::VariantDef* v = movegen::find_variant(e.position.substr(8));
        if (!v) {
            error = "unknown variant";
            return std::nullopt;
        }
        movegen::Multiverse mv(movegen::variant_rules(*v));
        if (!movegen::setup_variant(*v, mv, error)) return std::nullopt;
        return mv;
    }
    std::string text, name = e.id;
    bool        startCheck = true;
    if (starts("pgn:")) {
        text = e.position.substr(4);
        for (std::size_t at; (at = text.find("\\n")) != std::string::npos;)
            text.replace(at, 2, "\n");
    } else if (starts("shared:") || starts("shared-nostartcheck:")) {
        startCheck       = starts("shared:");
        const auto     c = e.position.find(':');
        const fs::path p = testdata::locate("puzzles/" + e.position.substr(c + 1));
        text             = read_file(p);
        name             = p.filename().string();
    } else {
        error = "unknown position kind";
        return std::nullopt;
    }
    const Prefix pre = load_prefix(text, name, false, startCheck);
    if (!pre.game || !pre.complete) {
        error = pre.err.to_string();
        return std::nullopt;
    }
    movegen::Multiverse            mv = pre.game->start.fork();
    std::vector<movegen::MoveUndo> undo;
    notation::play_main_line(mv, *pre.game, pre.game->mainLine.size(), undo);
    return mv;
}

void PrintTo(const PerftEntry& e, std::ostream* os) { *os << e.id; }

class PerftTest : public testing::TestWithParam<PerftEntry> { };

TEST_P(PerftTest, Count) {
    const PerftEntry& e = GetParam();
    ASSERT_GT(e.depth, 0) << e.id;
    std::string                        error;
    std::optional<movegen::Multiverse> mv = position_of(e, error);
    ASSERT_TRUE(mv) << e.id << ": " << error;
    const Stopwatch     sw;
    const std::uint64_t n = movegen::perft(*mv, e.depth);
    const double        s = sw.seconds();
    EXPECT_EQ(n, e.count) << e.id << " (" << e.source << ")";
    std::string why;
    EXPECT_TRUE(mv->is_ok(&why)) << why;
    std::printf("  %s: perft(%d) = %llu in %.2f s (table: %.0f s)\n", e.id.c_str(), e.depth,
        static_cast<unsigned long long>(n), s, e.budget * time_scale());
}

std::string entry_name(const testing::TestParamInfo<PerftEntry>& i) {
    std::string s = i.param.id;
    for (char& c : s)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return s;
}

INSTANTIATE_TEST_SUITE_P(Perft, PerftTest, testing::ValuesIn(entries(false, false)), entry_name);
INSTANTIATE_TEST_SUITE_P(PerftSlow, PerftTest, testing::ValuesIn(entries(true, false)), entry_name);
INSTANTIATE_TEST_SUITE_P(
    SharedPerft, PerftTest, testing::ValuesIn(entries(false, true)), entry_name);
INSTANTIATE_TEST_SUITE_P(
    SharedPerftSlow, PerftTest, testing::ValuesIn(entries(true, true)), entry_name);

TEST(PerftTable, HasTheGoldenNumbers) {
    const std::vector<PerftEntry> t = read_table();
    EXPECT_GE(t.size(), 12u);
    for (const PerftEntry& e : t)
        EXPECT_EQ(e.id.rfind("malformed", 0), std::string::npos) << e.id;
}

} // namespace
} // namespace fived::testutil
