// The mate search end to end on embedded positions and random games: shortest mates and keys,
// mate-in-one keys, class cuts, thread-count independence, the moves of a tree. The puzzle
// corpus, the limits, the node budgets, df-pn and the proof checker have files of their own
// (search_puzzles_test.cpp, search_limits_test.cpp, search_narrow_test.cpp, dfpn_test.cpp,
// verify_test.cpp).
#include <algorithm>
#include <cstdio>
#include <mutex>

#include <gtest/gtest.h>

#include "movegen/actions.h"
#include "movegen/mate.h"
#include "movegen/movegen.h"
#include "notation/game.h"
#include "solver/search.h"
#include "solver/solver.h"
#include "solver/verify.h"
#include "tests/movegen/variant_util.h"
#include "tests/solver/search_test_util.h"

namespace fived::solver {
namespace {

using movegen::Multiverse;
using namespace searchtest;

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
            SearchContext      ctx(tt, start, 4, PlainSearch);
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
// mate in 2 and 3, with and without the classes, with the walk alone (no checks first), and on
// two threads (the walk's patterns as shares). Pairs where either search hit its node limit are
// skipped.
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
                for (const auto& [checksFirst, threads] :
                    {std::pair{false, 1}, {true, 1}, {true, 2}}) {
                    o.classCuts            = true;
                    o.classChecks          = checksFirst;
                    o.threads              = threads;
                    const SolveResult with = solve(mv, o);
                    if (with.result == Result::UNKNOWN) continue;
                    ++compared;
                    mates += with.result == Result::MATE;
                    withCuts += with.classesCut > 0;
                    cut += with.classesCut;
                    ASSERT_EQ(with.result, without.result)
                        << name << " bound " << bound << " checks first " << checksFirst
                        << " threads " << threads;
                    ASSERT_EQ(with.mateIn, without.mateIn)
                        << name << " bound " << bound << " checks first " << checksFirst
                        << " threads " << threads;
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

// A class-walk node on two threads (its patterns as shares, one ClassStore for the node, under
// ThreadSanitizer in scripts/tsan.sh) gives the one-thread answer: the first random positions of
// ClassCutsDoNotChangeTheAnswer where one thread cuts classes, mate in 2, split where the mover
// has a board ahead of the present (patternsPerThread 1).
TEST(Solver, ClassWalkOnTwoThreadsAgreesWithOne) {
    movegen::testing::XorShift next{0x7c1a55ULL};
    int                        compared = 0, split = 0;
    movegen::testing::for_each_game_position(
        {"Standard - Two Timelines", "Misc - Timeline Invasion", "Very Small - Open",
            "Focused - Just Knights", "Standard - Half Reflected"},
        2, 16, next, [&](Multiverse& mv, const char* name) {
            if (compared >= 3 || !movegen::MateInOneSearch::cuts_pay(mv)) return;
            SolveOptions o        = options(2);
            o.allKeys             = false;
            o.buildTree           = false;
            o.streamAbove         = 1;
            o.nodeLimit           = 3000;
            o.hashMb              = 1;
            const SolveResult one = solve(mv, o);
            if (one.result == Result::UNKNOWN || one.classesCut == 0) return;
            o.threads             = 2;
            o.fixedThreads        = true;
            o.nodeLimit           = 0;
            o.patternsPerThread   = 1; // split where the mover has a board ahead
            const SolveResult two = solve(mv, o);
            ++compared;
            split += two.streamSplits > 0;
            EXPECT_EQ(two.result, one.result) << name;
            EXPECT_EQ(two.mateIn, one.mateIn) << name;
        });
    std::printf("compared %d, split %d\n", compared, split);
    EXPECT_EQ(compared, 3);
    EXPECT_GT(split, 0);
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
            SearchContext ctx(tt, *root, 6, PlainSearch);
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

// A class-walk node walks its patterns one after the other (Searcher::walk_patterns()) and leaves
// out the actions of the classes it refuted before (Searcher::ClassStore), each a member by the
// position it reaches. Each such action at the root is checked here to be refuted: after it, the
// defender has a defence that leaves no mate in one (a search of that defender node alone, with
// its own table). Wide positions of real games (cwmtt, GPL-3.0, in ../shared; the first
// 60,000 nodes), the root with r = 2; with one thread and with two (the patterns as shares of the
// threads, one store).
TEST(SharedSearcher, ActionsOfAClassRefutedBeforeAreRefuted) {
    struct Check {
        std::mutex mutex; // the shares of two threads call the hook
        int        members = 0, refuted = 0, open = 0;
    };
    auto hook = [](void* arg, const Multiverse& mv, int ply, std::span<const Move>) {
        auto&           c = *static_cast<Check*>(arg);
        std::lock_guard lock(c.mutex);
        if (ply != 0 || c.members >= 12) return;
        ++c.members;
        const Multiverse   after = mv.fork();
        TranspositionTable tt;
        tt.resize_mb(1);
        SearchContext ctx(tt, after, 4, SearchSettings{});
        ctx.nodeLimit = 100000;
        Searcher    s(ctx);
        const Value v = s.defend(1, 0);
        EXPECT_NE(v, Value::YES) << "an action left out as refuted mates in 2";
        c.refuted += v == Value::NO;
        c.open += v == Value::ABORT;
    };
    int members = 0, refuted = 0;
    for (const auto& [id, back] : {std::pair{"cwmtt-wide", 3}, {"tools-princess-checkmate", 3}})
        for (const int threads : {1, 2}) {
            const auto root = game_position(id, std::size_t(back));
            ASSERT_TRUE(root) << id;
            Check        check;
            SolveOptions o      = options(2, threads);
            o.allKeys           = false;
            o.buildTree         = false;
            o.nodeLimit         = 60000;
            o.memberHook        = hook;
            o.memberHookArg     = &check;
            const SolveResult r = solve(*root, o);
            EXPECT_NE(r.result, Result::MATE) << id;
            std::printf("%s -%d, %d threads: %d members checked, %d refuted, %d open\n", id, back,
                threads, check.members, check.refuted, check.open);
            if (threads > 1) continue; // how many the node limit leaves depends on the schedule
            members += check.members;
            refuted += check.refuted;
        }
    // Measured: 12 of 12 refuted on each with one thread (and on two, 0 and 12 of 12 once).
    EXPECT_GE(members, 20);
    EXPECT_GE(refuted, 20);
}

// A share of the root (fived solve --shard) is searched as the whole solve searches the root,
// the other actions skipped: the share of every action is the whole solve node for node (issue
// 56: a part owning all of slavrick writenwrong --at -5's 1,077 root actions took 4.6M nodes, 2.8
// times the whole solve's, when the share was searched action by action in standard order), and
// the even and odd halves find the mate, or prove none, as the whole does.
TEST(Solver, ARootShareIsSearchedAsTheWholeRoot) {
    for (const Embedded& e : embedded()) {
        auto root = load_text(e.pgn);
        ASSERT_TRUE(root);
        SolveOptions o = options(e.bound, 1);
        o.allKeys      = false;
        std::vector<std::vector<Move>> all;
        ASSERT_TRUE(Solver(*root, o).legal_actions({}, all, SIZE_MAX)) << e.id;
        const SolveResult whole = solve(*root, o);
        o.rootActions           = &all;
        const SolveResult share = solve(*root, o);
        EXPECT_EQ(share.result, whole.result) << e.id;
        EXPECT_EQ(share.mateIn, whole.mateIn) << e.id;
        EXPECT_EQ(share.keys, whole.keys) << e.id;
        EXPECT_EQ(share.nodes, whole.nodes) << e.id;
        std::vector<std::vector<Move>> half[2];
        for (std::size_t i = 0; i < all.size(); ++i)
            half[i % 2].push_back(all[i]);
        int best = 0;
        for (const auto& h : half) {
            o.rootActions       = &h;
            const SolveResult r = solve(*root, o);
            ASSERT_NE(r.result, Result::UNKNOWN) << e.id << ": " << r.error;
            if (r.result != Result::MATE) continue;
            EXPECT_GE(r.mateIn, whole.mateIn) << e.id;
            ASSERT_EQ(r.keys.size(), 1u) << e.id;
            EXPECT_NE(std::find(h.begin(), h.end(), r.keys[0]), h.end()) << e.id;
            if (!best || r.mateIn < best) best = r.mateIn;
        }
        EXPECT_EQ(best, whole.result == Result::MATE ? whole.mateIn : 0) << e.id;
    }
}

// A root split by hash (`solve --shard` of a root too wide to list): every action is in exactly
// one part, whatever the number of parts, and the parts' least mate is the whole solve's, each
// part's key one of its own actions. Also with the root streamed (streamAbove 4), as it is when
// it is too wide to list.
TEST(Solver, ARootSplitByHashFindsTheWholeMate) {
    for (const Embedded& e : embedded()) {
        auto root = load_text(e.pgn);
        ASSERT_TRUE(root);
        for (const std::size_t streamAbove : {std::size_t(0), std::size_t(4)}) {
            SolveOptions o = options(e.bound, 1);
            o.allKeys      = false;
            if (streamAbove) o.streamAbove = streamAbove;
            std::vector<std::vector<Move>> all;
            ASSERT_TRUE(Solver(*root, o).legal_actions({}, all, SIZE_MAX)) << e.id;
            const SolveResult whole = solve(*root, o);
            for (const int parts : {1, 3}) {
                std::vector<int> sizes(std::size_t(parts), 0);
                for (const auto& a : all) {
                    const int p = action_part(a, parts);
                    ASSERT_TRUE(p >= 0 && p < parts) << e.id;
                    EXPECT_EQ(action_part(a, parts), p) << e.id; // the same every time
                    ++sizes[std::size_t(p)];
                }
                int best = 0;
                for (int part = 0; part < parts; ++part) {
                    o.rootHashParts     = parts;
                    o.rootHashPart      = part;
                    const SolveResult r = solve(*root, o);
                    ASSERT_NE(r.result, Result::UNKNOWN) << e.id << ": " << r.error;
                    if (r.result != Result::MATE) continue;
                    EXPECT_GE(r.mateIn, whole.mateIn) << e.id;
                    ASSERT_EQ(r.keys.size(), 1u) << e.id;
                    EXPECT_EQ(action_part(r.keys[0], parts), part) << e.id;
                    if (!best || r.mateIn < best) best = r.mateIn;
                }
                EXPECT_EQ(best, whole.result == Result::MATE ? whole.mateIn : 0)
                    << e.id << " parts " << parts;
                if (all.size() >= 20 && parts == 3) { // a spread, not all in one part
                    EXPECT_LT(*std::max_element(sizes.begin(), sizes.end()), int(all.size()))
                        << e.id;
                }
            }
        }
    }
}

// A wide node split over the threads by shares (Searcher::stream_split()): every action is in
// one share, and an attacker node mates (a defender node is refuted) iff one share finds a mate
// (a refutation). For each key of a mate in 2, the root's actions are that key and the actions
// that are no key (rootActions), every node is streamed (streamAbove 1) and split (splitHeight 1)
// in blocks of one position each (shareBlock 1), which the walkers claim as they come
// (BlockClaims): on 2, 3 and 4 threads the solve finds the mate in 2 with that key, as on one.
// Each run is repeated twice as many times as there are threads, the walkers claiming other
// blocks each time, and every other time leaving and joining every two blocks (walkerFlip): a block
// left unsearched, a position counted differently by two walkers (an internal error: unknown), or a
// node answered before all its walkers finished, fails here (an attacker node's: no mate; a
// defender node's: an action that is no key taken for the key). The claims themselves are tested in
// split_share_test.cpp (BlockClaims). Two 5x5 positions of ours (one board: the passes) and Rook
// Tactics on 6x6 (two timelines: the checks from the mate-in-one walk). The shares of a class walk
// (by entry on one timeline) are tested in hypercuboid_test.cpp
// (Hypercuboid.OnlyShareShowsEveryActionInTheShareOfItsEntry).
TEST(Solver, AWideNodeSplitBySharesFindsTheDecisiveChildInEveryShare) {
    const char* const texts[] = {
        "[Board \"custom\"]\n[Size \"5x5\"]\n[2R1K/5/1k3/5/3N1:0:1:w]\n",
        "[Board \"custom\"]\n[Size \"5x5\"]\n[5/1R3/k4/3B1/1K3:0:1:w]\n",
    };
    std::vector<std::pair<std::string, Multiverse>> cases;
    for (const char* t : texts) {
        auto root = load_text(t);
        ASSERT_TRUE(root);
        cases.emplace_back(t, std::move(*root));
    }
    auto rooks = game_position("rook-tactics-6x6-two-rooks", 0);
    ASSERT_TRUE(rooks);
    cases.emplace_back("rook-tactics-6x6-two-rooks", std::move(*rooks));
    std::uint64_t streamSplits = 0, defenceSplits = 0;
    for (auto& [id, root] : cases) {
        SolveOptions      o     = options(2, 1);
        const SolveResult whole = solve(root, o);
        ASSERT_EQ(whole.result, Result::MATE) << id;
        ASSERT_EQ(whole.mateIn, 2) << id;
        std::vector<std::vector<Move>> all;
        ASSERT_TRUE(Solver(root, o).legal_actions({}, all, SIZE_MAX)) << id;
        for (const std::vector<Move>& key : whole.keys) {
            std::vector<std::vector<Move>> share; // the key and every action that is no key
            for (const std::vector<Move>& a : all)
                if (a == key
                    || std::find(whole.keys.begin(), whole.keys.end(), a) == whole.keys.end())
                    share.push_back(a);
            for (const int threads : {1, 2, 3, 4})
                for (int round = 0; round < 2 * threads; ++round) {
                    SCOPED_TRACE(id + " threads " + std::to_string(threads) + " round "
                        + std::to_string(round));
                    SolveOptions so     = options(2, threads);
                    so.rootActions      = &share;
                    so.streamAbove      = 1;
                    so.splitHeight      = 1;
                    so.splitWide        = true;
                    so.shareBlock       = 1;
                    so.walkerFlip       = std::size_t(round % 2 * 2); // leave and join
                    so.conflictPass     = false; // it would meet most refutations in share 0
                    so.allKeys          = false;
                    const SolveResult r = solve(root, so);
                    ASSERT_EQ(r.result, Result::MATE) << r.error;
                    EXPECT_EQ(r.mateIn, 2);
                    ASSERT_EQ(r.keys.size(), 1u);
                    EXPECT_EQ(r.keys[0], key);
                    EXPECT_TRUE(r.verified);
                    if (threads == 1) {
                        EXPECT_EQ(r.streamSplits, 0u);
                        EXPECT_EQ(r.defenceSplits, 0u);
                    }
                    streamSplits += r.streamSplits;
                    defenceSplits += r.defenceSplits;
                }
        }
    }
    // The shares of both kinds of node were searched.
    EXPECT_GT(streamSplits, 0u);
    EXPECT_GT(defenceSplits, 0u);
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

} // namespace
} // namespace fived::solver
