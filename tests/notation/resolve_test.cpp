// Resolution of written moves and actions (notation/resolve.h, NOTATION.md §5-§6): shortened
// moves, the pawn-first rule, source disambiguation and ambiguity, the checks of the capture mark,
// the jump indicator and promotions, submission, and the standard order.
#include <optional>
#include <string>
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

} // namespace
} // namespace fived::notation
