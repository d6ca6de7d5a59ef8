// Rules-engine tests on positions built from the built-in variants and hand-made boards: types,
// variants, actions made and undone, geometry, local moves. The multiverse, the attack test and
// the action search have files of their own (multiverse_test.cpp, attacks_test.cpp,
// actions_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>

#include "movegen/action.h"
#include "movegen/actions.h"
#include "movegen/geometry.h"
#include "movegen/movegen.h"
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
