// The multiverse (movegen/multiverse.h): make/unmake of moves and passes restore the boards and
// the incrementally kept key; set-up errors; the present and the side to move.
#include <gtest/gtest.h>

#include <span>
#include <string>
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

} // namespace
} // namespace fived::movegen
