#pragma once
// Timeline labels and the full notation of moves and actions (NOTATION.md §2, §7): what the
// writer prints, what diagnostics quote, and the inverse of a written label.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "movegen/multiverse.h"
#include "notation/syntax.h"

namespace fived::notation {

// The timeline label of internal index l, as 5DPGN writes it (odd: `0`, `1`, `-1`; even: `-0`,
// `+0`, `+1`, `-1`).
std::string line_label(int l, bool even);
// The canonical label of NOTATION.md §7: `-0`/`+0` for the two middle timelines of an even
// game, every other timeline without `+` (`1`, `-1`), in both parities.
std::string canonical_line_label(int l, bool even);
// `(<L>T<T>)` with the canonical label.
std::string board_text(const movegen::Multiverse& mv, movegen::Vec4 board);
// The internal index of a written label; nullopt if the label does not fit the parity.
std::optional<int> line_index(const LineLabel& label, bool even);

// Full notation of move m made from the current state of mv (which decides `>` vs `>>`), as the
// canonical writer prints it: `(0T1)Pe2e3`, `(0T5)Qb3>>x(0T1)f7`, `(0T5)Ke1g1`, `(0T7)Pb7b8=Q`.
std::string format_move(const movegen::Multiverse& mv, const movegen::Move& m);
// Full notation of a whole action, starting from the state before it; mv is restored.
std::string format_action(movegen::Multiverse& mv, std::span<const movegen::Move> action);
// format_move() appended to out.
void append_move(std::string& out, const movegen::Multiverse& mv, const movegen::Move& m);

// format_action() for a listing of millions of actions from one position (`fived actions`): one
// buffer, one undo stack, and the text of the moves an action shares with the one before it
// kept (an enumeration lists actions that share long prefixes, and a move's text depends only on
// the moves before it).
class ActionFormatter {
public:
    // mv: the position the actions are legal in; restored after each call.
    explicit ActionFormatter(movegen::Multiverse& mv) : mv_(&mv) { }
    // The full notation of action, as format_action() writes it; valid until the next call.
    std::string_view format(std::span<const movegen::Move> action);

private:
    movegen::Multiverse*           mv_;
    std::string                    text_;
    std::vector<movegen::Move>     prev_; // the action text_ holds
    std::vector<std::size_t>       ends_; // where each move of prev_ ends in text_
    std::vector<movegen::MoveUndo> undo_;
};

} // namespace fived::notation
