#include "notation/format.h"

#include <vector>

#include "movegen/action.h"

namespace fived::notation {

using namespace movegen;

namespace {

std::string square_name(Square s) {
    std::string r(1, char('a' + file_of(s)));
    r += std::to_string(rank_of(s) + 1);
    return r;
}

} // namespace

std::string line_label(int l, bool even) {
    if (!even) return std::to_string(l);
    return l >= 0 ? "+" + std::to_string(l) : "-" + std::to_string(-l - 1);
}

std::optional<int> line_index(const LineLabel& label, bool even) {
    if (!even) {
        if (label.is_signed_zero()) return std::nullopt;
        return label.value();
    }
    if (label.magnitude == 0 && label.sign == 0) return std::nullopt;
    return label.sign == '-' ? -label.magnitude - 1 : label.magnitude;
}

std::string canonical_line_label(int l, bool even) {
    if (even) {
        if (l == 0) return "+0";
        if (l == -1) return "-0";
        if (l < -1) return std::to_string(l + 1); // internal -k-1 is displayed -k
    }
    return std::to_string(l);
}

std::string board_text(const Multiverse& mv, Vec4 p) {
    return "(" + canonical_line_label(p.l(), mv.even()) + "T" + std::to_string(p.t()) + ")";
}

std::string format_move(const Multiverse& mv, const movegen::Move& m) {
    const Piece p = mv.board(m.from.l(), m.from.v()).piece_on(m.from.sq());
    std::string s = board_text(mv, m.from);
    s += piece_letter(type_of(p));
    s += square_name(m.from.sq());
    if (!m.is_physical()) {
        s += mv.is_branching(m) ? ">>" : ">";
        if (m.is_capture()) s += 'x';
        s += board_text(mv, m.to);
    } else if (m.is_capture()) {
        s += 'x';
    }
    s += square_name(m.to.sq());
    if (m.promotion != NO_PIECE_TYPE) {
        s += '=';
        s += piece_letter(m.promotion);
    }
    return s;
}

std::string format_action(Multiverse& mv, std::span<const movegen::Move> action) {
    std::string           s;
    std::vector<MoveUndo> undo;
    for (std::size_t i = 0; i < action.size(); ++i) {
        if (i) s += ' ';
        s += format_move(mv, action[i]);
        movegen::do_action(mv, action.subspan(i, 1), undo);
    }
    movegen::undo_action(mv, undo);
    return s;
}

} // namespace fived::notation
