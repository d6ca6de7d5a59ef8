// Solver micro/macro benchmarks: each puzzle of the embedded bench suite solved from scratch
// (fresh table), with 1 and 2 threads; and table probe/store throughput.
#include <random>

#include <benchmark/benchmark.h>

#include "notation/game.h"
#include "solver/bench.h"
#include "solver/solver.h"
#include "solver/tt.h"

namespace {

using namespace fived;

movegen::Multiverse position(const solver::BenchPuzzle& p) {
    auto g = notation::load_game(p.pgn, p.id, notation::read_options(p.lenient));
    if (!g.ok()) std::abort();
    movegen::Multiverse            mv = g->start.fork();
    std::vector<movegen::MoveUndo> undo;
    notation::play_main_line(mv, *g, g->mainLine.size(), undo);
    return mv;
}

void BM_SolvePuzzle(benchmark::State& state) {
    const auto&               p   = solver::bench_suite()[std::size_t(state.range(0))];
    const movegen::Multiverse pos = position(p);
    solver::SolveOptions      o;
    o.maxMate           = p.maxMate;
    o.threads           = int(state.range(1));
    o.hashMb            = 16;
    o.buildTree         = false;
    std::uint64_t nodes = 0;
    for (auto _ : state) {
        const solver::SolveResult r = solver::solve(pos, o);
        nodes += r.nodes;
        benchmark::DoNotOptimize(r.mateIn);
    }
    state.SetLabel(p.id);
    state.counters["nodes/s"] = benchmark::Counter(double(nodes), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SolvePuzzle)
    ->ArgsProduct(
        {benchmark::CreateDenseRange(0, int(solver::bench_suite().size()) - 1, 1), {1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_TableProbeStore(benchmark::State& state) {
    solver::TranspositionTable tt;
    tt.resize_mb(16);
    std::mt19937_64 rng(1);
    std::uint64_t   hits = 0;
    for (auto _ : state) {
        const std::uint64_t k = rng();
        if (tt.probe(k)) ++hits;
        tt.store_disproof(k, 2, 1, 100);
        if (tt.probe(k)) ++hits;
    }
    benchmark::DoNotOptimize(hits);
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_TableProbeStore);

} // namespace
