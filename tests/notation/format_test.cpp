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

// NOTATION.md §2 and RULES.md §1.3: odd games write 0, 1, -1; even games -0 and +0 for the middle
// timelines (internal -1 and 0), +k for k >= 1 with the sign as 5DPGN writes it, and without `+`
// in the canonical form (§7). line_index() is the inverse, and refuses a label of the other
// parity.
TEST(Format, TimelineLabels) {
    EXPECT_EQ(line_label(0, false), "0");
    EXPECT_EQ(line_label(1, false), "1");
    EXPECT_EQ(line_label(-1, false), "-1");
    EXPECT_EQ(line_label(0, true), "+0");
    EXPECT_EQ(line_label(-1, true), "-0");
    EXPECT_EQ(line_label(1, true), "+1");
    EXPECT_EQ(line_label(-2, true), "-1");
    EXPECT_EQ(canonical_line_label(1, true), "1");
    EXPECT_EQ(canonical_line_label(0, true), "+0");
    EXPECT_EQ(canonical_line_label(-1, true), "-0");
    EXPECT_EQ(canonical_line_label(-3, true), "-2");
    EXPECT_EQ(canonical_line_label(2, false), "2");
    for (const bool even : {false, true})
        for (int l = -6; l <= 6; ++l)
            for (const std::string& text : {line_label(l, even), canonical_line_label(l, even)}) {
                LineLabel label;
                label.sign      = text[0] == '+' || text[0] == '-' ? text[0] : 0;
                label.magnitude = std::stoi(text.substr(label.sign ? 1 : 0));
                EXPECT_EQ(line_index(label, even), l) << text << (even ? " even" : " odd");
            }
    EXPECT_EQ(line_index(LineLabel{0, '-'}, false), std::nullopt) << "-0 in an odd game";
    EXPECT_EQ(line_index(LineLabel{0, 0}, true), std::nullopt) << "0 in an even game";
}

// The forms of format_move() (format.h, NOTATION.md §7) on the positions they come from: a pawn
// step, the time-travel capture of RULES.md §2.1, castling as the king's move, a promotion.
TEST(Format, MovesOfTheirPositions) {
    auto position = [](const std::string& game) {
        auto g = load_game(game, "f");
        EXPECT_TRUE(g.ok()) << g.status();
        movegen::Multiverse            mv = g->start.fork();
        std::vector<movegen::MoveUndo> undo;
        play_main_line(mv, *g, g->mainLine.size(), undo);
        return mv;
    };
    // The one move of the side to move from `from` to `to` (squares of the given boards).
    auto text_of = [](const movegen::Multiverse& mv, movegen::Vec4 from, movegen::Vec4 to) {
        std::vector<movegen::Move> moves;
        movegen::generate_moves(mv, mv.to_move(), moves);
        for (const movegen::Move& m : moves)
            if (m.from == from && m.to == to) return format_move(mv, m);
        return std::string("no such move");
    };
    using movegen::make_square;
    using movegen::to_v;
    using movegen::Vec4;
    using movegen::WHITE;
    const movegen::Multiverse start = position("[Board \"Standard\"]\n");
    EXPECT_EQ(
        text_of(start, Vec4(0, 2, make_square(4, 1)), Vec4(0, 2, make_square(4, 2))), "(0T1)Pe2e3");
    const movegen::Multiverse sac =
        position("[Board \"Standard\"]\n1. e3 / Nf6\n2. Bb5 / c6\n3. c3 / cxb5\n4. Qb3 / Qa5\n");
    EXPECT_EQ(text_of(sac, Vec4(0, to_v(5, WHITE), make_square(1, 2)),
                  Vec4(0, to_v(1, WHITE), make_square(5, 6))),
        "(0T5)Qb3>>x(0T1)f7");
    const movegen::Multiverse castle =
        position("[Board \"Standard\"]\n1. Nf3 / Nf6\n2. e3 / e6\n3. Be2 / Be7\n");
    EXPECT_EQ(text_of(castle, Vec4(0, to_v(4, WHITE), make_square(4, 0)),
                  Vec4(0, to_v(4, WHITE), make_square(6, 0))),
        "(0T4)Ke1g1");
    const movegen::Multiverse promo =
        position("[Board \"custom\"]\n[Size \"5x5\"]\n[4k/P4/5/5/K4:0:1:w]\n");
    EXPECT_EQ(text_of(promo, Vec4(0, to_v(1, WHITE), make_square(0, 3)),
                  Vec4(0, to_v(1, WHITE), make_square(0, 4))),
        "(0T1)Pa4a5=Q");
}

// format_action() writes what the reader resolves back to the same moves (the full form needs no
// context): every action of random trees, replayed from its text.
TEST(Format, ActionsResolveBackFromTheirText) {
    int                            actions = 0, jumps = 0;
    std::vector<movegen::Move>     made;
    std::vector<movegen::MoveUndo> undo;
    for_each_random_action({"Standard - Two Timelines", "Misc - Timeline Invasion",
                               "Standard - Turn Zero", "Very Small - Open"},
        11, 12, 150,
        [&](const char* variant, movegen::Multiverse& mv, std::span<const movegen::Move> a) {
            const std::string text = format_action(mv, a);
            auto              doc  = parse_document("1. " + text, "f");
            ASSERT_TRUE(doc.ok()) << doc.status() << " " << text;
            ASSERT_EQ(doc->nodes.size(), 2u) << text;
            Diagnostic err;
            made.clear();
            ASSERT_TRUE(replay_action(mv, doc->nodes[1].action, {}, "f", made, undo, err))
                << variant << ": " << err.to_string();
            movegen::undo_action(mv, undo);
            EXPECT_EQ(made, std::vector<movegen::Move>(a.begin(), a.end()))
                << variant << ": " << text;
            ++actions;
            jumps += text.find('>') != std::string::npos;
        });
    EXPECT_GT(actions, 500);
    EXPECT_GT(jumps, 50);
}

} // namespace
} // namespace fived::notation
