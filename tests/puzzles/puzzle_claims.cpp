#include "tests/puzzles/puzzle_claims.h"

#include <array>

namespace fived::testutil {

namespace {

constexpr const char* M1  = "Mate-in-1";
constexpr const char* M2  = "Mate-in-2 / forced win within 3 plies";
constexpr const char* M4  = "Mate-in-4";
constexpr const char* CM  = "Checkmate / no-legal-action verdicts";
constexpr const char* SM  = "Softmate claims";
constexpr const char* ST  = "Stalemate verdicts";
constexpr const char* NM  = "Not-mate verdicts";
constexpr const char* CH  = "Check detection";
constexpr const char* CNT = "Move / action counts";
constexpr const char* OTH = "Other claims";

using enum Expect;

// clang-format off
constexpr std::array Rows{
    // --- Mate-in-1: the final position is not mate and a mating action exists.
    ClaimRow{"rook-tactics-1-5x5", M1, MateIn1, false, "(0T3)Re1e5"},
    // Black mates; the source names no move (the collector's ftxi run found 6 mating actions).
    ClaimRow{"advanced-branching-2", M1, MateIn1, false},
    ClaimRow{"brawn-tactics-1", M1, MateIn1, false},
    // The issue writes (+0T3)Qd4>(+0T1)b4#; the jump branches, so fived writes >>.
    ClaimRow{"timeline-tactitian-issue-1", M1, MateIn1, false, "(+0T3)Qd4>>(+0T1)b4"},
    ClaimRow{"narik-temporal-knight-mate", M1, MateIn1, false, "(0T2)Nb2>>x(0T1)b4"},
    // Only =N mates; =Q/=R/=B do not (checked in PuzzleClaims.UnderpromotionOnlyKnightMates).
    ClaimRow{"narik-knight-underpromotion", M1, MateIn1, false, "(0T1)Pb3b4=N"},
    ClaimRow{"std-qe2-qh5-mate-in-1", M1, MateIn1, false, "(0T3)Qe2h5"},

    // --- Longer mates need the solver; the claim implies the side to move has a legal action.
    ClaimRow{"rook-tactics-6x6-two-rooks", M2, NotMate, false},
    // 3...(1T2)Ke4>>(0T3)e4 is a non-branching jump written >> (INDEX.md): lenient.
    ClaimRow{"rook-tactics-5x5-pawn-timeline", M2, NotMate, true},
    ClaimRow{"standard-mate-1-custom8x8", M2, NotMate, false},
    ClaimRow{"underpromotion-puzzle-brawns", M2, NotMate, false},
    ClaimRow{"brawn-tactics-2", M4, NotMate, false},

    // --- Checkmate verdicts of the final position.
    ClaimRow{"tools-defended-pawn-checkmate", CM, Checkmate, false},
    ClaimRow{"tools-standard-checkmate", CM, Checkmate, false},
    ClaimRow{"tools-standard-checkmate-2", CM, Checkmate, false},
    ClaimRow{"tools-standard-checkmate-3", CM, Checkmate, false},
    ClaimRow{"tools-princess-checkmate", CM, Checkmate, false},
    // 8...(0T4)Ph6>(2T4)h6 is a double step along L by a pawn that moved 3...h6: RULES §2.3
    // allows the double step to unmoved pawns only. ftxi rejects it too; the source engine
    // (adri326) accepted it. PuzzleClaims.ReflectedCheckmateIllegalDoubleStep checks the flag.
    ClaimRow{"tools-reflected-checkmate", CM, Rejected, false, "no legal move matches `(0T4)Ph6>(2T4)h6`"},
    ClaimRow{"tools-dead-timeline", CM, Checkmate, false},
    // 9. (L1T5)Qf4>>x(L0T5)e4* marks a capture onto an empty square (INDEX.md): lenient.
    ClaimRow{"tools-standard-checkmate-4", CM, Checkmate, true},
    // The cwmtt sources say only "no legal action" (MateFlags 0); the collector's ftxi run and
    // INDEX.md's group say checkmate, and fived's verdict separates the two, so both are checked.
    ClaimRow{"cwmtt-100-timelines", CM, Checkmate, false},
    ClaimRow{"cwmtt-NP0", CM, Checkmate, false},
    ClaimRow{"cwmtt-ctp1", CM, Checkmate, false},
    ClaimRow{"cwmtt-ctp2", CM, Checkmate, false},
    ClaimRow{"cwmtt-futures", CM, Checkmate, true}, // same capture-mark error as above
    // many2 writes its moves in the "export" form (0T1)Pe2(0T1)e3 (both boards given, no jump
    // indicator), which the reader accepts.
    ClaimRow{"cwmtt-many2", CM, Checkmate, false},
    ClaimRow{"cwmtt-manyChecks", CM, Checkmate, false},
    ClaimRow{"cwmtt-silly", CM, Checkmate, false},
    ClaimRow{"cwmtt-standard", CM, Checkmate, false},
    ClaimRow{"cwmtt-tesseractMageOChicken", CM, Checkmate, false},
    ClaimRow{"cwmtt-test1", CM, Checkmate, false},
    ClaimRow{"cwmtt-wide", CM, Checkmate, false},
    ClaimRow{"std-qe2-qh5-checkmate", CM, Checkmate, false},
    ClaimRow{"js-reversed-royalty-checkmate", CM, Checkmate, false},
    ClaimRow{"tutorial-scholars-mate-checkmate", CM, Checkmate, false},
    ClaimRow{"tutorial-5d-fools-mate-past-king", CM, Checkmate, false},
    ClaimRow{"slavrick-aquababyvsandrey-6-14-2021", CM, Checkmate, false},
    ClaimRow{"slavrick-aquababyvssamet-6-12-2021", CM, Checkmate, false},
    ClaimRow{"slavrick-aquababyvswritenwrong-6-13-2021", CM, Checkmate, false},
    // Main line ends 19. Nxg6# (side-line claims are not on the main line).
    ClaimRow{"ftxi-branched-example-game", CM, Checkmate, false},

    // --- Softmate: not terminal (RULES §5.5); the softmate itself is checked by the
    // SoftmateClaims test at the marked position.
    ClaimRow{"tutorial-softmate-scholars", SM, InCheckNotMate, false},
    // Main line ends 11. (-1T4)Bc4xf7 1-0: Black is mated.
    ClaimRow{"ftxi-softmate-tree", SM, Checkmate, false},
    // The game ends by timeout with a suggested continuation: Black can move.
    ClaimRow{"notation-shad-vs-pseudoabstractmeta-softmate", SM, NotMate, false},

    // --- Stalemate.
    ClaimRow{"narik-stalemate-3x3", ST, Stalemate, false},
    ClaimRow{"tools-standard-stalemate", ST, Stalemate, false},

    // --- Not mate.
    ClaimRow{"tools-dead-timeline-2", NM, NotMate, false},
    // The 5DFEN start has White to move while Black's king on (0T1)d1 is attacked by the bishop
    // on (-1T1)d2 along y-L: RULES §5.6 (last sentence) makes such a start invalid, and the
    // reader rejects it. PuzzleClaims.TrickyNonmateWithoutStartCheck shows the claim holds (and
    // the golden count 2 of ALGORITHMS.md E.3) once that check is skipped.
    ClaimRow{"tools-tricky-nonmate", NM, Rejected, false, "the side not to move is in check"},
    ClaimRow{"tools-standard-nonmate", NM, NotMate, false},
    ClaimRow{"tools-standard-nonmate-2", NM, NotMate, false},
    ClaimRow{"tools-standard-complex", NM, NotMate, false},
    ClaimRow{"tools-standard-complex-2", NM, NotMate, false},
    ClaimRow{"cwmtt-JustKings", NM, NotMate, false},
    ClaimRow{"cwmtt-NP", NM, NotMate, false},
    ClaimRow{"cwmtt-another", NM, NotMate, false},
    ClaimRow{"cwmtt-chessin5d-illegal-move-example", NM, NotMate, false},
    ClaimRow{"cwmtt-exiledKings", NM, NotMate, false},
    ClaimRow{"cwmtt-niceAndrey", NM, NotMate, false},
    ClaimRow{"cwmtt-small", NM, NotMate, false},
    ClaimRow{"cwmtt-smallTest", NM, NotMate, false},

    // --- Check detection. The attacking move of the tools-bitboard files is checked by
    // PuzzleClaims.CheckingMoves.
    ClaimRow{"tools-standard-check", CH, InCheckNotMate, false},
    ClaimRow{"tools-bitboard-pawn-check", CH, InCheck, false},
    ClaimRow{"tools-bitboard-queen-check", CH, InCheck, false},
    ClaimRow{"tools-bitboard-rook-check", CH, InCheck, false},
    ClaimRow{"tools-bitboard-knight-check", CH, InCheck, false},
    ClaimRow{"tools-bitboard-bishop-timecheck", CH, InCheck, false},
    // Claim: in check. fived (like ftxi) finds it is checkmate, which the claim does not deny.
    ClaimRow{"tools-bitboard-unicorn-timecheck", CH, InCheck, false},
    ClaimRow{"tools-bitboard-unicorn-dimension-check", CH, InCheck, false},
    // The claim IS that the last move 4. O-O is illegal (White is in check from Bxd2):
    // PuzzleClaims.CastleOutOfCheckRejected checks the check before it.
    ClaimRow{"tools-bitboard-white-castle-illegal", CH, Rejected, false, "no legal move matches `O-O`"},
    ClaimRow{"js-check-not-mate-1", CH, InCheckNotMate, false},
    ClaimRow{"js-check-not-mate-2", CH, InCheckNotMate, false},
    ClaimRow{"js-check-not-mate-3", CH, InCheckNotMate, false},
    ClaimRow{"js-check-not-mate-qh5", CH, InCheckNotMate, false},

    // --- Counts and move sets ([ActionCounts] and PuzzleClaims.MoveSets).
    ClaimRow{"js-movecount-white-pawn", CNT, Counts, false},
    ClaimRow{"js-movecount-black-pawn", CNT, Counts, false},
    ClaimRow{"js-movecount-white-bishop", CNT, Counts, false},
    ClaimRow{"js-movecount-black-bishop", CNT, Counts, false},
    ClaimRow{"js-movecount-white-rook", CNT, Counts, false},
    ClaimRow{"js-movecount-black-rook", CNT, Counts, false},
    ClaimRow{"ftxi-count-30134", CNT, Counts, false},
    ClaimRow{"ftxi-count-55332", CNT, Counts, false},
    ClaimRow{"tools-brawns-en-passant-movegen", CNT, Counts, false},

    // --- Other claims.
    // The 5DFEN has adjacent kings with White to move, so Black's king is attacked at the start:
    // invalid by RULES §5.6, rejected by the reader (INDEX.md: the claim holds only if king
    // captures are excluded, as in the source engine).
    ClaimRow{"narik-evasion-mate", OTH, Rejected, false, "the side not to move is in check"},
    // The legal actions are the 4 king-move pairs (PuzzleClaims.DualEvasionActions).
    ClaimRow{"narik-dual-evasion", OTH, InCheckNotMate, false},
    // A best-move claim; the position must at least have legal actions.
    ClaimRow{"narik-locked-king-best-move", OTH, NotMate, false},
};
// clang-format on

} // namespace

std::span<const ClaimRow> claim_rows() { return Rows; }

const ClaimRow* find_claim(std::string_view id) {
    for (const ClaimRow& r : Rows)
        if (id == r.id) return &r;
    return nullptr;
}

} // namespace fived::testutil
