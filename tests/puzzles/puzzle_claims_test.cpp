// The claims of the puzzles (tests/data/puzzles, and for the tests named Shared* the GPL/AGPL
// files left in ../shared/puzzles) that are not per-position numbers: the claims table itself
// (puzzle_claims.cpp) against the folder, [ToMove], files the reader rejects and why, mate-in-1
// claims, checking moves, exact move sets, the dual-evasion action set and softmates. The
// final-position verdicts of the table are checked with the other per-position numbers in
// puzzle_positions_test.cpp.

#include <algorithm>
#include <set>

#include <gtest/gtest.h>

#include "movegen/actions.h"
#include "movegen/movegen.h"
#include "tests/puzzles/puzzle_claims.h"
#include "tests/puzzles/puzzle_util.h"

namespace fived::testutil {
namespace {

using movegen::Move;
using movegen::Multiverse;

fs::path file_of(const std::string& id) { return puzzle_file(id); }

std::string sanitize(std::string s) {
    for (char& c : s)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return s;
}

// The final position of a puzzle file that must load (ASSERT in the caller).
Loaded load_puzzle(const std::string& id) {
    const ClaimRow* row = find_claim(id);
    return load_text(read_file(file_of(id)), id + ".5dpgn", row && row->lenient);
}

Multiverse final_position(const notation::LoadedGame& g) {
    Multiverse                     mv = g.start.fork();
    std::vector<movegen::MoveUndo> undo;
    notation::play_main_line(mv, g, g.mainLine.size(), undo);
    return mv;
}

std::vector<std::string> ids_where(bool (*pred)(const ClaimRow&)) {
    std::vector<std::string> ids;
    for (const ClaimRow& r : claim_rows())
        if (pred(r)) ids.push_back(r.id);
    return ids;
}

std::string param_name(const testing::TestParamInfo<std::string>& i) { return sanitize(i.param); }

// --- The table covers the folder -------------------------------------------------------------

// ../shared/puzzles is the reference: tests/data/puzzles and tests/data/shared-files.txt together
// name exactly its files (SharedTestData in puzzle_positions_test.cpp), and the table has one
// row per file.
TEST(SharedPuzzleClaims, EveryFileHasExactlyOneRow) {
    std::set<std::string> files;
    for (const auto& e : fs::directory_iterator(testdata::SharedDir / "puzzles"))
        if (e.is_regular_file() && e.path().extension() == ".5dpgn")
            files.insert(e.path().stem().string());
    std::set<std::string> rows;
    for (const ClaimRow& r : claim_rows()) {
        EXPECT_TRUE(rows.insert(r.id).second) << "two rows for " << r.id;
        EXPECT_TRUE(files.count(r.id)) << "row without a file: " << r.id;
    }
    for (const std::string& f : files)
        EXPECT_TRUE(rows.count(f)) << "file without a row (read its claim, add one): " << f;
}

// [ToMove] is the side to move after the last move of the file: the files of tests/data
// (shared = false) or those left in ../shared. Returns how many were checked.
int check_to_move_headers(bool shared) {
    int checked = 0;
    for (const ClaimRow& r : claim_rows()) {
        if (r.expect == Expect::Rejected || is_shared_only(r.id) != shared) continue;
        const std::string text = read_file(file_of(r.id));
        const auto        side = header_value(text, "ToMove");
        if (!side || (*side != "white" && *side != "black")) continue; // game trees
        const Loaded l = load_puzzle(r.id);
        EXPECT_TRUE(l.game) << l.err.to_string();
        if (!l.game) continue;
        const Multiverse mv       = final_position(*l.game);
        const char*      expected = side->c_str();
        // The collector's header gives the side to move at the softmate (after 22w), but the file
        // goes on with 23. (-4T10)Bxd2, so Black moves after the last move.
        if (std::string(r.id) == "notation-shad-vs-pseudoabstractmeta-softmate") expected = "black";
        EXPECT_EQ(mv.to_move() == movegen::WHITE ? "white" : "black", std::string(expected))
            << r.id;
        ++checked;
    }
    return checked;
}

TEST(PuzzleClaims, ToMoveHeaders) { EXPECT_GT(check_to_move_headers(false), 30); }

TEST(SharedPuzzleClaims, ToMoveHeaders) { EXPECT_GT(check_to_move_headers(true), 30); }

// --- Files the reader rejects ----------------------------------------------------------------

class RejectedFiles : public testing::TestWithParam<std::string> { };

TEST_P(RejectedFiles, ReaderRejectsForTheDocumentedReason) {
    const ClaimRow*   row  = find_claim(GetParam());
    const std::string text = read_file(file_of(row->id));
    for (bool lenient : {false, true}) {
        const Loaded l = load_text(text, std::string(row->id) + ".5dpgn", lenient);
        ASSERT_FALSE(l.game) << row->id << " loads (lenient=" << lenient << ")";
        EXPECT_NE(l.err.to_string().find(row->detail), std::string::npos)
            << row->id << ": " << l.err.to_string();
    }
}

INSTANTIATE_TEST_SUITE_P(Data, RejectedFiles, testing::ValuesIn(ids_where([](const ClaimRow& r) {
    return r.expect == Expect::Rejected && !is_shared_only(r.id);
})),
    param_name);
INSTANTIATE_TEST_SUITE_P(Shared, RejectedFiles, testing::ValuesIn(ids_where([](const ClaimRow& r) {
    return r.expect == Expect::Rejected && is_shared_only(r.id);
})),
    param_name);

// The claim of white-castle-illegal: before 4. O-O White is in check from the bishop on d2, so
// castling is illegal (RULES §2.4) and the reader must reject exactly that move.
TEST(PuzzleClaims, CastleOutOfCheckRejected) {
    const std::string id = "tools-bitboard-white-castle-illegal";
    const Prefix      p  = load_prefix(read_file(file_of(id)), id, false, true);
    ASSERT_TRUE(p.game) << p.err.to_string();
    ASSERT_FALSE(p.complete);
    EXPECT_EQ(p.game->mainLine.size(), 6u) << "rejected at action 4w";
    Multiverse mv = final_position(*p.game);
    EXPECT_TRUE(movegen::in_check_at_turn_start(mv));
}

// tools-reflected-checkmate: 8...(0T4)Ph6>(2T4)h6 moves a pawn two timelines forward. RULES §2.3
// allows that double step only to an unmoved pawn, and this pawn played 3...h7-h6.
TEST(PuzzleClaims, ReflectedCheckmateIllegalDoubleStep) {
    const std::string id = "tools-reflected-checkmate";
    const Prefix      p  = load_prefix(read_file(file_of(id)), id, false, true);
    ASSERT_TRUE(p.game) << p.err.to_string();
    ASSERT_FALSE(p.complete);
    ASSERT_EQ(p.game->mainLine.size(), 15u) << "rejected in action 8b";
    Multiverse            mv = final_position(*p.game);
    const int             v  = movegen::to_v(4, movegen::BLACK);
    const movegen::Board* b  = mv.board_if(0, v);
    ASSERT_NE(b, nullptr);
    ASSERT_EQ(mv.end_v(0), v) << "(0T4b) is the last board of timeline 0";
    const int h6 = movegen::make_square(7, 5);
    EXPECT_EQ(b->piece_on(h6), movegen::make_piece(movegen::BLACK, movegen::PAWN));
    EXPECT_FALSE(b->unmoved & movegen::square_bb(h6)) << "the pawn on h6 has moved";
    // The single step along L exists (timeline 1 has a board at T4b), the double step does not.
    std::vector<Move> moves;
    movegen::generate_board_moves(mv, 0, moves);
    bool single = false, twice = false;
    for (const Move& m : moves)
        if (m.from.sq() == h6 && m.to.sq() == h6 && m.to.v() == v) {
            single = single || m.to.l() == 1;
            twice  = twice || m.to.l() == 2;
        }
    EXPECT_TRUE(single);
    EXPECT_FALSE(twice);
}

// tools-tricky-nonmate: rejected for its start (see the table). Without that check the claim
// holds, with the 2 legal actions both 5dchess-tools and ftxi count (ALGORITHMS.md E.3).
TEST(PuzzleClaims, TrickyNonmateWithoutStartCheck) {
    const std::string id = "tools-tricky-nonmate";
    const Prefix      p  = load_prefix(read_file(file_of(id)), id, false, false);
    ASSERT_TRUE(p.game && p.complete) << p.err.to_string();
    Multiverse mv = final_position(*p.game);
    EXPECT_EQ(mv.to_move(), movegen::BLACK);
    EXPECT_EQ(movegen::count_legal_actions(mv), 2u);
    EXPECT_EQ(movegen::verdict(mv), movegen::Verdict::Ongoing);
}

// --- Mate in one -----------------------------------------------------------------------------

struct MateCount {
    std::uint64_t            actions = 0, mating = 0;
    std::vector<std::string> matingMoves; // every move of every mating action, full notation
};

MateCount count_mates(Multiverse& mv) {
    MateCount             r;
    Multiverse            printer = mv.fork();
    movegen::ActionSearch search(mv);
    search.for_each([&](std::span<const Move> action) {
        ++r.actions;
        if (movegen::verdict(mv) == movegen::Verdict::Checkmate) {
            ++r.mating;
            for (const Move& m : action)
                r.matingMoves.push_back(notation::format_move(printer, m));
        }
        return true;
    });
    return r;
}

class MateInOne : public testing::TestWithParam<std::string> { };

TEST_P(MateInOne, AMatingActionExists) {
    const ClaimRow* row = find_claim(GetParam());
    const Loaded    l   = load_puzzle(row->id);
    ASSERT_TRUE(l.game) << l.err.to_string();
    Multiverse      mv = final_position(*l.game);
    const MateCount mc = count_mates(mv);
    EXPECT_GE(mc.mating, 1u) << row->id << ": no mating action among " << mc.actions;
    if (*row->detail) {
        EXPECT_NE(std::find(mc.matingMoves.begin(), mc.matingMoves.end(), row->detail),
            mc.matingMoves.end())
            << row->id << ": " << row->detail << " is not part of a mating action";
    }
    std::printf("  %s: %llu mating of %llu legal actions\n", row->id,
        static_cast<unsigned long long>(mc.mating), static_cast<unsigned long long>(mc.actions));
}

INSTANTIATE_TEST_SUITE_P(Data, MateInOne, testing::ValuesIn(ids_where([](const ClaimRow& r) {
    return r.expect == Expect::MateIn1 && !is_shared_only(r.id);
})),
    param_name);
INSTANTIATE_TEST_SUITE_P(Shared, MateInOne, testing::ValuesIn(ids_where([](const ClaimRow& r) {
    return r.expect == Expect::MateIn1 && is_shared_only(r.id);
})),
    param_name);

// narik-knight-underpromotion: only b3-b4=N mates; =Q, =R and =B allow replies.
TEST(SharedPuzzleClaims, UnderpromotionOnlyKnightMates) {
    const Loaded l = load_puzzle("narik-knight-underpromotion");
    ASSERT_TRUE(l.game) << l.err.to_string();
    Multiverse      mv = final_position(*l.game);
    const MateCount mc = count_mates(mv);
    for (const char* m : {"(0T1)Pb3b4=Q", "(0T1)Pb3b4=R", "(0T1)Pb3b4=B"})
        EXPECT_EQ(std::count(mc.matingMoves.begin(), mc.matingMoves.end(), m), 0) << m;
    EXPECT_EQ(std::count(mc.matingMoves.begin(), mc.matingMoves.end(), "(0T1)Pb3b4=N"), 1);
}

// --- Checking moves --------------------------------------------------------------------------

// The attack of a tools-bitboard claim, in adri326's coordinates (l, half-turn t, x, y) with
// t = 0 for T1 white, i.e. fived's v = t + 2 (v = 2T + colour).
struct CheckingMove {
    const char* id;
    int         l1, t1, x1, y1, l2, t2, x2, y2;
    bool        beforeLastAction; // the claim is about the position before the rejected move
};

// clang-format off
constexpr CheckingMove CheckingMoves[] = {
    {"tools-bitboard-pawn-check",              0, 9, 5, 1,  0, 9, 4, 0, false},
    {"tools-bitboard-queen-check",             0, 5, 7, 3,  0, 5, 4, 0, false},
    {"tools-bitboard-rook-check",              0, 7, 4, 5,  0, 7, 4, 0, false},
    {"tools-bitboard-knight-check",            0, 7, 5, 2,  0, 7, 4, 0, false},
    {"tools-bitboard-bishop-timecheck",        0, 11, 4, 5, 0, 1, 4, 0, false},
    {"tools-bitboard-unicorn-timecheck",       0, 9, 0, 4,  0, 1, 4, 0, false},
    {"tools-bitboard-unicorn-dimension-check", -1, 7, 7, 3, 2, 7, 4, 0, false},
    {"tools-bitboard-white-castle-illegal",    0, 7, 3, 1,  0, 7, 4, 0, true},
};
// clang-format on

TEST(PuzzleClaims, CheckingMoves) {
    for (const CheckingMove& c : CheckingMoves) {
        const Prefix p = load_prefix(read_file(file_of(c.id)), c.id, false, true);
        ASSERT_TRUE(p.game) << p.err.to_string();
        ASSERT_EQ(p.complete, !c.beforeLastAction) << c.id << ": " << p.err.to_string();
        Multiverse mv = final_position(*p.game);
        // Pass the mandatory boards (RULES §5.4), then list the attacks on the mover's royals.
        const int                      present = mv.present_v();
        std::vector<movegen::MoveUndo> undo;
        undo.reserve(64);
        for (int l = mv.active_min_l(); l <= mv.active_max_l(); ++l)
            if (mv.end_v(l) == present) {
                undo.emplace_back();
                mv.make_pass(l, undo.back());
            }
        std::vector<Move> attacks;
        movegen::royal_attacks(mv, movegen::Color(present & 1), attacks);
        const movegen::Vec4 from(c.l1, c.t1 + 2, movegen::make_square(c.x1, c.y1));
        const movegen::Vec4 to(c.l2, c.t2 + 2, movegen::make_square(c.x2, c.y2));
        bool                found = false;
        for (const Move& m : attacks)
            found = found || (m.from == from && m.to == to);
        EXPECT_TRUE(found) << c.id << ": the claimed attack is not among fived's " << attacks.size()
                           << " attacks on the royal pieces";
        while (!undo.empty()) {
            mv.unmake_move(undo.back());
            undo.pop_back();
        }
    }
}

// --- Move sets -------------------------------------------------------------------------------

// 5d-chess-js moves.test.js: the number of single moves of the side to move, moves that must be
// generated and moves that must not, as the test writes them (shortened notation, resolved by
// fived's reader against the position).
struct MoveSet {
    const char*              id;
    std::size_t              moves;
    std::vector<const char*> include, exclude;
};

const std::vector<MoveSet>& move_sets() {
    static const std::vector<MoveSet> sets{
        {"js-movecount-white-pawn", 8,
            {"c4", "xb4", "xd4", "c5=Q", "(0T2)Pc3>>(-1T2)c3", "(0T2)Pc3>>(-2T2)c3",
                "(0T2)Pc3>x(-1T3)c3", "(0T2)Pc3>>x(-1T1)c3"},
            {}},
        {"js-movecount-black-pawn", 8,
            {"c2", "xb2", "xd2", "c1=Q", "(0T2)Pc3>>(1T2)c3", "(0T2)Pc3>>(2T2)c3",
                "(0T2)Pc3>x(1T3)c3", "(0T2)Pc3>>x(1T1)c3"},
            {}},
        {"js-movecount-white-bishop", 20,
            {"(0T2)Ba1", "(0T2)Bb2>>(0T1)b1", "(0T2)Bb2>>(-1T2)b1", "(0T2)Bb2>>(0T1)a2",
                "(0T2)Bb2>>(-1T2)a2", "(0T2)Bb2>>(-1T1)b2"},
            {"(0T2)Bb1", "(0T2)Ba2", "(0T2)Bb2>>(0T1)b2", "(0T2)Bb2>>(-1T2)b2", "(0T2)Bb2>>(0T1)a1",
                "(0T2)Bb2>>(-1T2)a1", "(0T2)Bb2>>(-1T1)b1", "(0T2)Bb2>>(-1T1)a2",
                "(0T2)Bb2>>(-1T1)a1"}},
        {"js-movecount-black-bishop", 20,
            {"(0T2)Ba1", "(0T2)Bb2>>(0T1)b1", "(0T2)Bb2>>(-1T2)b1", "(0T2)Bb2>>(0T1)a2",
                "(0T2)Bb2>>(-1T2)a2", "(0T2)Bb2>>(-1T1)b2"},
            {"(0T2)Bb1", "(0T2)Ba2", "(0T2)Bb2>>(0T1)b2", "(0T2)Bb2>>(-1T2)b2", "(0T2)Bb2>>(0T1)a1",
                "(0T2)Bb2>>(-1T2)a1", "(0T2)Bb2>>(-1T1)b1", "(0T2)Bb2>>(-1T1)a2",
                "(0T2)Bb2>>(-1T1)a1"}},
        {"js-movecount-white-rook", 7,
            {"(0T2)Rb1", "(0T2)Ra2", "(0T2)Rb2>>(0T1)b2", "(0T2)Rb2>>(-1T2)b2"},
            {"(0T2)Ra1", "(0T2)Rb2>>(0T1)b1", "(0T2)Rb2>>(-1T2)b1", "(0T2)Rb2>>(0T1)a2",
                "(0T2)Rb2>>(-1T2)a2", "(0T2)Rb2>>(-1T1)b2", "(0T2)Rb2>>(0T1)a1",
                "(0T2)Rb2>>(-1T2)a1", "(0T2)Rb2>>(-1T1)b1", "(0T2)Rb2>>(-1T1)a2",
                "(0T2)Rb2>>(-1T1)a1"}},
        {"js-movecount-black-rook", 7,
            {"(0T2)Rb1", "(0T2)Ra2", "(0T2)Rb2>>(0T1)b2", "(0T2)Rb2>>(-1T2)b2"},
            {"(0T2)Ra1", "(0T2)Rb2>>(0T1)b1", "(0T2)Rb2>>(-1T2)b1", "(0T2)Rb2>>(0T1)a2",
                "(0T2)Rb2>>(-1T2)a2", "(0T2)Rb2>>(-1T1)b2", "(0T2)Rb2>>(0T1)a1",
                "(0T2)Rb2>>(-1T2)a1", "(0T2)Rb2>>(-1T1)b1", "(0T2)Rb2>>(-1T1)a2",
                "(0T2)Rb2>>(-1T1)a1"}},
    };
    return sets;
}

TEST(SharedPuzzleClaims, MoveSets) {
    for (const MoveSet& s : move_sets()) {
        const std::string text = read_file(file_of(s.id));
        const Loaded      l    = load_text(text, s.id, false);
        ASSERT_TRUE(l.game) << l.err.to_string();
        Multiverse        mv = final_position(*l.game);
        std::vector<Move> moves;
        movegen::generate_moves(mv, mv.to_move(), moves);
        EXPECT_EQ(moves.size(), s.moves) << s.id;
        // Each listed move is played as the file's next action: it must resolve (include) or
        // fail to match any move (exclude).
        const std::string serial = mv.to_move() == movegen::WHITE ? "\n1. " : "\n1b. ";
        for (const char* m : s.include) {
            const Loaded r = load_text(text + serial + m + "\n", s.id, false);
            EXPECT_TRUE(r.game) << s.id << ": " << m << " missing: " << r.err.to_string();
        }
        for (const char* m : s.exclude) {
            const Loaded r = load_text(text + serial + m + "\n", s.id, false);
            EXPECT_FALSE(r.game) << s.id << ": " << m << " should not be generated";
            if (!r.game) {
                EXPECT_NE(r.err.cause.find("no legal move matches"), std::string::npos)
                    << r.err.to_string();
            }
        }
    }
}

// tools-brawns-en-passant-movegen: the physical moves of the brawns on c3, d1 and e3 are exactly
// the listed ones (c3xb4 is en passant of the brawn that went b5-b3), and after c3xb4 the
// brawn stands on b4 with b3 and b5 empty. (ftxi disputes this: RULES §7 #1 and #3.)
TEST(PuzzleClaims, BrawnEnPassantMoveSets) {
    const Loaded l = load_puzzle("tools-brawns-en-passant-movegen");
    ASSERT_TRUE(l.game) << l.err.to_string();
    Multiverse        mv = final_position(*l.game);
    std::vector<Move> moves;
    movegen::generate_moves(mv, mv.to_move(), moves);
    auto sq       = [](const char* s) { return movegen::make_square(s[0] - 'a', s[1] - '1'); };
    auto physical = [&](const char* from) {
        std::set<std::string> out;
        for (const Move& m : moves)
            if (m.is_physical() && m.from.sq() == sq(from))
                out.insert(std::string(1, char('a' + m.to.x())) + char('1' + m.to.y()));
        return out;
    };
    EXPECT_EQ(physical("c3"), (std::set<std::string>{"b4", "c4"}));
    EXPECT_EQ(physical("d1"), (std::set<std::string>{"d2", "d3"}));
    EXPECT_EQ(physical("e3"), (std::set<std::string>{"e4"}));
    const Move* ep = nullptr;
    for (const Move& m : moves)
        if (m.is_physical() && m.from.sq() == sq("c3") && m.to.sq() == sq("b4")) ep = &m;
    ASSERT_NE(ep, nullptr);
    EXPECT_TRUE(ep->flags & movegen::MF_ENPASSANT);
    movegen::MoveUndo u;
    mv.make_move(*ep, u);
    const movegen::Board& after = mv.tip(ep->from.l());
    EXPECT_EQ(after.piece_on(sq("b4")), movegen::make_piece(movegen::WHITE, movegen::BRAWN));
    EXPECT_TRUE(after.empty(sq("b3")));
    EXPECT_TRUE(after.empty(sq("b5")));
    mv.unmake_move(u);
}

// narik-dual-evasion: exactly the 4 combinations of Ka1-b1 / Ka1-b2 on timelines 0 and 1.
TEST(SharedPuzzleClaims, DualEvasionActions) {
    const Loaded l = load_puzzle("narik-dual-evasion");
    ASSERT_TRUE(l.game) << l.err.to_string();
    Multiverse                      mv = final_position(*l.game);
    std::set<std::set<std::string>> actions;
    movegen::ActionSearch           search(mv);
    search.for_each([&](std::span<const Move> a) {
        std::set<std::string> s;
        for (const Move& m : a) {
            EXPECT_TRUE(m.is_physical());
            s.insert(std::to_string(m.from.l()) + ":" + char('a' + m.from.x())
                + char('1' + m.from.y()) + char('a' + m.to.x()) + char('1' + m.to.y()));
        }
        actions.insert(s);
        return true;
    });
    std::set<std::set<std::string>> expected;
    for (const char* a : {"a1b1", "a1b2"})
        for (const char* b : {"a1b1", "a1b2"})
            expected.insert({std::string("0:") + a, std::string("1:") + b});
    EXPECT_EQ(actions, expected);
}

// --- Softmates -------------------------------------------------------------------------------

// RULES §5.5: in check, legal actions exist, and every legal action moves the present into the
// past (it creates an active timeline that starts before the present).
struct Softmate {
    const char* id;
    std::size_t k; // actions played
    const char* where;
    // The legal actions that do not move the present back, in fived's notation: the claim says
    // none; a non-empty entry is a disagreement with the claim, explained at the entry.
    std::vector<std::string> escapes;
};

const std::vector<Softmate>& softmates() {
    static const std::vector<Softmate> table{
        // DISAGREEMENT with the tutorial's claim ("the only valid actions move the present into
        // the past"): the bishop on (0T5)f8 takes the checking queen on (1T5)f7 along the y-L
        // diagonal (RULES §2.2; both T5 black boards are last, so the jump does not branch,
        // §3.2) and the present stays at T5. 5d-chess-js (../shared/oracle, exact `actions`)
        // lists the same 25 actions, this one included. Softmate does not hold here.
        {"tutorial-softmate-scholars", 11, "final position", {"(0T5)Bf8>x(1T5)f7"}},
        {"ftxi-softmate-tree", 15, "after 8. (1T4)Qh5*", {}},
        // After 22. (3T11)Qg7g6*! (-3T11)Qh5+. (The annotation "one of the two legal moves"
        // after Black's reply is not a count of legal actions: fived finds 250, all rewinding.)
        {"notation-shad-vs-pseudoabstractmeta-softmate", 43, "after 22w", {}},
    };
    return table;
}

// The softmates of the files of tests/data (shared = false) or of those left in ../shared.
void check_softmates(bool shared) {
    for (const Softmate& s : softmates()) {
        if (is_shared_only(s.id) != shared) continue;
        const Loaded l = load_puzzle(s.id);
        ASSERT_TRUE(l.game) << l.err.to_string();
        ASSERT_LE(s.k, l.game->mainLine.size());
        Walker      w(*l.game);
        Multiverse& mv = w.at(s.k);
        EXPECT_TRUE(movegen::in_check_at_turn_start(mv)) << s.id << " " << s.where;
        const int                present = mv.present_v();
        Multiverse               printer = mv.fork();
        std::uint64_t            n       = 0;
        std::vector<std::string> escapes;
        movegen::ActionSearch    search(mv);
        search.for_each([&](std::span<const Move> a) {
            ++n;
            if (mv.present_v() >= present) escapes.push_back(notation::format_action(printer, a));
            return true;
        });
        EXPECT_GT(n, 0u) << s.id << " " << s.where;
        EXPECT_EQ(escapes, s.escapes)
            << s.id << " " << s.where << ": legal actions that keep the present";
        std::printf("  %s %s: %llu legal actions, %zu keep the present\n", s.id, s.where,
            static_cast<unsigned long long>(n), escapes.size());
    }
}

TEST(PuzzleClaims, Softmates) { check_softmates(false); }

TEST(SharedPuzzleClaims, Softmates) { check_softmates(true); }

} // namespace
} // namespace fived::testutil
