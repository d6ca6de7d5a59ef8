#include "report/solve_report.h"

#include <utility>

#include "notation/claim.h"
#include "notation/format.h"
#include "notation/reader.h"
#include "notation/writer.h"
#include "report/exit_status.h"
#include "report/solution.h"

namespace fived::report {

using notation::mate_text;

namespace {

// The claim against the answer, when the answer decides it; a failed claim's note.
void judge_claim(SolveReport& rep) {
    const solver::SolveResult& r = rep.r;
    const int noMate             = r.result == solver::Result::NO_MATE ? rep.maxMate : r.noMateUpTo;
    if (r.result == solver::Result::MATE) {
        rep.claimHolds = r.mateIn == rep.claimed;
        rep.claimNote  = "shortest: " + mate_text(r.mateIn);
    } else if (noMate >= rep.claimed) {
        rep.claimHolds = false;
        rep.claimNote  = no_mate_text(noMate);
    }
    if (rep.claimHolds == false)
        rep.claimNote = "claim: " + mate_text(rep.claimed) + "; " + rep.claimNote;
    else
        rep.claimNote.clear();
}

} // namespace

std::vector<std::string> action_texts(
    const movegen::Multiverse& root, const solver::SolutionTree& t) {
    std::vector<std::string> text(t.nodes.size());
    // On one multiverse walked with make/unmake.
    movegen::Multiverse mv = root.fork();
    t.walk(mv, [&](int node, movegen::Multiverse& here) {
        for (const int c : t.nodes[std::size_t(node)].children)
            text[std::size_t(c)] = notation::format_action(here, t.nodes[std::size_t(c)].action);
    });
    return text;
}

SolveReport make_solve_report(const notation::LoadedGame& game, const movegen::Multiverse& root,
    solver::SolveResult result, const SolveReportOptions& opt) {
    SolveReport rep;
    rep.game                     = &game;
    rep.root                     = &root;
    rep.r                        = std::move(result);
    rep.maxMate                  = opt.maxMate;
    rep.claimed                  = opt.claimed;
    rep.threads                  = opt.threads;
    const solver::SolveResult& r = rep.r;
    if (rep.claimed) judge_claim(rep);
    // The tree as it is printed, read back and verified before anything is printed: solve never
    // prints a tree that fived itself cannot read (issue 55), nor calls it verified. (JSON
    // prints the tree as data; its text is the same tree, plain or grouped.)
    if (!r.internal && r.result == solver::Result::MATE && r.treeBuilt) {
        rep.tree = written_solution(game, root, r.tree, r.mateIn, opt.group);
        if (!rep.claimNote.empty())
            notation::append_comment(rep.tree->nodes[0].comment, rep.claimNote);
        if (opt.markup)
            problemist_markup(*rep.tree, int(game.mainLine.size()), root, r, opt.base, opt.tries);
        rep.written = notation::write_tree(*rep.tree);
        std::string         stopped;
        solver::ProofLimits limits = opt.limits;
        limits.threads             = opt.threads; // as the solve's own re-check
        rep.readBack = read_back_problem(rep.written, *rep.tree, r.mateIn, limits, &stopped);
        if (!stopped.empty()) {
            // A limit stopped the self-check (issue 55): the mate and its keys are proven, the
            // tree as written is not; nothing unchecked is printed.
            rep.r.result    = solver::Result::UNKNOWN;
            rep.r.limitHit  = true;
            rep.r.treeBuilt = false;
            rep.r.verified  = false;
            rep.r.tree      = {};
            rep.r.error     = stopped;
            rep.tree.reset();
            rep.written.clear();
        }
    }
    rep.exitCode                = r.internal || !rep.readBack.empty() ? ExitInternal
                       : r.result == solver::Result::MATE             ? ExitOk
                       : r.result == solver::Result::NO_MATE          ? ExitNegative
                                                                      : ExitUnknown;
    movegen::Multiverse printer = root.fork();
    for (const auto& k : r.keys)
        rep.keys.push_back(notation::format_action(printer, k));
    rep.resultText = r.result == solver::Result::MATE ? mate_text(r.mateIn)
        : r.result == solver::Result::NO_MATE         ? no_mate_text(rep.maxMate)
                                                      : std::string("unknown");
    return rep;
}

} // namespace fived::report
