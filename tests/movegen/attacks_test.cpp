// The attack test (movegen.h, attacks.cpp): royal_attacked() and its per-tip, forward and
// in-board forms against the reference that generates every capture, and rides along each axis.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "movegen/fen_rows.h"
#include "movegen/movegen.h"
#include "movegen/multiverse.h"
#include "tests/movegen/variant_util.h"

namespace fived::movegen {
namespace {

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

} // namespace
} // namespace fived::movegen
