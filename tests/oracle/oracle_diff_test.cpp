// Differential test against 5d-chess-js answers stored in tests/data/oracle/*.txt (format:
// scripts/oracle/README.md). For every record: load its 5DPGN with fived's reader, then compare
//
//  * the side to move;
//  * the pseudo-legal single moves of the side to move, as sets of tuples
//    (from ℓ,v,x,y -> to ℓ,v,x,y, promotion), the oracle's notation parsed here independently of
//    fived's reader;
//  * "in check" (RULES §5.4) with in_check_at_turn_start();
//  * the number of legal actions, when the record has one.
//
// A difference is allowed only when a classifier below recognises it as one of the documented
// 5d-chess-js bugs (RULES §7) from the position itself; each category is counted and printed.
// Every other difference fails with the record id.
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <set>

#include <gtest/gtest.h>

#include "movegen/actions.h"
#include "movegen/movegen.h"
#include "notation/game.h"
#include "tests/oracle/oracle_util.h"

namespace fived {
namespace {

using movegen::Move;
using movegen::Multiverse;
using namespace oracletest;

struct Record {
    std::string              id, pgn, toMove;
    bool                     check = false;
    std::optional<long long> actions;
    std::vector<std::string> moves;
    int                      line = 0; // of the `===` line
};

// Reads one data file; `error` describes the first format problem.
std::vector<Record> read_records(const fs::path& p, std::string& error) {
    std::vector<Record> out;
    std::ifstream       in(p);
    std::string         line;
    int                 n = 0;
    Record*             r = nullptr;
    enum {
        NONE,
        PGN,
        MOVES
    } state               = NONE;
    std::size_t movesLeft = 0;
    auto        fail      = [&](const std::string& why) {
        if (error.empty()) error = p.filename().string() + ":" + std::to_string(n) + ": " + why;
    };
    while (std::getline(in, line)) {
        ++n;
        if (state == MOVES && movesLeft > 0) {
            r->moves.push_back(line);
            --movesLeft;
            continue;
        }
        if (line.rfind("=== ", 0) == 0) {
            out.push_back(Record{line.substr(4), "", "", false, std::nullopt, {}, n});
            r     = &out.back();
            state = PGN;
        } else if (!r || state == NONE) {
            if (!line.empty() && line[0] != '#') fail("text outside a record");
        } else if (line.rfind("--- tomove ", 0) == 0) {
            r->toMove = line.substr(11);
        } else if (line.rfind("--- check ", 0) == 0) {
            r->check = line.substr(10) == "true";
        } else if (line.rfind("--- actions ", 0) == 0) {
            const std::string v = line.substr(12);
            if (v != "skip") r->actions = std::stoll(v);
        } else if (line.rfind("--- moves ", 0) == 0) {
            movesLeft = std::stoul(line.substr(10));
            state     = MOVES;
        } else if (line == "--- end") {
            if (movesLeft) fail("record " + r->id + " has fewer moves than announced");
            state = NONE;
        } else if (state == PGN) {
            r->pgn += line + "\n";
        } else {
            fail("unexpected line in record " + r->id);
        }
    }
    return out;
}

struct GroupStats {
    int records = 0, moveSets = 0, checks = 0, actionCounts = 0, mergedActions = 0;
    int countsNotComparable = 0, actionsWithoutAllowedMoves = 0;
    int allowed[CategoryCount]{};
};

// The moves only one side lists (onlyOurs: fived's, onlyTheirs: the oracle's) that no classifier
// of a documented 5d-chess-js bug explains; those it explains are counted in st.allowed.
std::vector<MoveKey> unexplained_moves(const Multiverse& mv,
    const std::map<MoveKey, const Move*>& ours, const std::vector<MoveKey>& onlyOurs,
    const std::vector<MoveKey>& onlyTheirs, GroupStats& st) {
    // Promotion sets: a from/to pair whose promotions differ between the two lists.
    auto same_squares = [](const MoveKey& a, const MoveKey& b) {
        return a.l1 == b.l1 && a.v1 == b.v1 && a.s1 == b.s1 && a.l2 == b.l2 && a.v2 == b.v2
            && a.s2 == b.s2;
    };
    std::vector<MoveKey> unexplained;
    for (const MoveKey& k : onlyOurs) {
        const Move& m = *ours.at(k);
        if (is_rules_en_passant(mv, m)) {
            ++st.allowed[EnPassantMissingInOracle];
        } else if ((m.flags & movegen::MF_CASTLE) && is_castling_shape(mv, k)) {
            ++st.allowed[CastlingGeometry];
        } else if (k.promo && std::any_of(onlyTheirs.begin(), onlyTheirs.end(), [&](auto& t) {
                       return same_squares(k, t);
                   })) {
            ++st.allowed[PromotionChoice];
        } else {
            unexplained.push_back(k);
        }
    }
    for (const MoveKey& k : onlyTheirs) {
        if (is_castling_shape(mv, k)) {
            ++st.allowed[CastlingGeometry];
        } else if (k.promo && std::any_of(onlyOurs.begin(), onlyOurs.end(), [&](auto& o) {
                       return same_squares(k, o);
                   })) {
            ++st.allowed[PromotionChoice];
        } else {
            unexplained.push_back(k);
        }
    }
    return unexplained;
}

// Step 3 of compare_record: the legal actions, when the record has their number. The oracle
// counts distinct resulting positions: its search merges move orders that give the same boards.
// fived enumerates actions (moves plus the order of their branching jumps, RULES §3.6); two
// orders give the same position when the new timelines receive identical boards (e.g. two queens
// jumping to the same past square). So fived's count is compared after the same merge (by
// position key), and the merged actions counted. When an allowed bug took moves out of the
// oracle's list (onlyOurs), the actions that use them are left out of fived's count; when it
// added moves to the oracle's list (onlyTheirs), the counts cannot be compared.
void compare_action_count(Multiverse& mv, const Record& r, const std::vector<MoveKey>& onlyOurs,
    const std::vector<MoveKey>& onlyTheirs, bool harnessCheck, GroupStats& st) {
    const std::set<MoveKey> excluded(onlyOurs.begin(), onlyOurs.end());
    // The harness's check test also decides its action count: when a promoting capture can reach
    // a royal of the mover, it may count actions that leave that royal to such a capture.
    const bool royalOnPromotionRank = promoting_capture_possible(mv);
    const bool comparable           = onlyTheirs.empty() && !royalOnPromotionRank && !harnessCheck;
    if (r.actions && !comparable) {
        ++st.countsNotComparable;
        if (royalOnPromotionRank || harnessCheck) ++st.allowed[HarnessPromotionCheck];
    }
    if (r.actions && comparable) {
        std::set<movegen::Key> positions;
        std::uint64_t          n = 0, skipped = 0;
        movegen::ActionSearch  search(mv);
        search.for_each([&](std::span<const Move> a) {
            for (const Move& m : a)
                if (excluded.count(key_of(m))) {
                    ++skipped;
                    return true;
                }
            ++n;
            positions.insert(mv.key());
            return true;
        });
        EXPECT_EQ(static_cast<long long>(positions.size()), *r.actions)
            << "distinct positions after the legal actions (fived enumerates " << n << ", and "
            << skipped << " more that use a move the oracle lacks)";
        st.mergedActions += int(n - positions.size());
        st.actionsWithoutAllowedMoves += int(skipped);
        ++st.actionCounts;
    }
}

void compare_record(const Record& r, GroupStats& st) {
    SCOPED_TRACE("record " + r.id + " (line " + std::to_string(r.line) + ")");
    absl::StatusOr<notation::LoadedGame> g = notation::load_game(r.pgn, r.id);
    if (!g.ok() && g.status().message().find("leaves a royal piece attacked") != std::string::npos
        && rejected_for_promoting_check(r.pgn, r.id)) {
        ++st.allowed[HarnessPromotionCheck]; // the record cannot be compared
        ++st.records;
        return;
    }
    ASSERT_TRUE(g.ok()) << g.status();
    Multiverse                     mv = g->start.fork();
    std::vector<movegen::MoveUndo> undo;
    notation::play_main_line(mv, *g, g->mainLine.size(), undo);
    ++st.records;

    const movegen::Color us = mv.to_move();
    EXPECT_EQ(us == movegen::WHITE ? "white" : "black", r.toMove);

    // 1. Single moves.
    std::vector<Move> moves;
    movegen::generate_moves(mv, us, moves);
    std::map<MoveKey, const Move*> ours;
    for (const Move& m : moves)
        EXPECT_TRUE(ours.emplace(key_of(m), &m).second) << "duplicate move " << key_text(key_of(m));
    std::set<MoveKey> theirs;
    for (const std::string& s : r.moves) {
        const std::optional<MoveKey> k = parse_oracle_move(s, mv.even(), us);
        ASSERT_TRUE(k) << "cannot parse the oracle's move `" << s << "`";
        EXPECT_TRUE(theirs.insert(*k).second) << "duplicate oracle move " << s;
    }
    std::vector<MoveKey> onlyOurs, onlyTheirs;
    for (const auto& [k, m] : ours)
        if (!theirs.count(k)) onlyOurs.push_back(k);
    for (const MoveKey& k : theirs)
        if (!ours.count(k)) onlyTheirs.push_back(k);
    const std::vector<MoveKey> unexplained = unexplained_moves(mv, ours, onlyOurs, onlyTheirs, st);
    std::string                diff;
    for (const MoveKey& k : unexplained) {
        const bool mine = ours.count(k);
        diff += std::string(mine ? "  only fived:  " : "  only oracle: ") + key_text(k)
            + (mine ? "  " + notation::format_move(mv, *ours.at(k)) : "") + "\n";
    }
    EXPECT_TRUE(unexplained.empty()) << "move sets differ:\n" << diff;
    ++st.moveSets;

    // 2. In check at the start of the turn.
    const bool harnessCheck = compare_check(mv, r.check, st.allowed);
    ++st.checks;

    // 3. Legal actions (compare_action_count).
    compare_action_count(mv, r, onlyOurs, onlyTheirs, harnessCheck, st);
    std::string why;
    EXPECT_TRUE(mv.is_ok(&why)) << why;
}

class OracleDiff : public testing::TestWithParam<std::string> { };

TEST_P(OracleDiff, AgreesWith5dChessJs) {
    std::string         error;
    std::vector<Record> records = read_records(OracleDir / (GetParam() + ".txt"), error);
    ASSERT_EQ(error, "");
    ASSERT_FALSE(records.empty());
    GroupStats st;
    for (const Record& r : records)
        compare_record(r, st);
    std::printf("  %s: %d records, %d move sets, %d check flags, %d action counts compared\n",
        GetParam().c_str(), st.records, st.moveSets, st.checks, st.actionCounts);
    for (int c = 0; c < CategoryCount; ++c)
        if (st.allowed[c]) std::printf("    allowed: %d x %s\n", st.allowed[c], CategoryName[c]);
    if (st.countsNotComparable)
        std::printf("    %d action counts not compared (moves only the oracle lists, or the "
                    "harness bug below)\n",
            st.countsNotComparable);
    if (st.actionsWithoutAllowedMoves)
        std::printf("    %d fived actions left out of the counts (they use a move the oracle "
                    "lacks by an allowed bug)\n",
            st.actionsWithoutAllowedMoves);
    if (st.mergedActions)
        std::printf("    %d fived actions repeat the position of another action (merged, as the "
                    "oracle does)\n",
            st.mergedActions);
    RecordProperty("records", st.records);
    for (int c = 0; c < CategoryCount; ++c)
        RecordProperty("allowed_" + std::to_string(c), st.allowed[c]);
}

INSTANTIATE_TEST_SUITE_P(Data, OracleDiff, testing::ValuesIn(data_files()),
    [](const testing::TestParamInfo<std::string>& i) { return i.param; });

// The issue asks for at least 2,000 positions from random play in several variants.
TEST(OracleData, Size) {
    ASSERT_TRUE(fs::is_directory(OracleDir)) << "no " << OracleDir;
    int records = 0, files = 0;
    for (const std::string& f : data_files()) {
        std::string error;
        records += int(read_records(OracleDir / (f + ".txt"), error).size());
        EXPECT_EQ(error, "");
        ++files;
    }
    EXPECT_GE(records, 2000);
    EXPECT_GE(files, 5);
    std::printf("  %d records in %d files\n", records, files);
}

// The parser of the oracle's notation (the comparison is only as good as this).
TEST(OracleNotation, ParsesEveryForm) {
    using movegen::BLACK;
    using movegen::WHITE;
    auto k = [](const char* s, bool even, movegen::Color c) {
        return parse_oracle_move(s, even, c);
    };
    ASSERT_TRUE(k("(0T1)e2e3", false, WHITE));
    EXPECT_EQ(*k("(0T1)e2e3", false, WHITE), (MoveKey{0, 2, 12, 0, 2, 20, 0}));
    EXPECT_EQ(*k("(0T1)Ng1f3", false, WHITE), (MoveKey{0, 2, 6, 0, 2, 21, 0}));
    EXPECT_EQ(*k("(0T3)Nb3>>(0T1)a3", false, WHITE), (MoveKey{0, 6, 17, 0, 2, 16, 0}));
    EXPECT_EQ(*k("(-1T2)Qd8>x(1T2)d2", false, BLACK), (MoveKey{-1, 5, 59, 1, 5, 11, 0}));
    EXPECT_EQ(*k("(0T7)b7b8=Q", false, WHITE), (MoveKey{0, 14, 49, 0, 14, 57, 'Q'}));
    EXPECT_EQ(*k("(0T7)a2xb1=N", false, BLACK), (MoveKey{0, 15, 8, 0, 15, 1, 'N'}));
    EXPECT_EQ(*k("(-0T1)Ng1>(+0T1)g3", true, WHITE), (MoveKey{-1, 2, 6, 0, 2, 22, 0}));
    EXPECT_EQ(*k("(1T3)Ke1>>x(-1T2)e2", true, WHITE), (MoveKey{1, 6, 4, -2, 4, 12, 0}));
    EXPECT_FALSE(k("(0T1)e2e3", true, WHITE)) << "`0` is not an even timeline";
    EXPECT_FALSE(k("(0T1)e2-e3", false, WHITE));
}

} // namespace
} // namespace fived
