#pragma once
// What the differential tests against 5d-chess-js share (oracle_diff_test.cpp, the record files;
// oracle_sets_test.cpp, the legal-action sets): the data folders, moves as tuples and the
// oracle's notation, and the classifiers of the documented 5d-chess-js bugs (RULES §7).
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "movegen/multiverse.h"

namespace fived::oracletest {

namespace fs = std::filesystem;

inline const fs::path OracleDir = fs::path(FIVED_TEST_DATA_DIR) / "oracle";
inline const fs::path SetsDir   = fs::path(FIVED_TEST_DATA_DIR) / "oracle_sets";

// A move as a tuple; promotion 0 = none.
struct MoveKey {
    int  l1, v1, s1, l2, v2, s2;
    char promo;
    auto operator<=>(const MoveKey&) const = default;
};

MoveKey     key_of(const movegen::Move& m);
std::string key_text(const MoveKey& k);

// Parses one of the oracle's moves (scripts/oracle/README.md, "Move notation"). The boards are
// of the mover's colour `c`.
std::optional<MoveKey> parse_oracle_move(const std::string& s, bool even, movegen::Color c);

// --- Classifiers of documented 5d-chess-js bugs (RULES §7) --------------------------------------

enum Category {
    EnPassantMissingInOracle, // §7 #3: a legal e.p. (RULES §2.5) that 5d-chess-js does not list
    CastlingGeometry,         // §7 #4: castling allowed by one side's geometry only
    PromotionChoice,          // §7 #11: the same move with a different promotion set
    // Not a 5d-chess-js bug but one of the harness (../shared/oracle/oracle.js checksFast keeps
    // only moves of length 2, so a pawn or brawn capture that promotes is never a check): a royal
    // attacked only by such captures. Its games then contain actions that are illegal by RULES
    // §5.2 (the record cannot be loaded), its `check` is false, and its action count includes
    // actions that leave a royal to such a capture.
    HarnessPromotionCheck,
    CategoryCount
};
inline constexpr const char* CategoryName[CategoryCount] = {
    "en passant missing in 5d-chess-js (RULES §7 #3)",
    "castling geometry (RULES §7 #4)",
    "promotion choices (RULES §7 #11)",
    "oracle harness misses checks by promoting captures (oracle.js checksFast)",
};

// RULES §2.5, checked on the boards, independently of the move generator.
bool is_rules_en_passant(const movegen::Multiverse& mv, const movegen::Move& m);
// A physical two-file king move from an unmoved king on its own rank (either side's castling).
bool is_castling_shape(const movegen::Multiverse& mv, const MoveKey& k);
// Step 2 of both comparisons: "in check at the start of the turn" (RULES §5.4) against the
// oracle's flag. A difference the harness's bug explains (HarnessPromotionCheck) is counted in
// `allowed`, any other fails; returns whether it was the harness's.
bool compare_check(movegen::Multiverse& mv, bool oracleCheck, int (&allowed)[CategoryCount]);
// A record whose game fived rejects: replays the main line up to the rejected action, makes that
// action's moves, and says whether its only fault is a royal left to promoting captures.
bool rejected_for_promoting_check(const std::string& pgn, const std::string& name);
// Can a promoting capture reach a royal of the mover? True when some board holds a royal of the
// mover on the opponent's promotion rank and some board (any, history included: branching jumps
// copy historical boards) holds an opponent pawn or brawn one step before that rank.
bool promoting_capture_possible(const movegen::Multiverse& mv);

// The stems of the .txt files of `dir`, sorted. None (a missing folder) leaves the suite with no
// test, which GoogleTest reports as a failure (UninstantiatedParameterizedTestSuite), and the
// Size tests fail: the data is in the repository.
std::vector<std::string> data_files(const fs::path& dir = OracleDir);

} // namespace fived::oracletest
