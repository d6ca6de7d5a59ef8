#include "notation/fen.h"

#include <sys/types.h>

#include <md5.h> // libmd

#include "movegen/fen_rows.h"
#include "notation/game.h"

namespace fived::notation {

namespace {

// Appends the boards of mv (all of them, or only the set-up ones) in 5DFEN order, each followed
// by `sep`.
void append_boards(
    const movegen::Multiverse& mv, bool initialOnly, std::string_view sep, std::string& out) {
    const movegen::BoardId initial = mv.initial_board_count();
    for (int l = mv.min_l(); l <= mv.max_l(); ++l)
        for (int v = mv.start_v(l); v <= mv.end_v(l); ++v) {
            if (initialOnly && mv.board_id(l, v) >= initial) continue;
            out += board_fen(mv, l, v);
            out += sep;
        }
}

} // namespace

std::string board_fen(const movegen::Multiverse& mv, int l, int v) {
    const movegen::Board& b = mv.board(l, v);
    movegen::FenGrid      grid;
    grid.width  = mv.width();
    grid.height = mv.height();
    for (int s = 0; s < 64; ++s)
        grid.piece[std::size_t(s)] = b.piece_on(s);
    grid.unmoved  = b.unmoved;
    std::string s = "[";
    s += movegen::write_fen_rows(grid);
    s += ':';
    s += canonical_line_label(l, mv.even());
    s += ':';
    s += std::to_string(v / 2);
    s += v % 2 ? ":b]" : ":w]";
    return s;
}

std::string fen_of(const movegen::Multiverse& mv) {
    std::string out;
    append_boards(mv, false, "\n", out);
    return out;
}

std::string fen_headers(const movegen::Multiverse& mv) {
    std::string out;
    if (mv.width() != 8 || mv.height() != 8)
        out +=
            "[Size \"" + std::to_string(mv.width()) + "x" + std::to_string(mv.height()) + "\"]\n";
    const movegen::GameRules& rules = mv.rules();
    if (rules.promotionCount != 1 || rules.promotions[0] != movegen::QUEEN) {
        out += "[Promotions \"";
        for (int i = 0; i < rules.promotionCount; ++i) {
            if (i) out += ',';
            out += movegen::piece_letter(rules.promotions[std::size_t(i)]);
        }
        out += "\"]\n";
    }
    return out;
}

std::string initial_fen(const movegen::Multiverse& mv) {
    std::string out;
    append_boards(mv, true, "\n", out);
    return out;
}

std::string md5_hex(std::string_view bytes) {
    MD5_CTX ctx;
    MD5Init(&ctx);
    MD5Update(&ctx, reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    char hex[MD5_DIGEST_STRING_LENGTH];
    MD5End(&ctx, hex); // lower-case hex, NUL-terminated
    return std::string(hex, MD5_DIGEST_STRING_LENGTH - 1);
}

std::string state_hash(const movegen::Multiverse& mv) {
    std::string all; // 5DFEN strings contain no whitespace, so nothing needs stripping
    append_boards(mv, false, "", all);
    return md5_hex(all);
}

std::string board_hash(const movegen::Multiverse& mv, int l, int v) {
    return md5_hex(board_fen(mv, l, v));
}

} // namespace fived::notation
