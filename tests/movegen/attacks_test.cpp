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
    auto        grid = [](const char* rows) { return testing::fen_grid(rows, 3, 3); };
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

// A white king in a1 of board (0, v = 3) and one black piece k steps away from it along the unit
// u = (ux, uy, ut, ul) of {0, 1}^4 (files, ranks, turns, timelines): in square (k·ux, k·uy) of
// board (k·ul, 3 + 2·k·ut), the last board of its timeline. Every timeline 0 .. k·ul holds the
// boards v = 3 .. 3 + 2·k·ut (3x3, empty but for these pieces). With `blocked`, a white knight
// stands on the square one step from the king along u.
Multiverse axis_position(PieceType attacker, int ux, int uy, int ut, int ul, int k, bool blocked) {
    GameRules r;
    r.width = r.height = 3;
    Multiverse  mv(r);
    std::string err;
    const int   lastV = 3 + 2 * k * ut;
    for (int l = 0; l <= k * ul; ++l)
        for (int v = 3; v <= lastV; ++v) {
            FenGrid g;
            g.width = g.height = 3;
            if (l == 0 && v == 3) g.piece[make_square(0, 0)] = make_piece(WHITE, KING);
            if (l == k * ul && v == lastV)
                g.piece[make_square(k * ux, k * uy)] = make_piece(BLACK, attacker);
            if (blocked && l == ul && v == 3 + 2 * ut)
                g.piece[make_square(ux, uy)] = make_piece(WHITE, KNIGHT);
            EXPECT_TRUE(mv.add_initial_board(l, v, g, err)) << err;
        }
    EXPECT_TRUE(mv.finish_setup(err)) << err;
    return mv;
}

// RULES.md §2.1-2.2: a rook rides along one axis, a bishop along two, a unicorn three, a dragon
// four; a princess one or two, a queen any; a king steps once along any; no knight leap is a
// multiple of a unit direction. Rides cross empty squares of existing boards only: a piece on the
// square between stops them. Each combination of axes, 1 and 2 steps away, both tests (the fast
// one and the reference that generates every capture), the tip test, and the attacking capture
// itself (royal_attacks()).
TEST(Attacks, EachPieceAlongEachCombinationOfAxes) {
    int attacks = 0, cases = 0;
    for (int bits = 1; bits < 16; ++bits) {
        const int ux = bits & 1, uy = bits >> 1 & 1, ut = bits >> 2 & 1, ul = bits >> 3 & 1;
        const int axes = ux + uy + ut + ul;
        for (const PieceType pt : {ROOK, BISHOP, UNICORN, DRAGON, PRINCESS, QUEEN, KING, KNIGHT})
            for (const int k : {1, 2})
                for (const bool blocked : {false, true}) {
                    if (blocked && k == 1) continue;
                    bool rides = false, leaps = false;
                    switch (pt) {
                        case ROOK: rides = axes == 1; break;
                        case BISHOP: rides = axes == 2; break;
                        case UNICORN: rides = axes == 3; break;
                        case DRAGON: rides = axes == 4; break;
                        case PRINCESS: rides = axes <= 2; break;
                        case QUEEN: rides = true; break;
                        case KING: leaps = k == 1; break;
                        default: break; // the knight
                    }
                    const bool expected = leaps || (rides && !blocked);
                    SCOPED_TRACE(std::string(1, piece_letter(pt)) + " along (" + std::to_string(ux)
                        + "," + std::to_string(uy) + "," + std::to_string(ut) + ","
                        + std::to_string(ul) + ") x" + std::to_string(k)
                        + (blocked ? " blocked" : ""));
                    const Multiverse mv = axis_position(pt, ux, uy, ut, ul, k, blocked);
                    EXPECT_EQ(royal_attacked_reference(mv, WHITE), expected);
                    EXPECT_EQ(royal_attacked(mv, WHITE), expected);
                    EXPECT_EQ(tip_attacks_royal(mv, k * ul, WHITE), expected);
                    EXPECT_FALSE(royal_attacked(mv, BLACK)) << "no last board is White's";
                    std::vector<Move> found;
                    royal_attacks(mv, WHITE, found);
                    if (expected) {
                        ASSERT_EQ(found.size(), 1u);
                        EXPECT_EQ(found[0].from,
                            Vec4(k * ul, 3 + 2 * k * ut, make_square(k * ux, k * uy)));
                        EXPECT_EQ(found[0].to, Vec4(0, 3, make_square(0, 0)));
                        EXPECT_TRUE(found[0].is_capture());
                    } else {
                        EXPECT_TRUE(found.empty());
                    }
                    ++cases;
                    attacks += expected;
                }
    }
    EXPECT_EQ(cases, 15 * 8 * 3);
    // Along one axis: R S Q at 1 and 2, K at 1 (4 axes); two: B S Q, K; three: U Q, K; four: D Q,
    // K.
    EXPECT_EQ(attacks, 4 * 7 + 6 * 7 + 4 * 5 + 1 * 5);
}

// Within one board, physical moves only (attacked_on_board(), the castling rule): a rook along
// its file until a piece stops it, a black pawn diagonally down the board, not straight ahead.
TEST(Attacks, OnOneBoard) {
    Board b;
    b.put(make_piece(BLACK, ROOK), make_square(0, 7));
    b.put(make_piece(BLACK, PAWN), make_square(4, 4));
    b.put(make_piece(WHITE, KNIGHT), make_square(0, 2));
    EXPECT_TRUE(attacked_on_board(b, 8, 8, make_square(0, 3), BLACK));
    EXPECT_TRUE(attacked_on_board(b, 8, 8, make_square(0, 2), BLACK)); // the blocker itself
    EXPECT_FALSE(attacked_on_board(b, 8, 8, make_square(0, 1), BLACK));
    EXPECT_TRUE(attacked_on_board(b, 8, 8, make_square(7, 7), BLACK)); // along the rank
    EXPECT_TRUE(attacked_on_board(b, 8, 8, make_square(3, 3), BLACK));
    EXPECT_TRUE(attacked_on_board(b, 8, 8, make_square(5, 3), BLACK));
    EXPECT_FALSE(attacked_on_board(b, 8, 8, make_square(4, 3), BLACK));
    EXPECT_FALSE(attacked_on_board(b, 8, 8, make_square(3, 5), BLACK));
    // The knight attacks b4 for White; a king there is attacked on the board.
    EXPECT_TRUE(attacked_on_board(b, 8, 8, make_square(1, 4), WHITE));
    b.put(make_piece(BLACK, KING), make_square(1, 4));
    EXPECT_EQ(royal_attacked_on_board(b, 8, 8, BLACK), make_square(1, 4));
    EXPECT_EQ(royal_attacked_on_board(b, 8, 8, WHITE), -1);
}

} // namespace
} // namespace fived::movegen
