#pragma once
// The JSON of `fived bench` (README "fived bench"): --json's summary, and --benchmark-out's
// document in Google Benchmark's format (context + benchmarks, so that two runs compare with
// its tools/compare.py). Built from the solver's bench report; the command prints or writes it.

#include <cstdint>
#include <string>

#include "solver/bench.h"

namespace fived::report {

// A 64-bit value as bench prints it: 0x and 16 hex digits.
std::string bench_hex(std::uint64_t v);

// --json: the totals, the signature and one entry a puzzle (one line, without its newline).
std::string bench_json(const solver::BenchReport& r);

// --benchmark-out: one entry a puzzle (nodes as a counter) and the total, indented by 2.
std::string bench_benchmark_doc(const solver::BenchReport& r, int threads, unsigned numCpus);

} // namespace fived::report
