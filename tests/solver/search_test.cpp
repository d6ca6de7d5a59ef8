// The mate search end to end: embedded positions, the puzzles (tests/data; the tests named
// Shared* read the GPL/AGPL games left in ../shared), thread-count independence, limits, and the
// proof checker.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <tuple>

#include <gtest/gtest.h>

#include "movegen/actions.h"
#include "movegen/mate.h"
#include "movegen/movegen.h"
#include "notation/game.h"
#include "solver/search.h"
#include "solver/solver.h"
#include "solver/verify.h"
#include "tests/movegen/variant_util.h"
#include "tests/test_data.h"

namespace fived::solver {
namespace {

using movegen::Multiverse;

// The final position of text's main line, or the one `back` actions before it.
std::optional<Multiverse> load_text(
    const std::string& text, bool lenient = true, std::size_t back = 0) {
    auto g = notation::load_game(text, "test", notation::read_options(lenient));
    if (!g.ok() || g->mainLine.size() < back) {
        ADD_FAILURE() << (g.ok() ? "main line too short" : std::string(g.status().message()));
        return std::nullopt;
    }
    Multiverse                     mv = g->start.fork();
    std::vector<movegen::MoveUndo> undo;
    notation::play_main_line(mv, *g, g->mainLine.size() - back, undo);
    return mv;
}

// The text of a puzzle file (tests/data or ../shared, tests/test_data.h); a missing file fails
// the test.
std::string puzzle_text(const std::string& id) {
    return testdata::read_file(testdata::locate("puzzles/" + id + ".5dpgn"));
}

bool shared_only(const std::string& id) {
    return testdata::is_shared_only("puzzles/" + id + ".5dpgn");
}

// The position `back` actions before the end of a real game (read leniently), or none (with a
// test failure) when the file is missing.
std::optional<Multiverse> game_position(const std::string& id, std::size_t back) {
    return load_text(puzzle_text(id), true, back);
}

std::vector<std::string> key_texts(const Multiverse& root, const SolveResult& r) {
    Multiverse               p = root.fork();
    std::vector<std::string> out;
    for (const auto& k : r.keys)
        out.push_back(notation::format_action(p, k));
    return out;
}

void expect_same_tree(const SolutionTree& a, const SolutionTree& b, const std::string& id) {
    ASSERT_EQ(a.nodes.size(), b.nodes.size()) << id;
    for (std::size_t n = 0; n < a.nodes.size(); ++n) {
        EXPECT_EQ(a.nodes[n].parent, b.nodes[n].parent) << id << " node " << n;
        EXPECT_EQ(a.nodes[n].action, b.nodes[n].action) << id << " node " << n;
        EXPECT_EQ(a.nodes[n].mate(), b.nodes[n].mate()) << id << " node " << n;
    }
}

SolveOptions options(int maxMate, int threads = 1) {
    SolveOptions o;
    o.maxMate = maxMate;
    o.threads = threads;
    o.hashMb  = 4;
    o.allKeys = true;
    return o;
}

// Positions embedded so the solver is tested without ../shared. Rook Tactics I and II are
// official in-game puzzles as transcribed in adri326/5dchess-tools (MIT); the others are ours.
struct Embedded {
    const char*              id;
    const char*              pgn;
    int                      mateIn; // 0: no mate within `bound`
    int                      bound;
    std::vector<std::string> keys;
};

const std::vector<Embedded>& embedded() {
    static const std::vector<Embedded> list = {
        {"corner-rook", "[Board \"custom\"]\n[Size \"5x5\"]\n[k4/5/1K3/5/4R:0:1:w]\n", 1, 1,
            {"(0T1)Re1e5"}},
        {"rook-tactics-1",
            "[Board \"custom\"]\n[Size \"5x5\"]\n[4k/5/5/5/K1R2:0:1:w]\n"
            "1. (0T1)Kb2 / (0T1)Ke4\n2. (0T2)Re1 / (0T2)Kd3\n",
            1, 1, {"(0T3)Re1e5"}},
        {"rook-tactics-2",
            "[Board \"custom\"]\n[Size \"6x6\"]\n[6/5k/6/6/1R4/KR4:0:1:w]\n1. Re2 / Kf4\n", 2, 2,
            {"(0T2)Rb1f1", "(0T2)Rb1b5"}},
        {"bare-kings", "[Board \"custom\"]\n[Size \"4x4\"]\n[k3/4/4/3K:0:1:w]\n", 0, 2, {}},
    };
    return list;
}

class EmbeddedTest : public ::testing::TestWithParam<std::size_t> { };

TEST_P(EmbeddedTest, ShortestMateKeysAndProof) {
    const Embedded& e    = embedded()[GetParam()];
    auto            root = load_text(e.pgn);
    ASSERT_TRUE(root);
    const SolveResult r = solve(*root, options(e.bound));
    if (e.mateIn == 0) {
        EXPECT_EQ(r.result, Result::NO_MATE);
        EXPECT_EQ(r.noMateUpTo, e.bound);
        return;
    }
    ASSERT_EQ(r.result, Result::MATE) << r.error;
    EXPECT_EQ(r.mateIn, e.mateIn);
    EXPECT_EQ(r.noMateUpTo, e.mateIn - 1);
    EXPECT_EQ(key_texts(*root, r), e.keys);
    ASSERT_TRUE(r.treeBuilt);
    Multiverse        scratch = root->fork();
    const ProofReport rep     = check_proof(scratch, r.tree);
    EXPECT_TRUE(rep.complete);
    EXPECT_EQ(rep.length, e.mateIn);
    if (e.mateIn > 1) {
        const SolveResult shorter = solve(*root, options(e.mateIn - 1));
        EXPECT_EQ(shorter.result, Result::NO_MATE);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Solver, EmbeddedTest, ::testing::Range<std::size_t>(0, 4), [](const auto& param) {
        std::string s = embedded()[param.param].id;
        std::replace(s.begin(), s.end(), '-', '_');
        return s;
    });

// Mate in 1 against the rules engine's own verdict: an action is a key iff it checkmates.
TEST(Solver, MateInOneKeysAreExactlyTheCheckmatingActions) {
    for (const Embedded& e : embedded()) {
        if (e.mateIn != 1) continue;
        auto root = load_text(e.pgn);
        ASSERT_TRUE(root);
        const SolveResult              r       = solve(*root, options(1));
        const std::vector<std::string> keys    = key_texts(*root, r);
        Multiverse                     mv      = root->fork();
        Multiverse                     printer = root->fork();
        std::vector<std::string>       mates;
        movegen::ActionSearch          search(mv);
        search.for_each([&](std::span<const movegen::Move> a) {
            if (movegen::verdict(mv) == movegen::Verdict::Checkmate)
                mates.push_back(notation::format_action(printer, a));
            return true;
        });
        EXPECT_EQ(keys, mates) << e.id;
    }
}

// The check flags of a listed node: from the mate-in-one search's walk where two or more boards
// are playable (MateInOneSearch::cuts_pay()), tested action by action elsewhere. Either way each
// flag says whether the action leaves the opponent in check, on random games of several
// timelines.
TEST(Searcher, ListedCheckFlagsAreTheActionsThatGiveCheck) {
    movegen::testing::XorShift next{0x51c3b7ULL};
    int                        walked = 0, flagged = 0, quiet = 0;
    for (const char* name : {"Standard - Two Timelines", "Misc - Timeline Invasion",
             "Very Small - Open", "Focused - Just Knights", "Misc - Royal Queen Showdown"})
        for (int game = 0; game < 6; ++game) {
            const Multiverse   start = movegen::testing::variant_start(name);
            TranspositionTable tt;
            SearchContext      ctx(tt, start, 4);
            Searcher           s(ctx);
            Multiverse&        mv = s.position(); // the game is played on the searcher's own
            std::vector<movegen::MoveUndo> played, undo;
            for (int ply = 0; ply < 30; ++ply) {
                const Searcher::Listed listed = s.list_up_to(0, true, 3000);
                ASSERT_NE(listed, Searcher::Listed::STOPPED) << name;
                const ActionList& list = s.list(0);
                const bool        walk = movegen::MateInOneSearch::cuts_pay(mv);
                // A node over the cap is not listed (stream()); the flags of the others.
                for (std::size_t i = 0; listed == Searcher::Listed::ALL && i < list.size(); ++i) {
                    movegen::do_action(mv, list.action(i), undo);
                    const bool check = movegen::in_check_at_turn_start(mv);
                    movegen::undo_action(mv, undo);
                    ASSERT_EQ(list.ref(i).check, check)
                        << name << " game " << game << " ply " << ply << " action " << i;
                    if (walk) (check ? flagged : quiet)++;
                }
                walked += walk && listed == Searcher::Listed::ALL;
                const std::vector<Move> chosen =
                    movegen::testing::steered_random_action(mv, 50, next);
                if (chosen.empty()) break;
                movegen::do_action(mv, chosen, played);
            }
        }
    std::printf("listed nodes walked %d: %d checks, %d quiet actions\n", walked, flagged, quiet);
    // Walked nodes with both kinds of flags were met.
    EXPECT_GT(walked, 50);
    EXPECT_GT(flagged, 100);
    EXPECT_GT(quiet, 1000);
}

// Refuting classes of attacker actions at once (Searcher::class_refuted(), at wide nodes with
// r = 2, in the checks pass and in the class walk) gives the answers of searching every action:
// on random games of several timelines, every node searched without listing (streamAbove 1),
// mate in 2 and 3, with and without the classes, and with the walk alone (no checks first).
// Pairs where either search hit its node limit are skipped.
TEST(Solver, ClassCutsDoNotChangeTheAnswer) {
    movegen::testing::XorShift next{0x7c1a55ULL};
    int                        compared = 0, mates = 0, withCuts = 0;
    std::uint64_t              cut = 0;
    movegen::testing::for_each_game_position(
        {"Standard - Two Timelines", "Misc - Timeline Invasion", "Very Small - Open",
            "Focused - Just Knights", "Standard - Half Reflected"},
        2, 16, next, [&](Multiverse& mv, const char* name) {
            if (!movegen::MateInOneSearch::cuts_pay(mv)) return;
            for (int bound : {2, 3}) {
                SolveOptions o            = options(bound);
                o.allKeys                 = false;
                o.buildTree               = false;
                o.streamAbove             = 1;
                o.nodeLimit               = bound == 2 ? 3000 : 1000;
                o.hashMb                  = 1;
                o.classCuts               = false;
                const SolveResult without = solve(mv, o);
                EXPECT_EQ(without.classesCut, 0u);
                if (without.result == Result::UNKNOWN) continue;
                for (const bool checksFirst : {false, true}) {
                    o.classCuts            = true;
                    o.classChecks          = checksFirst;
                    const SolveResult with = solve(mv, o);
                    if (with.result == Result::UNKNOWN) continue;
                    ++compared;
                    mates += with.result == Result::MATE;
                    withCuts += with.classesCut > 0;
                    cut += with.classesCut;
                    ASSERT_EQ(with.result, without.result)
                        << name << " bound " << bound << " checks first " << checksFirst;
                    ASSERT_EQ(with.mateIn, without.mateIn)
                        << name << " bound " << bound << " checks first " << checksFirst;
                }
            }
        });
    std::printf("compared %d (%d mates), %d with classes cut (%llu classes)\n", compared, mates,
        withCuts, static_cast<unsigned long long>(cut));
    // Measured: 112 compared (68 mates), 6 with classes cut (481 classes). Random games seldom
    // leave boards far ahead of the present; ClassRefutationsHoldForTheirMembers checks the
    // classes of real wide positions.
    EXPECT_GT(compared, 80);
    EXPECT_GT(withCuts, 3);
}

// The claim of each class refuted at the root (Searcher::class_refuted()), checked on members of
// the class: the action shown with its move on a frozen timeline replaced by another move of
// that board, when legal. The refutation must be legal after it, and leave no mate in one
// (MateInOneSearch::find, the plain search, not the class proof). Wide positions of real games
// (cwmtt, GPL-3.0, in ../shared), the root with r = 2.
TEST(SharedSearcher, ClassRefutationsHoldForTheirMembers) {
    struct Check {
        Multiverse root;
        int        classes = 0, members = 0;
    };
    auto hook = [](void* arg, const Multiverse&, int ply, std::span<const Move> a,
                    std::span<const Move> d, std::span<const int> frozen) {
        auto& c = *static_cast<Check*>(arg);
        if (ply != 0 || c.classes >= 40) return;
        ++c.classes;
        Multiverse mv = c.root.fork();
        for (const int t : frozen) {
            const auto mine = std::find_if(a.begin(), a.end(),
                [&](const Move& m) { return m.from.l() == t && m.is_physical(); });
            if (mine == a.end()) continue; // a created timeline, or a jump from t
            std::vector<Move> moves;
            movegen::generate_board_moves(mv, t, moves);
            int tried = 0;
            for (const Move& other : moves) {
                if (!other.is_physical() || other == *mine || ++tried > 6) continue;
                std::vector<Move> member(a.begin(), a.end());
                member[std::size_t(mine - a.begin())] = other;
                movegen::ActionSearch legal(mv);
                bool                  isLegal = false;
                legal.reset_only(mv, member);
                legal.for_each([&](std::span<const Move> b) {
                    isLegal = std::equal(b.begin(), b.end(), member.begin(), member.end());
                    return !isLegal;
                });
                if (!isLegal) continue;
                std::vector<movegen::MoveUndo> undo;
                movegen::do_action(mv, member, undo);
                bool dLegal = false;
                legal.reset_only(mv, d);
                legal.for_each([&](std::span<const Move> b) {
                    dLegal = std::equal(b.begin(), b.end(), d.begin(), d.end());
                    return !dLegal;
                });
                EXPECT_TRUE(dLegal) << "the refutation is not legal after a member";
                if (dLegal) {
                    const std::size_t base = undo.size();
                    movegen::do_action(mv, d, undo);
                    movegen::MateInOneSearch plain;
                    EXPECT_FALSE(plain.find(mv)) << "a member of a refuted class mates in 2";
                    movegen::undo_action(mv, undo, base);
                    ++c.members;
                }
                movegen::undo_action(mv, undo);
            }
        }
    };
    int classes = 0, members = 0;
    for (const auto& [id, back] : {std::pair{"cwmtt-silly", 5}, {"cwmtt-wide", 3},
             {"cwmtt-manyChecks", 5}, {"cwmtt-wide", 5}})
        for (const bool checksFirst : {false, true}) { // the walk alone, and the checks pass
            const auto root = game_position(id, std::size_t(back));
            ASSERT_TRUE(root) << id;
            Check              check{root->fork()};
            TranspositionTable tt;
            tt.resize_mb(4);
            SearchContext ctx(tt, *root, 6);
            ctx.streamAbove  = 10000;
            ctx.classChecks  = checksFirst;
            ctx.nodeLimit    = 60000;
            ctx.classHook    = hook;
            ctx.classHookArg = &check;
            Searcher s(ctx);
            s.attack(2, 0);
            std::printf("%s -%d, checks first %d: %d classes checked, %d members\n", id, back,
                checksFirst, check.classes, check.members);
            classes += check.classes;
            members += check.members;
        }
    // Measured: 240 classes, 2,096 members (the walk alone: silly 40/240, wide -3 40/470, wide -5
    // 40/154; the checks first: silly 40/420, wide -3 40/470, wide -5 40/342). Before the class
    // proofs counted the attacks that read no frozen timeline, wide -3 proved 6/65 in the node
    // limit.
    EXPECT_GT(classes, 100);
    EXPECT_GT(members, 500);
}

TEST(Solver, ThreadCountDoesNotChangeTheAnswer) {
    for (const Embedded& e : embedded()) {
        auto root = load_text(e.pgn);
        ASSERT_TRUE(root);
        const SolveResult one = solve(*root, options(e.bound, 1));
        for (int t : {2, 3}) {
            SolveOptions o         = options(e.bound, t);
            o.splitHeight          = 1; // split everywhere, to stress the parallel code
            o.splitDefender        = true;
            const SolveResult many = solve(*root, o);
            EXPECT_EQ(many.result, one.result) << e.id << " threads " << t;
            EXPECT_EQ(many.mateIn, one.mateIn) << e.id;
            EXPECT_EQ(many.keys, one.keys) << e.id;
            expect_same_tree(many.tree, one.tree, e.id);
        }
        // Tree answers hinted by recent siblings within chunks of 2 defences (many chunks, built
        // in parallel): the same tree on 1 and 3 threads, and it passes the proof check.
        SolveOptions o1     = options(e.bound, 1);
        o1.answerChunk      = 2;
        SolveOptions o3     = options(e.bound, 3);
        o3.answerChunk      = 2;
        o3.splitHeight      = 1;
        const SolveResult a = solve(*root, o1), b = solve(*root, o3);
        EXPECT_EQ(a.result, one.result) << e.id;
        EXPECT_EQ(a.keys, one.keys) << e.id;
        EXPECT_EQ(a.verified, one.verified) << e.id;
        expect_same_tree(b.tree, a.tree, e.id);
    }
}

// Mate-in-1 keys come from the mate-in-one search (Solver find_mate1_keys): all keys are the
// checkmating actions of a plain enumeration, and the first key is one of them, the same for any
// thread count. Positions one action before a game's mate (wide ones included), and the
// embedded mates in 1.
using MateCases = std::vector<std::pair<std::string, Multiverse>>;

// The positions one action before the mate of the games `ids`.
MateCases before_mate(std::initializer_list<const char*> ids) {
    MateCases cases;
    for (const char* id : ids) {
        auto root = game_position(id, 1);
        EXPECT_TRUE(root) << id;
        if (root) cases.emplace_back(id, std::move(*root));
    }
    return cases;
}

void expect_mate_in_one_keys_thread_independent(MateCases& cases) {
    ASSERT_FALSE(cases.empty());
    for (auto& [id, root] : cases) {
        std::vector<std::string> mates; // in enumeration order
        {
            Multiverse            mv      = root.fork();
            Multiverse            printer = root.fork();
            movegen::ActionSearch search(mv);
            search.for_each([&](std::span<const movegen::Move> a) {
                if (movegen::verdict(mv) == movegen::Verdict::Checkmate)
                    mates.push_back(notation::format_action(printer, a));
                return true;
            });
        }
        ASSERT_FALSE(mates.empty()) << id;
        std::sort(mates.begin(), mates.end());
        std::vector<std::string> first; // the key found without allKeys, with 1 thread
        for (int t : {1, 2, 3}) {
            SolveOptions             o    = options(1, t);
            const SolveResult        all  = solve(root, o);
            std::vector<std::string> keys = key_texts(root, all);
            std::sort(keys.begin(), keys.end());
            EXPECT_EQ(keys, mates) << id << " threads " << t;
            o.allKeys             = false;
            const SolveResult one = solve(root, o);
            ASSERT_EQ(one.result, Result::MATE) << id;
            EXPECT_TRUE(one.verified) << id;
            const std::vector<std::string> key = key_texts(root, one);
            ASSERT_EQ(key.size(), 1u) << id;
            EXPECT_TRUE(std::binary_search(mates.begin(), mates.end(), key[0])) << id;
            if (first.empty()) first = key;
            EXPECT_EQ(key, first) << id << " threads " << t;
        }
    }
}

TEST(Solver, MateInOneKeysDoNotDependOnThreads) {
    MateCases cases = before_mate({"slavrick-aquababyvssamet-6-12-2021", "tools-dead-timeline"});
    for (const Embedded& e : embedded())
        if (e.mateIn == 1)
            if (auto root = load_text(e.pgn)) cases.emplace_back(e.id, std::move(*root));
    expect_mate_in_one_keys_thread_independent(cases);
}

// The same on the cwmtt games (GPL-3.0, in ../shared).
TEST(SharedSolver, MateInOneKeysDoNotDependOnThreads) {
    MateCases cases = before_mate({"cwmtt-standard", "cwmtt-futures", "cwmtt-test1"});
    expect_mate_in_one_keys_thread_independent(cases);
}

// df-pn against the reference search on every embedded position (bounds up to the mate).
TEST(Solver, DfpnAgreesWithTheReference) {
    for (const Embedded& e : embedded()) {
        auto root = load_text(e.pgn);
        ASSERT_TRUE(root);
        const SolveResult ref = solve(*root, options(e.bound));
        SolveOptions      o   = options(e.bound);
        o.algorithm           = Algorithm::DFPN;
        const SolveResult pn  = solve(*root, o);
        EXPECT_EQ(pn.result, ref.result) << e.id;
        EXPECT_EQ(pn.mateIn, ref.mateIn) << e.id;
        EXPECT_EQ(pn.noMateUpTo, ref.noMateUpTo) << e.id;
        EXPECT_EQ(pn.keys, ref.keys) << e.id;
        EXPECT_EQ(pn.verified, ref.verified) << e.id;
    }
}

TEST(Solver, OneClusterTableGivesTheSameAnswers) {
    for (const Embedded& e : embedded()) {
        auto root = load_text(e.pgn);
        ASSERT_TRUE(root);
        const SolveResult big  = solve(*root, options(e.bound));
        SolveOptions      o    = options(e.bound);
        o.ttClusters           = 1;
        const SolveResult tiny = solve(*root, o);
        EXPECT_EQ(tiny.result, big.result) << e.id;
        EXPECT_EQ(tiny.mateIn, big.mateIn) << e.id;
        EXPECT_EQ(tiny.keys, big.keys) << e.id;
    }
}

// A position of a random game (Small - Open) where the mate in one's escape cuts once removed
// every mate: the escape's king jumps onto the board the knight's branch created, after another
// move of the escape there, so it lands on a new timeline whose board copies the action's board
// whole; that copy was read as if its contents were fixed, and the knight on c2 that attacks the
// king there (in the mates) was not looked at. The mates (enumeration): five actions, each with
// (-2T3)Nc1>>(0T3)c2 and (-1T3)Bd3>>x(-1T2)d4.
TEST(Solver, MateInOneWhereTheEscapeBranchesFromACreatedBoard) {
    auto root = load_text("[Board \"Custom\"]\n[Mode \"5D\"]\n[Size \"5x5\"]\n"
                          "[Variant \"Small - Open\"]\n[Timelines \"Odd\"]\n"
                          "[p*1nbk*/3Rp*/4n/P*r2P/K*BN2:-2:3:w]\n"
                          "[p*r*nbk*/3p*p*/2n2/P*P*2P/K*BNR*1:-1:2:w]\n"
                          "[p*r*nbk*/3p*p*/2nB1/P*P*2P/K*1NR*1:-1:2:b]\n"
                          "[p*r*nbk*/3p*p*/3B1/P*P*2P/K*1NR*1:-1:3:w]\n"
                          "[p*r*nbk*/3p*p*/5/P*P*3/K*BNR*P*:0:1:w]\n"
                          "[p*r*nbk*/3p*p*/5/P*P*2P/K*BNR*1:0:1:b]\n"
                          "[p*1nbk*/3p*p*/5/P*r2P/K*BNR*1:0:2:w]\n"
                          "[p*1nbk*/3Rp*/5/P*r2P/K*BN2:0:2:b]\n"
                          "[p*2bk*/3Rp*/5/P*r2P/K*BN2:0:3:w]\n"
                          "[p*2bk*/2R1p*/5/P*r2P/K*BN2:0:3:b]\n"
                          "[3bk*/p1R1p*/5/P*r2P/K*BN2:0:4:w]\n");
    ASSERT_TRUE(root);
    Multiverse                              mv = root->fork();
    std::vector<std::vector<movegen::Move>> plain, fast;
    movegen::ActionSearch(mv).for_each([&](std::span<const movegen::Move> a) {
        if (movegen::is_checkmate(mv)) plain.emplace_back(a.begin(), a.end());
        return true;
    });
    movegen::MateInOneSearch().for_each_mate(
        mv,
        [&](std::span<const movegen::Move> a) {
            fast.emplace_back(a.begin(), a.end());
            return true;
        },
        [] { return true; });
    EXPECT_EQ(plain.size(), 5u);
    EXPECT_EQ(fast.size(), plain.size());
    const SolveResult r = solve(*root, options(1));
    ASSERT_EQ(r.result, Result::MATE) << r.error;
    EXPECT_EQ(r.mateIn, 1);
}

TEST(Solver, NodeLimitGivesUnknown) {
    auto root = load_text(embedded()[2].pgn);
    ASSERT_TRUE(root);
    for (int t : {1, 2}) {
        SolveOptions o      = options(2, t);
        o.nodeLimit         = 5;
        const SolveResult r = solve(*root, o);
        EXPECT_EQ(r.result, Result::UNKNOWN);
        EXPECT_TRUE(r.limitHit);
        EXPECT_TRUE(r.keys.empty());
    }
}

// Mate in 2 from the standard start (20 actions, no mate in 2) with `threads`, the options then
// changed by `set`.
SolveResult solve_standard(int threads, const std::function<void(SolveOptions&)>& set) {
    static const std::optional<Multiverse> root =
        load_text("[Board \"Standard\"]\n[Mode \"5D\"]\n");
    EXPECT_TRUE(root);
    SolveOptions o = options(2, threads);
    set(o);
    return root ? solve(*root, o) : SolveResult{};
}

TEST(Solver, UnknownSaysHowManyKeysItRefuted) {
    // 400 nodes end the search at bound 2 after some of its keys (13 with one thread), not all.
    for (int t : {1, 2}) {
        const SolveResult r = solve_standard(t, [](SolveOptions& o) { o.nodeLimit = 400; });
        EXPECT_EQ(r.result, Result::UNKNOWN);
        EXPECT_EQ(r.stoppedAt, 2);
        EXPECT_EQ(r.keysInAll, 20u);
        EXPECT_GT(r.keysRefuted, 0u);
        EXPECT_LT(r.keysRefuted, 20u);
        if (t == 1) {
            EXPECT_EQ(r.keysRefuted, 13u); // one thread: deterministic
        }
        // Streamed (the root not listed): the refuted keys without their number.
        const SolveResult st = solve_standard(t, [](SolveOptions& o) {
            o.nodeLimit   = 400;
            o.streamAbove = 5;
        });
        EXPECT_EQ(st.stoppedAt, 2);
        EXPECT_EQ(st.keysInAll, 0u);
        EXPECT_GT(st.keysRefuted, 0u);
        // Decided: nothing stopped.
        const SolveResult all = solve_standard(t, [](SolveOptions&) {});
        EXPECT_EQ(all.result, Result::NO_MATE);
        EXPECT_EQ(all.stoppedAt, 0);
    }
}

TEST(Solver, ActionLimitGivesUnknownWithItsReason) {
    // A limit of 10 listed actions stops the search at the first node it lists (mate in 2: the
    // root), with the reason; 20 is enough for the root and every defender node of mate in 1
    // and 2.
    for (int t : {1, 2}) {
        const SolveResult r = solve_standard(t, [](SolveOptions& o) { o.actionLimit = 10; });
        EXPECT_EQ(r.result, Result::UNKNOWN);
        EXPECT_TRUE(r.limitHit);
        EXPECT_NE(r.error.find("more than 10 legal actions"), std::string::npos) << r.error;
        const SolveResult ok = solve_standard(t, [](SolveOptions& o) { o.actionLimit = 20; });
        EXPECT_EQ(ok.result, Result::NO_MATE);
        EXPECT_FALSE(ok.limitHit);
    }
}

TEST(Solver, AnalysisNamesTheActionLimitItHit) {
    // Rook Tactics II (mate in 2): its tree, then the composer's analysis with room for 3
    // listed actions per position, fewer than the puzzle position has.
    const Embedded* e = nullptr;
    for (const Embedded& x : embedded())
        if (x.mateIn == 2) e = &x;
    ASSERT_NE(e, nullptr);
    auto root = load_text(e->pgn);
    ASSERT_TRUE(root);
    const SolveResult r = solve(*root, options(2));
    ASSERT_EQ(r.result, Result::MATE);
    SolveOptions   o    = options(2);
    const Analysis full = analyse(*root, r.tree, 2, o, false);
    EXPECT_TRUE(full.complete);
    EXPECT_TRUE(full.why.empty());
    o.actionLimit        = 3;
    const Analysis tight = analyse(*root, r.tree, 2, o, false);
    EXPECT_FALSE(tight.complete);
    EXPECT_NE(tight.why.find("more than 3 legal actions"), std::string::npos) << tight.why;
}

TEST(Solver, TimeLimitGivesUnknown) {
    auto root = load_text("[Board \"Standard\"]\n[Mode \"5D\"]\n");
    ASSERT_TRUE(root);
    SolveOptions o      = options(4);
    o.timeLimit         = 0.05;
    const SolveResult r = solve(*root, o);
    EXPECT_EQ(r.result, Result::UNKNOWN);
    EXPECT_TRUE(r.limitHit); // a search that ignored the limit would run into ctest's timeout
}

// Every move of a solution tree carries the flags the move generator gives it where it is played
// (issue 55): an answer taken from a sibling line (RecentActions) once kept that line's capture
// flag, and the tree printed `Rc1xc3` after Kc4d3, where c3 is empty. Moves compare equal
// without flags, so check_proof() alone does not see it.
TEST(Solver, TreeMovesCarryTheFlagsOfTheirOwnPosition) {
    auto root = load_text("[Board \"custom\"]\n[Mode \"5D\"]\n[Size \"6x6\"]\n"
                          "[6/6/B1k3/1q4/6/1b1RK1:0:1:w]\n");
    ASSERT_TRUE(root);
    const SolveResult r = solve(*root, options(2));
    ASSERT_EQ(r.result, Result::MATE);
    ASSERT_TRUE(r.treeBuilt);
    Multiverse  mv    = root->fork();
    std::size_t moves = 0, captures = 0;
    r.tree.walk(mv, [&](int node, Multiverse& here) {
        for (const int c : r.tree.nodes[std::size_t(node)].children) {
            const std::vector<movegen::Move>& action = r.tree.nodes[std::size_t(c)].action;
            std::vector<movegen::Move>        fresh  = action;
            ASSERT_TRUE(movegen::restamp_action(here, fresh));
            for (std::size_t i = 0; i < action.size(); ++i) {
                EXPECT_EQ(action[i].flags, fresh[i].flags) << "node " << c << " move " << i;
                ++moves;
                captures += action[i].is_capture();
            }
        }
    });
    EXPECT_GT(moves, 10u);
    EXPECT_GT(captures, 0u);
}

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
    auto stopped = [&](const ProofLimits& lim, const std::string& why) {
        const ProofReport rep = check_proof(mv, r.tree, 20, nullptr, lim);
        EXPECT_FALSE(rep.finished) << why;
        EXPECT_FALSE(rep.complete) << why;
        EXPECT_TRUE(rep.problems.empty()) << why;
        EXPECT_EQ(rep.limit, why);
        EXPECT_EQ(mv.key(), root->key()) << why << ": check_proof restores the position";
    };
    const std::atomic<bool> yes{true};
    ProofLimits             lim;
    lim.interrupt = &yes;
    stopped(lim, "interrupted");
    lim           = {};
    lim.timeLimit = 1;
    lim.deadline  = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    stopped(lim, "time limit of 1 s reached");
    lim           = {};
    lim.nodeLimit = 3;
    stopped(lim, "node limit of 3 reached");
    lim             = {};
    lim.actionLimit = 1;
    stopped(lim, "a position has more than 1 legal actions (--max-actions)");
    // Limits not reached: the same complete proof.
    lim                   = {};
    lim.nodeLimit         = 1000000;
    lim.actionLimit       = 1000;
    lim.timeLimit         = 3600;
    lim.deadline          = std::chrono::steady_clock::now() + std::chrono::hours(1);
    const ProofReport rep = check_proof(mv, r.tree, 20, nullptr, lim);
    EXPECT_TRUE(rep.complete && rep.finished && rep.limit.empty());
    EXPECT_GT(rep.nodes, 0u);
}

// --- the puzzle corpus -----------------------------------------------------------------------

struct PuzzleCase {
    const char*              id;
    int                      mateIn; // 0: no mate within bound
    int                      bound;
    std::vector<std::string> keys; // every key (empty: only the count is checked)
    std::size_t              keyCount;
};

const std::vector<PuzzleCase>& puzzles() {
    static const std::vector<PuzzleCase> list = {
        {"rook-tactics-1-5x5", 1, 1, {"(0T3)Re1e5"}, 1},
        {"std-qe2-qh5-mate-in-1", 1, 1, {"(0T3)Qe2h5"}, 1},
        {"narik-temporal-knight-mate", 1, 1, {"(0T2)Nb2>>x(0T1)b4"}, 1},
        {"timeline-tactitian-issue-1", 1, 1, {"(+0T3)Qd4>>(+0T1)b4"}, 1},
        {"advanced-branching-2", 1, 1, {}, 6},
        // RULES.md §2.3: the key is the brawn double step; ftxi's (0T3)Wd3>>(0T2)d4 uses a
        // non-capturing brawn move backwards in time that the rules do not have (§7 #1).
        {"brawn-tactics-1", 1, 1, {"(0T3)We1e3"}, 1},
        {"standard-mate-1-custom8x8", 1, 3, {"(0T2)Qd1f3"}, 1},
        {"rook-tactics-6x6-two-rooks", 2, 2, {"(0T2)Rb1f1", "(0T2)Rb1b5"}, 2},
        {"rook-tactics-5x5-pawn-timeline", 1, 2, {"(1T3)Rd1d5", "(1T3)Re1e4"}, 2},
        {"narik-knight-underpromotion", 1, 1, {"(0T1)Pb3b4=N"}, 1},
        // Claimed mate-in-4 (unverified source): as transcribed there is none.
        {"brawn-tactics-2", 0, 4, {}, 0},
        // Disputed mate-in-2: none in either reading (here: after the move pair).
        {"underpromotion-puzzle-brawns", 0, 3, {}, 0},
    };
    return list;
}

class PuzzleTest : public ::testing::TestWithParam<std::size_t> { };

TEST_P(PuzzleTest, SolvedWithTheClaimedLengthAndNotShorter) {
    const PuzzleCase& c    = puzzles()[GetParam()];
    auto              root = load_text(puzzle_text(c.id));
    ASSERT_TRUE(root);
    const SolveResult r = solve(*root, options(c.bound));
    if (c.mateIn == 0) {
        EXPECT_EQ(r.result, Result::NO_MATE);
        SolveOptions po = options(c.bound);
        po.algorithm    = Algorithm::DFPN;
        EXPECT_EQ(solve(*root, po).result, Result::NO_MATE);
        SolveOptions so = options(c.bound);
        so.streamAbove  = 1;
        EXPECT_EQ(solve(*root, so).result, Result::NO_MATE) << "streamed";
        return;
    }
    ASSERT_EQ(r.result, Result::MATE) << r.error;
    EXPECT_EQ(r.mateIn, c.mateIn);
    EXPECT_EQ(r.noMateUpTo, c.mateIn - 1);
    if (!c.keys.empty()) {
        EXPECT_EQ(key_texts(*root, r), c.keys);
    }
    EXPECT_EQ(r.keys.size(), c.keyCount);
    ASSERT_TRUE(r.treeBuilt);
    Multiverse        scratch = root->fork();
    const ProofReport rep     = check_proof(scratch, r.tree);
    EXPECT_TRUE(rep.complete);
    EXPECT_EQ(rep.length, c.mateIn);
    // 2 threads agree.
    SolveOptions o        = options(c.bound, 2);
    o.splitHeight         = 1;
    o.splitDefender       = true;
    const SolveResult two = solve(*root, o);
    EXPECT_EQ(two.result, r.result);
    EXPECT_EQ(two.mateIn, r.mateIn);
    EXPECT_EQ(two.keys, r.keys);
    expect_same_tree(two.tree, r.tree, c.id); // its defences built in parallel
    // Every node searched without listing (streamAbove 1: each node with two or more actions
    // streams), on 1 and 2 threads: the same answer and keys (sorted, as a streamed root gives
    // them), and a tree that passes the proof check.
    auto sorted = [](std::vector<std::vector<Move>> k) {
        std::sort(k.begin(), k.end());
        return k;
    };
    for (const int threads : {1, 2}) {
        SCOPED_TRACE("streamed, threads " + std::to_string(threads));
        SolveOptions so      = options(c.bound, threads);
        so.streamAbove       = 1;
        so.splitHeight       = 1;
        const SolveResult st = solve(*root, so);
        ASSERT_EQ(st.result, r.result) << st.error;
        EXPECT_EQ(st.mateIn, r.mateIn);
        EXPECT_EQ(sorted(st.keys), sorted(r.keys));
        EXPECT_TRUE(st.verified);
    }
}

// The indices of the cases whose file is in tests/data (shared = false) or in ../shared.
std::vector<std::size_t> puzzle_indices(bool shared) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < puzzles().size(); ++i)
        if (shared_only(puzzles()[i].id) == shared) out.push_back(i);
    return out;
}

std::string puzzle_test_name(const ::testing::TestParamInfo<std::size_t>& param) {
    std::string s = puzzles()[param.param].id;
    std::replace(s.begin(), s.end(), '-', '_');
    return s;
}

INSTANTIATE_TEST_SUITE_P(
    Data, PuzzleTest, ::testing::ValuesIn(puzzle_indices(false)), puzzle_test_name);
INSTANTIATE_TEST_SUITE_P(
    Shared, PuzzleTest, ::testing::ValuesIn(puzzle_indices(true)), puzzle_test_name);

// --- node budgets at defender nodes (Searcher::narrow_checks_first) ---------------------------

// The budgets only change the order in which defences are searched: the same answer, keys and a
// proof that checks, with budgets off, tiny (every defender node with k >= 2 goes through
// budget-stopped searches) and the default, on 1 and 2 threads. The positions have defender
// nodes with k >= 2: no mate in 4 / 3, and positions of real games solved with --mate 3.
void expect_budgets_keep_the_answer(
    const std::vector<std::tuple<const char*, std::size_t, int>>& games) {
    struct Case {
        std::string id;
        Multiverse  root;
        int         bound;
    };
    std::vector<Case> cases;
    for (const auto& [id, back, bound] : games) {
        auto root = load_text(puzzle_text(id), true, back);
        ASSERT_TRUE(root) << id;
        cases.push_back({id, std::move(*root), bound});
    }
    for (const Case& c : cases) {
        SolveOptions o        = options(c.bound);
        o.narrowBudget        = 0;
        o.hashMb              = 16;
        const SolveResult ref = solve(c.root, o);
        ASSERT_NE(ref.result, Result::UNKNOWN) << c.id << ": " << ref.error;
        for (const std::uint64_t budget :
            {std::uint64_t(1), std::uint64_t(40), SolveOptions{}.narrowBudget})
            for (const int threads : {1, 2}) {
                SCOPED_TRACE(c.id + ", budget " + std::to_string(budget) + ", threads "
                    + std::to_string(threads));
                o.narrowBudget      = budget;
                o.threads           = threads;
                const SolveResult r = solve(c.root, o);
                EXPECT_EQ(r.result, ref.result) << r.error;
                EXPECT_EQ(r.mateIn, ref.mateIn);
                EXPECT_EQ(r.noMateUpTo, ref.noMateUpTo);
                EXPECT_EQ(r.keys, ref.keys);
                if (r.result == Result::MATE) {
                    EXPECT_TRUE(r.verified);
                }
            }
    }
}

TEST(Solver, NodeBudgetsDoNotChangeTheAnswer) {
    expect_budgets_keep_the_answer(
        {{"brawn-tactics-2", 0, 4}, {"underpromotion-puzzle-brawns", 0, 3}});
}

// Real games from chess-in-5d and 5d-chess-js (AGPL-3.0, in ../shared).
TEST(SharedSolver, NodeBudgetsDoNotChangeTheAnswer) {
    expect_budgets_keep_the_answer(
        {{"tutorial-scholars-mate-checkmate", 5, 3}, {"std-qe2-qh5-checkmate", 5, 3}});
}

// A move named by its two ends (ℓ, v, x, y) -> (ℓ, v, x, y).
struct MoveEnds {
    int  l, v, x, y, tl, tv, tx, ty;
    bool of(const Move& m) const {
        return m.from.l() == l && m.from.v() == v && m.from.x() == x && m.from.y() == y
            && m.to.l() == tl && m.to.v() == tv && m.to.x() == tx && m.to.y() == ty;
    }
};

// slavrick samet --at -5 (Black to mate in 3), after the one-move key `key`: with the default
// node budgets the defender refutes it within `nodeLimit` nodes, without budgets (the listed
// order) it does not, and the two-move defence `refutation` is followed by no mate in 2 (checked
// by a search whose defender nodes all have k <= 1: no budgets).
void expect_narrow_check_refutes(
    const MoveEnds& key, const MoveEnds (&refutation)[2], std::uint64_t nodeLimit) {
    auto root = game_position("slavrick-aquababyvssamet-6-12-2021", 5);
    ASSERT_TRUE(root);
    SolveOptions o = options(3);
    o.hashMb       = 16;
    std::vector<std::vector<Move>> roots;
    Solver(*root, o).legal_actions({}, roots);
    std::vector<std::vector<Move>> path;
    for (const auto& a : roots)
        if (a.size() == 1 && key.of(a[0])) path.push_back(a);
    ASSERT_EQ(path.size(), 1u);

    o.nodeLimit = nodeLimit;
    Solver budgeted(*root, o);
    EXPECT_EQ(budgeted.mated_within(path, 2), Value::NO);
    o.narrowBudget = 0;
    o.classCuts    = false; // the refutation by classes (r = 2) also decides it within the limit
    Solver plain(*root, o);
    EXPECT_EQ(plain.mated_within(path, 2), Value::ABORT) << "the node limit";

    std::vector<std::vector<Move>> defences;
    Solver(*root, options(3)).legal_actions(path, defences);
    std::vector<Move> found;
    for (const auto& d : defences)
        if (d.size() == 2 && refutation[0].of(d[0]) && refutation[1].of(d[1])) found = d;
    ASSERT_FALSE(found.empty());
    path.push_back(found);
    o.nodeLimit = 0;
    EXPECT_EQ(Solver(*root, o).mate_within(path, 2), Value::NO);
}

// The key (1T7)Qf6>>(0T7)e5 (the 325th of the search's order, the first it could not refute
// within 60 s before the budgets): the killer of that ply is a quiet defence after which Black
// has over 66,000 actions. The refutation (-2T8)Nf3xe5 (1T8)Qa5d8 gives check and leaves Black
// 960; the budgets find a refutation in 47,384 nodes, while in the listed order the search is
// still on its first defence at 150,000.
TEST(Solver, NarrowCheckRefutesWhereTheFirstDefenceIsWide) {
    expect_narrow_check_refutes({1, 15, 5, 5, 0, 15, 4, 4},
        {{-2, 16, 5, 2, -2, 16, 4, 4}, {1, 16, 0, 4, 1, 16, 3, 7}}, 150'000);
}

// The later rounds of narrow checks (Searcher::NarrowRounds, up to 64 times the first). The key
// (1T15)Nb8>>(0T15)d8 (the 1,345th of the search's order): none of its 36 checking defences
// (about 1,300 attacker actions each) refutes within 4,000 or 32,000 nodes, and in the listed
// order the quiet killer took 2.9M nodes. The check (-2T16)b2b4 (1T16)Qa5d8 refutes in 54,438
// nodes, in a round past those budgets (the third when the rounds grew by 8, after 288,016
// nodes in the first two).
TEST(Solver, NarrowCheckRefutesInALaterRound) {
    expect_narrow_check_refutes({1, 15, 1, 7, 0, 15, 3, 7},
        {{-2, 16, 1, 1, -2, 16, 1, 3}, {1, 16, 0, 4, 1, 16, 3, 7}}, 600'000);
}

// A defender node too wide to list (Searcher::narrow_checks_streamed). cwmtt-ctp1 --at -5
// (White to mate in 3, 8 keys): after the second key, (2T4)Qb4>(1T4)b3 (-2T4)Qb4>(0T4)b2, the
// defender's first defences in the enumeration's order leave White a wide node, and without
// budgets the search was still on the first of them after 585,000 nodes (the case was unknown
// after 60 s). With them, the refutation of the first key, completed with a choice on the boards
// it does not play on, is tried within budgets first and refutes: no mate in 3, within the limit.
TEST(SharedSolver, StreamedDefenderTriesCompletedRefutationsFirst) {
    auto root = game_position("cwmtt-ctp1", 5);
    ASSERT_TRUE(root);
    SolveOptions o      = options(3);
    o.hashMb            = 16;
    o.buildTree         = false;
    o.nodeLimit         = 300'000;
    const SolveResult r = solve(*root, o);
    EXPECT_EQ(r.result, Result::NO_MATE) << r.error;
    EXPECT_EQ(r.noMateUpTo, 3);
    o.narrowBudget = 0;
    EXPECT_EQ(solve(*root, o).result, Result::UNKNOWN) << "the node limit";
}

// Issue 14: two defences that reach the same position (jumps onto two equal boards) are two
// defences. The solver answers both, and the proof check accepts the tree (it used to reject the
// second as a duplicate variation and the solve ended "unknown").
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

} // namespace
} // namespace fived::solver

// The narrow rounds' memory of how each candidate fared at siblings: a refutation scores 2 and
// records the round it took (the lead, while the score is positive), a failure scores -1; the
// least recently touched of more than Slots candidates is forgotten.
TEST(CandidateHistory, ScoresLeadsAndForgetsTheLeastRecent) {
    using fived::solver::CandidateHistory;
    CandidateHistory h;
    EXPECT_EQ(h.score(11), 0);
    EXPECT_EQ(h.lead(11), 0);
    h.add(11, 2, 2);
    EXPECT_EQ(h.score(11), 2);
    EXPECT_EQ(h.lead(11), 2);
    h.add(11, -1);
    EXPECT_EQ(h.score(11), 1);
    EXPECT_EQ(h.lead(11), 2) << "a failure keeps the round of the last refutation";
    h.add(11, -1);
    EXPECT_EQ(h.score(11), 0);
    EXPECT_EQ(h.lead(11), 0) << "no lead without a positive score";
    h.add(11, 2, 1);
    EXPECT_EQ(h.lead(11), 1) << "the last refutation's round";
    h.add(13, -1);
    EXPECT_EQ(h.score(13), -1);
    EXPECT_EQ(h.lead(13), 0);
    // Slots - 2 more ids fill the memory; touching 11 again makes 13 the least recent, which
    // the next new id replaces.
    for (std::uint64_t id = 101; id < 101 + CandidateHistory::Slots - 2; id += 1)
        h.add(id, 2, 3);
    h.add(11, 2, 1);
    h.add(999, -1);
    EXPECT_EQ(h.score(13), 0) << "forgotten";
    EXPECT_EQ(h.score(11), 4);
    EXPECT_EQ(h.score(999), -1);
    for (std::uint64_t id = 101; id < 101 + CandidateHistory::Slots - 2; id += 1)
        EXPECT_EQ(h.score(id), 2) << id;
}
