#include "movegen/variants.h"

#include <array>

#include "movegen/text.h"

namespace fived::movegen {

namespace {

constexpr const char* StdRows = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";

#define FIVED_BOARDS(name, ...) constexpr VariantBoard name[] = {__VA_ARGS__}
FIVED_BOARDS(Standard, {0, 1, WHITE, StdRows});
FIVED_BOARDS(TurnZero, {0, 0, BLACK, StdRows}, {0, 1, WHITE, StdRows});
FIVED_BOARDS(TwoTimelines, {-1, 1, WHITE, StdRows}, {0, 1, WHITE, StdRows});
FIVED_BOARDS(DefendedPawn, {0, 1, WHITE, "rqbnkbnr/pppppppp/8/8/8/8/PPPPPPPP/RQBNKBNR"});
FIVED_BOARDS(HalfReflected, {0, 1, WHITE, "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"});
FIVED_BOARDS(Princess, {0, 1, WHITE, "rnbskbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBSKBNR"});
FIVED_BOARDS(ReversedRoyalty, {0, 1, WHITE, "rnbycbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBYCBNR"});
FIVED_BOARDS(Small, {0, 1, WHITE, "kqbnr/ppppp/5/PPPPP/KQBNR"});
FIVED_BOARDS(SmallFlipped, {0, 1, WHITE, "nbrqk/ppppp/5/PPPPP/KQRBN"});
FIVED_BOARDS(SmallCentered, {0, 1, WHITE, "rnkqr/ppppp/5/PPPPP/RQKNR"});
FIVED_BOARDS(SmallOpen, {0, 1, WHITE, "prnbk/3pp/5/PP3/KBNRP"});
FIVED_BOARDS(VerySmall, {0, 1, WHITE, "nbrk/pppp/PPPP/KRBN"});
FIVED_BOARDS(VerySmallOpen, {0, 1, WHITE, "nbrk/3p/P3/KRBN"});
FIVED_BOARDS(NoQueens, {0, 1, WHITE, "rnbknbr/ppppppp/7/7/7/PPPPPPP/RNBKNBR"});
FIVED_BOARDS(KnightsVsBishop, {0, 1, WHITE, "rbqkbr/pppppp/6/6/PPPPPP/RNQKNR"});
FIVED_BOARDS(NoBishops, {0, 1, WHITE, "rnqknr/pppppp/6/6/PPPPPP/RNQKNR"});
FIVED_BOARDS(NoKnights, {0, 1, WHITE, "rbqkbr/pppppp/6/6/PPPPPP/RBQKBR"});
FIVED_BOARDS(NoRooks, {0, 1, WHITE, "nbqkbn/pppppp/6/6/PPPPPP/NBQKBN"});
FIVED_BOARDS(SimpleSet, {0, 1, WHITE, "rnbqkr/pppppp/6/6/PPPPPP/RKQBNR"});
FIVED_BOARDS(JustKnights, {0, 1, WHITE, "n1kn1/5/5/5/1NK1N"});
FIVED_BOARDS(JustBishops, {0, 1, WHITE, "1bbk1/5/5/5/1KBB1"});
FIVED_BOARDS(JustRooks, {0, 1, WHITE, "1rk1r/5/5/5/R1KR1"});
FIVED_BOARDS(JustQueens, {0, 1, WHITE, "1q1k2/6/6/6/6/2K1Q1"});
FIVED_BOARDS(JustPawns, {0, 1, WHITE, "ppppk/5/5/5/KPPPP"});
FIVED_BOARDS(JustKings, {0, 1, WHITE, "2k/3/K2"});
FIVED_BOARDS(JustUnicorns, {0, 1, WHITE, "1u1uk/5/5/5/KU1U1"});
FIVED_BOARDS(JustDragons, {0, 1, WHITE, "2ddk/5/5/5/KDD2"});
FIVED_BOARDS(JustBrawns, {0, 1, WHITE, "wwwwk/5/5/5/KWWWW"});
FIVED_BOARDS(TimelineInvasion, {-1, 1, WHITE, "nbkrb/ppppp/5/5/PPPPP"},
    {0, 1, WHITE, "ppppp/5/5/PPPPP/NBKRB"});
FIVED_BOARDS(
    TimelineFormations, {-1, 1, WHITE, "ppppp/5/5/5/2K2"}, {0, 1, WHITE, "2k2/5/5/5/PPPPP"});
FIVED_BOARDS(TimelineTactitian, {-1, 1, WHITE, "kbnr/pppp/4/4"}, {0, 1, WHITE, "4/4/PPPP/KBNR"});
FIVED_BOARDS(
    TimelineStrategos, {-1, 1, WHITE, "nbkur/ppppp/5/5/5"}, {0, 1, WHITE, "5/5/5/PPPPP/RUKBN"});
FIVED_BOARDS(
    TimelineSkirmish, {-1, 1, WHITE, "3rk/3pp/5/BB3/NN3"}, {0, 1, WHITE, "3nn/3bb/5/PP3/KR3"});
FIVED_BOARDS(TimelineFragments, {-1, 1, BLACK, "kppp/4/4/NBRU"}, {0, 1, WHITE, "nbru/4/4/KPPP"});
FIVED_BOARDS(TimelineBattlegrounds, {-1, 1, WHITE, "rrkrr/bbqbb/ppppp/5/PPPPP"},
    {0, 1, WHITE, "nnnnn/ppppp/5/PPPPP/NNNNN"}, {1, 1, WHITE, "ppppp/5/PPPPP/BBQBB/RRKRR"});
FIVED_BOARDS(TimelineMarauders, {-1, 1, WHITE, "wrkrw/1www1/5/5/5"},
    {0, 1, WHITE, "w1w1w/5/5/5/W1W1W"}, {1, 1, WHITE, "5/5/5/1WWW1/WRKRW"});
FIVED_BOARDS(KingOfKings, {0, 1, WHITE, "cckcc/5/5/5/CCKCC"});
FIVED_BOARDS(RoyalQueenShowdown, {0, 1, WHITE, "4y1/6/6/6/6/1Y4"});
FIVED_BOARDS(Excessive, {0, 1, WHITE, "kruqdrk/rnbknbr/ppppppp/7/PPPPPPP/RNBKNBR/KRUQDRK"});
FIVED_BOARDS(GlobalWarming, {0, 1, WHITE, "1"});
FIVED_BOARDS(PracticeKnight, {0, 1, WHITE, "5n/6/6/6/6/K5"});
FIVED_BOARDS(PracticeBishop, {0, 1, WHITE, "4b1/6/6/6/6/K5"});
FIVED_BOARDS(PracticeRook, {0, 1, WHITE, "5r/6/6/6/6/K5"});
FIVED_BOARDS(PracticeQueen, {0, 1, WHITE, "4q1/6/6/6/6/K5"});
FIVED_BOARDS(PracticePawns, {0, 1, WHITE, "2ppp1/6/6/6/6/3K2"});
#undef FIVED_BOARDS

constexpr VariantDef Variants[] = {
    {"Standard", 8, 8, false, Standard},
    {"Standard - Turn Zero", 8, 8, false, TurnZero},
    {"Standard - Two Timelines", 8, 8, true, TwoTimelines},
    {"Standard - Defended Pawn", 8, 8, false, DefendedPawn},
    {"Standard - Half Reflected", 8, 8, false, HalfReflected},
    {"Standard - Princess", 8, 8, false, Princess},
    {"Standard - Reversed Royalty", 8, 8, false, ReversedRoyalty},
    {"Small", 5, 5, false, Small},
    {"Small - Flipped", 5, 5, false, SmallFlipped},
    {"Small - Centered", 5, 5, false, SmallCentered},
    {"Small - Open", 5, 5, false, SmallOpen},
    {"Very Small", 4, 4, false, VerySmall},
    {"Very Small - Open", 4, 4, false, VerySmallOpen},
    {"Simple - No Queens", 7, 7, false, NoQueens},
    {"Simple - Knights vs. Bishop", 6, 6, false, KnightsVsBishop},
    {"Simple - No Bishops", 6, 6, false, NoBishops},
    {"Simple - No Knights", 6, 6, false, NoKnights},
    {"Simple - No Rooks", 6, 6, false, NoRooks},
    {"Simple - Simple Set", 6, 6, false, SimpleSet},
    {"Focused - Just Knights", 5, 5, false, JustKnights},
    {"Focused - Just Bishops", 5, 5, false, JustBishops},
    {"Focused - Just Rooks", 5, 5, false, JustRooks},
    {"Focused - Just Queens", 6, 6, false, JustQueens},
    {"Focused - Just Pawns", 5, 5, false, JustPawns},
    {"Focused - Just Kings", 3, 3, false, JustKings},
    {"Focused - Just Unicorns", 5, 5, false, JustUnicorns},
    {"Focused - Just Dragons", 5, 5, false, JustDragons},
    {"Focused - Just Brawns", 5, 5, false, JustBrawns},
    {"Misc - Timeline Invasion", 5, 5, true, TimelineInvasion},
    {"Misc - Timeline Formations", 5, 5, true, TimelineFormations},
    {"Misc - Timeline Tactitian", 4, 4, true, TimelineTactitian},
    {"Misc - Timeline Strategos", 5, 5, true, TimelineStrategos},
    {"Misc - Timeline Skirmish", 5, 5, true, TimelineSkirmish},
    {"Misc - Timeline Fragments", 4, 4, true, TimelineFragments},
    {"Misc - Timeline Battlegrounds", 5, 5, false, TimelineBattlegrounds},
    {"Misc - Timeline Marauders", 5, 5, false, TimelineMarauders},
    {"Misc - King of Kings", 5, 5, false, KingOfKings},
    {"Misc - Royal Queen Showdown", 6, 6, false, RoyalQueenShowdown},
    {"Misc - Excessive", 7, 7, false, Excessive},
    {"Misc - Global Warming", 1, 1, false, GlobalWarming},
    {"Checkmate Practice - Knight", 6, 6, false, PracticeKnight},
    {"Checkmate Practice - Bishop", 6, 6, false, PracticeBishop},
    {"Checkmate Practice - Rook", 6, 6, false, PracticeRook},
    {"Checkmate Practice - Queen", 6, 6, false, PracticeQueen},
    {"Checkmate Practice - Pawns", 6, 6, false, PracticePawns},
};

// Older or alternative names used by sources (RULES.md §6).
struct Alias {
    const char* alias;
    const char* name;
};
constexpr Alias Aliases[] = {
    {"Turn Zero", "Standard - Turn Zero"},
    {"Two Timelines", "Standard - Two Timelines"},
    {"Misc - Small", "Small"},
    {"Misc - Timeline Battleground", "Misc - Timeline Battlegrounds"},
};

} // namespace

std::span<const VariantDef> builtin_variants() { return Variants; }

const VariantDef* find_variant(std::string_view name) {
    for (const Alias& a : Aliases)
        if (iequals(name, a.alias)) name = a.name;
    for (const VariantDef& v : Variants)
        if (iequals(name, v.name)) return &v;
    return nullptr;
}

GameRules variant_rules(const VariantDef& v) {
    GameRules r;
    r.width  = v.width;
    r.height = v.height;
    r.even   = v.even;
    return r;
}

bool setup_variant(const VariantDef& v, Multiverse& mv, std::string& err) {
    for (const VariantBoard& vb : v.boards) {
        FenGrid      grid;
        FenRowsError ferr;
        if (!parse_fen_rows(vb.rows, v.width, v.height, grid, ferr)) {
            err = std::string(v.name) + ": " + ferr.message;
            return false;
        }
        for (int s = 0; s < 64; ++s)
            if (grid.piece[s] != NO_PIECE && keeps_unmoved_flag(type_of(grid.piece[s])))
                grid.unmoved |= square_bb(s);
        if (!mv.add_initial_board(vb.l, to_v(vb.t, vb.c), grid, err)) return false;
    }
    return mv.finish_setup(err);
}

namespace {

bool same_boards(const Multiverse& a, const Multiverse& b) {
    if (a.min_l() != b.min_l() || a.max_l() != b.max_l() || a.init_min_l() != b.init_min_l()
        || a.init_max_l() != b.init_max_l())
        return false;
    for (int l = a.min_l(); l <= a.max_l(); ++l) {
        if (a.start_v(l) != b.start_v(l) || a.end_v(l) != b.end_v(l)) return false;
        for (int v = a.start_v(l); v <= a.end_v(l); ++v)
            if (!a.board(l, v).same_contents(b.board(l, v))) return false;
    }
    return true;
}

} // namespace

const VariantDef* builtin_variant_of(const Multiverse& start) {
    if (start.board_count() != start.initial_board_count()) return nullptr;
    for (const VariantDef& v : builtin_variants()) {
        if (v.width != start.width() || v.height != start.height() || v.even != start.even())
            continue;
        Multiverse  mv(start.rules());
        std::string msg;
        if (setup_variant(v, mv, msg) && same_boards(mv, start)) return &v;
    }
    return nullptr;
}

} // namespace fived::movegen
