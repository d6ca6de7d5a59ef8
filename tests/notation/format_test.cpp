// Timeline labels and the full notation of moves and actions (notation/format.h, NOTATION.md §2,
// §7): labels of both parities and their inverse, the forms of a move, actions whose text reads
// back to them, and the listing formatter.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "movegen/action.h"
#include "movegen/movegen.h"
#include "movegen/picker.h"
#include "notation/format.h"
#include "notation/game.h"
#include "notation/parser.h"
#include "notation/resolve.h"
#include "tests/notation/random_actions.h"

namespace fived::notation {
namespace {

using testing_gen::for_each_random_action;

// format_action() makes the moves before a jump only when the jump lands on a last board; the
// text must be the one of making every move before formatting the next. `needed` counts the
// jumps whose branching the moves before them decide (so the test shows it met that case).
TEST(FormatAction, SameAsMakingEveryMoveOnRandomPlay) {
    int needed = 0, actions = 0;
    for_each_random_action(
        {"Standard - Two Timelines", "Misc - Timeline Invasion", "Misc - Timeline Skirmish",
            "Very Small - Open", "Standard - Turn Zero"},
        1, 4, 300,
        [&](const char* variant, movegen::Multiverse& mv, std::span<const movegen::Move> a) {
            std::vector<bool> ontoLast; // a jump onto a last board of the parent position
            for (const movegen::Move& m : a)
                ontoLast.push_back(!m.is_physical() && m.to.v() == mv.end_v(m.to.l()));
            std::string                    expected;
            std::vector<movegen::MoveUndo> made;
            for (std::size_t i = 0; i < a.size(); ++i) {
                if (i) expected += ' ';
                append_move(expected, mv, a[i]);
                needed += ontoLast[i] && mv.is_branching(a[i]);
                movegen::do_action(mv, a.subspan(i, 1), made);
            }
            movegen::undo_action(mv, made);
            ++actions;
            EXPECT_EQ(format_action(mv, a), expected) << variant;
        });
    EXPECT_GT(actions, 1000);
    EXPECT_GT(needed, 0);
}

// A listing formats each action reusing the text of the moves it shares with the one before:
// the same text as formatting it alone, over the enumeration order of the action search, on
// random positions of several variants (with jumps onto last boards, whose text depends on the
// moves before them).
TEST(ActionFormatter, SameAsFormatActionOverAListing) {
    int reused = 0, actions = 0;
    for_each_random_action({"Standard - Two Timelines", "Misc - Timeline Invasion",
                               "Misc - Timeline Skirmish", "Very Small - Open"},
        7, 7, 120,
        [&](const char* variant, movegen::Multiverse& parent, std::span<const movegen::Move> a) {
            movegen::Multiverse            mv = parent.fork(); // the position after a
            std::vector<movegen::MoveUndo> undo;
            movegen::do_action(mv, a, undo);
            movegen::Multiverse   printer = mv.fork();
            ActionFormatter       formatter(printer);
            movegen::ActionPicker picker;
            picker.reset(mv);
            std::string previous;
            int         listed = 0;
            picker.for_each([&](std::span<const movegen::Move> b) {
                const std::string text(formatter.format(b));
                EXPECT_EQ(text, format_action(printer, b)) << variant;
                reused += !previous.empty() && text.compare(0, 20, previous, 0, 20) == 0;
                previous = text;
                ++actions;
                return ++listed < 300;
            });
        });
    EXPECT_GT(actions, 5000);
    EXPECT_GT(reused, 1000);
}

} // namespace
} // namespace fived::notation
