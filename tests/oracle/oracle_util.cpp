#include "tests/oracle/oracle_util.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>

#include "movegen/actions.h"
#include "movegen/movegen.h"
#include "notation/game.h"
#include "notation/parser.h"

namespace fived::oracletest {

using movegen::Board;
using movegen::Move;
using movegen::Multiverse;

namespace {

// The oracle's timeline label -> fived's internal index (RULES §1.3).
std::optional<int> timeline_index(const std::string& label, bool even) {
    const bool neg = label[0] == '-';
    const int  mag = std::stoi(label.substr(label[0] == '-' || label[0] == '+' ? 1 : 0));
    if (!even) return neg ? -mag : mag;
    if (mag == 0 && label[0] != '-' && label[0] != '+') return std::nullopt; // `0` is odd-only
    return neg ? -mag - 1 : mag;
}

// A capture of a pawn or brawn onto its last rank (the move promotes).
bool is_promoting_capture(const Multiverse& mv, const Move& m) {
    const movegen::Piece p    = mv.board(m.from.l(), m.from.v()).piece_on(m.from.sq());
    const int            last = movegen::color_of(p) == movegen::WHITE ? mv.height() - 1 : 0;
    return movegen::is_pawnlike(movegen::type_of(p)) && m.to.y() == last;
}

// Is every attack on the royal pieces of `us` a promoting capture (and there is at least one)?
bool only_promoting_attacks(const Multiverse& mv, movegen::Color us) {
    std::vector<Move> attacks;
    movegen::royal_attacks(mv, us, attacks);
    return !attacks.empty() && std::all_of(attacks.begin(), attacks.end(), [&](const Move& m) {
        return is_promoting_capture(mv, m);
    });
}

// The same test after passing the mandatory boards (the position `check` is about, RULES §5.4).
bool only_promoting_attacks_at_turn_start(Multiverse& mv) {
    const int                      present = mv.present_v();
    const movegen::Color           us      = mv.to_move();
    std::vector<movegen::MoveUndo> undo(std::size_t(mv.timeline_count()));
    std::size_t                    n = 0;
    for (int l = mv.active_min_l(); l <= mv.active_max_l(); ++l)
        if (mv.end_v(l) == present) mv.make_pass(l, undo[n++]);
    const bool r = only_promoting_attacks(mv, us);
    while (n)
        mv.unmake_move(undo[--n]);
    return r;
}

} // namespace

MoveKey key_of(const Move& m) {
    return {m.from.l(), m.from.v(), m.from.sq(), m.to.l(), m.to.v(), m.to.sq(),
        m.promotion == movegen::NO_PIECE_TYPE ? char(0) : movegen::piece_letter(m.promotion)};
}

std::string key_text(const MoveKey& k) {
    auto sq = [](int s) { return std::string(1, char('a' + s % 8)) + char('1' + s / 8); };
    std::ostringstream o;
    o << "(l" << k.l1 << " v" << k.v1 << ")" << sq(k.s1) << " -> (l" << k.l2 << " v" << k.v2 << ")"
      << sq(k.s2);
    if (k.promo) o << "=" << k.promo;
    return o.str();
}

std::optional<MoveKey> parse_oracle_move(const std::string& s, bool even, movegen::Color c) {
    static const std::regex re(
        R"(^\(([-+]?\d+)T(\d+)\)([A-Z]?)([a-h][1-8])(?:(>>?)(x?)\(([-+]?\d+)T(\d+)\)|(x?))([a-h][1-8])(?:=([A-Z]))?$)");
    std::smatch m;
    if (!std::regex_match(s, m, re)) return std::nullopt;
    auto sq = [](const std::string& t) { return movegen::make_square(t[0] - 'a', t[1] - '1'); };
    const std::optional<int> l1 = timeline_index(m[1], even);
    if (!l1) return std::nullopt;
    MoveKey k{};
    k.l1 = *l1;
    k.v1 = movegen::to_v(std::stoi(m[2]), c);
    k.s1 = sq(m[4]);
    if (m[5].matched) {
        const std::optional<int> l2 = timeline_index(m[7], even);
        if (!l2) return std::nullopt;
        k.l2 = *l2;
        k.v2 = movegen::to_v(std::stoi(m[8]), c);
    } else {
        k.l2 = k.l1;
        k.v2 = k.v1;
    }
    k.s2    = sq(m[10]);
    k.promo = m[11].matched ? m[11].str()[0] : char(0);
    return k;
}

bool is_rules_en_passant(const Multiverse& mv, const Move& m) {
    if (!m.is_physical() || !(m.flags & movegen::MF_ENPASSANT)) return false;
    const int l = m.from.l(), v = m.from.v();
    if (v - 1 < mv.start_v(l)) return false; // no predecessor on this timeline
    const Board&         b    = mv.board(l, v);
    const Board&         prev = mv.board(l, v - 1);
    const movegen::Piece me   = b.piece_on(m.from.sq());
    const movegen::Color us   = movegen::color_of(me);
    const int            fy   = us == movegen::WHITE ? 1 : -1;
    const int            ex = m.to.x(), y = m.from.y();
    if (m.to.y() != y + fy || std::abs(ex - m.from.x()) != 1) return false;
    if (y + 2 * fy < 0 || y + 2 * fy >= mv.height()) return false;
    const int cap = movegen::make_square(ex, y), mid = movegen::make_square(ex, y + fy),
              orig              = movegen::make_square(ex, y + 2 * fy);
    const movegen::Piece victim = b.piece_on(cap);
    if (victim == movegen::NO_PIECE || movegen::color_of(victim) == us
        || !movegen::is_pawnlike(movegen::type_of(victim)))
        return false;
    return prev.piece_on(orig) == victim && (prev.unmoved & movegen::square_bb(orig))
        && prev.empty(mid) && prev.empty(cap) && b.empty(orig) && b.empty(mid);
}

bool is_castling_shape(const Multiverse& mv, const MoveKey& k) {
    if (k.l1 != k.l2 || k.v1 != k.v2 || k.s1 / 8 != k.s2 / 8 || std::abs(k.s1 - k.s2) != 2)
        return false;
    const Board& b = mv.board(k.l1, k.v1);
    return movegen::type_of(b.piece_on(k.s1)) == movegen::KING
        && (b.unmoved & movegen::square_bb(k.s1));
}

bool compare_check(Multiverse& mv, bool oracleCheck, int (&allowed)[CategoryCount]) {
    const bool check        = movegen::in_check_at_turn_start(mv);
    const bool harnessCheck = check && !oracleCheck && only_promoting_attacks_at_turn_start(mv);
    if (harnessCheck)
        ++allowed[HarnessPromotionCheck];
    else
        EXPECT_EQ(check, oracleCheck);
    return harnessCheck;
}

bool rejected_for_promoting_check(const std::string& pgn, const std::string& name) {
    notation::Document   doc;
    notation::Diagnostic err;
    if (!notation::parse_document(pgn, name, doc, err)) return false;
    absl::StatusOr<Multiverse> mv = notation::build_start_position(doc, name);
    if (!mv.ok()) return false;
    std::vector<Move>              made, scratch;
    std::vector<movegen::MoveUndo> undo;
    const notation::ReadOptions    opt;
    for (int node = 0; !doc.nodes[std::size_t(node)].children.empty();) {
        node                           = doc.nodes[std::size_t(node)].children.back();
        const notation::Action& action = doc.nodes[std::size_t(node)].action;
        if (notation::replay_action(*mv, action, opt, name, made, undo, err)) continue;
        const movegen::Color us = mv->to_move();
        for (const notation::Move& w : action.moves) {
            const std::optional<Move> m =
                notation::resolve_move(*mv, us, w, opt, name, scratch, err);
            if (!m) return false;
            undo.emplace_back();
            mv->make_move(*m, undo.back());
        }
        return movegen::Color(mv->present_v() & 1) != us && only_promoting_attacks(*mv, us);
    }
    return false;
}

bool promoting_capture_possible(const Multiverse& mv) {
    const movegen::Color us = mv.to_move(), them = ~us;
    const int            rank  = them == movegen::WHITE ? mv.height() - 1 : 0;
    const int            pre   = them == movegen::WHITE ? rank - 1 : rank + 1;
    bool                 royal = false, pawn = false;
    for (int l = mv.min_l(); l <= mv.max_l(); ++l)
        for (int v = mv.start_v(l); v <= mv.end_v(l); ++v) {
            const Board& b = mv.board(l, v);
            for (movegen::Bitboard bb = b.royals(us); bb; bb &= bb - 1)
                royal = royal || movegen::rank_of(movegen::Square(std::countr_zero(bb))) == rank;
            for (movegen::Bitboard bb =
                     b.pieces(them, movegen::PAWN) | b.pieces(them, movegen::BRAWN);
                 bb; bb &= bb - 1)
                pawn = pawn || movegen::rank_of(movegen::Square(std::countr_zero(bb))) == pre;
        }
    return royal && pawn;
}

std::vector<std::string> data_files(const fs::path& dir) {
    std::vector<std::string> v;
    std::error_code          ec;
    if (fs::is_directory(dir, ec))
        for (const auto& e : fs::directory_iterator(dir, ec))
            if (e.is_regular_file() && e.path().extension() == ".txt")
                v.push_back(e.path().stem().string());
    std::sort(v.begin(), v.end());
    return v;
}

} // namespace fived::oracletest
