#include "movegen/fen_rows.h"

#include <cctype>

namespace fived::movegen {

namespace {
// "an 8-wide board", "a 5-wide board".
std::string wide(int width) {
    return std::string(width == 8 ? "an " : "a ") + std::to_string(width) + "-wide board";
}
} // namespace

bool parse_fen_rows(std::string_view rows, int width, int height, FenGrid& out, FenRowsError& err,
    bool strict_unmoved) {
    out        = FenGrid{};
    out.width  = width;
    out.height = height;
    if (width < 1 || width > MaxBoardSide || height < 1 || height > MaxBoardSide) {
        err = {0,
            "board size " + std::to_string(width) + "x" + std::to_string(height)
                + " is outside 1x1..8x8"};
        return false;
    }
    int         row  = 0; // 0 = top rank
    int         x    = 0;
    std::size_t i    = 0;
    auto        fail = [&](std::size_t at, std::string msg) {
        err = {int(at), std::move(msg)};
        return false;
    };
    auto finish_row = [&](std::size_t at) {
        if (x != width)
            return fail(at,
                "5DFEN row " + std::to_string(row + 1) + " has " + std::to_string(x)
                    + " squares on " + wide(width));
        return true;
    };
    while (i < rows.size()) {
        const char ch = rows[i];
        if (ch == '/') {
            if (!finish_row(i)) return false;
            ++row;
            x = 0;
            if (row >= height)
                return fail(i,
                    "5DFEN has more than " + std::to_string(height) + " rows for a board "
                        + std::to_string(height) + " high");
            ++i;
        } else if (std::isdigit(static_cast<unsigned char>(ch))) {
            if (ch == '0') return fail(i, "5DFEN empty-square count must be at least 1");
            int         n     = 0;
            std::size_t start = i;
            while (i < rows.size() && std::isdigit(static_cast<unsigned char>(rows[i]))) {
                n = n * 10 + (rows[i] - '0');
                if (n > 64) return fail(start, "5DFEN empty-square count is too large");
                ++i;
            }
            x += n;
            if (x > width)
                return fail(start,
                    "5DFEN row " + std::to_string(row + 1) + " has more than "
                        + std::to_string(width) + " squares on " + wide(width));
        } else if (std::isalpha(static_cast<unsigned char>(ch))) {
            const PieceType pt =
                piece_type_from_letter(char(std::toupper(static_cast<unsigned char>(ch))));
            if (pt == NO_PIECE_TYPE)
                return fail(i, std::string("unknown piece letter `") + ch + "` in 5DFEN");
            if (x >= width)
                return fail(i,
                    "5DFEN row " + std::to_string(row + 1) + " has more than "
                        + std::to_string(width) + " squares on " + wide(width));
            const Color c  = std::isupper(static_cast<unsigned char>(ch)) ? WHITE : BLACK;
            const int   y  = height - 1 - row;
            const int   sq = make_square(x, y);
            out.piece[sq]  = make_piece(c, pt);
            ++i;
            if (i < rows.size() && rows[i] == '*') {
                if (keeps_unmoved_flag(pt))
                    out.unmoved |= square_bb(sq);
                else if (strict_unmoved)
                    return fail(i,
                        std::string("unmoved marker '*' after '") + ch
                            + "' (only P, W, K and R can be unmoved)");
                ++i;
            }
            ++x;
        } else if (ch == '*') {
            return fail(i, "unmoved marker '*' does not follow a piece");
        } else {
            return fail(i, std::string("unexpected character '") + ch + "' in 5DFEN");
        }
    }
    if (!finish_row(rows.size())) return false;
    if (row != height - 1)
        return fail(rows.size(),
            "5DFEN has " + std::to_string(row + 1) + " rows for a board " + std::to_string(height)
                + " high");
    return true;
}

std::string write_fen_rows(const FenGrid& grid) {
    std::string s;
    for (int y = grid.height - 1; y >= 0; --y) {
        int empty = 0;
        for (int x = 0; x < grid.width; ++x) {
            const int   sq = make_square(x, y);
            const Piece p  = grid.piece[sq];
            if (p == NO_PIECE) {
                ++empty;
                continue;
            }
            if (empty) s += std::to_string(empty), empty = 0;
            const char up = piece_letter(type_of(p));
            s += color_of(p) == WHITE ? up : char(std::tolower(static_cast<unsigned char>(up)));
            if ((grid.unmoved & square_bb(sq)) && keeps_unmoved_flag(type_of(p))) s += '*';
        }
        if (empty) s += std::to_string(empty);
        if (y) s += '/';
    }
    return s;
}

} // namespace fived::movegen
