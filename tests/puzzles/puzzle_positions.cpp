#include "tests/puzzles/puzzle_positions.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <regex>
#include <span>
#include <sstream>

#include "movegen/hypercuboid.h"
#include "movegen/movegen.h"
#include "tests/puzzles/puzzle_claims.h"
#include "tests/puzzles/puzzle_util.h"

namespace fived::testutil {

namespace {

using movegen::Verdict;

// COUNTS.md names its games after ftxi's test files; this maps each to the puzzle file that holds
// the same main line, to a text embedded here, or says why it cannot be checked.
struct CountsGame {
    const char* name;
    const char* file;     // puzzle file id, or nullptr
    const char* embedded; // 5DPGN text, or nullptr
    const char* absent;   // why neither exists
};

// Branched 5DPGN spec (../specs/000_…) §1.3. The spec's 5DFEN has five pawns per side on a 6-wide
// board (a typo the spec's own parser would reject); six are meant, as the count 16 shows.
constexpr const char* SixBySix = R"([Board "custom"]
[Size "6x6"]
[Timelines "Odd"]
[r*nqk*nr*/p*p*p*p*p*p*/6/6/P*P*P*P*P*P*/R*NQK*NR*:0:1:w]

1w. Nd3
)";

// Branched 5DPGN spec §5.1 (the deduplication example; its main line). The spec's text also drops
// a pawn from each 5DFEN row; the Two Timelines start is meant.
constexpr const char* TwoTimelinesDedup = R"([Board "custom"]
[Size "8x8"]
[Timelines "Even"]
[r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*:+0:1:w]
[r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*:-0:1:w]

1. (-0T1)Nf3 (+0T1)e3
)";

// clang-format off
constexpr std::array CountsGames{
    CountsGame{"standard", "cwmtt-standard", nullptr, nullptr},
    CountsGame{"softmate", "ftxi-softmate-tree", nullptr, nullptr},
    CountsGame{"futures", "cwmtt-futures", nullptr, nullptr},
    CountsGame{"100timelines", "cwmtt-100-timelines", nullptr, nullptr},
    CountsGame{"another", "cwmtt-another", nullptr, nullptr},
    CountsGame{"exiledKings", "cwmtt-exiledKings", nullptr, nullptr},
    CountsGame{"small", "cwmtt-small", nullptr, nullptr},
    CountsGame{"silly", "cwmtt-silly", nullptr, nullptr},
    CountsGame{"wide", "cwmtt-wide", nullptr, nullptr},
    CountsGame{"manyChecks", "cwmtt-manyChecks", nullptr, nullptr},
    CountsGame{"NP", "cwmtt-NP", nullptr, nullptr},
    CountsGame{"NP0", "cwmtt-NP0", nullptr, nullptr},
    CountsGame{"ctp1", "cwmtt-ctp1", nullptr, nullptr},
    CountsGame{"fantasie_nikita", "ftxi-branched-example-game", nullptr, nullptr},
    CountsGame{"six_by_six", nullptr, SixBySix, nullptr},
    CountsGame{"two_timelines_dedup", nullptr, TwoTimelinesDedup, nullptr},
    CountsGame{"verysmall", nullptr, nullptr, "ftxi test/pgn/verysmall.5dpgn is not in ../shared"},
    CountsGame{"number1", nullptr, nullptr, "ftxi test/pgn/number1.5dpgn is not in ../shared"},
    CountsGame{"ultra_wide", nullptr, nullptr, "ftxi test/random_action.cpp is not in ../shared"},
};
// clang-format on

// ../shared/puzzles/COUNTS.md (its games are mostly the cwmtt ones, GPL-3.0: it stays there).
fs::path counts_md() { return testdata::locate("puzzles/COUNTS.md"); }

// One COUNTS.md row: per position an exact count (or nullopt for `T`) and the timeline count.
struct CountsRow {
    std::string                               name;
    std::vector<std::optional<std::uint64_t>> counts;
    std::vector<int>                          timelines;
};

std::vector<CountsRow> parse_counts_md(const std::string& text) {
    std::vector<CountsRow> rows;
    std::istringstream     in(text);
    std::string            line;
    const std::regex       rowRe(R"(^\| (\S+) \([^)]*\) \| ([0-9T\[\] ]+) \|\s*$)");
    const std::regex       tokRe(R"(^(\d+|T)(?:\[(\d+)\])?$)");
    while (std::getline(in, line)) {
        std::smatch m;
        if (!std::regex_match(line, m, rowRe)) continue;
        CountsRow          row{m[1].str(), {}, {}};
        std::istringstream toks(m[2].str());
        std::string        tok;
        while (toks >> tok) {
            std::smatch t;
            if (!std::regex_match(tok, t, tokRe)) {
                row.counts.clear();
                break;
            }
            row.counts.push_back(
                t[1] == "T" ? std::nullopt : std::optional<std::uint64_t>(std::stoull(t[1])));
            row.timelines.push_back(t[2].matched ? std::stoi(t[2]) : 1);
        }
        if (!row.counts.empty()) rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<std::string> split_ws(const std::string& s) {
    std::istringstream       in(s);
    std::vector<std::string> out;
    for (std::string t; in >> t;)
        out.push_back(t);
    return out;
}

void add_source(PositionNeeds& n, const std::string& s) {
    if (!n.sources.empty()) n.sources += ", ";
    n.sources += s;
}

// The expectation a claim row puts on the final position.
void apply_claim(PositionNeeds& n, const ClaimRow& row) {
    switch (row.expect) {
        case Expect::Checkmate:
            n.verdict = Verdict::Checkmate;
            n.inCheck = true;
            break;
        case Expect::Stalemate:
            n.verdict = Verdict::Stalemate;
            n.inCheck = false;
            break;
        case Expect::NotMate:
        case Expect::MateIn1: n.exists = true; break;
        case Expect::InCheckNotMate:
            n.exists  = true;
            n.inCheck = true;
            break;
        case Expect::InCheck: n.inCheck = true; break;
        case Expect::Counts:
        case Expect::Rejected: return;
    }
    add_source(n, std::string("claim (") + row.group + ")");
}

// The game with this id, loaded once to size its needs (appended if new).
GamePositions* find_or_load(std::vector<GamePositions>& games, const std::string& id,
    const std::string& file, const std::string& text, bool lenient) {
    for (GamePositions& g : games)
        if (g.id == id) return &g;
    const Loaded  l = load_text(text, file.empty() ? id : file, lenient);
    GamePositions g{id, file, text, lenient, {}, ""};
    if (!l.game) {
        g.error = "does not load: " + l.err.to_string();
        g.needs.resize(1);
    } else {
        g.needs.resize(l.game->mainLine.size() + 1);
    }
    games.push_back(std::move(g));
    return &games.back();
}

// withShared: every puzzle file and COUNTS.md (../shared); else the files of tests/data alone.
std::vector<GamePositions> build(bool withShared) {
    std::vector<GamePositions> games;

    // 1. Headers and claims of every puzzle file.
    std::vector<fs::path> files;
    for (const std::string& name :
        withShared ? testdata::all_files("puzzles") : testdata::data_files("puzzles"))
        files.push_back(testdata::locate("puzzles/" + name));
    for (const fs::path& p : files) {
        const std::string id   = p.stem().string();
        const ClaimRow*   row  = find_claim(id);
        const std::string text = read_file(p);
        if (row && row->expect == Expect::Rejected) continue;
        const auto counts = header_value(text, "ActionCounts");
        const auto flags  = header_value(text, "MateFlags");
        const bool claims = row && row->expect != Expect::Counts;
        if (!counts && !flags && !claims) continue;
        GamePositions* g =
            find_or_load(games, id, p.filename().string(), text, row && row->lenient);
        if (!g->error.empty()) continue;
        const std::size_t n = g->needs.size();
        if (counts) {
            const std::vector<std::string> v = split_ws(*counts);
            if (v.size() == 1) {
                g->needs[n - 1].exact = std::stoull(v[0]);
                add_source(g->needs[n - 1], "[ActionCounts] (final position, exact)");
            } else if (v.size() != n) {
                g->error = "[ActionCounts] has " + std::to_string(v.size()) + " numbers for "
                    + std::to_string(n) + " positions";
            } else {
                for (std::size_t k = 0; k < n; ++k) {
                    g->needs[k].capped = std::stoull(v[k]);
                    add_source(g->needs[k], "[ActionCounts] (cap 1000)");
                }
            }
        }
        if (flags) {
            if (flags->size() != n) {
                g->error += "[MateFlags] has " + std::to_string(flags->size()) + " digits for "
                    + std::to_string(n) + " positions";
            } else {
                for (std::size_t k = 0; k < n; ++k) {
                    g->needs[k].exists = (*flags)[k] == '1';
                    add_source(g->needs[k], "[MateFlags]");
                }
            }
        }
        if (claims) apply_claim(g->needs[n - 1], *row);
    }

    if (!withShared) {
        std::sort(games.begin(), games.end(),
            [](const GamePositions& a, const GamePositions& b) { return a.id < b.id; });
        return games;
    }
    // 2. COUNTS.md: exact counts per position, for the games present.
    const std::vector<CountsRow> rows = parse_counts_md(read_file(counts_md()));
    for (const CountsRow& r : rows) {
        const CountsGame* cg = nullptr;
        for (const CountsGame& c : CountsGames)
            if (r.name == c.name) cg = &c;
        if (!cg || cg->absent) continue; // CountsMd.EveryRowIsMapped reports unmapped rows
        GamePositions* g = nullptr;
        if (cg->file) {
            const fs::path  p   = puzzle_file(cg->file);
            const ClaimRow* row = find_claim(cg->file);
            g                   = find_or_load(
                                  games, cg->file, p.filename().string(), read_file(p), row && row->lenient);
        } else {
            g = find_or_load(games, cg->name, "", cg->embedded, false);
        }
        if (!g->error.empty()) continue;
        if (r.counts.size() != g->needs.size()) {
            g->error = "COUNTS.md row `" + r.name + "` has " + std::to_string(r.counts.size())
                + " positions, the main line " + std::to_string(g->needs.size());
            continue;
        }
        for (std::size_t k = 0; k < r.counts.size(); ++k) {
            g->needs[k].timelines = r.timelines[k];
            if (!r.counts[k]) continue;
            g->needs[k].exact         = *r.counts[k];
            g->needs[k].exactFromFtxi = true;
            add_source(g->needs[k], "COUNTS.md " + r.name);
        }
    }
    std::sort(games.begin(), games.end(),
        [](const GamePositions& a, const GamePositions& b) { return a.id < b.id; });
    return games;
}

// RULES §7 #2: a Black pawn or brawn double step along L (ftxi does not generate it).
bool black_double_step_along_l(const movegen::Multiverse& mv, const movegen::Move& m) {
    if (m.is_physical() || !(m.flags & movegen::MF_DOUBLE)) return false;
    const movegen::Piece p = mv.board(m.from.l(), m.from.v()).piece_on(m.from.sq());
    return movegen::color_of(p) == movegen::BLACK && movegen::is_pawnlike(movegen::type_of(p));
}

} // namespace

const std::vector<GamePositions>& all_game_positions() {
    static const std::vector<GamePositions> games = build(true);
    return games;
}

const std::vector<GamePositions>& data_game_positions() {
    static const std::vector<GamePositions> games = build(false);
    return games;
}

std::vector<std::string> shared_game_ids() {
    std::vector<std::string> ids;
    for (const std::string& name : testdata::shared_files("puzzles")) {
        const std::string id  = fs::path(name).stem().string();
        const ClaimRow*   row = find_claim(id);
        if (!row || row->expect != Expect::Rejected) ids.push_back(id);
    }
    for (const CountsGame& c : CountsGames)
        if (c.embedded)
            ids.push_back(c.name);
        else if (c.file && !is_shared_only(c.file))
            ids.push_back(c.file);
    std::sort(ids.begin(), ids.end());
    return ids;
}

std::vector<std::string> unmapped_counts_rows() {
    std::vector<std::string> out;
    for (const CountsRow& r : parse_counts_md(read_file(counts_md()))) {
        bool known = false;
        for (const CountsGame& c : CountsGames)
            known = known || r.name == c.name;
        if (!known) out.push_back(r.name);
    }
    return out;
}

std::size_t counts_md_exact_total(std::size_t& checked) {
    std::size_t total = 0;
    checked           = 0;
    for (const CountsRow& r : parse_counts_md(read_file(counts_md()))) {
        const std::size_t exact =
            std::size_t(std::count_if(r.counts.begin(), r.counts.end(), [](auto& c) { return c; }));
        total += exact;
        for (const CountsGame& c : CountsGames)
            if (r.name == c.name && !c.absent && (c.embedded || fs::exists(puzzle_file(c.file))))
                checked += exact;
    }
    return total;
}

std::string check_position(movegen::Multiverse& mv, const PositionNeeds& need, double& seconds,
    std::uint64_t& nodes, std::string* note) {
    Stopwatch sw;
    // One count answers every count-like expectation: exact > capped; existence and verdicts
    // come from the hypercuboid search (the engine's verdict), which must agree with any count
    // made here. Counts go through count_legal_actions() as `fived count` does (the one
    // legal-action policy, movegen/picker.h).
    std::uint64_t              n     = 0;
    std::uint64_t              bound = 0; // n is exact when n < bound
    movegen::HypercuboidSearch hc;
    const bool                 exists = hc.exists(mv);
    if (need.exact) {
        n     = movegen::count_legal_actions(mv);
        bound = UINT64_MAX;
    } else if (need.capped) {
        n     = movegen::count_legal_actions(mv, 1000);
        bound = 1000;
    } else if (need.exists || need.verdict) {
        n     = exists ? 1 : 0;
        bound = 1;
    }
    const bool          existsMismatch = (need.exact || need.capped) && (n > 0) != exists;
    std::optional<bool> inCheck;
    if (need.inCheck || (need.verdict && n == 0)) inCheck = movegen::in_check_at_turn_start(mv);
    seconds = sw.seconds();
    nodes   = hc.stats().points; // hypercuboid points tested (counts report no nodes)

    // A COUNTS.md difference that is exactly ftxi's missing Black double steps along L.
    bool ftxiDeviation = false;
    if (need.exact && n != *need.exact && need.exactFromFtxi && mv.to_move() == movegen::BLACK) {
        const movegen::Multiverse& cmv     = mv;
        std::uint64_t              without = 0;
        movegen::ActionSearch      again(mv);
        again.for_each([&](std::span<const movegen::Move> a) {
            for (const movegen::Move& m : a)
                if (black_double_step_along_l(cmv, m)) return true;
            ++without;
            return true;
        });
        if (without == *need.exact) {
            ftxiDeviation = true;
            if (note)
                *note = "COUNTS.md (ftxi) " + std::to_string(*need.exact) + " = fived "
                    + std::to_string(n) + " minus " + std::to_string(n - without)
                    + " actions with a Black double step along L (RULES §7 #2)";
        }
    }

    std::ostringstream err;
    if (existsMismatch)
        err << "  the hypercuboid search says a legal action "
            << (exists ? "exists" : "does not exist") << ", the enumeration counted " << n << '\n';
    if (need.timelines && mv.timeline_count() != *need.timelines)
        err << "  timelines: expected " << *need.timelines << ", fived " << mv.timeline_count()
            << " (the game does not match its COUNTS.md row)\n";
    if (need.exact && n != *need.exact && !ftxiDeviation)
        err << "  legal actions: expected " << *need.exact << ", fived " << n << '\n';
    if (need.capped && std::min<std::uint64_t>(n, 1000) != *need.capped)
        err << "  legal actions (cap 1000): expected " << *need.capped << ", fived "
            << (n >= bound ? ">= " : "") << std::min<std::uint64_t>(n, 1000) << '\n';
    if (need.exists && (n > 0) != *need.exists)
        err << "  legal action exists: expected " << *need.exists << ", fived " << (n > 0) << '\n';
    if (need.inCheck && inCheck != need.inCheck)
        err << "  in check: expected " << *need.inCheck << ", fived " << *inCheck << '\n';
    if (need.verdict) {
        const Verdict v = n > 0 ? Verdict::Ongoing
            : *inCheck          ? Verdict::Checkmate
                                : Verdict::Stalemate;
        if (v != *need.verdict)
            err << "  verdict: expected " << verdict_name(*need.verdict) << ", fived "
                << verdict_name(v) << '\n';
    }
    return err.str();
}

// Positions whose check took more than 1 s in a survey of every position (Release build of the
// hypercuboid verdicts and the thrash-aware count, 2026-11-21, this 2-core machine with another
// test run in parallel). All of them are exact counts of hundreds of thousands to 1.6 million
// actions (existence and verdicts take milliseconds everywhere). They run in the `slow` group, one
// test per position; CI runs both groups. Budget: about 5x the measured time, at least 10 s.
// SlowPuzzlePositionsTable checks that every entry names a checked position.
const std::vector<SlowPosition>& slow_positions() {
    // clang-format off
    static const std::vector<SlowPosition> table{
        {"cwmtt-NP", 56, 30, "4.9 s"},
        {"cwmtt-NP", 81, 40, "7.6 s"},
        {"cwmtt-NP0", 56, 30, "5.2 s"},
        {"cwmtt-NP0", 81, 50, "9.3 s"},
        {"cwmtt-ctp1", 12, 30, "4.9 s"},
        {"cwmtt-ctp1", 15, 10, "1.3 s"},
        {"cwmtt-wide", 4, 10, "2.0 s"},
        {"cwmtt-wide", 7, 20, "3.7 s"},
        {"cwmtt-wide", 22, 40, "6.6 s"},
    };
    // clang-format on
    return table;
}

bool is_slow(const std::string& id, std::size_t k) {
    for (const SlowPosition& s : slow_positions())
        if (id == s.id && std::size_t(s.k) == k) return true;
    return false;
}

} // namespace fived::testutil
