// What `fived verify` finds (report/verify_report.h), shared by the command and the Python
// module.
#include "report/verify_report.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <iostream>

#include "movegen/action.h"
#include "movegen/text.h"
#include "movegen/tree.h"
#include "notation/claim.h"
#include "notation/format.h"
#include "notation/reader.h"
#include "report/exit_status.h"
#include "report/solve_report.h"
#include "solver/verdict.h"

namespace fived::report {

namespace {

using movegen::Move;
using movegen::Multiverse;
using movegen::TreeNode;
using solver::SolutionTree;

using notation::Claim;
using notation::mate_text;
using notation::parse_claim;

// The longest mate the analysis looks for (as `solve --mate`): a longer tree is checked, not
// analysed.
constexpr int MaxAnalysedMate = 60;

// verify's analysis (cooks, duals, shorter mates, tries) when the proof check left time for it
// and the tree is one; otherwise an incomplete Analysis whose `why` says why not. noMemory: the
// table could not be allocated.
solver::Analysis verify_analysis(const VerifyOptions& c, const Multiverse& puzzle,
    const SolutionTree& tree, const solver::ProofReport& rep, bool notATree, int n,
    std::chrono::steady_clock::time_point start, const std::atomic<bool>* interrupt,
    bool& noMemory) {
    solver::Analysis an;
    an.complete = false;
    if (!rep.limit.empty()) {
        an.why = rep.limit; // the walk stopped at a limit: the analysis would too
    } else if (notATree) {
        an.why = "not a solution tree";
    } else if (n > MaxAnalysedMate) {
        an.why = "the analysis looks for mates in at most " + std::to_string(MaxAnalysedMate)
            + "; the tree is a mate in " + std::to_string(n);
    } else {
        solver::SolveOptions o;
        o.threads         = c.threads;
        o.hashMb          = c.hashMb;
        o.nodeLimit       = c.nodes;
        o.actionLimit     = c.maxActions;
        o.interrupt       = interrupt;
        o.progress        = c.progress;
        const double left = c.time
            - std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (c.time > 0 && left <= 0) {
            an.why = solver::limit_message(solver::Limit::TIME, c.time);
        } else {
            o.timeLimit = c.time > 0 ? left : 0;
            if (c.progress) std::cerr << "verify: analysis, mates in at most " << n << '\n';
            // Duals are looked for along the tree's lines only when every action of it is legal.
            an = solver::analyse(puzzle, rep.complete ? tree : SolutionTree{}, n, o, c.tries);
            if (an.noMemory) {
                noMemory = true;
                return an;
            }
            // The analysis' own limit names its share of the time: the option is named instead.
            if (c.time > 0 && an.why.rfind("time limit", 0) == 0) {
                an.why = solver::limit_message(solver::Limit::TIME, c.time);
            }
        }
    }
    return an;
}

// The header `key` of a tree (case-insensitive), or null.
const std::string* header_of(const notation::GameTree& gt, std::string_view key) {
    for (const auto& [k, v] : gt.headers)
        if (movegen::iequals(k, key)) return &v;
    return nullptr;
}

// How many actions of the main line (of mainLen) lead to the puzzle position verify checks: the
// Prelude header's, else 2N - 1 before the end for a Puzzle header claiming mate in N, else 0;
// `claimed` is that N (0 without a claim). False (`error` says why) when a header is wrong.
bool verify_prelude(const notation::GameTree& gt, const std::string& file, int mainLen,
    int& prelude, int& claimed, std::string& error) {
    const std::string* pz     = header_of(gt, "Puzzle");
    auto               header = [&](std::string_view key) { return header_of(gt, key); };
    if (pz) {
        std::string                why;
        const std::optional<Claim> cl = parse_claim(*pz, why);
        if (!cl) {
            error = file + ": [Puzzle \"" + *pz + "\"]: " + why;
            return false;
        }
        claimed = cl->mateIn;
    }
    if (const std::string* ph = header("Prelude")) {
        const auto [end, ec] = std::from_chars(ph->data(), ph->data() + ph->size(), prelude);
        if (ec != std::errc{} || end != ph->data() + ph->size() || prelude < 0
            || prelude > mainLen) {
            error = file + ": [Prelude \"" + *ph + "\"]: not a number of actions from 0 to "
                + std::to_string(mainLen) + " (the length of the main line)";
            return false;
        }
    } else if (claimed > 0 && mainLen >= 2 * claimed - 1) {
        prelude = mainLen - (2 * claimed - 1);
    }
    return true;
}

// A verdict as verify writes it; `why`: what cut the search short.
std::string verdict_text(solver::Verdict::Kind kind, const std::string& why) {
    using Kind = solver::Verdict::Kind;
    switch (kind) {
        case Kind::PROOF_UNKNOWN: break;
        case Kind::NOT_A_TREE: return "not a solution tree";
        case Kind::INCOMPLETE: return "incomplete proof";
        case Kind::UNKNOWN: break;
        case Kind::WRONG_CLAIM: return "wrong claim";
        case Kind::SOUND: return "sound";
        case Kind::COOKED: return "cooked";
    }
    return "unknown (" + why + ")";
}

// A line of actions from `puzzle`, in full notation, " | " between actions.
std::string path_text(const Multiverse& puzzle, std::span<const std::vector<Move>> path) {
    Multiverse                     p = puzzle.fork();
    std::vector<movegen::MoveUndo> u;
    std::string                    s;
    for (const auto& a : path) {
        if (!s.empty()) s += " | ";
        s += notation::format_action(p, a);
        movegen::do_action(p, a, u);
    }
    return s;
}

// The proof check's problems as lines: where (the line to the node, or the missing defence) and
// what.
std::vector<std::string> problem_texts(
    const Multiverse& puzzle, const SolutionTree& tree, const solver::ProofReport& rep) {
    std::vector<std::string> problems;
    auto                     fmt_path = [&](std::span<const std::vector<Move>> path) {
        return path_text(puzzle, path);
    };
    for (const solver::ProofProblem& p : rep.problems) {
        std::string where;
        {
            std::vector<std::vector<Move>> path;
            for (const int q : tree.line(p.node))
                path.push_back(tree.nodes[std::size_t(q)].action);
            where = path.empty() ? "at the puzzle position" : "after " + fmt_path(path);
            if (p.kind == solver::ProofProblem::Kind::MISSING_DEFENCE) {
                path.push_back(p.action);
                where = "defence " + fmt_path(path);
            }
        }
        problems.push_back(where + ": " + p.detail);
    }
    return problems;
}

// The proof check's limits from verify's options; --time counts from `start`.
solver::ProofLimits proof_limits(const VerifyOptions& c,
    std::chrono::steady_clock::time_point start, const std::atomic<bool>* interrupt) {
    solver::ProofLimits lim = solver::ProofLimits::timed(c.time, start, interrupt);
    lim.nodeLimit           = c.nodes;
    lim.actionLimit         = c.maxActions;
    lim.threads             = c.threads;
    return lim;
}

} // namespace

std::optional<VerifyInput> read_verify_input(
    std::string_view text, const std::string& file, bool lenient, VerifyInputError& error) {
    notation::ReadOptions opt = notation::read_options(lenient);
    opt.annotate              = false; // the marks are ours to check, not the reader's to compute
    std::optional<notation::GameTree> gt =
        notation::read_game_tree(text, file, opt, error.diagnostics);
    if (!gt) return std::nullopt;
    VerifyInput in;
    in.file               = file;
    in.hasPrelude         = header_of(*gt, "Prelude") != nullptr;
    const std::string* pz = header_of(*gt, "Puzzle");
    in.hasPuzzle          = pz != nullptr;
    // 1. The puzzle position: Prelude header, else Puzzle header, else the root.
    const std::vector<int> mainLine = gt->main_line();
    if (!verify_prelude(*gt, file, int(mainLine.size()) - 1, in.prelude, in.claimed, error.message))
        return std::nullopt;
    // 2. The puzzle position and the claimed solution below it, as a tree of its own.
    const int top = mainLine[std::size_t(in.prelude)];
    in.puzzle.emplace(notation::position_at(*gt, top));
    std::string why;
    if (pz && !notation::check_claim(*pz, in.puzzle->to_move(), why)) { // the side it names
        error.message = file + ": [Puzzle \"" + *pz + "\"]: " + why;
        return std::nullopt;
    }
    in.solution = *gt->subtree(top); // no node limit: always a tree
    return in;
}

VerifyReport verify_input(const VerifyInput& in, const VerifyOptions& c,
    std::chrono::steady_clock::time_point start, const std::atomic<bool>* interrupt) {
    const Multiverse&   puzzle  = *in.puzzle;
    const SolutionTree& tree    = in.solution;
    const int           claimed = in.claimed;
    VerifyReport        r;
    if (c.progress) std::cerr << "verify: proof check of " << tree.nodes.size() << " nodes\n";
    Multiverse scratch = puzzle.fork();
    r.rep              = solver::check_proof(
                     scratch, tree, 20, &notation::format_action, proof_limits(c, start, interrupt));
    const solver::ProofReport& rep = r.rep;
    r.attacker                     = puzzle.to_move();
    r.prelude                      = in.prelude;
    r.claimed                      = claimed;
    r.tries                        = c.tries;
    r.lineActions                  = tree.nodes.size() - 1;
    const int n = r.n = rep.length > 0 ? rep.length : std::max(claimed, 1);
    // A single line from the root (no Prelude or Puzzle header marks a puzzle position) that
    // leaves defences unanswered is no solution tree but a game: said so, not analysed.
    r.notATree = solver::game_not_tree(tree, rep, in.hasPrelude || in.hasPuzzle);

    // 3. The composer's verdict, when there is time left for it and the tree is one.
    const solver::Analysis an =
        verify_analysis(c, puzzle, tree, rep, r.notATree, n, start, interrupt, r.noMemory);
    if (r.noMemory) return r;

    auto fmt_path = [&](std::span<const std::vector<Move>> path) {
        return path_text(puzzle, path);
    };
    for (int k : tree.nodes[0].children)
        r.treeKeys.push_back(fmt_path({&tree.nodes[std::size_t(k)].action, 1}));
    // A key of the analysis that is not a key of the tree is a cook (solver::cooks_of()).
    for (const auto& k : solver::cooks_of(tree, an.keys))
        r.cooks.push_back(fmt_path({&k, 1}));
    r.cooksCapped = an.keysCapped;
    r.problems    = problem_texts(puzzle, tree, rep);
    // The verdict (solver::judge()), as text.
    const solver::Verdict v = solver::judge(rep, an, r.notATree, r.cooks.size(), claimed, n);
    r.proofDecided          = v.proofDecided;
    r.decided               = v.decided;
    r.claimDecided          = v.claimDecided;
    r.claimHolds            = v.claimHolds;
    r.sound                 = v.sound;
    r.why                   = an.why.empty() ? std::string("limit reached") : an.why;
    r.verdict               = verdict_text(v.kind, r.why);
    r.exitCode              = r.sound             ? ExitOk
                     : !r.proofDecided            ? ExitUnknown
                     : !rep.complete || r.decided ? ExitNegative
                                                  : ExitUnknown;
    // "claim: mate in 3; shortest: mate in 2", when the claim is wrong.
    if (!r.claimHolds)
        r.claimNote = "claim: " + mate_text(claimed)
            + "; shortest: " + (an.shortest ? mate_text(an.shortest) : no_mate_text(n));
    r.shortest = an.shortest;
    for (const auto& d : an.duals)
        r.duals.push_back(fmt_path(d));
    for (const auto& [a, refu] : an.tries) {
        std::vector<std::vector<Move>> path{a, refu};
        r.triesText.emplace_back(fmt_path({&a, 1}), fmt_path(path));
    }
    return r;
}

} // namespace fived::report
