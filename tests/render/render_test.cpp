// The picture's layout (board positions, arrow ends, the "+N more" caps) and the SVG's content
// (glyphs of every piece kind, checks). The SVG's well-formedness and rendering are checked by
// the ctest render_cli_* (xmllint, rsvg-convert).
#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "movegen/fen_rows.h"
#include "movegen/multiverse.h"
#include "notation/game.h"
#include "render/html.h"
#include "render/svg.h"

namespace {

using fived::movegen::Multiverse;
using fived::movegen::Vec4;
using fived::render::Arrow;
using fived::render::ArrowKind;
using fived::render::Layout;
using fived::render::Options;
using fived::render::Scene;

fived::notation::LoadedGame load(const std::string& text) {
    auto g = fived::notation::load_game(text, "test");
    if (!g.ok()) throw std::runtime_error(std::string(g.status().message()));
    return std::move(*g);
}

Multiverse final_position(const fived::notation::LoadedGame& g) {
    Multiverse                            mv = g.start.fork();
    std::vector<fived::movegen::MoveUndo> undo;
    fived::notation::play_main_line(mv, g, g.mainLine.size(), undo);
    return mv;
}

// A multiverse of `lines` timelines (ℓ = -lines/2 .. lines/2) of `boards` boards each (from v =
// 2, T1 white), every board the same 5x5 position.
Multiverse synthetic(int lines, int boards) {
    fived::movegen::GameRules rules;
    rules.width = rules.height = 5;
    Multiverse                   mv(rules);
    fived::movegen::FenGrid      grid;
    fived::movegen::FenRowsError ferr;
    EXPECT_TRUE(fived::movegen::parse_fen_rows("4k/5/5/5/K1R2", 5, 5, grid, ferr));
    std::string err;
    for (int l = -lines / 2; l <= lines / 2; ++l)
        for (int v = 2; v < 2 + boards; ++v)
            EXPECT_TRUE(mv.add_initial_board(l, v, grid, err)) << err;
    EXPECT_TRUE(mv.finish_setup(err)) << err;
    return mv;
}

fived::movegen::Move move(Vec4 from, Vec4 to) {
    fived::movegen::Move m;
    m.from = from;
    m.to   = to;
    return m;
}

const char* const RookTactics = R"([Board "custom"]
[Mode "5D"]
[Size "5x5"]
[4k/5/5/5/K1R2:0:1:w]

1. (0T1)Kb2 / (0T1)Ke4
2. (0T2)Re1 / (0T2)Kd3
)";

bool inside(fived::render::Point p, fived::render::Point origin, const Layout& lay) {
    return p.x > origin.x && p.x < origin.x + lay.boardW && p.y > origin.y
        && p.y < origin.y + lay.boardH;
}

TEST(RenderLayout, BoardsByTimelineAndHalfTurn) {
    const Multiverse mv  = synthetic(3, 4); // ℓ -1, 0, 1; v 2..5
    const Layout     lay = fived::render::layout(mv, Scene{});
    ASSERT_EQ(lay.rows.size(), 3u);
    EXPECT_EQ(lay.rows[0].l, 1); // highest ℓ on top
    EXPECT_EQ(lay.rows[2].l, -1);
    EXPECT_EQ(lay.v0, 2);
    EXPECT_EQ(lay.v1, 5);
    EXPECT_TRUE(lay.gaps.empty());
    // Later half-turns to the right, lower timelines below, without overlaps.
    for (int l = -1; l <= 1; ++l)
        for (int v = 2; v < 5; ++v) {
            const auto a = lay.board_origin(l, v), b = lay.board_origin(l, v + 1);
            ASSERT_TRUE(a && b);
            EXPECT_GE(b->x, a->x + lay.boardW + 1);
            EXPECT_EQ(a->y, b->y);
        }
    EXPECT_GE(lay.board_origin(0, 2)->y, lay.board_origin(1, 2)->y + lay.boardH + 1);
    EXPECT_FALSE(lay.board_origin(0, 6));
    EXPECT_FALSE(lay.board_origin(2, 2));
    // Squares from White's side: a1 at the bottom left, e5 at the top right, one square apart.
    const auto o  = *lay.board_origin(0, 3);
    const auto a1 = *lay.square_center(Vec4(0, 3, fived::movegen::make_square(0, 0)));
    const auto b1 = *lay.square_center(Vec4(0, 3, fived::movegen::make_square(1, 0)));
    const auto a2 = *lay.square_center(Vec4(0, 3, fived::movegen::make_square(0, 1)));
    const auto e5 = *lay.square_center(Vec4(0, 3, fived::movegen::make_square(4, 4)));
    EXPECT_DOUBLE_EQ(a1.x, o.x + lay.square / 2);
    EXPECT_DOUBLE_EQ(a1.y, o.y + lay.boardH - lay.square / 2);
    EXPECT_DOUBLE_EQ(e5.x, o.x + lay.boardW - lay.square / 2);
    EXPECT_DOUBLE_EQ(e5.y, o.y + lay.square / 2);
    EXPECT_DOUBLE_EQ(b1.x - a1.x, lay.square);
    EXPECT_DOUBLE_EQ(a1.y - a2.y, lay.square);
    // Everything fits in the picture.
    const auto last = *lay.board_origin(-1, 5);
    EXPECT_LE(last.x + lay.boardW, lay.width);
    EXPECT_LE(last.y + lay.boardH, lay.height);
}

TEST(RenderLayout, ScalesDownToFitAndKeepsSmallPicturesLarge) {
    Options opt;
    opt.maxTimelines   = 100;
    opt.maxHalfTurns   = 100;
    const Layout small = fived::render::layout(synthetic(1, 2), Scene{}, opt);
    EXPECT_EQ(small.square, opt.maxSquare);
    const Layout big = fived::render::layout(synthetic(21, 30), Scene{}, opt);
    EXPECT_LT(big.square, opt.maxSquare);
    EXPECT_LE(big.width, opt.maxWidth + 0.5);
    EXPECT_LE(big.height, opt.maxHeight + 0.5);
    // With the default caps a big multiverse keeps readable squares and draws fewer boards.
    const Layout capped = fived::render::layout(synthetic(41, 60), Scene{});
    EXPECT_GE(capped.square, Options{}.readableSquare);
    EXPECT_LT(capped.rows.size(), 41u);
    EXPECT_LT(capped.v1 - capped.v0 + 1, 60);
    EXPECT_LE(capped.width, Options{}.maxWidth + 0.5);
    EXPECT_LE(capped.height, Options{}.maxHeight + 0.5);
}

TEST(RenderLayout, ArrowEndsAreSquareCentres) {
    const auto       g  = load(RookTactics);
    const Multiverse mv = final_position(g);
    // The last action, (0T2)Ke4d3 on the black board T2 (v = 5).
    ASSERT_EQ(g.mainLine.back().size(), 1u);
    const fived::movegen::Move last = g.mainLine.back()[0];
    EXPECT_EQ(last.from.v(), 5);
    // A jump from the white board T3 back to T1 (not legal chess, only geometry).
    const fived::movegen::Move jump = move(Vec4(0, 6, fived::movegen::make_square(2, 0)),
        Vec4(0, 2, fived::movegen::make_square(2, 4)));
    Scene                      scene;
    scene.arrows     = {{last, ArrowKind::LastAction}, {jump, ArrowKind::Key}};
    const Layout lay = fived::render::layout(mv, scene);
    ASSERT_EQ(lay.arrows.size(), 2u);
    EXPECT_EQ(lay.droppedArrows, 0);
    const auto& a = lay.arrows[0];
    EXPECT_FALSE(a.jump);
    EXPECT_EQ(a.kind, ArrowKind::LastAction);
    EXPECT_DOUBLE_EQ(a.from.x, lay.square_center(last.from)->x);
    EXPECT_DOUBLE_EQ(a.from.y, lay.square_center(last.from)->y);
    EXPECT_DOUBLE_EQ(a.to.x, lay.square_center(last.to)->x);
    EXPECT_DOUBLE_EQ(a.to.y, lay.square_center(last.to)->y);
    // e4 -> d3: one square left and one down.
    EXPECT_DOUBLE_EQ(a.to.x - a.from.x, -lay.square);
    EXPECT_DOUBLE_EQ(a.to.y - a.from.y, lay.square);
    const auto& j = lay.arrows[1];
    EXPECT_TRUE(j.jump);
    EXPECT_TRUE(inside(j.from, *lay.board_origin(0, 6), lay));
    EXPECT_TRUE(inside(j.to, *lay.board_origin(0, 2), lay));
    EXPECT_FALSE(inside(j.to, *lay.board_origin(0, 6), lay));
}

TEST(RenderLayout, CapsTimelinesWithMoreRows) {
    const Multiverse mv = synthetic(41, 2); // ℓ -20..20
    Options          opt;
    opt.maxTimelines = 10;
    const Layout lay = fived::render::layout(mv, Scene{}, opt);
    ASSERT_EQ(lay.rows.size(), 10u);
    // The ten nearest the initial centre (ℓ 0), ties to the positive side: 5 .. -4.
    for (std::size_t i = 0; i < lay.rows.size(); ++i)
        EXPECT_EQ(lay.rows[i].l, 5 - int(i));
    ASSERT_EQ(lay.gaps.size(), 2u);
    EXPECT_EQ(lay.gaps[0].lowL, 6);
    EXPECT_EQ(lay.gaps[0].highL, 20);
    EXPECT_EQ(lay.gaps[1].lowL, -20);
    EXPECT_EQ(lay.gaps[1].highL, -5);
    EXPECT_LT(lay.gaps[0].y, lay.rows[0].y);
    EXPECT_GT(lay.gaps[1].y, lay.rows.back().y);
    const std::string svg = fived::render::svg(mv, Scene{}, opt);
    EXPECT_NE(svg.find("+15 more timelines (L 6 to 20)"), std::string::npos);
    EXPECT_NE(svg.find("+16 more timelines (L -20 to -5)"), std::string::npos);

    // An arrow's timelines are drawn first; the rest as before, around it.
    Scene scene;
    scene.arrows           = {{move(Vec4(15, 2, 0), Vec4(-18, 2, 0)), ArrowKind::LastAction}};
    const Layout withArrow = fived::render::layout(mv, scene, opt);
    ASSERT_EQ(withArrow.rows.size(), 10u);
    EXPECT_TRUE(withArrow.row_of(15) && withArrow.row_of(-18));
    EXPECT_EQ(withArrow.arrows.size(), 1u);
    EXPECT_EQ(withArrow.gaps.size(), 4u); // 16..20, 5..14, -17..-4, -20..-19
    int hidden = 0;
    for (const auto& gap : withArrow.gaps)
        hidden += gap.count();
    EXPECT_EQ(hidden, 31);

    // An arrow onto a timeline that is not drawn is dropped, not drawn to a wrong place.
    opt.maxTimelines = 1;
    const Layout one = fived::render::layout(mv, scene, opt);
    EXPECT_EQ(one.rows.size(), 1u);
    EXPECT_TRUE(one.arrows.empty());
    EXPECT_EQ(one.droppedArrows, 1);
}

TEST(RenderLayout, CapsHalfTurnsToTheLatestAndWidensToArrows) {
    const Multiverse mv = synthetic(1, 60); // v 2..61
    Options          opt;
    opt.maxHalfTurns = 20;
    const Layout lay = fived::render::layout(mv, Scene{}, opt);
    EXPECT_EQ(lay.v1, 61);
    EXPECT_EQ(lay.v0, 42);
    EXPECT_EQ(lay.hiddenEarlier, 40);
    EXPECT_NE(fived::render::svg(mv, Scene{}, opt).find("+40 earlier"), std::string::npos);
    Scene scene;
    scene.arrows      = {{move(Vec4(0, 61, 0), Vec4(0, 30, 0)), ArrowKind::Key}};
    const Layout wide = fived::render::layout(mv, scene, opt);
    EXPECT_EQ(wide.v0, 30);
    EXPECT_EQ(wide.arrows.size(), 1u);
    // ... but by at most as many columns again.
    scene.arrows        = {{move(Vec4(0, 61, 0), Vec4(0, 4, 0)), ArrowKind::Key}};
    const Layout capped = fived::render::layout(mv, scene, opt);
    EXPECT_EQ(capped.v0, 22);
    EXPECT_EQ(capped.droppedArrows, 1);
}

TEST(RenderSvg, DrawsEveryPieceKind) {
    // All twelve kinds of movegen/types.h in both colours, behind walls of pawns (no check).
    const auto            g  = load(R"([Board "custom"]
[Mode "5D"]
[Size "8x8"]
[rbud4/pwkcqysn/pppppppp/8/8/PPPPPPPP/PWKCQYSN/RBUD4:0:1:w]
)");
    const Multiverse      mv = final_position(g);
    const std::string     s  = fived::render::svg(mv, Scene{});
    std::set<std::string> paths;
    for (char c : std::string("PWKCQYSNRBUD"))
        for (char side : {'w', 'b'}) {
            const std::string id  = std::string(1, side) + c;
            const std::size_t def = s.find("<symbol id=\"" + id + "\"");
            ASSERT_NE(def, std::string::npos) << id;
            EXPECT_NE(s.find("href=\"#" + id + "\""), std::string::npos) << id;
            // Its letter: a path of its own (the same for both colours).
            const std::size_t d   = s.find("<path d=\"", def);
            const std::size_t end = s.find("</symbol>", def);
            ASSERT_LT(d, end) << id;
            paths.insert(s.substr(d, s.find('"', d + 9) - d));
        }
    EXPECT_EQ(paths.size(), 12u);
    // Royal pieces (K, Y) are ringed.
    const std::size_t king = s.find("<symbol id=\"wK\"");
    EXPECT_NE(s.substr(king, s.find("</symbol>", king) - king).find("#e8b923"), std::string::npos);
    const std::size_t queen = s.find("<symbol id=\"wQ\"");
    EXPECT_EQ(
        s.substr(queen, s.find("</symbol>", queen) - queen).find("#e8b923"), std::string::npos);
    // No external resource: no image, no style sheet import, no URL but the local fragments.
    EXPECT_EQ(s.find("<image"), std::string::npos);
    EXPECT_EQ(s.find("@import"), std::string::npos);
    EXPECT_EQ(s.find("url(http"), std::string::npos);
}

TEST(RenderSvg, ChecksAreArrowsOntoTheRoyal) {
    // 1. e3 / f6 2. Qh5: Black is in check from h5 (e8 through the empty f7, same board).
    const auto       g      = load(R"([Board "Standard"]
[Mode "5D"]

1. e3 / f6
2. Qh5
)");
    const Multiverse mv     = final_position(g);
    const auto       checks = fived::render::check_arrows(mv);
    ASSERT_FALSE(checks.empty());
    for (const Arrow& a : checks) {
        EXPECT_EQ(a.kind, ArrowKind::Check);
        ASSERT_TRUE(mv.board_exists(a.move.from.l(), a.move.from.v()));
        ASSERT_TRUE(mv.board_exists(a.move.to.l(), a.move.to.v()));
        const auto attacker = mv.board(a.move.from.l(), a.move.from.v()).piece_on(a.move.from.sq());
        const auto royal    = mv.board(a.move.to.l(), a.move.to.v()).piece_on(a.move.to.sq());
        EXPECT_EQ(
            attacker, fived::movegen::make_piece(fived::movegen::WHITE, fived::movegen::QUEEN));
        EXPECT_EQ(royal, fived::movegen::make_piece(fived::movegen::BLACK, fived::movegen::KING));
        EXPECT_EQ(a.move.to.sq(), fived::movegen::make_square(4, 7)); // e8
    }
    // Drawn: the red mark under the king and the check frame.
    const std::string s = fived::render::svg(mv, Scene{});
    EXPECT_NE(s.find("fill=\"#ff2a2a\""), std::string::npos);
    EXPECT_NE(s.find("stroke=\"#d62728\""), std::string::npos);
    // Not in check: no check arrows, no red.
    const auto       quiet = load(R"([Board "Standard"]
[Mode "5D"]

1. e3 / f6
)");
    const Multiverse calm  = final_position(quiet);
    EXPECT_TRUE(fived::render::check_arrows(calm).empty());
    EXPECT_EQ(fived::render::svg(calm, Scene{}).find("#ff2a2a"), std::string::npos);
}

TEST(RenderSvg, PresentInactiveAndLabels) {
    const auto       g  = load(RookTactics);
    const Multiverse mv = final_position(g);
    Scene            scene;
    scene.caption       = {"a <title> & more"};
    scene.lineLabel     = [](int l) { return "x" + std::to_string(l); };
    const std::string s = fived::render::svg(mv, scene);
    EXPECT_NE(s.find("a &lt;title&gt; &amp; more"), std::string::npos);
    EXPECT_NE(s.find(">Lx0<"), std::string::npos);
    EXPECT_NE(s.find(">T3<"), std::string::npos);
    EXPECT_EQ(s.find(">T4<"), std::string::npos);
    // The present band (#3b7dd8) is drawn behind the present column (white, T3).
    EXPECT_NE(s.find("fill=\"#3b7dd8\" fill-opacity=\"0.16\""), std::string::npos);
    EXPECT_EQ(s.find(">inactive<"), std::string::npos);
}

// Issue 55: caption text is valid UTF-8 XML whatever its bytes. A Latin-1 byte, a control
// character and U+FFFF become the text \xHH; valid UTF-8 stays; a caption cut for length is
// not cut inside a character.
TEST(RenderSvg, CaptionBytesAreValidXml) {
    const auto       g  = load(RookTactics);
    const Multiverse mv = final_position(g);
    Scene            scene;
    // Long lines of 2-byte characters after an even and an odd prefix: the cut for length falls
    // inside a character in one of them.
    scene.caption = {"caf\xE9 \x01"
                     "bell \xEF\xBF\xBF \xC3\xA9t\xC3\xA9",
        std::string(40, 'a'), std::string(41, 'a')};
    for (int i = 0; i < 300; ++i) {
        scene.caption[1] += "\xC3\xA9";
        scene.caption[2] += "\xC3\xA9";
    }
    const std::string s = fived::render::svg(mv, scene);
    EXPECT_NE(s.find("caf\\xE9 \\x01bell \\xEF\\xBF\\xBF \xC3\xA9t\xC3\xA9"), std::string::npos);
    // Every byte of the SVG is in a valid UTF-8 sequence and no C0 control but \t \n \r.
    for (std::size_t i = 0; i < s.size();) {
        const auto b = static_cast<unsigned char>(s[i]);
        if (b < 0x80) {
            EXPECT_TRUE(b >= 0x20 || b == '\t' || b == '\n' || b == '\r') << "byte " << i;
            ++i;
            continue;
        }
        const std::size_t n = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
        ASSERT_GE(b, 0xC2u) << "byte " << i;
        ASSERT_LE(i + n, s.size()) << "byte " << i;
        for (std::size_t k = 1; k < n; ++k)
            ASSERT_EQ(static_cast<unsigned char>(s[i + k]) & 0xC0, 0x80) << "byte " << i + k;
        i += n;
    }
}

TEST(RenderSvg, UnmovedMarksOnRequest) {
    // The standard start: 16 pawns, 2 kings and 4 rooks are flagged unmoved.
    const auto       g    = load("[Board \"Standard\"]\n[Mode \"5D\"]\n");
    const Multiverse mv   = final_position(g);
    auto             dots = [&](bool on) {
        Options opt;
        opt.unmovedMarks    = on;
        const std::string s = fived::render::svg(mv, Scene{}, opt);
        int               n = 0;
        for (std::size_t at = 0; (at = s.find("fill=\"#2bb24c\" stroke=\"#fff\"", at)) != s.npos;
             ++at)
            ++n;
        return n;
    };
    EXPECT_EQ(dots(false), 0);
    EXPECT_EQ(dots(true), 22);
}

TEST(RenderLayout, InactiveTimelinesAreShaded) {
    // White branches twice (+1, then +2) and Black never: +2 is inactive (RULES.md §4.1).
    const auto       g  = load(R"([Board "Standard"]
[Mode "5D"]

1. Nf3 / Nf6
2. (0T2)Nf3>>(0T1)f5 / (1T1)a7a6
3. (1T2)Nf5>>(0T2)h5
)");
    const Multiverse mv = final_position(g);
    ASSERT_EQ(mv.timeline_count(), 3);
    const Layout lay = fived::render::layout(mv, Scene{});
    ASSERT_EQ(lay.rows.size(), 3u);
    EXPECT_EQ(lay.rows[0].l, 2);
    EXPECT_FALSE(lay.rows[0].active);
    EXPECT_TRUE(lay.rows[1].active);
    EXPECT_TRUE(lay.rows[2].active);
    const std::string s = fived::render::svg(mv, Scene{});
    EXPECT_NE(s.find(">inactive<"), std::string::npos);
    EXPECT_NE(s.find("<g opacity=\"0.55\">"), std::string::npos);
    // The last action's jump, from (1T2)f5 to (0T2)h5, is curved and ends on (0T2).
    Scene scene;
    for (const auto& m : g.mainLine.back())
        scene.arrows.push_back({m, ArrowKind::LastAction});
    const Layout withJump = fived::render::layout(mv, scene);
    ASSERT_EQ(withJump.arrows.size(), 1u);
    EXPECT_TRUE(withJump.arrows[0].jump);
    EXPECT_TRUE(inside(withJump.arrows[0].from, *withJump.board_origin(1, 4), withJump));
    EXPECT_TRUE(inside(withJump.arrows[0].to, *withJump.board_origin(0, 4), withJump));
}

// Every occurrence of `open` in s up to the next `close`, e.g. the values of id="...".
std::vector<std::string> values_after(const std::string& s, const std::string& open, char close) {
    std::vector<std::string> out;
    for (std::size_t at = 0; (at = s.find(open, at)) != std::string::npos;) {
        at += open.size();
        out.push_back(s.substr(at, s.find(close, at) - at));
    }
    return out;
}

TEST(RenderSvg, IdPrefixOnEveryIdAndReference) {
    const auto       g  = load(RookTactics);
    const Multiverse mv = final_position(g);
    Scene            scene;
    scene.arrows = fived::render::check_arrows(mv);
    for (const auto& m : g.mainLine.back())
        scene.arrows.push_back({m, ArrowKind::Key});
    Options opt;
    opt.idPrefix           = "n12-";
    const std::string s    = fived::render::svg(mv, scene, opt);
    const auto        ids  = values_after(s, " id=\"", '"');
    const auto        refs = values_after(s, "href=\"#", '"');
    const auto        urls = values_after(s, "url(#", ')');
    ASSERT_FALSE(ids.empty());
    ASSERT_FALSE(refs.empty());
    ASSERT_FALSE(urls.empty());
    for (const auto* list : {&ids, &refs, &urls})
        for (const std::string& v : *list)
            EXPECT_EQ(v.rfind("n12-", 0), 0u) << v;
    // Without a prefix, the same picture with the prefix removed.
    std::string plain = s;
    for (std::size_t at = 0; (at = plain.find("n12-", at)) != std::string::npos;)
        plain.erase(at, 4);
    EXPECT_EQ(plain, fived::render::svg(mv, scene));
}

TEST(RenderHtml, OneFramePerNodeAndEveryTextEscaped) {
    fived::render::HtmlPage page;
    page.title   = "<script>alert(1)</script>";
    page.headers = {{"Event", "caf\xE9 & \"x\""}};
    page.summary = {"</p><p>"};
    page.tries   = {{"<i>", "</b>"}};
    page.nodes.resize(3);
    page.nodes[0].children = {1, 2};
    for (int i : {1, 2}) {
        page.nodes[std::size_t(i)].parent = 0;
        page.nodes[std::size_t(i)].number = "1w.";
        page.nodes[std::size_t(i)].action = "(0T1)K<a>";
        page.nodes[std::size_t(i)].notes  = {{fived::render::HtmlNote::Kind::Threat, "\x01<"}};
    }
    page.nodes[1].key = true;
    // A long note: cut at the last blank before 120 bytes, whole in the tooltip.
    const std::string longNote = "3 defences share this answer: " + std::string(100, 'x') + " <y>";
    page.nodes[2].notes.push_back({fived::render::HtmlNote::Kind::Comment, longNote});
    for (auto& n : page.nodes)
        n.svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg></svg>\n";
    page.initial            = 2;
    const std::string s     = fived::render::html(page);
    auto              count = [&](const std::string& what) {
        int n = 0;
        for (std::size_t at = 0; (at = s.find(what, at)) != std::string::npos; at += what.size())
            ++n;
        return n;
    };
    EXPECT_EQ(count("<script"), 1);
    EXPECT_EQ(count("&lt;script&gt;alert(1)&lt;/script&gt;"), 2); // title and h1
    EXPECT_EQ(count("caf\\xE9 &amp; &quot;x&quot;"), 1);
    EXPECT_EQ(count("&lt;/p&gt;&lt;p&gt;"), 1);
    EXPECT_EQ(count("<b>&lt;i&gt;</b>"), 1);
    EXPECT_EQ(count("<b>&lt;/b&gt;</b>"), 1);
    EXPECT_EQ(count("(0T1)K&lt;a&gt;"), 2);
    EXPECT_EQ(count("{\\x01&lt;}"), 2);
    EXPECT_EQ(
        count("<span class=\"note\" title=\"3 defences share this answer: " + std::string(100, 'x')
            + " &lt;y&gt;\">{3 defences share this answer: ...}</span>"),
        1);
    EXPECT_EQ(count("<?xml"), 0);
    EXPECT_EQ(count("<svg></svg>"), 3);
    EXPECT_EQ(count("<div class=\"frame\""), 3);
    EXPECT_EQ(count("<div class=\"frame\" id=\"f2\" data-node=\"2\">"), 1); // shown
    EXPECT_EQ(count("\" hidden>"), 2);
    EXPECT_EQ(count("class=\"mv"), 3);
    EXPECT_EQ(count("class=\"mv key\""), 1);
    EXPECT_EQ(count("<body data-current=\"2\">"), 1);
    EXPECT_EQ(count("var P = [-1,0,0];\nvar K = [[1,2],[],[]];\nvar INITIAL = 2;"), 1);
}

} // namespace
