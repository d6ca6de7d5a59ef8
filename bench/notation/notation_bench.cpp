// Reading and writing a large game tree, in MB/s of canonical text.
//
// The tree is random legal play from the Standard start (tests/notation/tree_gen.h): actions of
// every kind (jumps, branching, several moves per action on up to three timelines), with side
// variations everywhere; 220,000 nodes, about 10 MB in the full move style. Set
// FIVED_BENCH_NODES to change the size. Generating it takes a few seconds before the first
// benchmark runs.
//
//   BM_Parse        syntax only (parse_document)
//   BM_ReadTree     parse + replay of every node + standard order + deduplication
//   BM_WriteTree    write_tree (replays the tree to spell the moves)
// Each in the FULL and the SHORT move style; bytes/s counts the text read or written.
//   BM_ParseNested  parse_document on N nested variations `(1w. e3 (1b. e3 ...)))`, and
//   BM_ParseLong    on a main line of N actions: the parser keeps its own stack, so both grow
//                   linearly (the reported complexity, O(N), is the check; the tests check the
//                   results at these depths, not the time).

#include <cstdlib>
#include <string>

#include <benchmark/benchmark.h>

#include "movegen/variants.h"
#include "notation/parser.h"
#include "notation/reader.h"
#include "notation/writer.h"
#include "tests/notation/tree_gen.h"

namespace {

using namespace fived;
using notation::MoveStyle;

struct Fixture {
    notation::GameTree tree{movegen::Multiverse(movegen::GameRules{})};
    std::string        full, shortText;
};

const Fixture& fixture() {
    static const Fixture f = [] {
        Fixture                    fx;
        const movegen::VariantDef* v = movegen::find_variant("Standard");
        movegen::Multiverse        start(movegen::variant_rules(*v));
        std::string                msg;
        movegen::setup_variant(*v, start, msg);
        fx.tree.start = std::move(start);
        notation::testing_gen::TreeShape shape;
        const char*                      n = std::getenv("FIVED_BENCH_NODES");
        shape.maxNodes                     = n ? std::atoi(n) : 220000;
        shape.maxDepth                     = 70;
        shape.branchProb                   = 0.5;
        shape.window                       = 8;
        shape.seed                         = 2024;
        notation::testing_gen::random_tree(fx.tree, shape);
        fx.full      = notation::write_tree(fx.tree, MoveStyle::FULL);
        fx.shortText = notation::write_tree(fx.tree, MoveStyle::SHORT);
        return fx;
    }();
    return f;
}

const std::string& text_of(MoveStyle s) {
    return s == MoveStyle::FULL ? fixture().full : fixture().shortText;
}

void BM_Parse(benchmark::State& state) {
    const std::string& text = text_of(MoveStyle(state.range(0)));
    for (auto _ : state) {
        notation::Document   doc;
        notation::Diagnostic err;
        const bool           ok = notation::parse_document(text, "bench", doc, err);
        benchmark::DoNotOptimize(ok);
    }
    state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(text.size()));
    state.counters["nodes"] = double(fixture().tree.nodes.size());
}

void BM_ReadTree(benchmark::State& state) {
    const std::string& text = text_of(MoveStyle(state.range(0)));
    for (auto _ : state) {
        auto tree = notation::read_game_tree(text, "bench");
        if (!tree.ok()) state.SkipWithError(std::string(tree.status().message()).c_str());
        benchmark::DoNotOptimize(tree);
    }
    state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(text.size()));
    state.counters["nodes"] = double(fixture().tree.nodes.size());
}

void BM_WriteTree(benchmark::State& state) {
    const MoveStyle style = MoveStyle(state.range(0));
    std::size_t     bytes = 0;
    for (auto _ : state) {
        const std::string text = notation::write_tree(fixture().tree, style);
        bytes += text.size();
        benchmark::DoNotOptimize(text.data());
    }
    state.SetBytesProcessed(std::int64_t(bytes));
    state.counters["nodes"] = double(fixture().tree.nodes.size());
}

std::string serial_for(int i) { return std::to_string(i / 2 + 1) + (i % 2 ? "b." : "w."); }

// Parses `text` once per iteration, as a scale test of size n (SetComplexityN).
void parse_scaled(benchmark::State& state, const std::string& text, int n) {
    for (auto _ : state) {
        notation::Document   doc;
        notation::Diagnostic err;
        const bool           ok = notation::parse_document(text, "scaled", doc, err);
        if (!ok) state.SkipWithError(err.to_string().c_str());
        benchmark::DoNotOptimize(ok);
    }
    state.SetComplexityN(n);
}

void BM_ParseNested(benchmark::State& state) {
    const int   depth = int(state.range(0));
    std::string text;
    for (int i = 0; i < depth; ++i)
        text += '(' + serial_for(i) + " e3 ";
    text += std::string(std::size_t(depth), ')');
    parse_scaled(state, text, depth);
}

void BM_ParseLong(benchmark::State& state) {
    const int   actions = int(state.range(0));
    std::string text    = "[Board \"Standard\"]\n";
    for (int i = 0; i < actions; i += 2)
        text += std::to_string(i / 2 + 1) + ". (0T" + std::to_string(i / 2 + 1) + ")Ng1f3 / Nf6 ";
    parse_scaled(state, text, actions);
}

// Arg 0 = FULL, 1 = SHORT.
BENCHMARK(BM_Parse)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReadTree)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WriteTree)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseNested)
    ->RangeMultiplier(4)
    ->Range(6250, 100000)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);
BENCHMARK(BM_ParseLong)
    ->RangeMultiplier(4)
    ->Range(6250, 100000)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);

} // namespace
