// The solver subcommands (registered by main.cpp): solve, verify, bench.
//
// Solution trees as files. `fived solve` writes a Branched 5DPGN tree whose root is the start
// position of FILE (its headers and 5DFEN), followed by FILE's main line (the prelude) and then
// the solution: the key action(s), every legal defence as a variation, each line ending in a
// mate mark and the result. The main line of the written tree is a longest solution line.
// `fived verify FILE` reads such a tree and finds the puzzle position as follows:
//   1. a `[Prelude "P"]` header: after the first P actions of the main line (P from 0 to its
//      length, else the file is refused);
//   2. else a `[Puzzle "mate-in-N"]` claim (any spelling parse_claim reads): 2N - 1 actions
//      before the end of the main line (the main line is a longest line of a mate in N);
//   3. else the root.
// Everything below the puzzle position is the claimed solution. A claim whose length is not
// the shortest mate is reported by both ("claim: mate in 3; shortest: mate in 2"); `solve`
// writes the length it found and says so in a comment at the root of the tree.
//
// Defender nodes with more than `--group N` (default 12) defences are written grouped: defences
// whose answer is the same immediate mate appear once, with the comment
// `{N defences share this answer: ...}` listing every one of them in full notation; `verify`
// accepts a missing defence when a sibling's mating answer also mates after it.
#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "cli/cli_html.h"
#include "cli/cli_shard.h"
#include "cli/cli_svg.h"
#include "movegen/action.h"
#include "movegen/actions.h"
#include "movegen/movegen.h"
#include "movegen/text.h"
#include "movegen/tree.h"
#include "notation/parser.h"
#include "notation/reader.h"
#include "notation/tree.h"
#include "notation/writer.h"
#include "report/json_text.h"
#include "report/solution.h"
#include "report/verify_report.h"
#include "solver/bench.h"
#include "solver/solver.h"
#include "solver/verify.h"

namespace fived::cli {

namespace {

using movegen::Move;
using movegen::Multiverse;
using movegen::TreeNode;
using solver::SolutionTree;

using report::problemist_markup;
using report::read_back_problem;
using report::read_verify_input;
using report::verify_input;
using report::VerifyInput;
using report::VerifyInputError;
using report::VerifyOptions;
using report::VerifyReport;
using report::written_solution;

struct SolveCli {
    InputOptions  in;
    bool          problemist  = false; // Popeye-style markup (problemist_markup())
    bool          tries       = false; // with problemist: list the tries
    int           mate        = 0;     // 0 = from the Puzzle header, else 3
    int           threads     = 1;
    std::size_t   hashMb      = 16;
    double        time        = 0;
    std::uint64_t nodes       = 0;
    std::size_t   maxActions  = solver::SolveOptions{}.actionLimit;
    std::size_t   streamAbove = solver::SolveOptions{}.streamAbove;
    std::uint64_t narrow      = solver::SolveOptions{}.narrowBudget;
    bool          json        = false;
    bool          quiet       = false;
    bool          allKeys     = false;
    std::size_t   group       = 12; // group defences at nodes with more than this many (0 = never)
    std::string   algo        = "reference";
    std::string   svg;   // draw the position and its key here (cli_svg.cpp)
    std::string   html;  // the viewer of the solution here (cli_html.cpp)
    std::string   shard; // --shard I/N or slurm: one part of the search (cli_shard.cpp)
};

// --- JSON ---------------------------------------------------------------------------------------

nlohmann::json tree_json(const Multiverse& root, const SolutionTree& t) {
    // Built bottom-up (children have larger indices).
    std::vector<nlohmann::json> js(t.nodes.size());
    std::vector<std::string>    text(t.nodes.size());
    // Each action formatted in its parent's position, on one multiverse walked with make/unmake.
    Multiverse mv = root.fork();
    t.walk(mv, [&](int node, Multiverse& here) {
        for (const int c : t.nodes[std::size_t(node)].children)
            text[std::size_t(c)] = notation::format_action(here, t.nodes[std::size_t(c)].action);
    });
    for (std::size_t i = t.nodes.size(); i-- > 0;) {
        nlohmann::json j;
        if (i) j["action"] = text[i];
        if (t.nodes[i].mate()) j["mate"] = true;
        nlohmann::json kids = nlohmann::json::array();
        for (int c : t.nodes[i].children)
            kids.push_back(std::move(js[std::size_t(c)]));
        if (!kids.empty()) j["children"] = std::move(kids);
        js[i] = std::move(j);
    }
    return js[0];
}

// The table could not be allocated: a usage error (the size asked for is too large).
int no_memory(std::size_t hashMb) {
    std::cerr << "--hash " << hashMb << ": cannot allocate a transposition table of " << hashMb
              << " MB\n";
    return ExitBadInput;
}

// Where diagnostics about a header point: FILE:LINE:COL of its value.
std::string header_where(const std::string& file, const notation::Header& h) {
    return display_name(file) + ':' + std::to_string(h.valuePos.line) + ':'
        + std::to_string(h.valuePos.column);
}

int cmd_solve(const SolveCli& c) {
    const auto threadCap = allow_threads(c.threads); // no raw TBB warning
    int        played    = 0;
    auto       game      = load(c.in, &played);
    if (!game) return ExitBadInput;
    const Multiverse root = final_position(*game);
    // The claim: the Puzzle header speaks of the final position only.
    std::optional<Claim> claim;
    if (int(game->mainLine.size()) == played) {
        const notation::Header* h       = game->doc.find_header("Puzzle");
        bool                    refused = false;
        claim                           = read_claim(
                                      h ? &h->value : nullptr, h ? header_where(c.in.file, *h) : "", root.to_move(), refused);
        if (refused) return ExitBadInput;
    }
    const int            claimed = claim ? claim->mateIn : 0;
    const int            n       = c.mate ? c.mate : claimed ? claimed : 3;
    solver::SolveOptions o;
    o.maxMate      = n;
    o.threads      = c.threads;
    o.hashMb       = c.hashMb;
    o.timeLimit    = c.time;
    o.nodeLimit    = c.nodes;
    o.actionLimit  = c.maxActions;
    o.streamAbove  = c.streamAbove;
    o.narrowBudget = c.narrow;
    o.allKeys      = c.allKeys;
    o.progress     = !c.quiet;
    o.algorithm    = c.algo == "dfpn" ? solver::Algorithm::DFPN : solver::Algorithm::REFERENCE;
    o.interrupt    = catch_interrupts();
    if (!c.shard.empty()) return solve_shard(*game, root, c.in.file, c.shard, o, c.group);
    const solver::SolveResult r = solver::solve(root, o);
    if (r.noMemory) return no_memory(c.hashMb);

    // The claim against the answer, when the answer decides it.
    std::optional<bool> claimHolds;
    std::string         claimNote;
    if (claimed) {
        const int noMate = r.result == solver::Result::NO_MATE ? n : r.noMateUpTo;
        if (r.result == solver::Result::MATE) {
            claimHolds = r.mateIn == claimed;
            claimNote  = "shortest: " + mate_text(r.mateIn);
        } else if (noMate >= claimed) {
            claimHolds = false;
            claimNote  = "no mate in " + std::to_string(noMate) + " or fewer";
        }
        if (claimHolds == false) {
            claimNote = "claim: " + mate_text(claimed) + "; " + claimNote;
            std::cerr << display_name(c.in.file) << ": " << claimNote << '\n';
        } else {
            claimNote.clear();
        }
    }
    // The tree as it is printed, read back and verified before anything is printed: solve never
    // prints a tree that fived itself cannot read (issue 55), nor calls it verified. (JSON
    // prints the tree as data; its text is the same tree, plain or grouped.)
    std::string                       written, readBack;
    std::optional<notation::GameTree> gt;
    if (!r.internal && r.result == solver::Result::MATE && r.treeBuilt) {
        gt = written_solution(*game, root, r.tree, r.mateIn, c.group);
        if (!claimNote.empty()) notation::append_comment(gt->nodes[0].comment, claimNote);
        if (c.problemist && !c.json)
            problemist_markup(*gt, int(game->mainLine.size()), root, r, o, c.tries);
        written  = notation::write_tree(*gt);
        readBack = read_back_problem(written, *gt, r.mateIn);
    }
    const int exitCode = r.internal || !readBack.empty() ? ExitInternal
        : r.result == solver::Result::MATE               ? ExitOk
        : r.result == solver::Result::NO_MATE            ? ExitNegative
                                                         : ExitUnknown;
    if (r.internal) std::cerr << display_name(c.in.file) << ": internal error: " << r.error << '\n';
    if (!readBack.empty())
        std::cerr << display_name(c.in.file)
                  << ": internal error: the solution tree as written fails the self-check: "
                  << readBack << '\n';

    Multiverse               printer = root.fork();
    std::vector<std::string> keys;
    for (const auto& k : r.keys)
        keys.push_back(notation::format_action(printer, k));
    const std::string resultText = r.result == solver::Result::MATE
        ? "mate in " + std::to_string(r.mateIn)
        : r.result == solver::Result::NO_MATE ? "no mate in " + std::to_string(n) + " or fewer"
                                              : std::string("unknown");
    if (!c.svg.empty() && !write_key_svg(c.svg, c.in.file, root, r.keys, resultText))
        return ExitBadInput;
    if (!c.html.empty())
        if (const int rc =
                write_solve_html(c.html, c.in.file, *game, gt ? &*gt : nullptr, resultText);
            rc != ExitOk)
            return rc;
    if (c.json) {
        nlohmann::json j;
        j["result"] = solver::result_name(r.result);
        j["mate_in"] =
            r.result == solver::Result::MATE ? nlohmann::json(r.mateIn) : nlohmann::json();
        j["no_mate_up_to"] = r.noMateUpTo;
        if (r.stoppedAt)
            j["stopped_at"] = {{"mate_in", r.stoppedAt}, {"keys_refuted", r.keysRefuted},
                {"keys", r.keysInAll ? nlohmann::json(r.keysInAll) : nlohmann::json()}};
        j["max_mate"]    = n;
        j["claim"]       = claimed ? nlohmann::json(claimed) : nlohmann::json();
        j["claim_holds"] = claimHolds ? nlohmann::json(*claimHolds) : nlohmann::json();
        j["side"]        = root.to_move() == movegen::WHITE ? "white" : "black";
        j["keys"]        = keys;
        j["nodes"]       = r.nodes;
        j["time_ms"]     = std::int64_t(r.ms + 0.5);
        j["threads"]     = c.threads;
        j["hashfull"]    = r.hashfull;
        j["verified"]    = r.verified && readBack.empty();
        {
            // The main line of FILE in full notation, from its start position (so that a
            // line of the tree can be replayed elsewhere as prelude + line).
            Multiverse                     p = game->start.fork();
            std::vector<movegen::MoveUndo> u;
            std::vector<std::string>       prelude;
            for (const auto& a : game->mainLine) {
                prelude.push_back(notation::format_action(p, a));
                movegen::do_action(p, a, u);
            }
            j["prelude"]    = prelude;
            j["start_side"] = game->start.to_move() == movegen::WHITE ? "white" : "black";
        }
        // A limit that fired once the mate and its whole tree were proven (while the tree was
        // re-checked, say) stopped nothing: a proved mate is not reported beside a limit.
        const bool complete = r.result == solver::Result::MATE && r.treeBuilt;
        if (r.limitHit && !complete) {
            j["limit_hit"] = true;
            j["limit"]     = r.error.empty() ? "limit reached" : r.error;
        } else if (!r.error.empty() && !r.limitHit) {
            j["error"] = r.error; // (with a limit hit, r.error names the limit)
        }
        if (!readBack.empty())
            j["error"] = "internal: the solution tree as written fails the self-check: " + readBack;
        if (r.result == solver::Result::UNKNOWN && r.mateIn) j["mate_proven"] = r.mateIn;
        if (r.treeBuilt) j["tree"] = tree_json(root, r.tree);
        j["exit_code"] = exitCode;
        std::cout << json_text(j) << '\n';
        return exitCode;
    }
    if (exitCode == ExitInternal) return exitCode;
    if (r.result == solver::Result::MATE && r.treeBuilt) {
        std::cout << written;
    } else if (r.result == solver::Result::MATE) {
        // Proven by the search, but the tree was not written (larger than the tree limit).
        std::cout << mate_text(r.mateIn) << ": ";
        for (std::size_t i = 0; i < keys.size(); ++i)
            std::cout << (i ? ", " : "") << keys[i];
        std::cout << " {" << r.error << "}\n";
    } else if (r.result == solver::Result::NO_MATE) {
        std::cout << "no mate in " << n << " or fewer\n";
    } else {
        std::cout << "unknown (" << (r.error.empty() ? "limit reached" : r.error);
        if (r.mateIn) {
            // The keys found before the limit are exact (the search proved them); only the tree
            // of their variations is missing.
            std::cout << "; " << mate_text(r.mateIn) << " proven";
            for (std::size_t i = 0; i < keys.size(); ++i)
                std::cout << (i ? ", " : keys.size() > 1 ? " with keys " : " with key ") << keys[i];
            std::cout << ", tree not finished";
        } else if (r.noMateUpTo)
            std::cout << "; no mate in " << r.noMateUpTo << " or fewer";
        if (r.stoppedAt) {
            std::cout << "; mate in " << r.stoppedAt << ": " << r.keysRefuted;
            if (r.keysInAll) std::cout << " of " << r.keysInAll;
            std::cout << " keys refuted";
        }
        std::cout << "; " << r.nodes << " nodes)\n";
    }
    return exitCode;
}

// --- verify
// ---------------------------------------------------------------------------------------

struct VerifyCli {
    InputOptions  in;
    bool          json = false;
    VerifyOptions o; // the rest, as the command and the Python module pass them on
};

void write_verify_json(const VerifyReport& r) {
    const solver::ProofReport& rep = r.rep;
    nlohmann::json             j;
    j["complete"]          = r.proofDecided ? nlohmann::json(rep.complete) : nlohmann::json();
    j["mate_in"]           = rep.length;
    j["side"]              = r.attacker == movegen::WHITE ? "white" : "black";
    j["prelude"]           = r.prelude;
    j["claim"]             = r.claimed ? nlohmann::json(r.claimed) : nlohmann::json();
    j["keys"]              = r.treeKeys;
    j["leaves"]            = rep.leaves;
    j["answered_by_group"] = rep.answeredByGroup;
    j["problems"]          = r.problems;
    if (r.decided) {
        j["cooks"]       = r.cooks;
        j["shortest"]    = r.shortest;
        j["claim_holds"] = r.claimDecided ? nlohmann::json(r.claimHolds) : nlohmann::json();
        j["duals"]       = r.duals;
        if (r.tries) {
            nlohmann::json tr = nlohmann::json::array();
            for (const auto& [t, line] : r.triesText)
                tr.push_back({{"try", t}, {"refutation", line}});
            j["tries"] = tr;
        }
    } else if (!r.notATree) {
        j["limit"] = r.why;
    }
    j["verdict"]   = r.verdict;
    j["exit_code"] = r.exitCode;
    std::cout << json_text(j) << '\n';
}

void write_verify_text(const VerifyReport& r) {
    const solver::ProofReport& rep = r.rep;
    std::cout << "puzzle:   " << (r.attacker == movegen::WHITE ? "white" : "black")
              << " to move after " << r.prelude << " prelude action(s); claimed "
              << (r.claimed ? mate_text(r.claimed) : std::string("mate in ?")) << '\n';
    std::cout << "proof:    "
              << (!r.proofDecided       ? "unknown (" + rep.limit + ")"
                         : rep.complete ? std::string("complete")
                                        : std::string("INCOMPLETE"))
              << ", mate in " << rep.length << ", " << rep.leaves << " mate leaves, "
              << rep.defenderNodes << " defender nodes";
    if (rep.answeredByGroup) std::cout << ", " << rep.answeredByGroup << " grouped defences";
    // Stopped early: the counts are those of the part checked.
    if (!rep.finished && r.proofDecided)
        std::cout << " (checked until "
                  << (rep.limit.empty()
                             ? "the first " + std::to_string(r.problems.size()) + " problems"
                             : rep.limit)
                  << ")";
    std::cout << '\n';
    for (const std::string& p : r.problems)
        std::cout << "  problem: " << p << '\n';
    if (r.notATree)
        std::cout << "note:     the tree is a single line of " << r.lineActions
                  << " action(s) (a game?) that leaves defences unanswered: not a solution tree; "
                     "[Prelude \"P\"] or [Puzzle \"mate-in-N\"] marks the puzzle position\n";
    for (const std::string& k : r.treeKeys)
        std::cout << "key:      " << k << '\n';
    if (r.decided) {
        std::cout << "cooks:    " << (r.cooks.empty() ? "none" : "") << '\n';
        for (const std::string& k : r.cooks)
            std::cout << "  cook:   " << k << '\n';
        std::cout << "shortest: " << (r.shortest ? mate_text(r.shortest) : std::string("none"))
                  << (r.shortest && r.shortest < r.n ? "  (shorter than the tree)" : "") << '\n';
        if (!r.claimNote.empty()) std::cout << r.claimNote << '\n';
        std::cout << "duals:    " << r.duals.size() << '\n';
        for (const std::string& d : r.duals)
            std::cout << "  dual after: " << d << '\n';
        if (r.tries) {
            std::cout << "tries:    " << r.triesText.size() << '\n';
            for (const auto& [t, line] : r.triesText)
                std::cout << "  try: " << t << "  refuted by " << line.substr(t.size() + 3) << '\n';
        }
    }
    std::cout << "verdict:  " << r.verdict << '\n';
}

int cmd_verify(const VerifyCli& c) {
    const auto threadCap = allow_threads(c.o.threads); // no raw TBB warning
    // --time counts from here (the proof check and the analysis).
    const auto                       start = std::chrono::steady_clock::now();
    const std::optional<std::string> text  = read_text(c.in.file);
    if (!text) return ExitBadInput;
    VerifyInputError                 error;
    const std::optional<VerifyInput> in =
        read_verify_input(*text, display_name(c.in.file), c.in.lenient, error);
    if (!in) {
        for (const notation::Diagnostic& d : error.diagnostics)
            std::cerr << d.to_string() << '\n';
        if (!error.message.empty()) std::cerr << error.message << '\n';
        return ExitBadInput;
    }
    // From here a signal stops the proof check or the analysis, which say so (exit 3); while
    // the file is read it ends the process at once, as by default.
    const std::atomic<bool>* const interrupt = catch_interrupts();
    const VerifyReport             r         = verify_input(*in, c.o, start, interrupt);
    if (r.noMemory) return no_memory(c.o.hashMb);
    if (c.json)
        write_verify_json(r);
    else
        write_verify_text(r);
    return r.exitCode;
}

// --- bench
// ----------------------------------------------------------------------------------------

std::string hex(std::uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
    return buf;
}

int cmd_bench(std::size_t hashMb, int threads, bool json, const std::string& benchmarkOut) {
    const auto                        threadCap = allow_threads(threads); // no raw TBB warning
    std::vector<notation::LoadedGame> games;
    std::vector<Multiverse>           positions;
    std::vector<solver::BenchCase>    cases;
    for (const solver::BenchPuzzle& p : solver::bench_suite()) {
        auto g = notation::load_game(p.pgn, p.id, notation::read_options(p.lenient));
        if (!g.ok()) {
            std::cerr << "internal: the bench suite does not read: " << g.status().message()
                      << '\n';
            return ExitInternal;
        }
        positions.push_back(final_position(*g));
    }
    std::size_t i = 0;
    for (const solver::BenchPuzzle& p : solver::bench_suite())
        cases.push_back({p.id, &positions[i++], p.maxMate});
    const solver::BenchReport r = solver::run_bench(cases, hashMb, threads);
    if (r.noMemory) return no_memory(hashMb);
    // Without limits every puzzle is decided; an unknown one is a failure, not a figure.
    for (const solver::BenchLine& l : r.lines)
        if (l.result == "unknown") {
            std::cerr << "internal: bench puzzle " << l.id << " is unknown: " << l.error << '\n';
            return ExitInternal;
        }
    if (json || !benchmarkOut.empty()) {
        // Google Benchmark's JSON (context + benchmarks), so two runs compare with its
        // tools/compare.py: one entry per puzzle (nodes as a counter) and the total.
        nlohmann::json ctx;
        ctx["executable"]          = "fived bench";
        ctx["num_cpus"]            = std::thread::hardware_concurrency();
        ctx["library_build_type"]  = "release";
        ctx["cpu_scaling_enabled"] = false;
        ctx["threads"]             = threads;
        ctx["signature"]           = hex(r.signature);
        ctx["answers"]             = hex(r.answers);
        nlohmann::json list        = nlohmann::json::array();
        auto           entry       = [&](const std::string& name, double ms, std::uint64_t nodes) {
            list.push_back(
                                {{"name", name}, {"run_name", name}, {"run_type", "iteration"}, {"repetitions", 1},
                    {"repetition_index", 0}, {"threads", threads}, {"iterations", 1},
                    {"real_time", ms}, {"cpu_time", ms}, {"time_unit", "ms"}, {"nodes", nodes}});
        };
        for (const solver::BenchLine& l : r.lines)
            entry("fived_bench/" + l.id, l.ms, l.nodes);
        entry("fived_bench/total", r.ms, r.nodes);
        const nlohmann::json doc = {{"context", ctx}, {"benchmarks", list}};
        if (!benchmarkOut.empty()) {
            std::ofstream f(benchmarkOut);
            f << json_text(doc, 2) << '\n';
            if (!f.flush()) {
                std::cerr << benchmarkOut << ": cannot write\n";
                return ExitBadInput;
            }
        }
        if (json) {
            nlohmann::json j;
            j["nodes"]     = r.nodes;
            j["time_ms"]   = r.ms;
            j["signature"] = hex(r.signature);
            j["answers"]   = hex(r.answers);
            j["puzzles"]   = nlohmann::json::array();
            for (const solver::BenchLine& l : r.lines)
                j["puzzles"].push_back({{"id", l.id}, {"result", l.result}, {"mate_in", l.mateIn},
                    {"nodes", l.nodes}, {"time_ms", l.ms}});
            j["exit_code"] = ExitOk;
            std::cout << json_text(j) << '\n';
            return std::cout.flush() ? ExitOk : ExitBadInput;
        }
    }
    for (const solver::BenchLine& l : r.lines)
        std::printf("%-24s %-8s mate-in %d  nodes %10llu  %8.1f ms\n", l.id.c_str(),
            l.result.c_str(), l.mateIn, static_cast<unsigned long long>(l.nodes), l.ms);
    std::printf("===========================\n");
    std::printf("Total time (ms) : %.0f\n", r.ms);
    std::printf("Nodes searched  : %llu\n", static_cast<unsigned long long>(r.nodes));
    std::printf("Nodes/second    : %.0f\n", r.ms > 0 ? double(r.nodes) * 1000.0 / r.ms : 0.0);
    std::printf("Signature       : %s\n", hex(r.signature).c_str());
    std::printf("Answers         : %s\n", hex(r.answers).c_str());
    // A failed write of the report is the command's failure.
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) return ExitBadInput;
    return ExitOk;
}

// --threads and --hash, as solve, verify and bench take them.
void add_threads_and_hash(CLI::App* cmd, int& threads, std::size_t& hashMb) {
    cmd->add_option("--threads", threads, "search threads")->check(CLI::Range(1, 256));
    cmd->add_option("--hash", hashMb, "transposition table size in MB (1 to 1048576)")
        ->check(digits() & CLI::Range(std::size_t(1), std::size_t(1) << 20));
}

} // namespace

void register_solver_commands(const Commands& commands, int& exitCode) {
    auto sc = std::make_shared<SolveCli>();
    if (auto* solve = commands.add("solve",
            "shortest forced mate (side to move = attacker) of the final position, as a "
            "solution tree")) {
        add_position_input(solve, sc->in, "solve");
        solve
            ->add_option(
                "--mate", sc->mate, "longest mate searched (default: the Puzzle header, else 3)")
            ->check(CLI::Range(1, 60));
        add_threads_and_hash(solve, sc->threads, sc->hashMb);
        solve
            ->add_option("--time", sc->time,
                "time limit in seconds, table allocation included (then the result is unknown)")
            ->check(positive_seconds());
        solve
            ->add_option(
                "--nodes", sc->nodes, "node limit, at least 1 (then the result is unknown)")
            ->check(digits() & CLI::Range(std::uint64_t(1), UINT64_MAX));
        solve
            ->add_option("--max-actions", sc->maxActions,
                "most legal actions listed at one position (memory: about 100 bytes each); a "
                "position with more makes the result unknown (0 = no limit)")
            ->check(digits());
        solve
            ->add_option("--stream-above", sc->streamAbove,
                "search a node with more legal actions than this without listing them (default "
                    + std::to_string(solver::SolveOptions{}.streamAbove) + "; 0 = always list)")
            ->check(digits());
        solve
            ->add_option("--narrow-budget", sc->narrow,
                "at defender nodes 2 or more moves from the end: nodes the killers get before the "
                "defences that give check with the fewest replies (and, where the defences are "
                "too many to list, the siblings' refutations completed) are tried first, in "
                "growing budgets (default "
                    + std::to_string(solver::SolveOptions{}.narrowBudget)
                    + "; 0 = off, every defence in its order)")
            ->check(digits());
        CLI::Option* json = solve->add_flag("--json", sc->json, "print one JSON object");
        solve->add_flag("--quiet", sc->quiet, "no progress on stderr");
        solve->add_flag("--all-keys", sc->allKeys, "list every key (cooks) and its variations");
        // Options that mean nothing together are usage errors, not silently ignored (issue 55).
        CLI::Option* problemist = solve->add_flag("--problemist", sc->problemist,
            "Popeye-style markup: key `!` with its threat, a summary comment (sound or cooked, "
            "defences, mates, duals), `dual` where the attacker has two answers (not with "
            "--json: the markup is in the written tree)");
        problemist->excludes(json);
        solve
            ->add_flag("--tries", sc->tries, "with --problemist: the tries `?` and refutations `!`")
            ->needs(problemist);
        solve->add_option("--svg", sc->svg,
            "also draw the position with the key action's moves as arrows, as SVG, to this file");
        solve->add_option("--html", sc->html,
            "also write the solution viewer (fived html) of the tree to this file");
        solve
            ->add_option("--algo", sc->algo,
                "search algorithm: reference (depth-bounded AND/OR search, parallel) or dfpn "
                "(df-pn with the same bound, serial)")
            ->check(CLI::IsMember({"reference", "dfpn"}));
        solve
            ->add_option("--group", sc->group,
                "at defender nodes with more than N defences, write defences sharing one mating "
                "answer once, listed in a comment (0 = never; default 12)")
            ->check(digits());
        solve
            ->add_option("--shard", sc->shard,
                "search only part I of N (I/N, or `slurm`: Slurm's job-array task) of the root's "
                "actions and print the part's record, one JSON line, for `fived shard-merge`")
            ->excludes(problemist)
            ->excludes("--all-keys")
            ->excludes("--svg")
            ->excludes("--html");
        solve->callback([&exitCode, sc] {
            if (!sc->shard.empty() && sc->algo == "dfpn") {
                std::cerr << "fived solve: --shard needs --algo reference\n";
                exitCode = ExitBadInput;
                return;
            }
            if (sc->algo == "dfpn" && sc->threads > 1) {
                std::cerr << "fived solve: --algo dfpn searches on one thread; --threads "
                          << sc->threads << " needs --algo reference\n";
                exitCode = ExitBadInput;
                return;
            }
            exitCode = cmd_solve(*sc);
        });
    }

    auto vc = std::make_shared<VerifyCli>();
    if (auto* verify = commands.add(
            "verify", "check a solution tree: complete proof, keys, cooks, duals, shorter mates")) {
        add_input(verify, vc->in);
        verify->add_flag(
            "--tries", vc->o.tries, "list attacker actions refuted by a single defence");
        verify->add_flag("--json", vc->json, "print one JSON object");
        verify->add_flag("--progress", vc->o.progress,
            "progress on stderr: the proof check, then the analysis (as solve's)");
        add_threads_and_hash(verify, vc->o.threads, vc->o.hashMb);
        verify
            ->add_option("--time", vc->o.time,
                "time limit in seconds for the proof check and the analysis, table allocation "
                "included (then the result is unknown)")
            ->check(positive_seconds());
        verify
            ->add_option("--nodes", vc->o.nodes,
                "node limit, at least 1, of the proof check and of the analysis each (then the "
                "result is unknown)")
            ->check(digits() & CLI::Range(std::uint64_t(1), UINT64_MAX));
        verify
            ->add_option("--max-actions", vc->o.maxActions,
                "most legal actions met at one position by the proof check or listed by the "
                "analysis (0 = no limit)")
            ->check(digits());
        verify->callback([&exitCode, vc] { exitCode = cmd_verify(*vc); });
    }

    auto hash      = std::make_shared<std::size_t>(16);
    auto threads   = std::make_shared<int>(1);
    auto benchJson = std::make_shared<bool>(false);
    auto benchOut  = std::make_shared<std::string>();
    if (auto* bench = commands.add(
            "bench", "solve the embedded puzzle suite; the report and its signature on stdout")) {
        add_threads_and_hash(bench, *threads, *hash);
        bench->add_flag("--json", *benchJson, "print one JSON object");
        bench->add_option("--benchmark-out", *benchOut,
            "also write Google Benchmark JSON to FILE (for its tools/compare.py)");
        bench->callback([&exitCode, hash, threads, benchJson, benchOut] {
            exitCode = cmd_bench(*hash, *threads, *benchJson, *benchOut);
        });
    }
}

} // namespace fived::cli
