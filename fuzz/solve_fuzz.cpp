// libFuzzer target of the solve/verify input paths: any bytes are read as a Branched 5DPGN tree;
// on a small position (few timelines, few legal actions, a small tree) the tree below the puzzle
// position goes through check_proof() as `fived verify` does, the position is solved with a
// small node limit and mate bound by both algorithms, and analysed as a claimed solution. The
// results must agree with each other; anything else aborts:
//   * check_proof(): complete iff no problem; problems name nodes of the tree; the length is at
//     most the tree's depth;
//   * solve(): a mate comes with keys and a tree that check_proof() accepts with that length; no
//     mate only when no limit was hit; the reference search and df-pn agree when both decide;
//   * a complete proof of length L <= the bound means a mate in at most L exists, so a decided
//     solve() finds one and analyse() (when it completes) reports a shortest mate <= L and keys.
// Work is bounded by the size checks below and node limits, never by time (reproducible).
//
// Build and run with scripts/fuzz.sh (clang, ASan + UBSan).

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_options.h"
#include "movegen/action.h"
#include "movegen/actions.h"
#include "movegen/multiverse.h"
#include "notation/reader.h"
#include "notation/tree.h"
#include "solver/solver.h"
#include "solver/verify.h"

namespace {

using namespace fived;
using fuzzing::MaxMate;
using fuzzing::small_options;
using movegen::Move;
using movegen::Multiverse;

// Bounds on the work per input (the fuzzer's timeout is 10 s under ASan).
constexpr int           MaxTimelines   = 4;   // at every node of the tree walked
constexpr std::uint64_t MaxRootActions = 40;  // legal actions at the puzzle position
constexpr std::size_t   MaxTreeNodes   = 200; // nodes of the claimed solution

[[noreturn]] void fail(const char* what, const std::string& detail = {}) {
    std::fprintf(stderr, "solve_fuzz: %s\n%s\n", what, detail.c_str());
    std::abort();
}

// The puzzle node: after the `Prelude` header's count of main-line actions (clamped), else the
// root. (`fived verify` also places it from a `Puzzle` header; the prelude is enough to reach
// any node of the main line from the input.)
int puzzle_node(const notation::GameTree& gt) {
    int prelude = 0;
    for (const auto& [k, v] : gt.headers)
        if (k == "Prelude") std::from_chars(v.data(), v.data() + v.size(), prelude);
    const std::vector<int> mainLine = gt.main_line();
    return mainLine[std::size_t(std::clamp(prelude, 0, int(mainLine.size()) - 1))];
}

// Largest timeline count over the positions of a tree whose root is at mv (restored).
int max_timelines(Multiverse& mv, const solver::SolutionTree& t) {
    int best = 0;
    t.walk(mv, [&](int, Multiverse& here) { best = std::max(best, here.timeline_count()); });
    return best;
}

void check_solve(const Multiverse& puzzle, const solver::SolveResult& r, const char* algo) {
    const std::string who = algo;
    switch (r.result) {
        case solver::Result::MATE: {
            if (r.mateIn < 1 || r.mateIn > MaxMate) fail("mate length out of range", who);
            if (r.keys.empty()) fail("mate without a key", who);
            if (!r.treeBuilt) break; // a tree over maxTreeNodes is reported as not built
            if (!r.verified) fail("mate tree not verified", who + ": " + r.error);
            Multiverse                scratch = puzzle.fork();
            const solver::ProofReport rep     = solver::check_proof(scratch, r.tree);
            if (!rep.complete || rep.length != r.mateIn)
                fail("solver's tree fails check_proof",
                    who + ": length " + std::to_string(rep.length) + " vs mate in "
                        + std::to_string(r.mateIn)
                        + (rep.problems.empty() ? "" : ": " + rep.problems.front().detail));
            break;
        }
        case solver::Result::NO_MATE:
            if (r.limitHit) fail("no mate reported after a limit", who);
            if (r.noMateUpTo != MaxMate) fail("no mate without the whole bound", who);
            break;
        case solver::Result::UNKNOWN: break;
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view                  text(reinterpret_cast<const char*>(data), size);
    notation::ReadOptions                   opt;
    std::vector<notation::Diagnostic>       errors;
    const std::optional<notation::GameTree> gt =
        notation::read_game_tree(text, "fuzz", opt, errors);
    if (!gt) return 0;

    const int                                 top    = puzzle_node(*gt);
    const Multiverse                          puzzle = notation::position_at(*gt, top);
    const std::optional<solver::SolutionTree> below  = gt->subtree(top, MaxTreeNodes);
    if (!below) return 0;
    const solver::SolutionTree& claimed = *below;
    {
        Multiverse mv = puzzle.fork();
        if (max_timelines(mv, claimed) > MaxTimelines) return 0;
        if (movegen::count_legal_actions(mv, MaxRootActions + 1) > MaxRootActions) return 0;
    }

    // 1. The claimed solution, as `fived verify` checks it.
    Multiverse                scratch = puzzle.fork();
    const solver::ProofReport rep =
        solver::check_proof(scratch, claimed, 20, &notation::format_action);
    if (rep.complete != rep.problems.empty()) fail("complete disagrees with the problems");
    for (const solver::ProofProblem& p : rep.problems)
        if (p.node < 0 || std::size_t(p.node) >= claimed.nodes.size())
            fail("problem names no node of the tree", p.detail);
    if (rep.length > claimed.length()) fail("proof longer than the tree");
    if (rep.complete && rep.length < 1) fail("complete proof without an attacker action");
    // The reader accepts legal actions only, so check_proof() must find each of them legal.
    for (const solver::ProofProblem& p : rep.problems)
        if (p.kind == solver::ProofProblem::Kind::ILLEGAL_ACTION)
            fail("an action the reader accepted is illegal for check_proof", p.detail);

    // 2. Solve, both algorithms.
    const solver::SolveResult ref =
        solver::solve(puzzle, small_options(solver::Algorithm::REFERENCE));
    check_solve(puzzle, ref, "reference");
    const solver::SolveResult pn = solver::solve(puzzle, small_options(solver::Algorithm::DFPN));
    check_solve(puzzle, pn, "dfpn");
    if (ref.result != solver::Result::UNKNOWN && pn.result != solver::Result::UNKNOWN
        && (ref.result != pn.result || ref.mateIn != pn.mateIn))
        fail("reference and df-pn disagree",
            std::string(solver::result_name(ref.result)) + " " + std::to_string(ref.mateIn) + " vs "
                + solver::result_name(pn.result) + " " + std::to_string(pn.mateIn));
    if (rep.complete && rep.length <= MaxMate) {
        for (const solver::SolveResult* r : {&ref, &pn})
            if (r->result == solver::Result::NO_MATE
                || (r->result == solver::Result::MATE && r->mateIn > rep.length))
                fail("a complete proof that the solver does not find",
                    "proof length " + std::to_string(rep.length));
    }

    // 3. The composer's analysis of the claimed solution.
    if (rep.length <= MaxMate) {
        const int              n = std::max(rep.length, 1);
        const solver::Analysis an =
            solver::analyse(puzzle, rep.complete ? claimed : solver::SolutionTree{}, n,
                small_options(solver::Algorithm::REFERENCE), true);
        if (an.complete) {
            if (an.shortest < 0 || an.shortest > n) fail("shortest mate out of range");
            if (an.keys.empty() != (an.shortest == 0)) fail("keys disagree with the shortest mate");
            if (rep.complete && an.shortest == 0)
                fail("analysis finds no mate in a complete proof");
            if (ref.result == solver::Result::MATE && ref.mateIn <= n && an.shortest != ref.mateIn)
                fail("analysis and solve disagree on the shortest mate");
            if (ref.result == solver::Result::MATE && ref.mateIn > n && an.shortest != 0)
                fail("analysis finds a mate shorter than solve's");
            if (ref.result == solver::Result::NO_MATE && an.shortest != 0)
                fail("analysis finds a mate that solve refuted");
        }
    }
    return 0;
}
