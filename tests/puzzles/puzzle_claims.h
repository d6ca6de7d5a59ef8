#pragma once
// The claims of ../shared/puzzles as expectations: one row per file of the folder, written by hand
// from the file's [Kind]/[Claim] headers and its INDEX.md group. The prose is read here, once, not
// at run time. puzzle_claims_test.cpp checks that every file of the folder has exactly one row.

#include <span>
#include <string_view>

namespace fived::testutil {

enum class Expect {
    Checkmate,      // final position: no legal action and in check (RULES §5.5)
    Stalemate,      // final position: no legal action, not in check
    NotMate,        // final position: the side to move has a legal action
    InCheckNotMate, // final position: in check (§5.4) and a legal action exists
    InCheck,        // final position: in check; the source says nothing about mate
    MateIn1,        // final position: not mate, and some legal action checkmates
    Counts,         // only counts / move sets (the [ActionCounts] header, the move-set table)
    Rejected,       // the reader rejects the file; the reason is the row's comment
};

struct ClaimRow {
    const char* id;      // file name without .5dpgn
    const char* group;   // INDEX.md group
    Expect      expect;  // what the claim says about the final position
    bool        lenient; // INDEX.md: known spelling error, read with ReadOptions{false, false}
    // Rejected: a substring of the reader's diagnostic. MateIn1: a mating move the source names,
    // in fived's full notation ("" when the source names none).
    const char* detail = "";
};

std::span<const ClaimRow> claim_rows();
const ClaimRow*           find_claim(std::string_view id);

} // namespace fived::testutil
