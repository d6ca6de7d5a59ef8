// The proof checker (solver/verify.h, check_proof): missing defences, open lines, groups, deep
// trees and limits; transposed defences and jumps in either order are distinct actions.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "movegen/action.h"
#include "movegen/actions.h"
#include "movegen/movegen.h"
#include "notation/format.h"
#include "notation/game.h"
#include "solver/solution_shape.h"
#include "solver/solver.h"
#include "solver/verify.h"
#include "tests/solver/search_test_util.h"

namespace fived::solver {
namespace {

using movegen::Multiverse;
using namespace searchtest;

TEST(CheckProof, FindsMissingDefencesAndOpenLines) {
    auto root = load_text(embedded()[2].pgn);
    ASSERT_TRUE(root);
    const SolveResult r = solve(*root, options(2)); // both keys
    ASSERT_EQ(r.result, Result::MATE);
    // Drop a defence whose answer no sibling shares (a shared immediately mating answer
    // would count as answering it, as in a grouped tree).
    SolutionTree cut = r.tree;
    int          key = -1, drop = -1;
    for (int k : cut.nodes[0].children) {
        const auto& defs = cut.nodes[std::size_t(k)].children;
        for (int d : defs) {
            const auto& ans = cut.nodes[std::size_t(cut.nodes[std::size_t(d)].children[0])].action;
            int         shared = 0;
            for (int d2 : defs)
                shared +=
                    cut.nodes[std::size_t(cut.nodes[std::size_t(d2)].children[0])].action == ans;
            if (shared == 1 && drop < 0) {
                key  = k;
                drop = d;
            }
        }
    }
    ASSERT_GE(drop, 0);
    auto& kids = cut.nodes[std::size_t(key)].children;
    kids.erase(std::find(kids.begin(), kids.end(), drop));
    Multiverse  mv  = root->fork();
    ProofReport rep = check_proof(mv, cut);
    EXPECT_FALSE(rep.complete);
    ASSERT_FALSE(rep.problems.empty());
    EXPECT_EQ(rep.problems[0].kind, ProofProblem::Kind::MISSING_DEFENCE);
    // Cut the mating answer of a defence: the line ends with the attacker to move.
    SolutionTree open = r.tree;
    const int    def  = drop;
    open.nodes[std::size_t(def)].children.clear();
    rep = check_proof(mv, open);
    EXPECT_FALSE(rep.complete);
    ASSERT_FALSE(rep.problems.empty());
    EXPECT_EQ(rep.problems[0].kind, ProofProblem::Kind::NO_ANSWER);
    // Stop one action early: the defender to move is not mated.
    SolutionTree early = r.tree;
    early.nodes[std::size_t(key)].children.clear();
    rep = check_proof(mv, early);
    EXPECT_FALSE(rep.complete);
    EXPECT_EQ(rep.problems[0].kind, ProofProblem::Kind::NOT_MATE);
    EXPECT_EQ(mv.key(), root->key()) << "check_proof restores the position";
}

// A defence left out of the tree is missing even when a sibling's answer mates after it too:
// implicit coverage only where the tree declares a group (issue 11). The group is declared by a
// count alone, or by a list of names matched through the formatter; a name that is no legal
// defence, or a group whose answer does not mate at once, is a problem.
TEST(CheckProof, LeftOutDefenceIsMissingUnlessAGroupDeclaresIt) {
    auto root = load_text(embedded()[2].pgn);
    ASSERT_TRUE(root);
    const SolveResult r = solve(*root, options(2));
    ASSERT_EQ(r.result, Result::MATE);
    const SolutionTree& t         = r.tree;
    auto                answer_of = [&](int d) {
        return t.nodes[std::size_t(t.nodes[std::size_t(d)].children[0])];
    };
    // A defence `drop` whose one mating answer a sibling `keep` shares.
    int key = -1, keep = -1, drop = -1;
    for (int k : t.nodes[0].children) {
        const auto& defs = t.nodes[std::size_t(k)].children;
        for (std::size_t i = 0; i < defs.size() && drop < 0; ++i)
            for (std::size_t j = 0; j < defs.size() && drop < 0; ++j)
                if (i != j && t.nodes[std::size_t(defs[i])].children.size() == 1
                    && t.nodes[std::size_t(defs[j])].children.size() == 1
                    && answer_of(defs[i]).children.empty()
                    && answer_of(defs[i]).action == answer_of(defs[j]).action) {
                    key  = k;
                    keep = defs[i];
                    drop = defs[j];
                }
    }
    ASSERT_GE(drop, 0) << "the puzzle has two defences sharing one mating answer";
    SolutionTree cut  = t;
    auto&        kids = cut.nodes[std::size_t(key)].children;
    kids.erase(std::find(kids.begin(), kids.end(), drop));
    Multiverse mv = root->fork();
    // Not declared: missing, and the problem names the defence.
    ProofReport rep = check_proof(mv, cut);
    EXPECT_FALSE(rep.complete);
    ASSERT_EQ(rep.problems.size(), 1u);
    EXPECT_EQ(rep.problems[0].kind, ProofProblem::Kind::MISSING_DEFENCE);
    EXPECT_EQ(rep.problems[0].node, key);
    EXPECT_EQ(rep.problems[0].action, t.nodes[std::size_t(drop)].action);
    EXPECT_EQ(rep.answeredByGroup, 0u);
    // Declared by a count: complete.
    SolutionTree counted                     = cut;
    counted.nodes[std::size_t(keep)].comment = "2 defences share this answer";
    rep                                      = check_proof(mv, counted);
    EXPECT_TRUE(rep.complete) << (rep.problems.empty() ? "" : rep.problems[0].detail);
    EXPECT_EQ(rep.answeredByGroup, 1u);
    // Declared by name (as the formatter prints it, blanks aside): complete.
    Multiverse                     at = root->fork();
    std::vector<movegen::MoveUndo> u(t.nodes[std::size_t(key)].action.size());
    for (std::size_t j = 0; j < u.size(); ++j)
        at.make_move(t.nodes[std::size_t(key)].action[j], u[j]);
    const std::string keepName = notation::format_action(at, t.nodes[std::size_t(keep)].action);
    const std::string dropName = notation::format_action(at, t.nodes[std::size_t(drop)].action);
    SolutionTree      named    = cut;
    named.nodes[std::size_t(keep)].comment =
        movegen::group_comment({keepName, "  " + dropName + " "});
    rep = check_proof(mv, named, 20, &notation::format_action);
    EXPECT_TRUE(rep.complete) << (rep.problems.empty() ? "" : rep.problems[0].detail);
    EXPECT_EQ(rep.answeredByGroup, 1u);
    // A list that names other defences does not cover it; a name that is no defence is a problem.
    named.nodes[std::size_t(keep)].comment = movegen::group_comment({keepName, "(0T1)Kz9z8"});
    rep                                    = check_proof(mv, named, 20, &notation::format_action);
    EXPECT_FALSE(rep.complete);
    ASSERT_EQ(rep.problems.size(), 2u);
    EXPECT_EQ(rep.problems[0].kind, ProofProblem::Kind::MISSING_DEFENCE);
    EXPECT_EQ(rep.problems[1].kind, ProofProblem::Kind::BAD_GROUP);
    // A group on a defence whose answer does not mate at once (here: the answer node gets a
    // child, any action) is a problem.
    SolutionTree deep = counted;
    deep.add(deep.nodes[std::size_t(keep)].children[0], t.nodes[std::size_t(keep)].action);
    rep = check_proof(mv, deep);
    EXPECT_FALSE(rep.complete);
    EXPECT_TRUE(std::any_of(rep.problems.begin(), rep.problems.end(),
        [](const ProofProblem& p) { return p.kind == ProofProblem::Kind::BAD_GROUP; }));
    EXPECT_EQ(mv.key(), root->key()) << "check_proof restores the position";
}

// A tree as deep as its input: the walk is iterative (issue 55: 2,000 turns overflowed the
// stack). A game of knights going back and forth, read as a tree from its start: every defence
// but the one played is missing (at least 19 at each), and the line ends with the attacker to
// move.
TEST(CheckProof, DeepTreeIsWalkedWithoutRecursion) {
    constexpr int Turns = 8000; // the engine counts turns up to 8191
    std::string   text  = "[Board \"Standard\"]\n";
    for (int t = 1; t <= Turns; ++t)
        text += std::to_string(t) + (t % 2 ? ". Nf3 / Nf6\n" : ". Ng1 / Ng8\n");
    auto g = notation::load_game(text, "deep", {});
    ASSERT_TRUE(g.ok()) << g.status().message();
    ASSERT_EQ(g->mainLine.size(), std::size_t(2 * Turns));
    SolutionTree tree;
    int          at = 0;
    for (const auto& a : g->mainLine)
        at = tree.add(at, a);
    Multiverse        mv  = g->start.fork();
    const ProofReport rep = check_proof(mv, tree, SIZE_MAX);
    EXPECT_TRUE(rep.finished);
    EXPECT_FALSE(rep.complete);
    EXPECT_EQ(rep.length, Turns);
    EXPECT_EQ(rep.defenderNodes, std::size_t(Turns));
    // Missing defences at each defender node (all but the one played), then the open end.
    ASSERT_GT(rep.problems.size(), std::size_t(19 * Turns));
    EXPECT_EQ(rep.problems.back().kind, ProofProblem::Kind::NO_ANSWER);
    EXPECT_EQ(mv.key(), g->start.key()) << "check_proof restores the position";
    // The default: the walk stops at the 20th problem (at the first defender node already).
    const ProofReport first = check_proof(mv, tree);
    EXPECT_FALSE(first.finished);
    EXPECT_TRUE(first.limit.empty());
    EXPECT_EQ(first.problems.size(), 20u);
    EXPECT_EQ(first.length, Turns);
    EXPECT_EQ(mv.key(), g->start.key()) << "check_proof restores the position";
}

// The limits stop the walk (issue 55): the proof is then undecided (no problem, not finished,
// the limit named), and the position is restored.
TEST(CheckProof, LimitsStopTheWalk) {
    auto root = load_text(embedded()[2].pgn);
    ASSERT_TRUE(root);
    const SolveResult r = solve(*root, options(2));
    ASSERT_EQ(r.result, Result::MATE);
    Multiverse mv = root->fork();
    ASSERT_TRUE(check_proof(mv, r.tree).complete);
    auto stopped = [&](const ProofLimits& lim, const std::string& why, Limit kind) {
        const ProofReport rep = check_proof(mv, r.tree, 20, nullptr, lim);
        EXPECT_EQ(rep.limitKind, kind) << why;
        EXPECT_FALSE(rep.finished) << why;
        EXPECT_FALSE(rep.complete) << why;
        EXPECT_TRUE(rep.problems.empty()) << why;
        EXPECT_EQ(rep.limit, why);
        EXPECT_EQ(mv.key(), root->key()) << why << ": check_proof restores the position";
    };
    const std::atomic<bool> yes{true};
    ProofLimits             lim;
    lim.interrupt = &yes;
    stopped(lim, "interrupted", Limit::INTERRUPTED);
    lim           = {};
    lim.timeLimit = 1;
    lim.deadline  = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    stopped(lim, "time limit of 1 s reached", Limit::TIME);
    lim           = {};
    lim.nodeLimit = 3;
    stopped(lim, "node limit of 3 reached", Limit::NODES);
    lim             = {};
    lim.actionLimit = 1;
    stopped(lim, "a position has more than 1 legal actions (--max-actions)", Limit::ACTIONS);
    // Limits not reached: the same complete proof.
    lim                   = {};
    lim.nodeLimit         = 1000000;
    lim.actionLimit       = 1000;
    lim.timeLimit         = 3600;
    lim.deadline          = std::chrono::steady_clock::now() + std::chrono::hours(1);
    const ProofReport rep = check_proof(mv, r.tree, 20, nullptr, lim);
    EXPECT_TRUE(rep.complete && rep.finished && rep.limit.empty());
    EXPECT_EQ(rep.limitKind, Limit::NONE);
    EXPECT_GT(rep.nodes, 0u);
}

// Issue 14: two defences that reach the same position (jumps onto two equal boards) are two
// defences. The solver answers both, and the proof check accepts the tree (it used to reject the
// second as a duplicate variation and the solve ended "unknown").
// One text per limit, for the solver, the proof walk and the CLI alike.
TEST(Limits, EachKindHasOneMessage) {
    EXPECT_EQ(limit_message(Limit::TIME, 0.5), "time limit of 0.5 s reached");
    EXPECT_EQ(limit_message(Limit::TIME, 60), "time limit of 60 s reached");
    EXPECT_EQ(limit_message(Limit::NODES, 5000000000.0), "node limit of 5000000000 reached");
    EXPECT_EQ(limit_message(Limit::ACTIONS, 2000000),
        "a position has more than 2000000 legal actions (--max-actions)");
    EXPECT_EQ(limit_message(Limit::INTERRUPTED, 0), "interrupted");
    EXPECT_EQ(limit_message(Limit::NONE, 7), "");
}

TEST(Proof, TransposedDefencesAreTwoDefences) {
    const char* text = "[Board \"custom\"]\n[Size \"5x5\"]\n[5/2R2/k2bK/5/2R2:0:1:w]\n"
                       "[5/2R2/k2bK/5/2R2:1:1:w]\n\n1. (0T1)Ke3xd3 (1T1)Rc1d1\n";
    auto        root = load_text(text, false);
    ASSERT_TRUE(root);
    for (int t : {1, 2}) {
        SolveOptions o      = options(2, t);
        o.allKeys           = false;
        const SolveResult r = solve(*root, o);
        ASSERT_EQ(r.result, Result::MATE) << r.error << " threads " << t;
        EXPECT_EQ(r.mateIn, 2);
        EXPECT_TRUE(r.verified) << "threads " << t;
        ASSERT_TRUE(r.treeBuilt);
        Multiverse        scratch = root->fork();
        const ProofReport rep     = check_proof(scratch, r.tree);
        EXPECT_TRUE(rep.complete) << (rep.problems.empty() ? "" : rep.problems[0].detail);
        // The tree does hold two sibling defences that reach one position.
        bool transposed = false;
        for (std::size_t n = 0; n < r.tree.nodes.size() && !transposed; ++n) {
            std::vector<movegen::Key> keys;
            for (const int c : r.tree.nodes[n].children) {
                // The position after child c: replay the path from the root.
                std::vector<int> path;
                for (int q = c; q > 0; q = r.tree.nodes[std::size_t(q)].parent)
                    path.push_back(q);
                Multiverse                     mv = root->fork();
                std::vector<movegen::MoveUndo> undo;
                for (auto it = path.rbegin(); it != path.rend(); ++it)
                    for (const movegen::Move& m : r.tree.nodes[std::size_t(*it)].action) {
                        undo.emplace_back();
                        mv.make_move(m, undo.back());
                    }
                transposed |= std::find(keys.begin(), keys.end(), mv.key()) != keys.end();
                keys.push_back(mv.key());
            }
        }
        EXPECT_TRUE(transposed) << "threads " << t;
    }
}

// Two branching jumps from two equal boards, made in either order, reach one position; they are
// still two actions, neither illegal nor a duplicate of the other.
TEST(Proof, JumpsInEitherOrderAreTwoActions) {
    const char* text = "[Board \"custom\"]\n[Size \"5x5\"]\n[4k/5/5/5/R1K2:0:1:w]\n"
                       "[4k/5/5/5/R1K2:1:1:w]\n\n1. (0T1)Ra1a2 (1T1)Ra1a2 / (0T1)Ke5e4 "
                       "(1T1)Ke5e4\n";
    auto        root = load_text(text, false);
    ASSERT_TRUE(root);
    const int                        v  = root->present_v(); // white's boards at T2
    const int                        a2 = movegen::make_square(0, 1);
    const movegen::Move              j0{movegen::Vec4(0, v, a2), movegen::Vec4(0, v - 2, a2)};
    const movegen::Move              j1{movegen::Vec4(1, v, a2), movegen::Vec4(1, v - 2, a2)};
    const std::vector<movegen::Move> ab{j0, j1}, ba{j1, j0};
    // Both are legal actions of the position, and reach the same position.
    std::vector<std::vector<movegen::Move>> legal;
    movegen::ActionSearch                   search(*root);
    search.for_each([&](std::span<const movegen::Move> a) {
        legal.emplace_back(a.begin(), a.end());
        return true;
    });
    ASSERT_NE(std::find(legal.begin(), legal.end(), ab), legal.end());
    ASSERT_NE(std::find(legal.begin(), legal.end(), ba), legal.end());
    auto key_after = [&](const std::vector<movegen::Move>& a) {
        Multiverse                     mv = root->fork();
        std::vector<movegen::MoveUndo> undo(a.size());
        for (std::size_t i = 0; i < a.size(); ++i)
            mv.make_move(a[i], undo[i]);
        return mv.key();
    };
    ASSERT_EQ(key_after(ab), key_after(ba));
    SolutionTree tree;
    tree.add(0, ab);
    tree.add(0, ba);
    Multiverse        scratch = root->fork();
    const ProofReport rep     = check_proof(scratch, tree);
    ASSERT_FALSE(rep.problems.empty()); // neither line is a mate
    for (const ProofProblem& p : rep.problems) {
        EXPECT_NE(p.kind, ProofProblem::Kind::DUPLICATE) << p.detail;
        EXPECT_NE(p.kind, ProofProblem::Kind::ILLEGAL_ACTION) << p.detail;
    }
}

// Trees made by hand, each with one kind of problem at a known node (verify.h): in the corner-rook
// position (white Kb3, Re1; black Ka5; 5x5), Re1e5 mates; Re1e4 does not, and leaves Black one
// legal defence, Kb5 (a4 and b4 touch the white king); a rook does not move diagonally.
TEST(CheckProof, HandMadeTreesNameTheNodeOfTheirProblem) {
    auto root = load_text(embedded()[0].pgn);
    ASSERT_TRUE(root);
    ASSERT_EQ(std::string(embedded()[0].id), "corner-rook");
    using movegen::make_square;
    using movegen::Move;
    using movegen::Vec4;
    const int  w = root->present_v(), b = w + 1; // (0T1w), (0T1b)
    const auto move = [](int v, int fx, int fy, int tx, int ty) {
        return std::vector<Move>{
            Move{Vec4(0, v, make_square(fx, fy)), Vec4(0, v, make_square(tx, ty))}};
    };
    const std::vector<Move> mate = move(w, 4, 0, 4, 4), quiet = move(w, 4, 0, 4, 3),
                            diagonal = move(w, 4, 0, 3, 1), escape = move(b, 0, 4, 1, 4);
    Multiverse mv     = root->fork();
    auto       report = [&](const SolutionTree& t) {
        const ProofReport r = check_proof(mv, t);
        EXPECT_EQ(mv.key(), root->key()) << "check_proof restores the position";
        EXPECT_TRUE(r.finished);
        return r;
    };
    auto only_problem = [](const ProofReport& r, ProofProblem::Kind kind, int node) {
        EXPECT_FALSE(r.complete);
        ASSERT_EQ(r.problems.size(), 1u) << r.problems[0].detail;
        EXPECT_EQ(r.problems[0].kind, kind) << r.problems[0].detail;
        EXPECT_EQ(r.problems[0].node, node) << r.problems[0].detail;
    };
    SolutionTree proof;
    proof.add(0, mate);
    const ProofReport ok = report(proof);
    EXPECT_TRUE(ok.complete);
    EXPECT_TRUE(ok.problems.empty());
    EXPECT_EQ(ok.length, 1);
    EXPECT_EQ(ok.leaves, 1u);

    only_problem(report(SolutionTree()), ProofProblem::Kind::NO_ANSWER, 0);
    SolutionTree early;
    early.add(0, quiet);
    only_problem(report(early), ProofProblem::Kind::NOT_MATE, 1);
    SolutionTree illegal;
    illegal.add(0, diagonal);
    only_problem(report(illegal), ProofProblem::Kind::ILLEGAL_ACTION, 1);
    SolutionTree open;
    open.add(open.add(0, quiet), escape);
    const ProofReport r = report(open);
    only_problem(r, ProofProblem::Kind::NO_ANSWER, 2);
    EXPECT_EQ(r.defenderNodes, 1u);
    SolutionTree twice;
    twice.add(0, mate);
    twice.add(0, mate);
    const ProofReport dup = report(twice);
    EXPECT_FALSE(dup.complete);
    ASSERT_EQ(dup.problems.size(), 1u);
    EXPECT_EQ(dup.problems[0].kind, ProofProblem::Kind::DUPLICATE);
}

// The embedded puzzles' positions, by id.
std::vector<std::pair<std::string, Multiverse>> embedded_positions() {
    std::vector<std::pair<std::string, Multiverse>> cases;
    for (const Embedded& e : embedded())
        if (auto root = load_text(e.pgn)) cases.emplace_back(e.id, std::move(*root));
    return cases;
}

// The same problems, in the same order.
void expect_same_problems(const ProofReport& y, const ProofReport& x) {
    ASSERT_EQ(y.problems.size(), x.problems.size());
    for (std::size_t p = 0; p < x.problems.size(); ++p) {
        EXPECT_EQ(y.problems[p].kind, x.problems[p].kind) << p;
        EXPECT_EQ(y.problems[p].node, x.problems[p].node) << p;
        EXPECT_EQ(y.problems[p].action, x.problems[p].action) << p;
        EXPECT_EQ(y.problems[p].detail, x.problems[p].detail) << p;
    }
}

// A defender node that answers one defence of twenty (Standard, 1. e3 / e6): the other nineteen
// are missing, each named with its node and action, before the open line below the one written.
// The walk on threads (ProofLimits::threads): the subtrees of a defender node, in chunks on
// walkers of their own, give the report of the one walk: the same verdict, counts and problems
// in the same order, also when the problems list fills up. The embedded puzzles' trees of mate
// in 2 and 3, Rook Tactics on 6x6 (two timelines) and tools-standard-checkmate-3 three actions
// before its end (a mate in 2, 1,049 defences after the key), whole and with every third
// defence's answer cut (problems in many chunks), with every defender node of 2 or more
// children walked in chunks of one (parallelKids 2). Joining the chunks' reports in another
// order, or leaving a child unwalked, fails here.
TEST(CheckProof, ThreadsWalkTheSubtreesOfADefenderNodeAsOneWalk) {
    std::vector<std::pair<std::string, Multiverse>> cases = embedded_positions();
    ASSERT_EQ(cases.size(), embedded().size());
    for (const auto& [game, back] :
        {std::pair<const char*, std::size_t>{"rook-tactics-6x6-two-rooks", 0},
            {"tools-standard-checkmate-3", 3}}) {
        auto position = game_position(game, back);
        ASSERT_TRUE(position) << game;
        cases.emplace_back(game, std::move(*position));
    }
    int parallelNodes = 0, compared = 0;
    for (auto& [id, position] : cases) {
        const Multiverse* root = &position;
        SolveOptions      o    = options(3);
        o.allKeys              = false;
        const SolveResult r    = solve(*root, o);
        if (r.result != Result::MATE || r.mateIn < 2) continue;
        SolutionTree cut = r.tree;
        int          n   = 0;
        for (std::size_t i = 0; i < cut.nodes.size(); ++i) {
            const auto& kids = cut.nodes[i].children;
            if (kids.size() >= 2 && cut.depth(int(i)) % 2 == 1) ++parallelNodes;
        }
        for (std::size_t i = 1; i < cut.nodes.size(); ++i)
            if (cut.depth(int(i)) % 2 == 0 && !cut.nodes[i].children.empty() && n++ % 3 == 0)
                cut.nodes[i].children.clear(); // a defence left without its answer
        for (const SolutionTree* t : std::array<const SolutionTree*, 2>{&r.tree, &cut})
            for (const std::size_t maxProblems :
                {std::size_t(1), std::size_t(3), std::size_t(100)}) {
                SCOPED_TRACE(
                    id + (t == &cut ? " cut" : " whole") + " max " + std::to_string(maxProblems));
                ProofLimits one, many;
                many.threads        = 3;
                many.parallelKids   = 2;
                Multiverse        a = root->fork(), b = root->fork();
                const ProofReport x = check_proof(a, *t, maxProblems, nullptr, one);
                const ProofReport y = check_proof(b, *t, maxProblems, nullptr, many);
                EXPECT_EQ(y.complete, x.complete);
                EXPECT_EQ(y.finished, x.finished);
                EXPECT_EQ(y.length, x.length);
                if (x.finished) {
                    EXPECT_EQ(y.leaves, x.leaves);
                    EXPECT_EQ(y.defenderNodes, x.defenderNodes);
                }
                expect_same_problems(y, x);
                EXPECT_EQ(b.key(), root->key()) << "check_proof restores the position";
                if (t == &cut) {
                    EXPECT_FALSE(y.complete);
                }
                ++compared;
            }
    }
    EXPECT_GT(compared, 6);
    EXPECT_GT(parallelNodes, 2); // defender nodes wide enough to be walked in chunks
}

// The tree as fived writes it (solution_shape.h): at defender nodes of more than one child the
// defences that share an immediately mating answer written once, as a group that names them
// (`named`) or counts them.
SolutionTree grouped_tree(const SolutionTree& t, const Multiverse& root, bool named) {
    SolutionTree                     g;
    const std::vector<int>           heights = t.heights();
    std::vector<std::pair<int, int>> stack{{0, 0}}; // (node of t, node of g)
    while (!stack.empty()) {
        const auto [s, at] = stack.back();
        stack.pop_back();
        for (const WrittenChild& k : written_children(t, s, heights, 1)) {
            const int id = g.add(at, t.nodes[std::size_t(k.node)].action);
            if (k.group.size() >= 2) {
                Multiverse               here = t.position_at(root, s);
                std::vector<std::string> names;
                for (const int d : k.group)
                    names.push_back(notation::format_action(here, t.nodes[std::size_t(d)].action));
                g.nodes[std::size_t(id)].comment = named
                    ? movegen::group_comment(names)
                    : std::to_string(names.size()) + " defences share this answer";
            }
            stack.emplace_back(k.node, id);
        }
    }
    return g;
}

// With threads the answers of the defences a group declares are tested in batches while the
// defences are enumerated; the report is the serial walk's: the same problems in the same order,
// the same units and grouped defences counted, also when the problems list fills inside a batch.
// Trees of the embedded mates in 2 and 3 and of tools-standard-checkmate-3 three actions before
// its end (1,049 defences after the key), grouped by name and by count, whole, with each group's
// answer swapped for another group's (most of its defences then unanswered), and with a name
// that is no defence; batches of 1 to 3 and 512.
TEST(CheckProof, ThreadsTestTheGroupedDefencesAsOneWalk) {
    std::vector<std::pair<std::string, Multiverse>> cases = embedded_positions();
    ASSERT_EQ(cases.size(), embedded().size());
    auto tsc = game_position("tools-standard-checkmate-3", 3);
    ASSERT_TRUE(tsc);
    cases.emplace_back("tools-standard-checkmate-3", std::move(*tsc));
    int compared = 0, grouped = 0, failing = 0;
    for (auto& [id, root] : cases) {
        SolveOptions o      = options(3);
        o.allKeys           = false;
        const SolveResult r = solve(root, o);
        if (r.result != Result::MATE || r.mateIn < 2) continue;
        for (const bool named : {true, false}) {
            const SolutionTree whole = grouped_tree(r.tree, root, named);
            // Each group's answer swapped for the next group's; a bogus name.
            SolutionTree     swapped = whole, bogus = whole;
            std::vector<int> groups;
            for (std::size_t i = 0; i < whole.nodes.size(); ++i)
                if (!whole.nodes[i].comment.empty()) groups.push_back(int(i));
            for (std::size_t i = 0; i + 1 < groups.size(); ++i) {
                const auto& next = whole.nodes[std::size_t(groups[i + 1])];
                swapped.nodes[std::size_t(swapped.nodes[std::size_t(groups[i])].children[0])]
                    .action = whole.nodes[std::size_t(next.children[0])].action;
            }
            if (!groups.empty() && named)
                bogus.nodes[std::size_t(groups[0])].comment =
                    movegen::group_comment({"(0T1)Kz9z8", "(0T1)Kz9z7"});
            grouped += int(groups.size());
            for (const SolutionTree* t :
                std::array<const SolutionTree*, 3>{&whole, &swapped, &bogus})
                for (const std::size_t maxProblems :
                    {std::size_t(1), std::size_t(3), std::size_t(100)})
                    for (const std::size_t batch : {1, 2, 3, 512}) {
                        SCOPED_TRACE(id + (named ? " named" : " counted")
                            + (t == &whole          ? " whole"
                                    : t == &swapped ? " swapped"
                                                    : " bogus")
                            + " max " + std::to_string(maxProblems) + " batch "
                            + std::to_string(batch));
                        ProofLimits one, many;
                        many.threads        = 3;
                        many.parallelKids   = 1'000'000; // the groups only
                        many.groupBatch     = batch;
                        Multiverse        a = root.fork(), b = root.fork();
                        const ProofReport x =
                            check_proof(a, *t, maxProblems, &notation::format_action, one);
                        const ProofReport y =
                            check_proof(b, *t, maxProblems, &notation::format_action, many);
                        EXPECT_EQ(y.complete, x.complete);
                        EXPECT_EQ(y.finished, x.finished);
                        EXPECT_EQ(y.nodes, x.nodes);
                        EXPECT_EQ(y.leaves, x.leaves);
                        EXPECT_EQ(y.answeredByGroup, x.answeredByGroup);
                        EXPECT_EQ(y.limit, x.limit);
                        expect_same_problems(y, x);
                        EXPECT_EQ(b.key(), root.key()) << "check_proof restores the position";
                        if (t == &whole) {
                            EXPECT_TRUE(x.complete);
                        }
                        failing += !x.complete;
                        ++compared;
                    }
        }
    }
    EXPECT_GT(compared, 24);
    EXPECT_GT(grouped, 2);  // groups to test
    EXPECT_GT(failing, 12); // damaged trees whose problems are compared
}

TEST(CheckProof, EveryMissingDefenceIsNamed) {
    auto root = load_text("[Board \"Standard\"]\n");
    ASSERT_TRUE(root);
    using movegen::make_square;
    using movegen::Move;
    using movegen::Vec4;
    const std::vector<Move> e3{Move{Vec4(0, 2, make_square(4, 1)), Vec4(0, 2, make_square(4, 2))}};
    const std::vector<Move> e6{Move{Vec4(0, 3, make_square(4, 6)), Vec4(0, 3, make_square(4, 5))}};
    // Black's legal actions after 1. e3, but e6.
    std::vector<std::vector<Move>> others;
    {
        Multiverse                     mv = root->fork();
        std::vector<movegen::MoveUndo> undo;
        movegen::do_action(mv, e3, undo);
        movegen::ActionSearch(mv).for_each([&](std::span<const Move> a) {
            if (!std::equal(a.begin(), a.end(), e6.begin(), e6.end()))
                others.emplace_back(a.begin(), a.end());
            return true;
        });
    }
    ASSERT_EQ(others.size(), 19u);
    SolutionTree tree;
    tree.add(tree.add(0, e3), e6);
    Multiverse        mv  = root->fork();
    const ProofReport rep = check_proof(mv, tree, 100);
    EXPECT_TRUE(rep.finished);
    EXPECT_FALSE(rep.complete);
    EXPECT_EQ(rep.defenderNodes, 1u);
    ASSERT_EQ(rep.problems.size(), 20u);
    std::vector<std::vector<Move>> missing;
    for (std::size_t i = 0; i < 19; ++i) {
        EXPECT_EQ(rep.problems[i].kind, ProofProblem::Kind::MISSING_DEFENCE);
        EXPECT_EQ(rep.problems[i].node, 1);
        missing.push_back(rep.problems[i].action);
    }
    std::sort(missing.begin(), missing.end());
    std::sort(others.begin(), others.end());
    EXPECT_EQ(missing, others);
    EXPECT_EQ(rep.problems[19].kind, ProofProblem::Kind::NO_ANSWER);
    EXPECT_EQ(rep.problems[19].node, 2);
    EXPECT_EQ(mv.key(), root->key()) << "check_proof restores the position";
}

} // namespace
} // namespace fived::solver
