// The hypercuboid existence test against the depth-first enumeration (ActionSearch), which is
// itself tested against a generate-everything attack test (movegen_test.cpp) and third-party
// counts (tests/puzzles, tests/oracle).
//
// Random games in several variants, steered towards checks and jumps so that positions with few
// legal actions, many timelines and branching arrivals come up. At every position both searches
// must agree on whether a legal action exists, and the hypercuboid's witness must be one of the
// actions the enumeration visits (compared by the position key it leads to).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <set>

#include "movegen/actions.h"
#include "movegen/hypercuboid.h"
#include "movegen/movegen.h"
#include "movegen/variants.h"
#include "tests/movegen/variant_util.h"

namespace fived::movegen {
namespace {

Multiverse make(const char* name) { return testing::variant_start(name); }

void play(Multiverse& mv, std::span<const Move> action, std::vector<MoveUndo>& undo) {
    for (const Move& m : action) {
        undo.emplace_back();
        mv.make_move(m, undo.back());
    }
}

TEST(Hypercuboid, StartPositions) {
    for (const char* name : {"Standard", "Very Small", "Standard - Turn Zero", "Small"}) {
        Multiverse        mv = make(name);
        HypercuboidSearch hc;
        std::vector<Move> w;
        EXPECT_TRUE(hc.exists(mv, &w)) << name;
        EXPECT_EQ(w.size(), 1u) << name;
    }
}

// Fool's mate is not mate in 5D: the king escapes to the past, (0T3)Ke1>>(0T2)f2, its only
// legal action.
// The memo of answers about boards (alike_by_other_move(), in_board_attack()) answers only the
// question it was given, for the board it was given: a board that shares a slot with another, or
// the same board under another tag, finds no answer, never a wrong one.
TEST(BoardAnswers, AnswersOnlyTheSameQuestion) {
    std::uint64_t seed = 0x5eedULL;
    auto          next = [&] {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        return seed;
    };
    auto random_board = [&] {
        std::array<Piece, 64> b{};
        for (int i = 0; i < 6; ++i)
            b[next() % 64] = Piece(1 + next() % 6);
        return b;
    };
    BoardAnswers                       memo;
    std::vector<std::array<Piece, 64>> boards;
    std::vector<bool>                  answers;
    EXPECT_EQ(memo.find(random_board().data(), 1), -1); // nothing kept yet
    // More boards than slots, all different: many share a slot, and the later one replaces the
    // earlier. Each is a new question, so its answer is found (never another board's taken).
    const std::size_t               n = 3 * BoardAnswers::Slots;
    std::set<std::array<Piece, 64>> seen;
    while (boards.size() < n) {
        const std::array<Piece, 64> b = random_board();
        if (!seen.insert(b).second) continue;
        const bool yes   = next() & 1;
        bool       asked = false;
        EXPECT_EQ(memo.answer(b.data(), 7,
                      [&] {
                          asked = true;
                          return yes;
                      }),
            yes);
        EXPECT_TRUE(asked) << "board " << boards.size();
        boards.push_back(b);
        answers.push_back(yes);
    }
    std::size_t found = 0, lost = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const int a = memo.find(boards[i].data(), 7);
        if (a < 0) {
            ++lost;
            continue;
        }
        ++found;
        EXPECT_EQ(a, int(answers[i])) << "board " << i;
        EXPECT_EQ(memo.find(boards[i].data(), 8), -1) << "board " << i << " under another tag";
        // A kept answer is given without finding it again.
        EXPECT_EQ(memo.answer(boards[i].data(), 7,
                      [&] {
                          ADD_FAILURE() << "board " << i << " asked again";
                          return !answers[i];
                      }),
            answers[i]);
    }
    EXPECT_GT(found, BoardAnswers::Slots / 2);
    EXPECT_GT(lost, BoardAnswers::Slots); // replaced ones are lost, not confused
    memo.forget();
    for (std::size_t i = 0; i < n; i += 97)
        EXPECT_EQ(memo.find(boards[i].data(), 7), -1);
}

// alike_by_other_move()'s answers are kept per rule set: two rule sets share them only when
// they agree on every part it reads, and whatever they say of the parts it does not read.
TEST(SquareRules, SameForOtherMoveComparesWhatTheOtherMoveReads) {
    SquareRules base;
    base.watched            = square_bb(12) | square_bb(20);
    base.forbid[12]         = std::uint16_t(1u << ROOK);
    base.forbid[20]         = std::uint16_t(1u << BISHOP);
    base.shield             = square_bb(20);
    base.royalsAfter        = square_bb(4);
    base.local              = true;
    const SquareRules other = base;
    EXPECT_TRUE(base.same_for_other_move(other));
    auto differs = [&](auto change) {
        SquareRules r = base;
        change(r);
        return !base.same_for_other_move(r) && !r.same_for_other_move(base);
    };
    EXPECT_TRUE(differs([](SquareRules& r) { r.watched |= square_bb(28); }));
    EXPECT_TRUE(differs([](SquareRules& r) { r.forbid[12] |= std::uint16_t(1u << QUEEN); }));
    EXPECT_TRUE(differs([](SquareRules& r) { r.shield = 0; }));
    EXPECT_TRUE(differs([](SquareRules& r) { r.royalsAfter = square_bb(5); }));
    // Not read by it: the squares the escape's own move reads (its board is another one), and
    // the created timelines' start rules.
    EXPECT_FALSE(differs([](SquareRules& r) { r.same = square_bb(3); }));
    EXPECT_FALSE(differs([](SquareRules& r) { r.laterThan = 9; }));
    EXPECT_FALSE(differs([](SquareRules& r) { r.anyStart = true; }));
}

TEST(Hypercuboid, FoolsMateIsNotMateIn5D) {
    Multiverse            mv = make("Standard");
    std::vector<MoveUndo> undo;
    // 1. f3 e5 2. g4 Qh4
    const int v0 = mv.present_v();
    auto      m  = [&](int v, int from, int to) {
        return Move{Vec4(0, v0 + v, from), Vec4(0, v0 + v, to)};
    };
    const Move moves[] = {m(0, make_square(5, 1), make_square(5, 2)),
        m(1, make_square(4, 6), make_square(4, 4)), m(2, make_square(6, 1), make_square(6, 3)),
        m(3, make_square(3, 7), make_square(7, 3))};
    for (const Move& mm : moves)
        play(mv, std::span<const Move>(&mm, 1), undo);
    ASSERT_TRUE(in_check_at_turn_start(mv));
    EXPECT_EQ(count_legal_actions(mv), 1u);
    HypercuboidSearch hc;
    std::vector<Move> w;
    ASSERT_TRUE(hc.exists(mv, &w));
    ASSERT_EQ(w.size(), 1u);
    EXPECT_EQ(w[0].from, Vec4(0, v0 + 4, make_square(4, 0)));
    EXPECT_EQ(w[0].to, Vec4(0, v0 + 2, make_square(5, 1)));
    EXPECT_EQ(verdict(mv), Verdict::Ongoing);
}

struct Tally {
    int positions = 0, none = 0, inCheck = 0, skipped = 0, maxTimelines = 0, witnessesChecked = 0,
        enumerations = 0, shared = 0, restricted = 0;
    std::uint64_t forgotten = 0, windowed = 0, matched = 0;
};

// Both searches on mv; the witness must lead to a position key the enumeration reaches.
void compare(Multiverse& mv, const std::string& where, Tally& t) {
    HypercuboidSearch hc;
    std::vector<Move> witness;
    const Key         before = mv.key();
    const bool        hcSays = hc.exists(mv, &witness);
    ASSERT_EQ(mv.key(), before) << where << ": the multiverse was not restored";

    ActionSearch dfs(mv);
    dfs.set_node_limit(100000);
    const bool dfsSays = dfs.exists();
    if (!dfsSays && dfs.aborted()) {
        ++t.skipped;
        // Still: a witness must be legal.
    } else {
        ASSERT_EQ(hcSays, dfsSays) << where;
    }
    // Enumeration: the same set of actions (by the keys of the positions they lead to), where
    // there are not too many.
    {
        std::vector<Key> a, b;
        ActionSearch     s(mv);
        s.set_node_limit(100000);
        s.for_each([&](std::span<const Move>) {
            a.push_back(mv.key());
            return a.size() < 3000;
        });
        if (!s.aborted() && a.size() < 3000) {
            HypercuboidSearch h;
            h.for_each(mv, [&](std::span<const Move>) {
                b.push_back(mv.key());
                return b.size() < 3001;
            });
            ASSERT_EQ(mv.key(), before) << where;
            std::sort(a.begin(), a.end());
            std::sort(b.begin(), b.end());
            ASSERT_EQ(a.size(), b.size()) << where;
            ASSERT_EQ(a, b) << where;
            ++t.enumerations;
            // With the learned slices forgotten whenever they pass a few words (bound_learned),
            // or a box catching up on the last slice only (the learned window), or every
            // pairing of axes left to CoverMatching (no backtracking step), every action is
            // still listed exactly once.
            for (const int variant : {0, 1, 2}) {
                std::vector<Key>  f;
                HypercuboidSearch small;
                if (variant == 0) small.set_learned_cap(8);
                if (variant == 1) small.set_learned_window(1);
                if (variant == 2) small.set_match_steps(0);
                small.for_each(mv, [&](std::span<const Move>) {
                    f.push_back(mv.key());
                    return f.size() < 3001;
                });
                ASSERT_EQ(mv.key(), before) << where;
                std::sort(f.begin(), f.end());
                static constexpr const char* Variant[] = {
                    "learned slices forgotten", "learned window of 1", "pairings by CoverMatching"};
                ASSERT_EQ(f, a) << where << ": " << Variant[variant];
                if (variant == 0) t.forgotten += small.stats().forgotten;
                if (variant == 1) t.windowed += small.stats().windowed;
                if (variant == 2) t.matched += small.stats().matchings;
                std::vector<Move> w;
                ASSERT_EQ(small.exists(mv, &w), hcSays) << where;
            }
            // A shared enumeration (ActionSearch::share): 2 or 3 searches, one after the other
            // (one schedule among those threads give), list every action exactly once.
            for (const int parts : {2, 3}) {
                for (const std::uint32_t units : {1u, 5u, 64u}) {
                    std::atomic<std::uint32_t> counter{0};
                    std::vector<Key>           c;
                    for (int p = 0; p < parts; ++p) {
                        ActionSearch part(mv);
                        part.share(&counter, units);
                        part.for_each([&](std::span<const Move>) {
                            c.push_back(mv.key());
                            return true;
                        });
                        ASSERT_EQ(mv.key(), before) << where;
                    }
                    std::sort(c.begin(), c.end());
                    ASSERT_EQ(c, a) << where << ": shared by " << parts << ", units " << units;
                }
            }
            ++t.shared;
            // reset_only(action) enumerates the action itself, and only legal actions: a
            // legality test for one action (check_proof uses it).
            std::vector<std::vector<Move>> sample;
            {
                ActionSearch s2(mv);
                s2.for_each([&](std::span<const Move> act) {
                    sample.emplace_back(act.begin(), act.end());
                    return sample.size() < 12;
                });
            }
            for (const std::vector<Move>& act : sample) {
                std::vector<MoveUndo> u;
                play(mv, act, u);
                const Key target = mv.key();
                for (std::size_t j = u.size(); j-- > 0;)
                    mv.unmake_move(u[j]);
                ActionSearch only;
                only.reset_only(mv, act);
                bool met = false;
                only.for_each([&](std::span<const Move>) {
                    met |= mv.key() == target;
                    EXPECT_TRUE(std::binary_search(a.begin(), a.end(), mv.key())) << where;
                    return true;
                });
                ASSERT_TRUE(met) << where << ": reset_only lost a legal action";
                ++t.restricted;
                // reset_prefer(part of the action): legal actions only, the action among them,
                // and on each board a preferred move starts from, that move or none.
                for (const std::size_t n : {std::size_t(1), act.size()}) {
                    const std::span<const Move> prefer(act.data(), n);
                    ActionSearch                pref;
                    pref.reset_prefer(mv, prefer);
                    bool metPref = false;
                    pref.for_each([&](std::span<const Move> got) {
                        metPref |= mv.key() == target;
                        EXPECT_TRUE(std::binary_search(a.begin(), a.end(), mv.key())) << where;
                        for (const Move& m : got)
                            for (const Move& pm : prefer)
                                if (pm.from.board() == m.from.board()) {
                                    EXPECT_TRUE(
                                        std::find(prefer.begin(), prefer.end(), m) != prefer.end())
                                        << where << ": reset_prefer let another move in";
                                }
                        return true;
                    });
                    ASSERT_TRUE(metPref) << where << ": reset_prefer lost the action";
                    ASSERT_EQ(mv.key(), before) << where;
                }
            }
        }
    }
    ++t.positions;
    t.none += !hcSays;
    t.inCheck += in_check_at_turn_start(mv);
    t.maxTimelines = std::max(t.maxTimelines, mv.timeline_count());
    if (!hcSays) return;

    const Color           us = mv.to_move();
    std::vector<MoveUndo> undo;
    play(mv, witness, undo);
    const Key target = mv.key();
    EXPECT_NE(mv.to_move(), us) << where << ": the present did not pass";
    EXPECT_FALSE(royal_attacked_reference(mv, us)) << where << ": the witness leaves check";
    for (std::size_t i = undo.size(); i-- > 0;)
        mv.unmake_move(undo[i]);
    ActionSearch all(mv);
    all.set_node_limit(100000);
    bool          found = false;
    std::uint64_t seen  = 0;
    all.for_each([&](std::span<const Move>) {
        found = mv.key() == target;
        return !found && ++seen < 50000;
    });
    if (found || (seen < 50000 && !all.aborted())) {
        EXPECT_TRUE(found) << where << ": the witness is not a legal action";
        ++t.witnessesChecked;
    }
}

TEST(Hypercuboid, AgreesWithEnumerationOnRandomGames) {
    testing::XorShift next{0x5eed5eedULL};
    Tally             t;
    for (const char* name : {"Standard", "Very Small", "Focused - Just Brawns",
             "Misc - Timeline Invasion", "Focused - Just Unicorns", "Misc - Timeline Marauders",
             "Small", "Focused - Just Dragons", "Standard - Turn Zero", "Small - Open",
             "Standard - Two Timelines", "Very Small - Open", "Misc - Royal Queen Showdown",
             "Checkmate Practice - Rook", "Checkmate Practice - Queen"}) {
        for (int game = 0; game < 3; ++game) {
            Multiverse            mv = make(name);
            std::vector<MoveUndo> undo;
            for (int ply = 0; ply < 14; ++ply) {
                const std::string where = std::string(name) + " game " + std::to_string(game)
                    + " ply " + std::to_string(ply);
                compare(mv, where, t);
                if (HasFatalFailure() || mv.timeline_count() > 7) break;
                const std::vector<Move> chosen = testing::steered_random_action(mv, 400, next);
                if (chosen.empty()) break;
                play(mv, chosen, undo);
            }
        }
    }
    RecordProperty("positions", t.positions);
    EXPECT_GT(t.positions, 250);
    EXPECT_GT(t.inCheck, 40); // the steering produced many checks
    EXPECT_GE(t.maxTimelines, 5);
    EXPECT_GT(t.witnessesChecked, 200);
    EXPECT_GT(t.enumerations, 200);
    EXPECT_EQ(t.shared, t.enumerations);
    EXPECT_GT(t.restricted, 1000);
    EXPECT_GT(t.forgotten, 200u); // bound_learned() was exercised
    EXPECT_GT(t.windowed, 200u);  // and the learned window
    EXPECT_GT(t.matched, 1000u);  // and CoverMatching in take_point()
    EXPECT_LT(t.skipped * 20, t.positions);
    std::printf("positions %d, no legal action %d, in check %d, skipped %d, witnesses %d, "
                "enumerations %d, max timelines %d\n",
        t.positions, t.none, t.inCheck, t.skipped, t.witnessesChecked, t.enumerations,
        t.maxTimelines);
}

// The share and pattern tests' positions: random games of several timelines whose legal actions
// are few enough to compare (at most 3,001), each with the set of them.
using ActionSet = std::set<std::vector<Move>>; // not the key: two actions may reach one position
template <class F>
void for_each_comparable_position(std::uint64_t seed, F f) {
    testing::XorShift next{seed};
    testing::for_each_game_position({"Standard - Two Timelines", "Misc - Timeline Invasion",
                                        "Small", "Very Small - Open", "Focused - Just Dragons"},
        6, 16, next, [&](Multiverse& mv, const char* name) {
            if (mv.timeline_count() < 2) return;
            HypercuboidSearch plain;
            ActionSet         legal;
            if (!plain.for_each(mv, [&](std::span<const Move> a) {
                    legal.emplace(a.begin(), a.end());
                    return legal.size() <= 3000;
                }))
                return; // too many to compare
            f(mv, name, legal);
        });
}

// How many actions a walk of hc shows (a share or pattern set before it is used up by it).
std::size_t walk_count(HypercuboidSearch& hc, Multiverse& mv) {
    std::size_t n = 0;
    hc.for_each_cut(mv, [&](std::span<const Move>, std::vector<int>&) {
        ++n;
        return HypercuboidSearch::Verdict::NEXT;
    });
    return n;
}

// Shares by the entry on one timeline (only_share(), the solver's split of a class walk over
// threads): for every timeline and 2 or 3 shares, each share's walk shows only actions whose
// entry_share() is its own, each once, and the shares together show every legal action once.
TEST(Hypercuboid, OnlyShareShowsEveryActionInTheShareOfItsEntry) {
    int positions = 0, walks = 0, emptyShares = 0, hops = 0;
    using Action = std::vector<Move>;
    for_each_comparable_position(
        0x5A4E5ULL, [&](Multiverse& mv, const char* name, const ActionSet& legal) {
            ++positions;
            for (int l = mv.min_l(); l <= mv.max_l(); ++l) {
                const int endV = mv.end_v(l);
                for (const int parts : {2, 3}) {
                    ActionSet union_;
                    for (int part = 0; part < parts; ++part) {
                        HypercuboidSearch hc;
                        hc.only_share(l, parts, part);
                        int shown = 0;
                        hc.for_each_cut(mv, [&](std::span<const Move> a, std::vector<int>&) {
                            ++shown;
                            EXPECT_EQ(HypercuboidSearch::entry_share(a, l, endV, parts), part)
                                << name << ", timeline " << l;
                            const Action act(a.begin(), a.end());
                            EXPECT_TRUE(legal.count(act)) << name << ": not legal";
                            EXPECT_TRUE(union_.insert(act).second)
                                << name << ", timeline " << l << ": shown twice";
                            for (const Move& m : a)
                                hops += m.to.l() == l && m.from.l() != l && m.to.v() == endV;
                            return HasFailure() ? HypercuboidSearch::Verdict::STOP
                                                : HypercuboidSearch::Verdict::NEXT;
                        });
                        if (HasFailure()) return;
                        emptyShares += shown == 0;
                        ++walks;
                    }
                    EXPECT_EQ(union_.size(), legal.size())
                        << name << ", timeline " << l << ", " << parts << " shares";
                }
                // The share is for one walk only: the next shows every action.
                HypercuboidSearch hc;
                hc.only_share(l, 2, 0);
                walk_count(hc, mv);
                EXPECT_EQ(walk_count(hc, mv), legal.size()) << name;
            }
        });
    std::printf("positions %d, share walks %d, empty shares %d, hops onto the timeline %d\n",
        positions, walks, emptyShares, hops);
    EXPECT_GT(positions, 30);
    EXPECT_GT(walks, 300);
    EXPECT_GT(hops, 0); // an entry that arrives from another timeline was shared too
}

// Patterns (only_pattern(), the solver's walk of a class-walk node pattern by pattern): for one,
// two and three of the mover's timelines, each pattern's walk shows only actions that pass or
// move on them as its bits say (move_pattern()), each once, and the patterns together show every
// legal action once; a pattern is for one walk only.
TEST(Hypercuboid, OnlyPatternShowsEveryActionInItsPattern) {
    int positions = 0, walks = 0, passes = 0, moves = 0, hops = 0;
    using Action = std::vector<Move>;
    for_each_comparable_position(
        0x9A77E5ULL, [&](Multiverse& mv, const char* name, const ActionSet& legal) {
            ++positions;
            // The mover's timelines (a pattern may also name one it cannot play on: always a pass).
            std::vector<int> ls, vs;
            for (int l = mv.min_l(); l <= mv.max_l() && ls.size() < 3; ++l) {
                ls.push_back(l);
                vs.push_back(mv.end_v(l));
            }
            for (std::size_t n = 1; n <= ls.size(); ++n) {
                const std::span<const int> pl(ls.data(), n), pv(vs.data(), n);
                ActionSet                  union_;
                for (unsigned pattern = 0; pattern < 1u << n; ++pattern) {
                    HypercuboidSearch hc;
                    hc.only_pattern(pl, pv, pattern);
                    hc.for_each_cut(mv, [&](std::span<const Move> a, std::vector<int>&) {
                        EXPECT_EQ(HypercuboidSearch::move_pattern(a, pl, pv), pattern) << name;
                        const Action act(a.begin(), a.end());
                        EXPECT_TRUE(legal.count(act)) << name << ": not legal";
                        EXPECT_TRUE(union_.insert(act).second) << name << ": shown twice";
                        for (const Move& m : a)
                            hops += m.to.l() == ls[0] && m.from.l() != ls[0] && m.to.v() == vs[0];
                        (pattern & 1u ? moves : passes) += 1;
                        return HasFailure() ? HypercuboidSearch::Verdict::STOP
                                            : HypercuboidSearch::Verdict::NEXT;
                    });
                    if (HasFailure()) return;
                    ++walks;
                }
                EXPECT_EQ(union_.size(), legal.size()) << name << ", " << n << " timelines";
            }
            HypercuboidSearch hc; // the pattern is for one walk only: the next shows every action
            hc.only_pattern(
                std::span<const int>(ls.data(), 1), std::span<const int>(vs.data(), 1), 1);
            walk_count(hc, mv);
            EXPECT_EQ(walk_count(hc, mv), legal.size()) << name;
        });
    std::printf("positions %d, pattern walks %d, actions passing %d and moving %d on the first "
                "timeline, hops onto it %d\n",
        positions, walks, passes, moves, hops);
    EXPECT_GT(positions, 30);
    EXPECT_GT(walks, 300);
    EXPECT_GT(passes, 100);
    EXPECT_GT(moves, 100);
    EXPECT_GT(hops, 0); // an entry that arrives from another timeline counts as a move there
}

// Class proofs (MateInOneSearch::no_mate_over_class()) count only the attacks whose span of
// timelines misses the frozen ones. With one timeline read off, the walk must still show every
// legal action, and what it shows besides must be illegal (an attack on the mover's royals that
// reads that timeline): never fewer actions, never a legal one lost.
TEST(Hypercuboid, AttacksReadOffShowEveryLegalActionAndOnlyIllegalOthers) {
    testing::XorShift next{0xC1A55ULL};
    int               positions = 0, extraShown = 0, legalSeen = 0, compared = 0;
    testing::for_each_game_position({"Standard - Two Timelines", "Misc - Timeline Invasion",
                                        "Small", "Very Small - Open", "Focused - Just Dragons"},
        6, 16, next, [&](Multiverse& mv, const char* name) {
            if (mv.timeline_count() < 2 || mv.timeline_count() > 6) return;
            const Color       mover = mv.to_move();
            HypercuboidSearch plain;
            std::set<Key>     legal;
            if (!plain.for_each(mv, [&](std::span<const Move>) {
                    legal.insert(mv.key());
                    return legal.size() <= 2000;
                }))
                return; // too many to compare
            ++positions;
            legalSeen += int(legal.size());
            for (int t = mv.min_l(); t <= mv.max_l(); ++t) {
                const int         off[] = {t};
                HypercuboidSearch hc;
                hc.set_attacks_read_off(off);
                std::set<Key> shown;
                const bool    all = hc.for_each(mv, [&](std::span<const Move>) {
                    if (!legal.count(mv.key())) {
                        ++extraShown;
                        EXPECT_TRUE(royal_attacked(mv, mover))
                            << name << ", timeline " << t
                            << ": shown, not legal, and no royal of the mover attacked";
                    }
                    shown.insert(mv.key());
                    return !HasFailure() && shown.size() <= 50000;
                });
                if (HasFailure()) return;
                if (!all) continue; // too many shown to compare
                ++compared;
                for (const Key k : legal)
                    ASSERT_TRUE(shown.count(k))
                        << name << ", timeline " << t << ": a legal action was left out";
            }
        });
    std::printf("positions %d, legal actions %d, illegal shown besides %d, timelines compared %d\n",
        positions, legalSeen, extraShown, compared);
    EXPECT_GT(positions, 30);
    EXPECT_GT(compared, 60);
    EXPECT_GT(extraShown, 50); // the attacks read off left illegal actions in
}

} // namespace
} // namespace fived::movegen
