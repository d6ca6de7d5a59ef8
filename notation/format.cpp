#include "notation/format.h"

#include <charconv>
#include <vector>

#include "movegen/action.h"

namespace fived::notation {

using namespace movegen;

namespace {

void append_int(std::string& out, int v) {
    char buf[16];
    out.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

void append_square(std::string& out, Square s) {
    out += char('a' + file_of(s));
    append_int(out, rank_of(s) + 1);
}

void append_canonical_label(std::string& out, int l, bool even) {
    if (even && l == 0) {
        out += "+0";
    } else if (even && l == -1) {
        out += "-0";
    } else {
        append_int(out, even && l < -1 ? l + 1 : l); // even: internal -k-1 is displayed -k
    }
}

void append_board(std::string& out, const Multiverse& mv, Vec4 p) {
    out += '(';
    append_canonical_label(out, p.l(), mv.even());
    out += 'T';
    append_int(out, p.t());
    out += ')';
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
    std::string s;
    append_canonical_label(s, l, even);
    return s;
}

std::string board_text(const Multiverse& mv, Vec4 p) {
    std::string s;
    append_board(s, mv, p);
    return s;
}

void append_move(std::string& out, const Multiverse& mv, const movegen::Move& m) {
    const Piece p = mv.board(m.from.l(), m.from.v()).piece_on(m.from.sq());
    append_board(out, mv, m.from);
    out += piece_letter(type_of(p));
    append_square(out, m.from.sq());
    if (!m.is_physical()) {
        out += mv.is_branching(m) ? ">>" : ">";
        if (m.is_capture()) out += 'x';
        append_board(out, mv, m.to);
    } else if (m.is_capture()) {
        out += 'x';
    }
    append_square(out, m.to.sq());
    if (m.promotion != NO_PIECE_TYPE) {
        out += '=';
        out += piece_letter(m.promotion);
    }
}

std::string format_move(const Multiverse& mv, const movegen::Move& m) {
    std::string s;
    append_move(s, mv, m);
    return s;
}

// A move's text depends on the moves before it only through whether a jump branches
// (Multiverse::is_branching): its piece stands on a board from before the action. A jump onto a
// board that is not the last of its timeline branches whatever those moves do (within an action
// timelines only grow, and a jump's target is a board of the mover's colour, which the action
// does not create), so the moves are made only as far as a jump onto a last board needs them.
namespace {
// Appends the text of action[from, size) to out (the text of action[0, from) is there already,
// from the same moves), recording where each move's text ends.
void append_action_from(std::string& out, Multiverse& mv, std::span<const movegen::Move> action,
    std::size_t from, std::vector<MoveUndo>& undo, std::vector<std::size_t>* ends) {
    undo.clear();
    std::size_t made = 0; // action[0, made) is made on mv
    for (std::size_t i = from; i < action.size(); ++i) {
        const movegen::Move& m = action[i];
        if (!m.is_physical() && m.to.v() == mv.end_v(m.to.l())) {
            movegen::do_action(mv, action.subspan(made, i - made), undo);
            made = i;
        }
        if (i) out += ' ';
        append_move(out, mv, m);
        if (ends) ends->push_back(out.size());
    }
    movegen::undo_action(mv, undo);
}
} // namespace

std::string_view ActionFormatter::format(std::span<const movegen::Move> action) {
    std::size_t same = 0;
    while (same < action.size() && same < prev_.size() && action[same] == prev_[same])
        ++same;
    text_.resize(same ? ends_[same - 1] : 0);
    ends_.resize(same);
    append_action_from(text_, *mv_, action, same, undo_, &ends_);
    prev_.assign(action.begin(), action.end());
    return text_;
}

std::string format_action(Multiverse& mv, std::span<const movegen::Move> action) {
    std::string           s;
    std::vector<MoveUndo> undo;
    append_action_from(s, mv, action, 0, undo, nullptr);
    return s;
}

} // namespace fived::notation
