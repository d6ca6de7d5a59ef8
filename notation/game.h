#pragma once
// The semantic layer of the reader: from a syntax Document to positions of the rules engine.
//
//  * build_start_position(): the initial multiverse from the headers (Board/Variant, Size,
//    Timeline(s), Promotions) and the 5DFEN boards (NOTATION.md §4, semantic constraints).
//  * resolve_move(): NOTATION.md §5, matching a written pattern against the moves playable now
//    (pawn-first rule, jump indicator, capture mark, promotion).
//  * replay_action(): resolves and makes every move of a written action in written order, then
//    checks that it can be submitted (present passes, no royal of the mover attacked).
//  * format_move(): the full notation of a move, `(0T1)Pe2e3`, `(0T5)Qb3>>x(0T1)f7`.
//
// Errors are Diagnostics naming file, line, column and the cause.

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "movegen/multiverse.h"
#include "notation/syntax.h"

namespace fived::notation {

// Tolerance for known spelling errors of third-party files. The default is strict, as the
// Branched spec recommends (NOTATION.md §5 step 6).
struct ReadOptions {
    bool checkCaptureMark   = true; // a written `x` must capture
    bool checkJumpIndicator = true; // a written `>`/`>>` must match the move's kind
};

// Builds the start position. On failure returns nullopt and fills err.
std::optional<movegen::Multiverse> build_start_position(
    const Document& doc, std::string_view file, Diagnostic& err);

// The timeline label of internal index l, as 5DPGN writes it (odd: `0`, `1`, `-1`; even: `-0`,
// `+0`, `+1`, `-1`).
std::string line_label(int l, bool even);
// The internal index of a written label; nullopt if the label does not fit the parity.
std::optional<int> line_index(const LineLabel& label, bool even);

// Full notation of move m made from the current state of mv (which decides `>` vs `>>`).
std::string format_move(const movegen::Multiverse& mv, const movegen::Move& m);
// Full notation of a whole action, starting from the state before it; mv is restored.
std::string format_action(movegen::Multiverse& mv, std::span<const movegen::Move> action);

// Resolves one written move of player `us` in the current (possibly mid-action) state.
// `candidates` is a caller-owned scratch buffer.
std::optional<movegen::Move> resolve_move(const movegen::Multiverse& mv, movegen::Color us,
    const Move& written, const ReadOptions& opt, std::string_view file,
    std::vector<movegen::Move>& candidates, Diagnostic& err);

// Resolves and makes the moves of `action` on mv, then checks submission. On success the moves
// (in written order) are appended to `made` and their undo records to `undo`; on failure mv is
// restored and err filled.
bool replay_action(movegen::Multiverse& mv, const Action& action, const ReadOptions& opt,
    std::string_view file, std::vector<movegen::Move>& made, std::vector<movegen::MoveUndo>& undo,
    Diagnostic& err);

// A game read from text: the start position and the main line (the last child at every node)
// resolved to engine moves. The multiverse ends in the final position of the main line.
struct LoadedGame {
    Document            doc;
    movegen::Multiverse start; // the position before the first action (kept for re-use)
    std::vector<std::vector<movegen::Move>> mainLine;
};

// Parses and replays the main line of text. ReadOptions as above.
std::optional<LoadedGame> load_game(
    std::string_view text, std::string_view file, const ReadOptions& opt, Diagnostic& err);

// Makes the first `count` actions of the main line on mv (a fork of game.start); for tools
// that walk the game position by position.
void play_main_line(movegen::Multiverse& mv, const LoadedGame& game, std::size_t count,
    std::vector<movegen::MoveUndo>& undo);

} // namespace fived::notation
