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
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <thread>

#include "cli/cli.h"
#include "cli/cli_html.h"
#include "cli/cli_shard.h"
#include "cli/cli_svg.h"
#include "movegen/multiverse.h"
#include "notation/reader.h"
#include "report/bench_json.h"
#include "report/formats.h"
#include "report/solve_report.h"
#include "report/verify_report.h"
#include "solver/bench.h"
#include "solver/solver.h"

namespace fived::cli {

namespace {

using movegen::Multiverse;

struct SolveCli {
    InputOptions  in;
    bool          problemist  = false; // --problemist: --format problemist
    bool          tries       = false; // with problemist: list the tries
    int           mate        = 0;     // 0 = from the Puzzle header, else 3
    int           threads     = 1;
    bool          fixed       = false; // --fixed-threads
    std::size_t   hashMb      = 16;
    double        time        = 0;
    std::uint64_t nodes       = 0;
    std::size_t   maxActions  = solver::SolveOptions{}.actionLimit;
    std::size_t   streamAbove = solver::SolveOptions{}.streamAbove;
    std::uint64_t narrow      = solver::SolveOptions{}.narrowBudget;
    bool          splitWide   = solver::SolveOptions{}.splitWide; // --no-split-wide
    bool          json        = false;                            // --json: --format json
    std::string   format; // --format NAME (report/formats.h); empty: text
    bool          quiet   = false;
    bool          allKeys = false;
    std::size_t   group   = 12; // group defences at nodes with more than this many (0 = never)
    std::string   algo    = "reference";
    std::string   svg;   // draw the position and its key here (cli_svg.cpp)
    std::string   html;  // the viewer of the solution here (cli_html.cpp)
    std::string   shard; // --shard I/N or slurm: one part of the search (cli_shard.cpp)
    std::string   shardSplit  = "auto"; // --shard-split auto, root, block or frontier
    std::uint64_t shardBudget = 1'000;  // --shard-budget: a frontier item's first node budget
    std::string   shardSub; // --shard-sub J/M or slurm: a sub-part of the part's own frontier

    // The writer the options pick (--json and --problemist are names of formats).
    const report::SolveWriter& writer() const {
        return *report::find_solve_writer(json ? "json"
                : problemist                   ? "problemist"
                : format.empty()               ? "text"
                                               : format);
    }
};

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

// The search's options as solve's command line sets them, for mates in at most n.
solver::SolveOptions solve_options(const SolveCli& c, int n) {
    solver::SolveOptions o;
    o.maxMate      = n;
    o.threads      = c.threads;
    o.fixedThreads = c.fixed;
    o.hashMb       = c.hashMb;
    o.timeLimit    = c.time;
    o.nodeLimit    = c.nodes;
    o.actionLimit  = c.maxActions;
    o.streamAbove  = c.streamAbove;
    o.narrowBudget = c.narrow;
    o.splitWide    = c.splitWide;
    o.allKeys      = c.allKeys;
    o.progress     = !c.quiet;
    o.algorithm    = c.algo == "dfpn" ? solver::Algorithm::DFPN : solver::Algorithm::REFERENCE;
    return o;
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
    solver::SolveOptions o       = solve_options(c, n);
    o.interrupt                  = catch_interrupts();
    if (!c.shard.empty())
        return solve_shard(
            *game, root, c.in.file, c.shard, o, c.group, c.shardSplit, c.shardBudget, c.shardSub);
    // --time counts from here for the whole command: the solve, then the threat and tries of
    // --problemist (each its own search) and the self-check of the written tree.
    o.timeFrom            = std::chrono::steady_clock::now();
    solver::SolveResult r = solver::solve(root, o);
    if (r.noMemory) return no_memory(c.hashMb);

    const report::SolveWriter& writer = c.writer();
    const report::SolveReport  rep    = report::make_solve_report(*game, root, std::move(r),
            {.maxMate    = n,
                .claimed = claimed,
                .threads = c.threads,
                .group   = c.group,
                .markup  = writer.markup,
                .tries   = c.tries,
                .base    = o,
                .limits  = solver::ProofLimits::timed(o.timeLimit, o.timeFrom, o.interrupt)});
    const std::string          name   = display_name(c.in.file);
    if (!rep.claimNote.empty()) std::cerr << name << ": " << rep.claimNote << '\n';
    if (rep.r.internal) std::cerr << name << ": internal error: " << rep.r.error << '\n';
    if (!rep.readBack.empty())
        std::cerr << name << ": internal error: the solution tree as written fails the self-check: "
                  << rep.readBack << '\n';
    if (!c.svg.empty() && !write_key_svg(c.svg, c.in.file, root, rep.r.keys, rep.resultText))
        return ExitBadInput;
    if (!c.html.empty())
        if (const int rc = write_solve_html(
                c.html, c.in.file, *game, rep.tree ? &*rep.tree : nullptr, rep.resultText);
            rc != ExitOk)
            return rc;
    writer.write(rep, std::cout);
    return rep.exitCode;
}

// --- verify -------------------------------------------------------------------------------------

struct VerifyCli {
    InputOptions          in;
    bool                  json = false; // --json: --format json
    std::string           format;       // --format NAME (report/formats.h); empty: text
    report::VerifyOptions o; // the rest, as the command and the Python module pass them on
};

int cmd_verify(const VerifyCli& c) {
    const auto threadCap = allow_threads(c.o.threads); // no raw TBB warning
    // --time counts from here (the proof check and the analysis).
    const auto                       start = std::chrono::steady_clock::now();
    const std::optional<std::string> text  = read_text(c.in.file);
    if (!text) return ExitBadInput;
    report::VerifyInputError                 error;
    const std::optional<report::VerifyInput> in =
        report::read_verify_input(*text, display_name(c.in.file), c.in.lenient, error);
    if (!in) {
        for (const notation::Diagnostic& d : error.diagnostics)
            std::cerr << d.to_string() << '\n';
        if (!error.message.empty()) std::cerr << error.message << '\n';
        return ExitBadInput;
    }
    // From here a signal stops the proof check or the analysis, which say so (exit 3); while
    // the file is read it ends the process at once, as by default.
    const std::atomic<bool>* const interrupt = catch_interrupts();
    const report::VerifyReport     r         = report::verify_input(*in, c.o, start, interrupt);
    if (r.noMemory) return no_memory(c.o.hashMb);
    report::find_verify_writer(c.json ? "json"
            : c.format.empty()        ? "text"
                                      : c.format)
        ->write(r, std::cout);
    return r.exitCode;
}

// --- bench
// ----------------------------------------------------------------------------------------

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
        if (!benchmarkOut.empty()) {
            std::ofstream f(benchmarkOut);
            f << report::bench_benchmark_doc(r, threads, std::thread::hardware_concurrency())
              << '\n';
            if (!f.flush()) {
                std::cerr << benchmarkOut << ": cannot write\n";
                return ExitBadInput;
            }
        }
        if (json) {
            std::cout << report::bench_json(r) << '\n';
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
    std::printf("Signature       : %s\n", report::bench_hex(r.signature).c_str());
    std::printf("Answers         : %s\n", report::bench_hex(r.answers).c_str());
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

// The options of solve's search: its bound, limits and tuning.
void add_search_options(CLI::App* solve, SolveCli& sc) {
    solve
        ->add_option(
            "--mate", sc.mate, "longest mate searched (default: the Puzzle header, else 3)")
        ->check(CLI::Range(1, 60));
    add_threads_and_hash(solve, sc.threads, sc.hashMb);
    solve->add_flag("--fixed-threads", sc.fixed,
        "split the search over every thread even while other processes keep the cores busy "
        "(default: only over the cores they leave)");
    solve
        ->add_option("--time", sc.time,
            "time limit in seconds, table allocation included (then the result is unknown)")
        ->check(positive_seconds());
    solve->add_option("--nodes", sc.nodes, "node limit, at least 1 (then the result is unknown)")
        ->check(digits() & CLI::Range(std::uint64_t(1), UINT64_MAX));
    solve
        ->add_option("--max-actions", sc.maxActions,
            "most legal actions listed at one position (memory: about 100 bytes each); a "
            "position with more makes the result unknown (0 = no limit)")
        ->check(digits());
    solve
        ->add_option("--stream-above", sc.streamAbove,
            "search a node with more legal actions than this without listing them (default "
                + std::to_string(solver::SolveOptions{}.streamAbove) + "; 0 = always list)")
        ->check(digits());
    solve
        ->add_option("--narrow-budget", sc.narrow,
            "at defender nodes 2 or more moves from the end: nodes the killers get before the "
            "defences that give check with the fewest replies (and, where the defences are "
            "too many to list, the siblings' refutations completed) are tried first, in "
            "growing budgets (default "
                + std::to_string(solver::SolveOptions{}.narrowBudget)
                + "; 0 = off, every defence in its order)")
        ->check(digits());
    solve->add_flag("!--no-split-wide", sc.splitWide,
        "with --threads 2 or more, search each node too wide to list (see --stream-above) on one "
        "thread, not split over the threads by shares of its actions");
}

// --format NAME of a command whose writers are `names` (report/formats.h).
CLI::Option* add_format(CLI::App* cmd, std::string& format, const std::string& help,
    const std::vector<std::string>& names) {
    return cmd->add_option("--format", format, "output format, one of:\n" + help)
        ->check(CLI::IsMember(names));
}

template <class Writer>
std::vector<std::string> names_of(std::span<const Writer* const> all) {
    std::vector<std::string> names;
    for (const Writer* w : all)
        names.emplace_back(w->name);
    return names;
}

// Options that mean nothing together are usage errors, not silently ignored (issue 55); with
// --format, the same messages as --problemist's and --json's (CLI11's).
void check_solve_options(const SolveCli& sc) {
    const bool problemist = sc.writer().markup;
    if (sc.tries && !problemist) throw CLI::RequiresError("--tries", "--problemist");
    if (!sc.format.empty() && sc.json) throw CLI::ExcludesError("--format", "--json");
    if (!sc.format.empty() && sc.problemist) throw CLI::ExcludesError("--format", "--problemist");
}

void register_solve(const Commands& commands, int& exitCode) {
    auto  sc    = std::make_shared<SolveCli>();
    auto* solve = commands.add("solve",
        "shortest forced mate (side to move = attacker) of the final position, as a "
        "solution tree");
    if (!solve) return;
    add_position_input(solve, sc->in, "solve");
    add_search_options(solve, *sc);
    CLI::Option* json =
        solve->add_flag("--json", sc->json, "print one JSON object (--format json)");
    add_format(solve, sc->format, report::solve_formats_help(), names_of(report::solve_writers()));
    solve->add_flag("--quiet", sc->quiet, "no progress on stderr");
    solve->add_flag("--all-keys", sc->allKeys, "list every key (cooks) and its variations");
    CLI::Option* problemist = solve->add_flag("--problemist", sc->problemist,
        "Popeye-style markup: key `!` with its threat, a summary comment (sound or cooked, "
        "defences, mates, duals), `dual` where the attacker has two answers (not with "
        "--json: the markup is in the written tree; --format problemist)");
    problemist->excludes(json);
    solve->add_flag("--tries", sc->tries, "with --problemist: the tries `?` and refutations `!`");
    solve->add_option("--svg", sc->svg,
        "also draw the position with the key action's moves as arrows, as SVG, to this file");
    solve->add_option(
        "--html", sc->html, "also write the solution viewer (fived html) of the tree to this file");
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
        ->excludes("--format")
        ->excludes("--all-keys")
        ->excludes("--svg")
        ->excludes("--html");
    solve
        ->add_option("--shard-split", sc->shardSplit,
            "how --shard splits: auto (the frontier of (key, defence) pairs when there are more "
            "parts than root actions, else blocks of the root's actions), root (the root's actions "
            "round-robin), block (runs of consecutive root actions) or frontier")
        ->check(CLI::IsMember({"auto", "root", "block", "frontier"}))
        ->needs("--shard");
    solve
        ->add_option("--shard-budget", sc->shardBudget,
            "frontier split: the nodes of each item's first attempt, 4 times more each round "
            "(default 1000)")
        ->check(digits())
        ->check(CLI::Range(std::uint64_t{1}, std::numeric_limits<std::uint64_t>::max()))
        ->needs("--shard");
    solve
        ->add_option("--shard-sub", sc->shardSub,
            "split part I further (a part that did not finish): the frontier of its own root "
            "actions' (key, defence) pairs, sub-part J of M (J/M, or `slurm`); shard-merge takes "
            "the M records in place of part I's")
        ->needs("--shard");
    solve->callback([&exitCode, sc] {
        check_solve_options(*sc); // a usage error, as main() reports CLI11's
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

void register_verify(const Commands& commands, int& exitCode) {
    auto  vc     = std::make_shared<VerifyCli>();
    auto* verify = commands.add(
        "verify", "check a solution tree: complete proof, keys, cooks, duals, shorter mates");
    if (!verify) return;
    add_input(verify, vc->in);
    verify->add_flag("--tries", vc->o.tries, "list attacker actions refuted by a single defence");
    CLI::Option* json =
        verify->add_flag("--json", vc->json, "print one JSON object (--format json)");
    add_format(
        verify, vc->format, report::verify_formats_help(), names_of(report::verify_writers()))
        ->excludes(json);
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

void register_bench(const Commands& commands, int& exitCode) {
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

} // namespace

void register_solver_commands(const Commands& commands, int& exitCode) {
    register_solve(commands, exitCode);
    register_verify(commands, exitCode);
    register_bench(commands, exitCode);
}

} // namespace fived::cli
