// Resolution of written moves and actions (notation/resolve.h, NOTATION.md §5-§6): shortened
// moves, the pawn-first rule, source disambiguation and ambiguity, the checks of the capture mark,
// the jump indicator and promotions, submission, and the standard order.
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "movegen/action.h"
#include "notation/format.h"
#include "notation/game.h"
#include "notation/parser.h"
#include "notation/reader.h"
#include "notation/resolve.h"

namespace fived::notation {
namespace {

TEST(TreeReader, AmbiguityListsTheCandidates) {
    const std::string       text = "[Board \"Standard\"]\n1. Nf3 / Nf6\n2. d3 / d6\n3. e3 / e6\n"
                                   "4. Nd2\n";
    std::vector<Diagnostic> errors;
    EXPECT_FALSE(read_game_tree(text, "a", ReadOptions{}, errors));
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].to_string(), "a:5:4: ambiguous: `Nd2` matches (0T4)Nb1d2 and (0T4)Nf3d2");
}

TEST(TreeReader, ExportFormAndPromotionErrors) {
    // Shad's export proposal (`(0T1)Pe2(0T1)e3`, used by cwmtt's many2): a physical move.
    std::vector<Diagnostic> errors;
    auto t = read_game_tree("1. (0T1)Pe2(0T1)e3 / (0T1)Pe7(0T1)e6\n", "x", ReadOptions{}, errors);
    ASSERT_TRUE(t) << errors.front().to_string();
    EXPECT_TRUE(t->nodes[1].action[0].is_physical());
    // A promotion piece outside the Promotions header.
    errors.clear();
    const std::string promo = "[Size \"3x3\"]\n[Board \"custom\"]\n[Promotions \"Q\"]\n"
                              "[k*1p*/3/K*R*1:0:1:w]\n1. Rb2 / c1=R\n";
    EXPECT_FALSE(read_game_tree(promo, "p", ReadOptions{}, errors));
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(
        errors[0].to_string(), "p:5:10: promotion to `R` is not allowed (Promotions: Q) in `c1=R`");
}

// The position at the end of a game's main line (read strictly).
movegen::Multiverse after(const std::string& game) {
    auto g = load_game(game, "g");
    EXPECT_TRUE(g.ok()) << g.status();
    if (!g.ok()) return movegen::Multiverse(movegen::GameRules{});
    movegen::Multiverse            mv = g->start.fork();
    std::vector<movegen::MoveUndo> undo;
    play_main_line(mv, *g, g->mainLine.size(), undo);
    return mv;
}

// The action written on line 1 of "1. <text>" (its first move at column 4).
Action written(const std::string& text) {
    auto doc = parse_document("1. " + text, "r");
    EXPECT_TRUE(doc.ok()) << doc.status();
    if (!doc.ok() || doc->nodes.size() < 2) return {};
    return doc->nodes[1].action;
}

// The full notation of the move `text` resolves to for the side to move, or the error.
std::string resolve(const movegen::Multiverse& mv, const std::string& text, ReadOptions opt = {}) {
    const Action a = written(text);
    if (a.moves.size() != 1) return "not one move";
    std::vector<movegen::Move> scratch;
    Diagnostic                 err;
    const auto m = resolve_move(mv, mv.to_move(), a.moves[0], opt, "r", scratch, err);
    return m ? format_move(mv, *m) : err.to_string();
}

// Each written move of `cases` resolves to the full notation, or the error, paired with it.
void expect_resolved(const movegen::Multiverse&                mv,
    std::initializer_list<std::pair<const char*, const char*>> cases, ReadOptions opt = {}) {
    for (const auto& [text, expected] : cases)
        EXPECT_EQ(resolve(mv, text, opt), expected) << text;
}

const char* const Standard = "[Board \"Standard\"]\n";

// NOTATION.md §5: the piece and target alone when one move fits, the full form too; a pattern
// no move fits names the boards it was looked for on.
TEST(Resolve, ShortenedMovesOfTheStartPosition) {
    const movegen::Multiverse mv = after(Standard);
    expect_resolved(mv,
        {{"e3", "(0T1)Pe2e3"}, {"e4", "(0T1)Pe2e4"}, {"Nf3", "(0T1)Ng1f3"}, {"Nc3", "(0T1)Nb1c3"},
            {"Ng1f3", "(0T1)Ng1f3"}, {"(0T1)Ng1f3", "(0T1)Ng1f3"},
            {"e5", "r:1:4: no legal move matches `e5` on (0T1)"},
            {"Ke2", "r:1:4: no legal move matches `Ke2` on (0T1)"},
            {"(0T1)Nb1d2", "r:1:4: no legal move matches `(0T1)Nb1d2` on (0T1)"}});
}

// Step 4, the pawn-first rule: `d3` is the pawn's move even when a bishop reaches d3 too.
TEST(Resolve, PawnFirstRule) {
    const movegen::Multiverse mv = after(std::string(Standard) + "1. e3 / e6\n");
    expect_resolved(mv, {{"d3", "(0T2)Pd2d3"}, {"Bd3", "(0T2)Bf1d3"}, {"Bc4", "(0T2)Bf1c4"}});
}

// Step 5: two knights reach d2; the source file or rank tells them apart, the piece alone does not.
TEST(Resolve, SourceDisambiguationAndAmbiguity) {
    const movegen::Multiverse mv =
        after(std::string(Standard) + "1. Nf3 / Nf6\n2. d3 / d6\n3. e3 / e6\n");
    expect_resolved(mv,
        {{"Nd2", "r:1:4: ambiguous: `Nd2` matches (0T4)Nb1d2 and (0T4)Nf3d2"},
            {"Nbd2", "(0T4)Nb1d2"}, {"Nfd2", "(0T4)Nf3d2"}, {"N1d2", "(0T4)Nb1d2"},
            {"N3d2", "(0T4)Nf3d2"}, {"Bd2", "(0T4)Bc1d2"}, {"Qd2", "(0T4)Qd1d2"},
            {"Kd2", "(0T4)Ke1d2"}});
}

// Step 6: a written `x` must capture and a written jump indicator must fit (strict), unless the
// options let it through (--lenient), which then finds the same move. In Turn Zero, after 1. e3,
// the knight in g8 jumps to (0T0)g6, a historical board: a branching jump.
TEST(Resolve, CaptureMarkAndJumpIndicatorChecks) {
    const movegen::Multiverse std_ = after(Standard);
    EXPECT_EQ(resolve(std_, "Nxf3"),
        "r:1:4: `Nxf3` is written as a capture, but (0T1)Ng1f3 captures nothing");
    EXPECT_EQ(resolve(std_, "Nxf3", read_options(true)), "(0T1)Ng1f3");
    const movegen::Multiverse tz = after("[Board \"Standard - Turn Zero\"]\n1. e3\n");
    ASSERT_EQ(tz.to_move(), movegen::BLACK);
    EXPECT_EQ(resolve(tz, "N>>g6"), "(0T1)Ng8>>(0T0)g6");
    EXPECT_EQ(resolve(tz, "(0T1)Ng8>>(0T0)g6"), "(0T1)Ng8>>(0T0)g6");
    EXPECT_EQ(resolve(tz, "N>g6"),
        "r:1:4: jump indicator `>` in `N>g6` does not fit "
        "(0T1)Ng8>>(0T0)g6, which branches (`>>`)");
    EXPECT_EQ(resolve(tz, "N>g6", read_options(true)), "(0T1)Ng8>>(0T0)g6");
    EXPECT_EQ(resolve(tz, "Nf6"), "(0T1)Ng8f6");
}

// replay_action(): an action is submitted only when the present passes (RULES.md §4.4) and no
// royal piece of the mover is attacked (§5.3); a refused action leaves the position as it was.
// The moves are kept in written order; standard_order() sorts them by arrival timeline (White:
// ascending, -0 before +0) and keeps a branching jump last (NOTATION.md §6's example).
TEST(Resolve, ReplayChecksSubmissionAndStandardOrder) {
    movegen::Multiverse            two   = after("[Board \"Standard - Two Timelines\"]\n");
    const movegen::Key             start = two.key();
    std::vector<movegen::Move>     made;
    std::vector<movegen::MoveUndo> undo;
    Diagnostic                     err;
    EXPECT_FALSE(replay_action(two, written("(-0T1)e3"), {}, "r", made, undo, err));
    EXPECT_EQ(err.to_string(),
        "r:1:4: action cannot be submitted: the present does not pass to "
        "the opponent (a mandatory board is not played)");
    EXPECT_TRUE(made.empty());
    EXPECT_EQ(two.key(), start);
    ASSERT_TRUE(replay_action(two, written("(+0T1)e3 (-0T1)d3"), {}, "r", made, undo, err))
        << err.to_string();
    ASSERT_EQ(made.size(), 2u);
    ASSERT_EQ(undo.size(), 2u);
    EXPECT_EQ(two.to_move(), movegen::BLACK);
    movegen::undo_action(two, undo);
    EXPECT_EQ(two.key(), start);
    EXPECT_EQ(format_action(two, made), "(+0T1)Pe2e3 (-0T1)Pd2d3");
    standard_order(two, made);
    EXPECT_EQ(format_action(two, made), "(-0T1)Pd2d3 (+0T1)Pe2e3");
    made.clear();
    ASSERT_TRUE(
        replay_action(two, written("(+0T1)h4 (-0T1)Nb1>>(+0T1)b3"), {}, "r", made, undo, err))
        << err.to_string();
    movegen::undo_action(two, undo);
    standard_order(two, made);
    EXPECT_EQ(format_action(two, made), "(+0T1)Ph2h4 (-0T1)Nb1>>(+0T1)b3");
    EXPECT_EQ(two.key(), start);

    // The white king in b3 may not step next to the black king in a5.
    movegen::Multiverse corner =
        after("[Board \"custom\"]\n[Size \"5x5\"]\n[k4/5/1K3/5/4R:0:1:w]\n");
    made.clear();
    EXPECT_FALSE(replay_action(corner, written("Kb4"), {}, "r", made, undo, err));
    EXPECT_EQ(
        err.to_string(), "r:1:4: action cannot be submitted: it leaves a royal piece attacked");
    EXPECT_TRUE(undo.empty());
    ReadOptions unsafe;
    unsafe.checkKingSafety = false;
    ReplayScratch scratch;
    ASSERT_TRUE(replay_action(corner, written("Kb4"), unsafe, "r", made, undo, err, scratch));
    ASSERT_TRUE(scratch.warning);
    EXPECT_EQ(scratch.warning->pos.line, 1);
    EXPECT_EQ(made.size(), 1u);
    movegen::undo_action(corner, undo);
    EXPECT_TRUE(replay_action(corner, written("Kc4"), {}, "r", made, undo, err)) << err.to_string();
}

} // namespace
} // namespace fived::notation
