// Google Benchmark suite of the rules engine (STYLE.md §2.11, issue #2 "Must show" 4):
//
//  * BM_PhysicalMoves        single-board positions at T1 (no other board exists, so every move is
//                            physical): moves/s of generate_moves();
//  * BM_SuperPhysicalMoves   multi-timeline positions: moves/s and jumps/s of generate_moves();
//  * BM_CheckTest            royal_attacked() for both colours: tests/s;
//  * BM_InCheckAtTurnStart   RULES §5.4 (passes the mandatory boards, then the attack test);
//  * BM_CountActions         legal-action enumeration: actions/s on the 271,480-action final
//                            position of cwmtt-another and on ftxi-count-30134 (30,134);
//  * BM_ExistsLegalAction    the mate test on every non-terminal position of those games;
//  * BM_NoAction_*           `fived actions` + `fived count` (the legal-action picker) on the
//                            positions of the COUNTS.md games without a legal action, and on
//                            cwmtt-manyChecks k=52 alone: positions/s and the slowest (issue 13);
//  * BM_SparseCount_*        counting on sparse wide positions (ctp1 k=12, NP k=56, NP0 k=81):
//                            actions/s (issue 13: >= 1M);
//  * BM_FirstN_NP_71*        the first 100,000 actions of NP k=71, with and without formatting
//                            each action's text: actions/s;
//  * BM_VerdictsCountsGames  verdict() of every position of the COUNTS.md games present in
//                            ../shared/puzzles: total and per-position maximum, in this process
//                            (each position timed on its own, after one warm-up pass over all).
//                            With FIVED_BENCH_VERDICT_FORK=1 each position runs in a child
//                            process with a wall-time limit (FIVED_BENCH_VERDICT_LIMIT seconds,
//                            default 30; over the limit: `over_limit`, counted with the limit),
//                            for engines whose verdicts may not end.
//
// Positions come from ../shared/puzzles (or $FIVED_PUZZLES) when it is present; otherwise from
// positions embedded here (variant starts, own opening positions, and positions reached by
// deterministic play), and the named shared benchmarks are skipped.

#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <benchmark/benchmark.h>

#include "movegen/actions.h"
#include "movegen/movegen.h"
#include "movegen/picker.h"
#include "movegen/variants.h"
#include "notation/game.h"

namespace fived::bench {
namespace {

namespace fs = std::filesystem;
using movegen::Move;
using movegen::Multiverse;

// The puzzle folder: $FIVED_PUZZLES, else ../shared/puzzles as configured (FIVED_SHARED_DIR).
fs::path puzzle_dir() {
    if (const char* e = std::getenv("FIVED_PUZZLES"); e && *e) return e;
    return fs::path(FIVED_SHARED_DIR) / "puzzles";
}
const fs::path    PuzzleDir = puzzle_dir();
const std::string PuzzlesAbsent =
    PuzzleDir.string() + " is absent (set FIVED_PUZZLES to the puzzles folder)";

// --- Positions -----------------------------------------------------------------------------------

std::optional<notation::LoadedGame> load_text(const std::string& text, const std::string& name) {
    notation::ReadOptions opt;
    opt.checkCaptureMark = opt.checkJumpIndicator = false; // third-party spelling (INDEX.md)
    auto game                                     = notation::load_game(text, name, opt);
    if (!game.ok()) return std::nullopt;
    return std::move(*game);
}

std::optional<notation::LoadedGame> load_puzzle(const std::string& id) {
    std::ifstream in(PuzzleDir / (id + ".5dpgn"), std::ios::binary);
    if (!in) return std::nullopt;
    std::stringstream ss;
    ss << in.rdbuf();
    return load_text(ss.str(), id);
}

// Every position of a game's main line.
std::vector<Multiverse> all_positions(const notation::LoadedGame& g) {
    std::vector<Multiverse>        out;
    Multiverse                     mv = g.start.fork();
    std::vector<movegen::MoveUndo> undo;
    out.push_back(mv.fork());
    for (const auto& action : g.mainLine) {
        for (const Move& m : action) {
            undo.emplace_back();
            mv.make_move(m, undo.back());
        }
        out.push_back(mv.fork());
    }
    return out;
}

Multiverse final_position(const notation::LoadedGame& g) {
    return std::move(all_positions(g).back());
}

Multiverse variant(const char* name) {
    const movegen::VariantDef* v = movegen::find_variant(name);
    Multiverse                 mv(movegen::variant_rules(*v));
    std::string                err;
    movegen::setup_variant(*v, mv, err);
    return mv;
}

// Deterministic play from a start: on even plies the first legal action with a jump, otherwise
// the first legal action. Gives embedded multi-timeline positions.
void play(Multiverse& mv, int plies, std::vector<movegen::MoveUndo>& undo) {
    for (int ply = 0; ply < plies; ++ply) {
        std::vector<Move>     first, jumping;
        unsigned              n = 0;
        movegen::ActionSearch s(mv);
        s.for_each([&](std::span<const Move> a) {
            if (n == 0) first.assign(a.begin(), a.end());
            for (const Move& m : a)
                if (jumping.empty() && !m.is_physical()) jumping.assign(a.begin(), a.end());
            return ++n < 300 && jumping.empty();
        });
        const std::vector<Move>& act = (ply % 2 == 0 && !jumping.empty()) ? jumping : first;
        if (act.empty()) return;
        for (const Move& m : act) {
            undo.emplace_back();
            mv.make_move(m, undo.back());
        }
    }
}

// The COUNTS.md games present in ../shared/puzzles (puzzle ids, see tests/puzzles).
constexpr const char* CountsGames[] = {"cwmtt-standard", "ftxi-softmate-tree", "cwmtt-futures",
    "cwmtt-100-timelines", "cwmtt-another", "cwmtt-exiledKings", "cwmtt-small", "cwmtt-silly",
    "cwmtt-wide", "cwmtt-manyChecks", "cwmtt-NP", "cwmtt-NP0", "cwmtt-ctp1",
    "ftxi-branched-example-game"};

// Multi-timeline positions for the move generation and check benchmarks.
const std::vector<Multiverse>& multi_timeline_positions() {
    static const std::vector<Multiverse> v = [] {
        std::vector<Multiverse> out;
        for (const char* id :
            {"cwmtt-another", "ftxi-count-30134", "cwmtt-exiledKings", "cwmtt-silly", "cwmtt-NP"})
            if (auto g = load_puzzle(id))
                for (Multiverse& mv : all_positions(*g))
                    if (mv.timeline_count() > 1) out.push_back(std::move(mv));
        if (out.empty()) {
            for (const char* name :
                {"Standard", "Standard - Two Timelines", "Standard - Turn Zero"}) {
                Multiverse                     mv = variant(name);
                std::vector<movegen::MoveUndo> undo;
                for (int ply = 0; ply < 8; ++ply) {
                    play(mv, 1, undo);
                    if (mv.timeline_count() > 1) out.push_back(mv.fork());
                }
            }
        }
        return out;
    }();
    return v;
}

// Single-board positions at T1 (own opening positions written as 5DFEN; every move physical).
const std::vector<Multiverse>& single_board_positions() {
    static const std::vector<Multiverse> v = [] {
        std::vector<Multiverse> out;
        out.push_back(variant("Standard"));
        for (const char* fen : {// Italian Game after 4.d3 Bc5 (White to move).
                 "r*1bqk*2r*/p*p*p*p*1p*p*p*/2n2n2/2b1p3/2B1P3/3P1N2/P*P*P*2P*P*P*/R*NBQK*2R*",
                 // Queen's Gambit Declined, a middle-game tabiya.
                 "r*2q1rk1/p*p*1nbp*p*p*/4pn2/3p4/2PP4/2N1PN2/P*P*3P*P*P*/R*2QKB1R*",
                 // A sparse endgame.
                 "8/5pk1/6p1/3R4/1r6/6P1/5PK1/8"}) {
            const std::string text =
                std::string("[Board \"custom\"]\n[Size \"8x8\"]\n[") + fen + ":0:1:w]\n";
            if (auto g = load_text(text, "fen")) out.push_back(g->start.fork());
        }
        return out;
    }();
    return v;
}

// --- Move generation ---------------------------------------------------------------------------

void BM_PhysicalMoves(benchmark::State& state) {
    const auto&       positions = single_board_positions();
    std::vector<Move> moves;
    moves.reserve(1024);
    std::uint64_t n = 0;
    for (auto _ : state)
        for (const Multiverse& mv : positions) {
            moves.clear();
            movegen::generate_moves(mv, mv.to_move(), moves);
            n += moves.size();
            benchmark::DoNotOptimize(moves.data());
        }
    state.counters["moves/s"] = benchmark::Counter(double(n), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PhysicalMoves);

void BM_SuperPhysicalMoves(benchmark::State& state) {
    const auto&       positions = multi_timeline_positions();
    std::vector<Move> moves;
    moves.reserve(8192);
    std::uint64_t n = 0, jumps = 0;
    for (auto _ : state)
        for (const Multiverse& mv : positions) {
            moves.clear();
            movegen::generate_moves(mv, mv.to_move(), moves);
            n += moves.size();
            for (const Move& m : moves)
                jumps += !m.is_physical();
        }
    state.counters["moves/s"]   = benchmark::Counter(double(n), benchmark::Counter::kIsRate);
    state.counters["jumps/s"]   = benchmark::Counter(double(jumps), benchmark::Counter::kIsRate);
    state.counters["positions"] = double(positions.size());
}
BENCHMARK(BM_SuperPhysicalMoves);

// --- Check test -------------------------------------------------------------------------------

void BM_CheckTest(benchmark::State& state) {
    const auto&   positions = multi_timeline_positions();
    std::uint64_t n = 0, hits = 0;
    for (auto _ : state)
        for (const Multiverse& mv : positions) {
            hits += movegen::royal_attacked(mv, movegen::WHITE);
            hits += movegen::royal_attacked(mv, movegen::BLACK);
            n += 2;
        }
    benchmark::DoNotOptimize(hits);
    state.counters["tests/s"] = benchmark::Counter(double(n), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_CheckTest);

void BM_InCheckAtTurnStart(benchmark::State& state) {
    static std::vector<Multiverse> positions = [] {
        std::vector<Multiverse> v;
        for (const Multiverse& mv : multi_timeline_positions())
            v.push_back(mv.fork());
        return v;
    }();
    std::uint64_t n = 0, hits = 0;
    for (auto _ : state)
        for (Multiverse& mv : positions) {
            hits += movegen::in_check_at_turn_start(mv);
            ++n;
        }
    benchmark::DoNotOptimize(hits);
    state.counters["tests/s"] = benchmark::Counter(double(n), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_InCheckAtTurnStart);

// --- Legal actions ----------------------------------------------------------------------------

void count_actions(benchmark::State& state, const char* id, std::uint64_t expected) {
    auto g = load_puzzle(id);
    if (!g) {
        state.SkipWithError(PuzzlesAbsent.c_str());
        return;
    }
    Multiverse    mv    = final_position(*g);
    std::uint64_t total = 0, n = 0;
    for (auto _ : state) {
        movegen::ActionSearch s(mv);
        n = s.count();
        total += n;
    }
    if (n != expected) state.SkipWithError("wrong count");
    state.counters["actions"]   = double(n);
    state.counters["actions/s"] = benchmark::Counter(double(total), benchmark::Counter::kIsRate);
}
void BM_CountActions_another(benchmark::State& s) { count_actions(s, "cwmtt-another", 271480); }
void BM_CountActions_30134(benchmark::State& s) { count_actions(s, "ftxi-count-30134", 30134); }
BENCHMARK(BM_CountActions_another)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_CountActions_30134)->Unit(benchmark::kMillisecond)->MinTime(2.0);

// Embedded fallback: count on the multi-timeline positions (no fixed expectation).
void BM_CountActions_embedded(benchmark::State& state) {
    static std::vector<Multiverse> positions = [] {
        std::vector<Multiverse> v;
        for (const Multiverse& mv : multi_timeline_positions())
            if (v.size() < 8) v.push_back(mv.fork());
        return v;
    }();
    std::uint64_t total = 0;
    for (auto _ : state)
        for (Multiverse& mv : positions)
            total += movegen::count_legal_actions(mv, 200000);
    state.counters["actions/s"] = benchmark::Counter(double(total), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_CountActions_embedded)->Unit(benchmark::kMillisecond);

void BM_ExistsLegalAction(benchmark::State& state) {
    static std::vector<Multiverse> positions = [] {
        std::vector<Multiverse> v;
        for (const char* id :
            {"cwmtt-another", "cwmtt-exiledKings", "cwmtt-standard", "cwmtt-silly"})
            if (auto g = load_puzzle(id))
                for (Multiverse& mv : all_positions(*g))
                    v.push_back(std::move(mv));
        if (v.empty())
            for (const Multiverse& mv : multi_timeline_positions())
                v.push_back(mv.fork());
        return v;
    }();
    std::uint64_t n = 0, yes = 0;
    for (auto _ : state)
        for (Multiverse& mv : positions) {
            yes += movegen::exists_legal_action(mv);
            ++n;
        }
    benchmark::DoNotOptimize(yes);
    state.counters["tests/s"]   = benchmark::Counter(double(n), benchmark::Counter::kIsRate);
    state.counters["positions"] = double(positions.size());
}
BENCHMARK(BM_ExistsLegalAction)->Unit(benchmark::kMillisecond);

// Listing and counting where there is no legal action (issue 13): every position of the COUNTS.md
// games without one (all are final positions: checkmates with 4 to 120 timelines), through the
// legal-action picker as `fived actions` and `fived count` use it. Per iteration, each position is
// listed once and counted once; `worst_ms` is the slowest position of the last iteration (the
// goal: every one under 20 ms, no more than its verdict).
void no_action(benchmark::State& state, const char* only) {
    static std::vector<std::pair<std::string, Multiverse>> all = [] {
        std::vector<std::pair<std::string, Multiverse>> v;
        for (const char* id : CountsGames)
            if (auto g = load_puzzle(id))
                for (Multiverse& mv : all_positions(*g))
                    if (movegen::verdict(mv) != movegen::Verdict::Ongoing)
                        v.emplace_back(id, std::move(mv));
        return v;
    }();
    std::vector<Multiverse*> positions;
    for (auto& [id, mv] : all)
        if (!only || id == only) positions.push_back(&mv);
    if (positions.empty()) {
        state.SkipWithError(PuzzlesAbsent.c_str());
        return;
    }
    movegen::ActionPicker picker;
    std::uint64_t         n = 0, listed = 0;
    double                worst = 0;
    for (auto _ : state) {
        worst = 0;
        for (Multiverse* mv : positions) {
            const auto t0 = std::chrono::steady_clock::now();
            picker.reset(*mv);
            picker.for_each([&](std::span<const Move>) { return ++listed, true; });
            picker.reset(*mv);
            listed += picker.count();
            worst = std::max(worst,
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                    .count());
            ++n;
        }
    }
    if (listed != 0) state.SkipWithError("an action was listed where there is none");
    state.counters["positions"]   = double(positions.size());
    state.counters["positions/s"] = benchmark::Counter(double(n), benchmark::Counter::kIsRate);
    state.counters["worst_ms"]    = worst;
}
void BM_NoAction_CountsGames(benchmark::State& s) { no_action(s, nullptr); }
void BM_NoAction_manyChecks(benchmark::State& s) { no_action(s, "cwmtt-manyChecks"); }
BENCHMARK(BM_NoAction_CountsGames)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NoAction_manyChecks)->Unit(benchmark::kMillisecond);

// Sparse wide counting (issue 13's goal: >= 1M actions/s): positions of real games with many
// timelines where legal actions are few compared to the combinations tried, counted through the
// legal-action picker as `fived count FILE --at K` does. k = actions played from the start of the
// main line; the expected counts are those of COUNTS.md.
void sparse_count(benchmark::State& state, const char* id, std::size_t k, std::uint64_t expected) {
    auto g = load_puzzle(id);
    if (!g || g->mainLine.size() < k) {
        state.SkipWithError(PuzzlesAbsent.c_str());
        return;
    }
    Multiverse    mv    = std::move(all_positions(*g)[k]);
    std::uint64_t total = 0, n = 0;
    for (auto _ : state) {
        n = movegen::count_legal_actions(mv);
        total += n;
    }
    if (n != expected) state.SkipWithError("wrong count");
    state.counters["actions"]   = double(n);
    state.counters["actions/s"] = benchmark::Counter(double(total), benchmark::Counter::kIsRate);
}
void BM_SparseCount_ctp1_12(benchmark::State& s) { sparse_count(s, "cwmtt-ctp1", 12, 809822); }
void BM_SparseCount_NP_56(benchmark::State& s) { sparse_count(s, "cwmtt-NP", 56, 1650388); }
void BM_SparseCount_NP0_81(benchmark::State& s) { sparse_count(s, "cwmtt-NP0", 81, 547302); }
BENCHMARK(BM_SparseCount_ctp1_12)->Unit(benchmark::kSecond)->Iterations(1)->Repetitions(3);
BENCHMARK(BM_SparseCount_NP_56)->Unit(benchmark::kSecond)->Iterations(1)->Repetitions(3);
BENCHMARK(BM_SparseCount_NP0_81)->Unit(benchmark::kSecond)->Iterations(1)->Repetitions(3);

// The first N actions of a wide position (issue 13: the first 100,000 of NP k=71 >= 5x faster
// than ftxi), through the picker as `fived actions FILE --at 71 --max 100000` lists them; the
// _formatted case also writes each action's text as that command does (without printing it).
void first_n(
    benchmark::State& state, const char* id, std::size_t k, std::uint64_t max, bool format) {
    auto g = load_puzzle(id);
    if (!g || g->mainLine.size() < k) {
        state.SkipWithError(PuzzlesAbsent.c_str());
        return;
    }
    Multiverse                mv      = std::move(all_positions(*g)[k]);
    Multiverse                printer = mv.fork();
    notation::ActionFormatter formatter(printer);
    movegen::ActionPicker     picker;
    std::uint64_t             total = 0, n = 0, chars = 0;
    for (auto _ : state) {
        n = 0;
        picker.reset(mv);
        picker.for_each([&](std::span<const Move> a) {
            if (format) chars += formatter.format(a).size();
            return ++n < max;
        });
        total += n;
    }
    benchmark::DoNotOptimize(chars);
    if (n != max) state.SkipWithError("fewer actions than N");
    state.counters["actions"]   = double(n);
    state.counters["actions/s"] = benchmark::Counter(double(total), benchmark::Counter::kIsRate);
}
void BM_FirstN_NP_71(benchmark::State& s) { first_n(s, "cwmtt-NP", 71, 100000, false); }
void BM_FirstN_NP_71_formatted(benchmark::State& s) { first_n(s, "cwmtt-NP", 71, 100000, true); }
BENCHMARK(BM_FirstN_NP_71)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FirstN_NP_71_formatted)->Unit(benchmark::kMillisecond);

// --- Verdicts of every position of the COUNTS.md games -----------------------------------------

// Runs verdict(mv) in a child process; returns its CPU seconds, or a negative value when the
// child is still running after `limit` seconds of wall time.
double timed_verdict(Multiverse& mv, double limit) {
    int fd[2];
    if (pipe(fd) != 0) return -2;
    const pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        const auto   t0 = std::chrono::steady_clock::now();
        const auto   v  = movegen::verdict(mv);
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        benchmark::DoNotOptimize(v);
        ssize_t w = write(fd[1], &s, sizeof s);
        (void)w;
        _exit(0);
    }
    close(fd[1]);
    double     s        = -1;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(limit);
    for (;;) {
        int   status = 0;
        pid_t r      = waitpid(pid, &status, WNOHANG);
        if (r == pid) {
            if (read(fd[0], &s, sizeof s) != sizeof s) s = -2;
            break;
        }
        if (std::chrono::steady_clock::now() > deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            s = -1;
            break;
        }
        usleep(200);
    }
    close(fd[0]);
    return s;
}

void BM_VerdictsCountsGames(benchmark::State& state) {
    std::vector<Multiverse> positions;
    for (const char* id : CountsGames)
        if (auto g = load_puzzle(id))
            for (Multiverse& mv : all_positions(*g))
                positions.push_back(std::move(mv));
    if (positions.empty()) {
        state.SkipWithError(PuzzlesAbsent.c_str());
        return;
    }
    const char*  env   = std::getenv("FIVED_BENCH_VERDICT_LIMIT");
    const double limit = env ? std::atof(env) : 30.0;
    double       total = 0, worst = 0;
    int          over = 0, under20ms = 0;
    const bool   fork = std::getenv("FIVED_BENCH_VERDICT_FORK") != nullptr;
    if (!fork)
        for (Multiverse& mv : positions) // warm-up: the per-thread searches reach their size
            benchmark::DoNotOptimize(movegen::verdict(mv));
    for (auto _ : state) {
        total = worst = 0;
        over = under20ms = 0;
        for (Multiverse& mv : positions) {
            double s;
            if (fork) {
                s = timed_verdict(mv, limit);
            } else {
                const auto t0 = std::chrono::steady_clock::now();
                benchmark::DoNotOptimize(movegen::verdict(mv));
                s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            }
            if (s < 0) {
                ++over;
                s = limit;
            }
            total += s;
            worst = std::max(worst, s);
            under20ms += s < 0.020;
        }
        state.SetIterationTime(total);
    }
    state.counters["positions"]  = double(positions.size());
    state.counters["total_s"]    = total;
    state.counters["max_s"]      = worst;
    state.counters["over_limit"] = over;
    state.counters["under_20ms"] = under20ms;
    state.counters["limit_s"]    = limit;
}
BENCHMARK(BM_VerdictsCountsGames)->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);

} // namespace
} // namespace fived::bench
