// The JSON of `fived bench` (report/bench_json.h).
#include "report/bench_json.h"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "report/exit_status.h"
#include "report/json_text.h"

namespace fived::report {

std::string bench_hex(std::uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
    return buf;
}

std::string bench_json(const solver::BenchReport& r) {
    nlohmann::json j;
    j["nodes"]     = r.nodes;
    j["time_ms"]   = r.ms;
    j["signature"] = bench_hex(r.signature);
    j["answers"]   = bench_hex(r.answers);
    j["puzzles"]   = nlohmann::json::array();
    for (const solver::BenchLine& l : r.lines)
        j["puzzles"].push_back({{"id", l.id}, {"result", l.result}, {"mate_in", l.mateIn},
            {"nodes", l.nodes}, {"time_ms", l.ms}});
    j["exit_code"] = ExitOk;
    return json_text(j);
}

std::string bench_benchmark_doc(const solver::BenchReport& r, int threads, unsigned numCpus) {
    nlohmann::json ctx;
    ctx["executable"]          = "fived bench";
    ctx["num_cpus"]            = numCpus;
    ctx["library_build_type"]  = "release";
    ctx["cpu_scaling_enabled"] = false;
    ctx["threads"]             = threads;
    ctx["signature"]           = bench_hex(r.signature);
    ctx["answers"]             = bench_hex(r.answers);
    nlohmann::json list        = nlohmann::json::array();
    auto           entry       = [&](const std::string& name, double ms, std::uint64_t nodes) {
        list.push_back({{"name", name}, {"run_name", name}, {"run_type", "iteration"},
            {"repetitions", 1}, {"repetition_index", 0}, {"threads", threads}, {"iterations", 1},
            {"real_time", ms}, {"cpu_time", ms}, {"time_unit", "ms"}, {"nodes", nodes}});
    };
    for (const solver::BenchLine& l : r.lines)
        entry("fived_bench/" + l.id, l.ms, l.nodes);
    entry("fived_bench/total", r.ms, r.nodes);
    return json_text(nlohmann::json{{"context", ctx}, {"benchmarks", list}}, 2);
}

} // namespace fived::report
