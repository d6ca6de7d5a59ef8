// Rules-engine tests on positions built from the built-in variants and hand-made boards.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>

#include "movegen/action.h"
#include "movegen/actions.h"
#include "movegen/fen_rows.h"
#include "movegen/geometry.h"
#include "movegen/movegen.h"
#include "movegen/picker.h"
#include "movegen/variants.h"
#include "tests/movegen/variant_util.h"

namespace fived::movegen {
namespace {

Multiverse make(const char* name) { return testing::variant_start(name); }

TEST(Types, BitCountIsPopcount) {
    // bit_count() counts inline where std::popcount would call libgcc: the same numbers.
    std::uint64_t x = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < 10000; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        const std::uint64_t sparse = x & (x >> 3) & (x >> 11);
        ASSERT_EQ(bit_count(x), std::popcount(x));
        ASSERT_EQ(bit_count(sparse), std::popcount(sparse));
    }
    static_assert(
        bit_count(0) == 0 && bit_count(~std::uint64_t(0)) == 64 && bit_count(1ULL << 63) == 1);
}

TEST(Variants, EveryPresetSetsUp) {
    for (const VariantDef& v : builtin_variants()) {
        Multiverse  mv(variant_rules(v));
        std::string err;
        EXPECT_TRUE(setup_variant(v, mv, err)) << v.name << ": " << err;
        EXPECT_TRUE(mv.is_ok()) << v.name;
    }
}

// The set-up of each preset is identified as a built-in variant (the first with that set-up), and
// a position with one more board is not.
TEST(Variants, EveryPresetIsIdentifiedBack) {
    for (const VariantDef& v : builtin_variants()) {
        Multiverse  mv(variant_rules(v));
        std::string err;
        ASSERT_TRUE(setup_variant(v, mv, err)) << v.name << ": " << err;
        const VariantDef* found = builtin_variant_of(mv);
        ASSERT_NE(found, nullptr) << v.name;
        Multiverse again(variant_rules(*found));
        ASSERT_TRUE(setup_variant(*found, again, err));
        EXPECT_EQ(again.key(), mv.key()) << v.name << " identified as " << found->name;
        std::vector<Move> moves;
        generate_moves(mv, mv.to_move(), moves);
        if (moves.empty()) continue; // (a preset whose mover starts without a move)
        MoveUndo u;
        mv.make_move(moves[0], u);
        EXPECT_EQ(builtin_variant_of(mv), nullptr) << v.name << " after a move";
        mv.unmake_move(u);
    }
}

// do_action pushes one undo record per move; undo_action unwinds to a base, so two actions on
// one stack come off one at a time, each back to the position before it.
TEST(Action, DoAndUndoNestOnOneStack) {
    Multiverse mv    = make("Standard - Two Timelines");
    const Key  start = mv.key();
    // The first legal action of the side to move (copied: the visitor sees it made).
    auto first_action = [](Multiverse& pos) {
        std::vector<Move> a;
        ActionSearch      search;
        search.reset(pos);
        search.for_each([&](std::span<const Move> moves) {
            a.assign(moves.begin(), moves.end());
            return false;
        });
        return a;
    };
    const std::vector<Move> first = first_action(mv);
    ASSERT_FALSE(first.empty());
    std::vector<MoveUndo> undo;
    do_action(mv, first, undo);
    ASSERT_EQ(undo.size(), first.size());
    const Key               after = mv.key();
    const std::size_t       base  = undo.size();
    const std::vector<Move> reply = first_action(mv);
    ASSERT_FALSE(reply.empty());
    do_action(mv, reply, undo);
    EXPECT_NE(mv.key(), after);
    undo_action(mv, undo, base);
    EXPECT_EQ(undo.size(), base);
    EXPECT_EQ(mv.key(), after);
    undo_action(mv, undo);
    EXPECT_TRUE(undo.empty());
    EXPECT_EQ(mv.key(), start);
}

// starts_from_playable_boards() is a necessary condition of legality: every legal action passes
// it, along a game that branches (Standard - Two Timelines and Very Small - Open, a fixed choice of
// action at each step), and an action moved back to a past board or onto an empty square fails.
TEST(Action, LegalActionsStartFromPlayableBoards) {
    for (const char* name : {"Standard - Two Timelines", "Very Small - Open"}) {
        Multiverse            mv = make(name);
        std::vector<MoveUndo> undo;
        std::size_t           checked = 0, refused = 0;
        for (int step = 0; step < 10; ++step) {
            std::vector<std::vector<Move>> actions;
            ActionSearch                   search;
            search.reset(mv);
            search.for_each([&](std::span<const Move> a) {
                actions.emplace_back(a.begin(), a.end());
                return actions.size() < 3000;
            });
            if (actions.empty()) break;
            for (const std::vector<Move>& a : actions) {
                ++checked;
                EXPECT_TRUE(starts_from_playable_boards(mv, a)) << name << " step " << step;
                std::vector<Move> past = a;
                past[0].from           = Vec4(a[0].from.l(), a[0].from.v() - 2, a[0].from.sq());
                EXPECT_FALSE(starts_from_playable_boards(mv, past)) << name << " step " << step;
                const Board& b = mv.board(a[0].from.l(), a[0].from.v());
                for (int sq = 0; sq < 64; ++sq)
                    if (b.empty(sq)) {
                        std::vector<Move> empty = a;
                        empty[0].from           = Vec4(a[0].from.l(), a[0].from.v(), sq);
                        EXPECT_FALSE(starts_from_playable_boards(mv, empty)) << name;
                        ++refused;
                        break;
                    }
            }
            // The next position: a jump when there is one (so that timelines branch), else the
            // middle action.
            std::size_t pick = actions.size() / 2;
            for (std::size_t i = 0; i < actions.size(); ++i)
                if (!actions[i][0].is_physical()) {
                    pick = i;
                    break;
                }
            do_action(mv, actions[pick], undo);
        }
        EXPECT_GT(checked, 1000u) << name;
        EXPECT_GT(refused, 1000u) << name;
        EXPECT_GT(mv.timeline_count(), 2) << name << ": the game should have branched";
    }
}

// Golden numbers from ALGORITHMS.md / COUNTS.md (independent engines).
TEST(Actions, StartPositionCounts) {
    Multiverse std_ = make("Standard");
    EXPECT_EQ(count_legal_actions(std_), 20u);
    Multiverse tz = make("Standard - Turn Zero");
    EXPECT_EQ(count_legal_actions(tz), 20u);
    Multiverse vso = make("Very Small - Open");
    EXPECT_EQ(count_legal_actions(vso), 9u);
    Multiverse two = make("Standard - Two Timelines");
    EXPECT_EQ(count_legal_actions(two), 484u);
}

TEST(Actions, TurnZeroKnightJumps) {
    // After 1.e3 in Turn Zero, Black has 22 actions: 20 plus two knight jumps to (0T0b).
    Multiverse        mv = make("Standard - Turn Zero");
    std::vector<Move> moves;
    generate_moves(mv, WHITE, moves);
    const Move* e3 = nullptr;
    for (const Move& m : moves)
        if (m.from.sq() == make_square(4, 1) && m.to.sq() == make_square(4, 2)) e3 = &m;
    ASSERT_NE(e3, nullptr);
    MoveUndo u;
    mv.make_move(*e3, u);
    EXPECT_EQ(mv.to_move(), BLACK);
    EXPECT_EQ(count_legal_actions(mv), 22u);
    mv.unmake_move(u);
    EXPECT_TRUE(mv.is_ok());
}

// 33 timelines of 1x1 boards, each with a white rook at T2 whose only move is back to its own
// empty T1 (a branching jump: the rooks on the neighbouring timelines block the L rides, and no
// king is there to be attacked). Every order of the 33 deferred arrivals is its own action (which
// jump makes which new timeline), so the first action found is at the end of an arrival order
// 33 jumps long: past the 32 bits of the learned-run mask (actions.cpp learned_run(), whose
// shift by 32 was undefined; the fen fuzz target's seed-33-branching-jumps runs it under UBSan).
TEST(Actions, ThirtyThreeBranchingJumpsInOneAction) {
    GameRules r;
    r.width = r.height = 1;
    Multiverse  mv(r);
    std::string err;
    auto        grid = [](const char* rows) {
        FenGrid      g;
        FenRowsError e;
        EXPECT_TRUE(parse_fen_rows(rows, 1, 1, g, e, false)) << e.message;
        return g;
    };
    constexpr int Lines = 33;
    for (int l = -Lines / 2; l <= Lines / 2; ++l) {
        EXPECT_TRUE(mv.add_initial_board(l, to_v(1, WHITE), grid("1"), err)) << err;
        EXPECT_TRUE(mv.add_initial_board(l, to_v(1, BLACK), grid("1"), err)) << err;
        EXPECT_TRUE(mv.add_initial_board(l, to_v(2, WHITE), grid("R"), err)) << err;
    }
    ASSERT_TRUE(mv.finish_setup(err)) << err;
    std::vector<Move> moves;
    generate_moves(mv, WHITE, moves);
    ASSERT_EQ(moves.size(), std::size_t(Lines));
    for (const Move& m : moves) {
        EXPECT_EQ(m.to.l(), m.from.l());
        EXPECT_EQ(m.to.v(), to_v(1, WHITE));
    }
    EXPECT_TRUE(exists_legal_action(mv));
    EXPECT_EQ(count_legal_actions(mv, 100), 100u);
    ActionPicker picker;
    picker.reset(mv);
    int found = 0;
    picker.for_each([&](std::span<const Move> action) {
        EXPECT_EQ(action.size(), std::size_t(Lines));
        EXPECT_EQ(mv.timeline_count(), 2 * Lines);
        return ++found < 3;
    });
    EXPECT_EQ(found, 3);
    EXPECT_EQ(mv.timeline_count(), Lines);
    EXPECT_TRUE(mv.is_ok());
}

TEST(Keys, IncrementalKeyMatchesRecomputation) {
    Multiverse                     mv    = make("Standard");
    const Key                      start = mv.key();
    std::vector<std::vector<Move>> seq;
    // Play the first legal action three plies deep and undo.
    std::vector<MoveUndo> undos;
    for (int ply = 0; ply < 3; ++ply) {
        ActionSearch      s(mv);
        std::vector<Move> first;
        s.for_each([&](std::span<const Move> a) {
            first.assign(a.begin(), a.end());
            return false;
        });
        ASSERT_FALSE(first.empty());
        for (const Move& m : first) {
            undos.emplace_back();
            mv.make_move(m, undos.back());
        }
        std::string why;
        EXPECT_TRUE(mv.is_ok(&why)) << why;
    }
    while (!undos.empty()) {
        mv.unmake_move(undos.back());
        undos.pop_back();
    }
    EXPECT_EQ(mv.key(), start);
}

// make_passes() passes exactly the active timelines ending at the given half-step, and
// unmake_passes() restores the multiverse from its small record.
TEST(Keys, PassesAreUndoneByTheirRecord) {
    Multiverse mv = make("Standard - Two Timelines");
    ASSERT_EQ(mv.timeline_count(), 2);
    const int         present = mv.present_v();
    const Key         start   = mv.key();
    const std::size_t boards  = mv.board_count();
    MoveUndo          u;
    mv.make_passes(present, u);
    for (int l = mv.min_l(); l <= mv.max_l(); ++l)
        EXPECT_EQ(mv.end_v(l), present + 1) << l;
    EXPECT_EQ(mv.board_count(), boards + 2);
    EXPECT_TRUE(mv.is_ok());
    // Passing again at the old present passes nothing.
    MoveUndo none;
    mv.make_passes(present, none);
    EXPECT_EQ(mv.board_count(), boards + 2);
    mv.unmake_passes(none);
    mv.unmake_passes(u);
    for (int l = mv.min_l(); l <= mv.max_l(); ++l)
        EXPECT_EQ(mv.end_v(l), present) << l;
    EXPECT_EQ(mv.board_count(), boards);
    EXPECT_EQ(mv.key(), start);
    EXPECT_TRUE(mv.is_ok());
}

TEST(Perft, StandardDepth2) {
    Multiverse mv = make("Standard");
    EXPECT_EQ(perft(mv, 1), 20u);
    EXPECT_EQ(perft(mv, 2), 400u);
}

// The incremental attack test used by the action search must agree with generating every
// capture of every piece: compare legal actions position by position over random games (the
// sets where both finish under the cap). The reference search also keeps the branching jumps
// whose arrival board is an attack on itself, which the fast one drops when it lists the moves.
TEST(Actions, IncrementalCheckAgreesWithReference) {
    std::uint64_t seed = 12345;
    auto          next = [&] {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        return seed;
    };
    int                 positions = 0, maxTimelines = 0, arrivalsIntoCheck = 0, comparedSets = 0;
    const std::uint64_t cap     = 300;
    auto                collect = [&](ActionSearch& s, std::vector<std::vector<Move>>& out) {
        out.clear();
        s.for_each([&](std::span<const Move> a) {
            out.emplace_back(a.begin(), a.end());
            return out.size() < cap;
        });
        std::sort(out.begin(), out.end());
    };
    std::vector<std::vector<Move>> fastSet, refSet;
    std::vector<Move>              moves;
    for (const char* name : {"Standard", "Very Small", "Focused - Just Brawns",
             "Misc - Timeline Invasion", "Focused - Just Unicorns", "Misc - Timeline Marauders",
             "Small", "Focused - Just Dragons"}) {
        for (int game = 0; game < 2; ++game) {
            Multiverse            mv = make(name);
            std::vector<MoveUndo> undo;
            for (int ply = 0; ply < 10; ++ply) {
                ActionSearch fast(mv);
                ActionSearch ref(mv, true);
                collect(fast, fastSet);
                collect(ref, refSet);
                const std::uint64_t n = fastSet.size();
                ASSERT_EQ(n, refSet.size()) << name << " game " << game << " ply " << ply;
                if (n < cap) {
                    ASSERT_EQ(fastSet, refSet) << name << " game " << game << " ply " << ply;
                    ++comparedSets;
                }
                moves.clear();
                generate_moves(mv, mv.to_move(), moves);
                for (const Move& m : moves)
                    arrivalsIntoCheck += !m.is_physical()
                        && royal_attacked_on_board(
                               mv.arrival_board(m), mv.width(), mv.height(), mv.to_move())
                            >= 0;
                ASSERT_EQ(
                    royal_attacked(mv, mv.to_move()), royal_attacked_reference(mv, mv.to_move()));
                ASSERT_EQ(
                    royal_attacked(mv, ~mv.to_move()), royal_attacked_reference(mv, ~mv.to_move()));
                ++positions;
                maxTimelines = std::max(maxTimelines, mv.timeline_count());
                if (n == 0 || mv.timeline_count() > 5) break;
                // Play a random legal action; prefer ones with jumps so the multiverse grows.
                std::vector<std::vector<Move>> all, jumps;
                ActionSearch                   s(mv);
                s.for_each([&](std::span<const Move> a) {
                    all.emplace_back(a.begin(), a.end());
                    for (const Move& m : a)
                        if (!m.is_physical()) {
                            jumps.push_back(all.back());
                            break;
                        }
                    return all.size() < cap;
                });
                if (all.empty()) break;
                const std::vector<Move> chosen = (!jumps.empty() && next() % 3 != 0)
                    ? jumps[next() % jumps.size()]
                    : all[next() % all.size()];
                for (const Move& m : chosen) {
                    undo.emplace_back();
                    mv.make_move(m, undo.back());
                }
            }
        }
    }
    EXPECT_GT(positions, 80);
    EXPECT_GT(comparedSets, 40);
    EXPECT_GE(maxTimelines, 4);
    EXPECT_GT(arrivalsIntoCheck, 0) << "no jump landed in check: the filter went untested";
}

// The number of capture directions, counted from the geometry tables, is what 4D geometry says:
// 8 lines of one axis, 24 of two, 32 of three, 16 of four; 48 knight leaps; 80 king steps.
TEST(Geometry, CaptureDirections) {
    EXPECT_EQ(capture_directions(ROOK), 8);
    EXPECT_EQ(capture_directions(BISHOP), 24);
    EXPECT_EQ(capture_directions(UNICORN), 32);
    EXPECT_EQ(capture_directions(DRAGON), 16);
    EXPECT_EQ(capture_directions(PRINCESS), 32);
    EXPECT_EQ(capture_directions(QUEEN), 80);
    EXPECT_EQ(capture_directions(ROYAL_QUEEN), 80);
    EXPECT_EQ(capture_directions(KING), 80);
    EXPECT_EQ(capture_directions(COMMON_KING), 80);
    EXPECT_EQ(capture_directions(KNIGHT), 48);
    EXPECT_EQ(capture_directions(PAWN), 4);
    EXPECT_EQ(capture_directions(BRAWN), 9);
}

// capturers_along() (the quiet and escape cuts of mate.cpp) against the attack test within one
// board (attacks.cpp): every piece of either colour, 1 to 3 steps from a king of the other
// colour along each of the 8 directions of the board, with the squares between empty.
TEST(Geometry, CapturersAlongAgreeWithTheAttackTestOnABoard) {
    int attacks = 0;
    for (const Delta& d : PlaneDirs)
        for (int k = 1; k <= 3; ++k)
            for (const Color by : {WHITE, BLACK})
                for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt) {
                    Board b;
                    b.put(make_piece(~by, KING), make_square(3, 3));
                    b.put(make_piece(by, PieceType(pt)), make_square(3 + k * d.dx, 3 + k * d.dy));
                    const bool attacked = royal_attacked_on_board(b, 8, 8, ~by) >= 0;
                    const bool listed   = capturers_along(by, d, k) >> pt & 1u;
                    EXPECT_EQ(listed, attacked)
                        << piece_letter(PieceType(pt)) << (by == WHITE ? " white" : " black") << " "
                        << k << " steps along (" << int(d.dx) << "," << int(d.dy) << ")";
                    attacks += attacked;
                }
    EXPECT_GT(attacks, 100);
    // Across boards (dt, dl): a white pawn captures forward along L (ℓ - 1) one turn either way,
    // so it stands one timeline after its target; a brawn also one forward rank with ℓ - 1.
    const auto pawns = std::uint16_t((1u << PAWN) | (1u << BRAWN));
    EXPECT_EQ(capturers_along(WHITE, Delta{0, 0, 1, 1, 2}, 1) & pawns, pawns);
    EXPECT_EQ(capturers_along(WHITE, Delta{0, 0, -1, 1, 2}, 1) & pawns, pawns);
    EXPECT_EQ(capturers_along(WHITE, Delta{0, 0, 1, -1, 2}, 1) & pawns, 0);
    EXPECT_EQ(capturers_along(BLACK, Delta{0, 0, 1, -1, 2}, 1) & pawns, pawns);
    EXPECT_EQ(capturers_along(WHITE, Delta{0, -1, 0, 1, 2}, 1) & pawns, 1u << BRAWN);
    EXPECT_EQ(capturers_along(WHITE, Delta{0, 1, 0, 1, 2}, 1) & pawns, 0);
    // A rook along T alone, a dragon along all four axes, at any distance; a king only at 1.
    EXPECT_TRUE(capturers_along(BLACK, Delta{0, 0, 1, 0, 1}, 9) >> ROOK & 1u);
    EXPECT_TRUE(capturers_along(BLACK, Delta{1, 1, 1, 1, 4}, 5) >> DRAGON & 1u);
    EXPECT_FALSE(capturers_along(BLACK, Delta{1, 1, 1, 1, 4}, 5) >> UNICORN & 1u);
    EXPECT_FALSE(capturers_along(BLACK, Delta{1, 1, 1, 1, 4}, 2) >> KING & 1u);
    EXPECT_TRUE(capturers_along(BLACK, Delta{1, 1, 1, 1, 4}, 1) >> KING & 1u);
    EXPECT_EQ(capturers_along(WHITE, Delta{1, 0, 0, 0, 1}, 1) >> KNIGHT & 1u, 0u);
}

// Rides along T or L alone are as long as the multiverse: a rook 10 turns or 9 timelines away
// from a king on the same square attacks it across the empty squares between (the quick mask of
// the line squares once stopped at 8, the board size). A 3x3 board with the pieces in a1; black
// knights that attack nothing make the rook's board dense enough to be looked at backwards.
Multiverse long_ride_position(bool alongL, int length, bool blocked) {
    GameRules r;
    r.width = r.height = 3;
    Multiverse  mv(r);
    std::string err;
    auto        grid = [](const char* rows) {
        FenGrid      g;
        FenRowsError e;
        EXPECT_TRUE(parse_fen_rows(rows, 3, 3, g, e, false)) << e.message;
        return g;
    };
    if (alongL) {
        // Timelines 0..length, one black board each (v = 1): the king on 0, the rook on the last.
        for (int l = 0; l <= length; ++l) {
            const char* rows = l == 0 ? "3/3/K2"
                : l == length         ? "3/nn1/r2"
                : blocked && l == 2   ? "3/3/N2"
                                      : "3/3/3";
            EXPECT_TRUE(mv.add_initial_board(l, 1, grid(rows), err)) << err;
        }
    } else {
        // One timeline from v = 1 (the king in a1) to v = 2·length + 1 (the rook in a1).
        for (int v = 1; v <= 2 * length + 1; ++v) {
            const char* rows = v == 1 ? "3/3/K2"
                : v == 2 * length + 1 ? "3/2n/r2"
                : blocked && v == 5   ? "3/3/N2"
                                      : "3/3/3";
            EXPECT_TRUE(mv.add_initial_board(0, v, grid(rows), err)) << err;
        }
    }
    EXPECT_TRUE(mv.finish_setup(err)) << err;
    return mv;
}

TEST(Attacks, LongRidesAlongTimeAndTimelines) {
    for (const bool alongL : {false, true})
        for (const int length : {3, 7, 8, 10})
            for (const bool blocked : {false, true}) {
                const Multiverse mv = long_ride_position(alongL, length, blocked);
                SCOPED_TRACE(std::string(alongL ? "L" : "T") + " length " + std::to_string(length)
                    + (blocked ? " blocked" : ""));
                EXPECT_EQ(royal_attacked_reference(mv, WHITE), !blocked);
                EXPECT_EQ(royal_attacked(mv, WHITE), !blocked);
            }
}

// The attack test looks forward from a tip with few pieces (generating their captures) and
// backward from the royals otherwise: the forward search must find exactly the tips that have a
// capture onto a royal, and a capture that is one of them; the per-tip test (either way) too.
// Positions of random games of sparse and dense variants, each followed by every single move of the
// side to move (most attacks are met there, in the middle of an action); every tip of the other
// colour. The games are steered towards checks and jumps (variant_util.h).
TEST(Actions, ForwardRoyalCaptureAgreesWithEveryCapture) {
    testing::XorShift next{424242};
    int               tips = 0, attacking = 0;
    std::vector<Move> all, moves;
    auto              compare_tips = [&](const Multiverse& mv, Color us, const char* name) {
        all.clear();
        royal_attacks(mv, us, all);
        for (int l = mv.min_l(); l <= mv.max_l(); ++l) {
            const int v = mv.end_v(l);
            if (Color(v & 1) == us) continue;
            ++tips;
            Move       found;
            const bool hit = royal_capture_from_board(mv, l, v, us, &found);
            bool       any = false;
            for (const Move& m : all)
                any |= m.from.l() == l && m.from.v() == v;
            ASSERT_EQ(hit, any) << name << " timeline " << l;
            // The fast test of one tip (royal_attacks() generates only the tips it finds).
            ASSERT_EQ(tip_attacks_royal(mv, l, us), hit) << name << " timeline " << l;
            if (!hit) continue;
            ++attacking;
            EXPECT_NE(std::find(all.begin(), all.end(), found), all.end()) << name;
        }
    };
    testing::for_each_game_position(
        {"Focused - Just Rooks", "Focused - Just Kings", "Focused - Just Queens",
            "Focused - Just Knights", "Focused - Just Brawns", "Misc - Timeline Marauders",
            "Standard", "Focused - Just Unicorns"},
        2, 8, next, [&](Multiverse& mv, const char* name) {
            const Color us = mv.to_move();
            moves.clear();
            generate_moves(mv, us, moves);
            for (const Move& m : moves) {
                MoveUndo u;
                mv.make_move(m, u);
                compare_tips(mv, us, name);
                mv.unmake_move(u);
            }
        });
    EXPECT_GT(tips, 1000);
    EXPECT_GT(attacking, 100);
}

// A move of us from a board on which no royal of us is attacked within it can only open lines
// through the squares it empties (royal_attacked_on_board_after()): the answer must be the whole
// test's. A pinned rook that leaves its file, and every move of random games of sparse and dense
// variants: in place, a piece leaving its board, a jump's arrival on the board it lands on.
TEST(Attacks, InBoardAttackAfterAMoveAgreesWithTheWholeTest) {
    Board pin;
    pin.put(make_piece(WHITE, KING), make_square(0, 0));
    pin.put(make_piece(WHITE, ROOK), make_square(0, 3));
    pin.put(make_piece(BLACK, ROOK), make_square(0, 6));
    auto moved = [&](int to) {
        Board b = pin;
        b.remove(make_square(0, 3));
        b.remove(to);
        b.put(make_piece(WHITE, ROOK), to);
        return b;
    };
    EXPECT_TRUE(royal_attacked_on_board_after(pin, moved(make_square(1, 3)), 8, 8, WHITE));
    EXPECT_FALSE(royal_attacked_on_board_after(pin, moved(make_square(0, 4)), 8, 8, WHITE));
    EXPECT_FALSE(royal_attacked_on_board_after(pin, moved(make_square(0, 6)), 8, 8, WHITE));
    testing::XorShift next{77};
    int               compared = 0, opened = 0;
    std::vector<Move> moves;
    testing::for_each_game_position(
        {"Standard", "Focused - Just Rooks", "Focused - Just Queens", "Focused - Just Bishops",
            "Misc - Royal Queen Showdown", "Misc - King of Kings", "Standard - Princess",
            "Focused - Just Brawns", "Misc - Timeline Marauders"},
        3, 10, next, [&](Multiverse& mv, const char* name) {
            const int   W = mv.width(), H = mv.height();
            const Color us      = mv.to_move();
            auto        compare = [&](const Board& before, const Board& after) {
                if (royal_attacked_on_board(before, W, H, us) >= 0) return;
                const bool whole = royal_attacked_on_board(after, W, H, us) >= 0;
                EXPECT_EQ(royal_attacked_on_board_after(before, after, W, H, us), whole) << name;
                ++compared;
                opened += whole;
            };
            moves.clear();
            generate_moves(mv, us, moves);
            for (const Move& m : moves) {
                const Board& tip = mv.board(m.from.l(), m.from.v());
                if (m.is_physical()) {
                    compare(tip, mv.physical_board(m));
                } else {
                    compare(tip, mv.departure_board(m));
                    compare(mv.board(m.to.l(), m.to.v()), mv.arrival_board(m));
                }
            }
        });
    EXPECT_GT(compared, 10000);
    EXPECT_GT(opened, 100);
}

// find_local_move() lists the moves that stay on a board taken alone: exactly the board's moves
// (generate_board_moves()) that end on it, less en passant (which reads the board before), in
// the same order, on every playable board of random games of sparse and dense variants.
TEST(Moves, LocalMovesAreTheBoardsMovesThatStayOnIt) {
    testing::XorShift next{99};
    int               boards = 0, listed = 0;
    std::vector<Move> all, local, expected;
    testing::for_each_game_position(
        {"Standard", "Focused - Just Queens", "Focused - Just Knights", "Focused - Just Unicorns",
            "Focused - Just Dragons", "Standard - Princess", "Focused - Just Brawns",
            "Misc - Timeline Marauders"},
        2, 10, next, [&](Multiverse& mv, const char* name) {
            const Color us = mv.to_move();
            for (int l = mv.min_l(); l <= mv.max_l(); ++l) {
                const int v = mv.end_v(l);
                if (Color(v & 1) != us) continue;
                all.clear();
                generate_board_moves(mv, l, all);
                expected.clear();
                for (const Move& m : all)
                    if (m.to.l() == l && m.to.v() == v && !(m.flags & MF_ENPASSANT))
                        expected.push_back(m);
                local.clear();
                find_local_move(mv, mv.board(l, v), l, v, us, ~Bitboard(0), [&](const Move& m) {
                    local.push_back(m);
                    return false;
                });
                EXPECT_EQ(local, expected) << name << " timeline " << l;
                ++boards;
                listed += int(local.size());
            }
        });
    EXPECT_GT(boards, 200);
    EXPECT_GT(listed, 5000);
}

} // namespace
} // namespace fived::movegen
