// The multiverse (movegen/multiverse.h): make/unmake of moves and passes restore the boards and
// the incrementally kept key; set-up errors; the present and the side to move.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "movegen/actions.h"
#include "movegen/fen_rows.h"
#include "movegen/movegen.h"
#include "movegen/multiverse.h"
#include "tests/movegen/variant_util.h"

namespace fived::movegen {
namespace {

Multiverse make(const char* name) { return testing::variant_start(name); }

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

// What a state looks like from outside, to compare before a move and after its unmake: the key,
// the arena, and each timeline's range and last board.
struct Snapshot {
    Key                                      key    = 0;
    std::size_t                              boards = 0;
    int                                      minL = 0, maxL = 0;
    std::vector<std::array<std::int64_t, 3>> lines; // start v, end v, id of the last board

    explicit Snapshot(const Multiverse& mv) :
        key(mv.key()), boards(mv.board_count()), minL(mv.min_l()), maxL(mv.max_l()) {
        for (int l = minL; l <= maxL; ++l)
            lines.push_back({mv.start_v(l), mv.end_v(l), mv.board_id(l, mv.end_v(l))});
    }
    bool operator==(const Snapshot&) const = default;
};

// Board `after` is `before` with the squares `changed` given and every other square the same.
::testing::AssertionResult same_but(
    const Board& before, const Board& after, std::initializer_list<std::pair<int, Piece>> changed) {
    for (int sq = 0; sq < 64; ++sq) {
        Piece expected = before.piece_on(sq);
        for (const auto& [s, p] : changed)
            if (s == sq) expected = p;
        if (after.piece_on(sq) != expected)
            return ::testing::AssertionFailure()
                << "square " << sq << " holds " << int(after.piece_on(sq)) << ", expected "
                << int(expected);
    }
    return ::testing::AssertionSuccess();
}

// Every pseudo-legal move of positions of random games (variants with several timelines and jumps
// into the past) creates the boards RULES.md §1.4 says, at the places §3.3 says, and its unmake
// restores the key, the arena and every timeline. The key kept incrementally is the key computed
// from scratch. A jump made as departure then arrival is the same as made at once.
TEST(Multiverse, MakeCreatesTheBoardsOfTheRulesAndUnmakeRestores) {
    testing::XorShift next{2024};
    int               physical = 0, hops = 0, branching = 0;
    std::vector<Move> moves;
    testing::for_each_game_position({"Standard - Turn Zero", "Standard - Two Timelines",
                                        "Misc - Timeline Invasion", "Very Small - Open"},
        2, 6, next, [&](Multiverse& mv, const char* name) {
            moves.clear();
            generate_moves(mv, mv.to_move(), moves);
            for (const Move& m : moves) {
                SCOPED_TRACE(std::string(name) + " move from l " + std::to_string(m.from.l())
                    + " v " + std::to_string(m.from.v()) + " to l " + std::to_string(m.to.l())
                    + " v " + std::to_string(m.to.v()));
                const Snapshot before(mv);
                const Color    c      = Color(m.from.v() & 1);
                const Board    source = mv.board(m.from.l(), m.from.v());
                const Board    target = mv.board(m.to.l(), m.to.v());
                const Piece    piece  = source.piece_on(m.from.sq());
                const Piece    placed =
                    m.promotion != NO_PIECE_TYPE ? make_piece(c, m.promotion) : piece;
                ASSERT_NE(piece, NO_PIECE);
                ASSERT_EQ(m.from.v(), mv.end_v(m.from.l())) << "a move starts on a last board";
                const bool branches = mv.is_branching(m);
                const int  newL     = c == WHITE ? mv.max_l() + 1 : mv.min_l() - 1;
                MoveUndo   u;
                mv.make_move(m, u);
                std::string why;
                ASSERT_TRUE(mv.is_ok(&why)) << why;
                EXPECT_EQ(mv.key(), mv.compute_key_from_scratch());
                EXPECT_NE(mv.key(), before.key);
                // The successor of the source board: the move made on it, or the piece gone.
                ASSERT_EQ(mv.end_v(m.from.l()), m.from.v() + 1);
                const Board& succ = mv.tip(m.from.l());
                if (m.is_physical()) {
                    ++physical;
                    EXPECT_EQ(mv.board_count(), before.boards + 1);
                    EXPECT_EQ(mv.timeline_count(), before.maxL - before.minL + 1);
                    EXPECT_EQ(succ.piece_on(m.to.sq()), placed);
                    EXPECT_TRUE(succ.empty(m.from.sq()));
                    if (!(m.flags & (MF_CASTLE | MF_ENPASSANT))) {
                        EXPECT_TRUE(
                            same_but(source, succ, {{m.from.sq(), NO_PIECE}, {m.to.sq(), placed}}));
                    }
                } else {
                    EXPECT_EQ(mv.board_count(), before.boards + 2);
                    EXPECT_TRUE(same_but(source, succ, {{m.from.sq(), NO_PIECE}}));
                    // The arrival: on the target's timeline (a hop) or on a new one (a branch),
                    // the target board with the piece placed, one half-step after it.
                    const int arrivalL = branches ? newL : m.to.l();
                    if (branches) {
                        ++branching;
                        EXPECT_EQ(mv.timeline_count(), before.maxL - before.minL + 2);
                        EXPECT_EQ(mv.start_v(newL), m.to.v() + 1);
                    } else {
                        ++hops;
                        EXPECT_EQ(mv.timeline_count(), before.maxL - before.minL + 1);
                    }
                    ASSERT_EQ(mv.end_v(arrivalL), m.to.v() + 1);
                    EXPECT_TRUE(same_but(target, mv.tip(arrivalL), {{m.to.sq(), placed}}));
                    // Departure then arrival: the same state.
                    const Key once = mv.key();
                    mv.unmake_move(u);
                    MoveUndo dep, arr;
                    mv.make_departure(m, dep);
                    mv.make_arrival(m, arr);
                    EXPECT_EQ(mv.key(), once);
                    EXPECT_EQ(mv.end_v(arrivalL), m.to.v() + 1);
                    mv.unmake_move(arr);
                    mv.unmake_move(dep);
                    EXPECT_EQ(Snapshot(mv), before);
                    mv.make_move(m, u);
                }
                mv.unmake_move(u);
                EXPECT_EQ(Snapshot(mv), before);
                EXPECT_EQ(mv.key(), mv.compute_key_from_scratch());
                if (::testing::Test::HasFatalFailure()) return;
            }
        });
    EXPECT_GT(physical, 1000);
    EXPECT_GT(hops, 10);
    EXPECT_GT(branching, 100);
}

// fork() is an independent copy: a move made on it leaves the original as it was.
TEST(Multiverse, ForkIsIndependent) {
    Multiverse        mv = make("Standard - Two Timelines");
    const Snapshot    before(mv);
    Multiverse        copy = mv.fork();
    std::vector<Move> moves;
    generate_moves(copy, copy.to_move(), moves);
    ASSERT_FALSE(moves.empty());
    MoveUndo u;
    copy.make_move(moves[0], u);
    EXPECT_EQ(copy.board_count(), before.boards + 1);
    EXPECT_EQ(Snapshot(mv), before);
    copy.unmake_move(u);
    EXPECT_EQ(Snapshot(copy), before);
}

// The present (RULES.md §4.2) is the smallest end over the active timelines, and its colour moves:
// Standard starts at (0T1w), v = 2; White's move there passes the present to Black (v = 3).
TEST(Multiverse, PresentAndSideToMove) {
    Multiverse mv = make("Standard");
    EXPECT_EQ(mv.present_v(), to_v(1, WHITE));
    EXPECT_EQ(mv.to_move(), WHITE);
    EXPECT_EQ(mv.timeline_count(), 1);
    std::vector<Move> moves;
    generate_moves(mv, WHITE, moves);
    ASSERT_EQ(moves.size(), 20u); // 16 pawn moves and 4 knight moves
    MoveUndo u;
    mv.make_move(moves[0], u);
    EXPECT_EQ(mv.present_v(), to_v(1, BLACK));
    EXPECT_EQ(mv.to_move(), BLACK);
    mv.unmake_move(u);
    EXPECT_EQ(mv.present_v(), to_v(1, WHITE));
}

// The set-up refuses two boards at one place, a gap in a timeline, a missing timeline between two
// others, and an odd game without its central timeline 0.
TEST(Multiverse, SetupRefusesClashesAndGaps) {
    FenGrid empty;
    empty.width = empty.height = 3;
    GameRules r;
    r.width = r.height = 3;
    std::string err;
    {
        Multiverse mv(r);
        ASSERT_TRUE(mv.add_initial_board(0, 2, empty, err)) << err;
        EXPECT_FALSE(mv.add_initial_board(0, 2, empty, err));
        EXPECT_EQ(err, "two boards at the same timeline and turn");
        EXPECT_FALSE(mv.add_initial_board(0, 4, empty, err));
        EXPECT_EQ(err, "boards of a timeline must be consecutive");
        ASSERT_TRUE(mv.add_initial_board(0, 1, empty, err)) << err; // before the first: fine
        ASSERT_TRUE(mv.add_initial_board(2, 2, empty, err)) << err;
        EXPECT_FALSE(mv.finish_setup(err));
        EXPECT_EQ(err, "timelines must be contiguous (timeline 1 is missing)");
    }
    {
        Multiverse mv(r);
        ASSERT_TRUE(mv.add_initial_board(1, 2, empty, err)) << err;
        EXPECT_FALSE(mv.finish_setup(err));
        EXPECT_EQ(err, "an odd game needs the central timeline 0");
    }
    {
        Multiverse mv(r);
        ASSERT_TRUE(mv.add_initial_board(0, 2, empty, err)) << err;
        ASSERT_TRUE(mv.add_initial_board(0, 1, empty, err)) << err;
        ASSERT_TRUE(mv.finish_setup(err)) << err;
        EXPECT_EQ(mv.start_v(0), 1);
        EXPECT_EQ(mv.end_v(0), 2);
        EXPECT_EQ(mv.board_count(), 2u);
        EXPECT_EQ(mv.key(), mv.compute_key_from_scratch());
    }
}

} // namespace
} // namespace fived::movegen
