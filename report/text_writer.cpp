// The text formats: solve's solution tree (Branched 5DPGN) or its one-line answer, and verify's
// report (README "fived solve", "fived verify FILE").
#include <ostream>

#include "notation/claim.h"
#include "report/exit_status.h"
#include "report/writers.h"

namespace fived::report {

using notation::mate_text;

namespace {

void write_solve_text(const SolveReport& rep, std::ostream& out) {
    const solver::SolveResult&      r    = rep.r;
    const std::vector<std::string>& keys = rep.keys;
    if (rep.exitCode == ExitInternal) return;
    if (r.result == solver::Result::MATE && r.treeBuilt) {
        out << rep.written;
    } else if (r.result == solver::Result::MATE) {
        // Proven by the search, but the tree was not written (larger than the tree limit).
        out << mate_text(r.mateIn) << ": ";
        for (std::size_t i = 0; i < keys.size(); ++i)
            out << (i ? ", " : "") << keys[i];
        out << " {" << r.error << "}\n";
    } else if (r.result == solver::Result::NO_MATE) {
        out << no_mate_text(rep.maxMate) << '\n';
    } else {
        out << "unknown (" << (r.error.empty() ? "limit reached" : r.error);
        if (r.mateIn) {
            // The keys found before the limit are exact (the search proved them); only the tree
            // of their variations is missing.
            out << "; " << mate_text(r.mateIn) << " proven";
            for (std::size_t i = 0; i < keys.size(); ++i)
                out << (i ? ", " : keys.size() > 1 ? " with keys " : " with key ") << keys[i];
            out << ", tree not finished";
        } else if (r.noMateUpTo)
            out << "; " << no_mate_text(r.noMateUpTo);
        if (r.stoppedAt) {
            out << "; mate in " << r.stoppedAt << ": " << r.keysRefuted;
            if (r.keysInAll) out << " of " << r.keysInAll;
            out << " keys refuted";
        }
        out << "; " << r.nodes << " nodes)\n";
    }
}

void write_verify_text(const VerifyReport& r, std::ostream& out) {
    const solver::ProofReport& rep = r.rep;
    out << "puzzle:   " << (r.attacker == movegen::WHITE ? "white" : "black") << " to move after "
        << r.prelude << " prelude action(s); claimed "
        << (r.claimed ? mate_text(r.claimed) : std::string("mate in ?")) << '\n';
    out << "proof:    "
        << (!r.proofDecided       ? "unknown (" + rep.limit + ")"
                   : rep.complete ? std::string("complete")
                                  : std::string("INCOMPLETE"))
        << ", mate in " << rep.length << ", " << rep.leaves << " mate leaves, " << rep.defenderNodes
        << " defender nodes";
    if (rep.answeredByGroup) out << ", " << rep.answeredByGroup << " grouped defences";
    // Stopped early: the counts are those of the part checked.
    if (!rep.finished && r.proofDecided)
        out << " (checked until "
            << (rep.limit.empty() ? "the first " + std::to_string(r.problems.size()) + " problems"
                                  : rep.limit)
            << ")";
    out << '\n';
    for (const std::string& p : r.problems)
        out << "  problem: " << p << '\n';
    if (r.notATree)
        out << "note:     the tree is a single line of " << r.lineActions
            << " action(s) (a game?) that leaves defences unanswered: not a solution tree; "
               "[Prelude \"P\"] or [Puzzle \"mate-in-N\"] marks the puzzle position\n";
    for (const std::string& k : r.treeKeys)
        out << "key:      " << k << '\n';
    if (r.decided) {
        out << "cooks:    " << (r.cooks.empty() ? "none" : "") << '\n';
        for (const std::string& k : r.cooks)
            out << "  cook:   " << k << '\n';
        if (r.cooksCapped)
            out << "  and more: the analysis lists the first " << solver::Analysis::MaxKeys
                << " keys it meets\n";
        out << "shortest: " << (r.shortest ? mate_text(r.shortest) : std::string("none"))
            << (r.shortest && r.shortest < r.n ? "  (shorter than the tree)" : "") << '\n';
        if (!r.claimNote.empty()) out << r.claimNote << '\n';
        out << "duals:    " << r.duals.size() << '\n';
        for (const std::string& d : r.duals)
            out << "  dual after: " << d << '\n';
        if (r.tries) {
            out << "tries:    " << r.triesText.size() << '\n';
            for (const auto& [t, line] : r.triesText)
                out << "  try: " << t << "  refuted by " << line.substr(t.size() + 3) << '\n';
        }
    }
    out << "verdict:  " << r.verdict << '\n';
}

} // namespace

const SolveWriter& text_solve_writer() {
    static const SolveWriter w{"text",
        "the solution tree as Branched 5DPGN, or the answer in one line (the default)", false,
        &write_solve_text};
    return w;
}

// The text of solve is a 5DPGN tree: the same writer under the name of its notation.
const SolveWriter& fivedpgn_solve_writer() {
    static const SolveWriter w{"5dpgn", "the same as text", false, &write_solve_text};
    return w;
}

const VerifyWriter& text_verify_writer() {
    static const VerifyWriter w{
        "text", "the report, one finding a line (the default)", &write_verify_text};
    return w;
}

} // namespace fived::report
