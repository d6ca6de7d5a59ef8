// fived.verify(): the bindings of report/verify_report.h, what `fived verify` reports.
#include <atomic>
#include <chrono>
#include <future>
#include <optional>
#include <string>
#include <thread>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "python/module.h"
#include "report/verify_report.h"

namespace py = pybind11;

namespace fived::python {

namespace {

struct VerifyResult {
    std::string                                      verdict;
    bool                                             sound = false;
    std::optional<bool>                              complete;
    int                                              mateIn = 0, prelude = 0;
    std::optional<int>                               claim, shortest;
    std::string                                      side;
    std::vector<std::string>                         keys, cooks, duals, problems;
    std::vector<std::pair<std::string, std::string>> tries;
    std::string                                      limit;
    int                                              exitCode = 0;
};

VerifyResult verify(const std::string& text, bool tries, int threads, std::optional<double> time,
    std::optional<std::uint64_t> nodes, std::size_t hashMb, bool lenient) {
    if (threads < 1 || threads > 256) throw py::value_error("threads: 1 to 256");
    if (time && !(*time > 0)) throw py::value_error("time: a positive number of seconds");
    const auto                         start = std::chrono::steady_clock::now();
    report::VerifyInputError           error;
    std::optional<report::VerifyInput> in;
    {
        py::gil_scoped_release nogil;
        in = report::read_verify_input(text, "<string>", lenient, error);
    }
    if (!in) {
        if (!error.diagnostics.empty()) raise_notation(error.diagnostics.front());
        raise_notation("<string>", error.message.substr(error.message.find(": ") + 2));
    }
    report::VerifyOptions o;
    o.tries   = tries;
    o.threads = threads;
    o.hashMb  = hashMb;
    o.time    = time.value_or(0);
    o.nodes   = nodes.value_or(0);
    std::atomic<bool> stop{false};
    auto              work = [&]() {
        const report::VerifyReport r = report::verify_input(*in, o, start, &stop);
        if (r.noMemory) throw std::bad_alloc();
        VerifyResult out;
        out.verdict = r.verdict;
        out.sound   = r.sound;
        out.complete = r.proofDecided ? std::optional<bool>(r.rep.complete) : std::nullopt;
        out.mateIn  = r.rep.length;
        out.prelude = r.prelude;
        if (r.claimed) out.claim = r.claimed;
        if (r.decided) out.shortest = r.shortest;
        out.side     = r.attacker == movegen::WHITE ? "white" : "black";
        out.keys     = r.treeKeys;
        out.cooks    = r.cooks;
        out.duals    = r.duals;
        out.problems = r.problems;
        for (const auto& [t, line] : r.triesText)
            out.tries.emplace_back(t, line.substr(t.size() + 3));
        if (!r.decided && !r.notATree) out.limit = r.why;
        out.exitCode = r.exitCode;
        return out;
    };
    return run_interruptible<VerifyResult>(stop, work);
}

} // namespace

void bind_verify(py::module_& m) {
    py::class_<VerifyResult>(
        m, "VerifyResult", "What fived.verify() found (`fived verify --json`).")
        .def_readonly("verdict", &VerifyResult::verdict,
            "'sound', 'cooked', 'wrong claim', 'incomplete proof', 'not a solution tree' or "
            "'unknown (...)'")
        .def_readonly("sound", &VerifyResult::sound, "the verdict is 'sound'")
        .def_readonly("complete", &VerifyResult::complete,
            "the tree is a complete proof (None: a limit stopped the check)")
        .def_readonly("mate_in", &VerifyResult::mateIn, "the tree's mate length")
        .def_readonly("prelude", &VerifyResult::prelude, "actions before the puzzle position")
        .def_readonly("claim", &VerifyResult::claim, "the Puzzle header's length, or None")
        .def_readonly("shortest", &VerifyResult::shortest,
            "the shortest mate found by the analysis (0: none; None: not analysed)")
        .def_readonly("side", &VerifyResult::side, "the attacker: 'white' or 'black'")
        .def_readonly("keys", &VerifyResult::keys, "the tree's keys, full notation")
        .def_readonly("cooks", &VerifyResult::cooks, "keys of the analysis missing from the tree")
        .def_readonly(
            "duals", &VerifyResult::duals, "lines after which the attacker has two answers")
        .def_readonly("problems", &VerifyResult::problems, "the proof check's problems")
        .def_readonly("tries", &VerifyResult::tries, "(try, refutation) pairs, with tries=True")
        .def_readonly("limit", &VerifyResult::limit, "the limit that stopped the analysis")
        .def_readonly("exit_code", &VerifyResult::exitCode, "what `fived verify` exits with")
        .def("__repr__", [](const VerifyResult& r) {
            return "VerifyResult(verdict='" + r.verdict + "', mate_in=" + std::to_string(r.mateIn)
                + ")";
        });
    m.def("verify", &verify, py::arg("text"), py::kw_only(), py::arg("tries") = false,
        py::arg("threads") = 1, py::arg("time") = py::none(), py::arg("nodes") = py::none(),
        py::arg("hash_mb") = 16, py::arg("lenient") = false,
        "Check a solution tree (the text of a Branched 5DPGN file) as `fived verify`: complete "
        "proof, keys, cooks, duals, shorter mates, the claim. Runs without the GIL; Ctrl-C stops "
        "it (KeyboardInterrupt).");
}

} // namespace fived::python
