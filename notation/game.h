#pragma once
// The semantic layer of the reader: from a syntax Document to positions of the rules engine.
// One concept a file:
//  * notation/setup.h: build_start_position(), the initial multiverse (NOTATION.md §4);
//  * notation/resolve.h: resolve_move(), replay_action(), standard_order() (§5-§6);
//  * notation/format.h: timeline labels, format_move(), format_action();
//  * here: load_game(), the main line only (the whole tree is read by notation/reader.h).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "movegen/multiverse.h"
#include "notation/format.h"
#include "notation/resolve.h"
#include "notation/setup.h"
#include "notation/syntax.h"

namespace fived::notation {

// A game read from text: the start position and the main line (the last child at every node)
// resolved to engine moves. The multiverse ends in the final position of the main line.
struct LoadedGame {
    // The headers, 5DFEN boards, comments and warnings of the text; its nodes are the root and
    // the main line only (each the single child of the previous): variations are parsed and
    // their turn serials checked, but they are neither kept nor replayed.
    Document            doc;
    movegen::Multiverse start; // the position before the first action (kept for re-use)
    std::vector<std::vector<movegen::Move>> mainLine;
};

// Parses and replays the main line of text. ReadOptions as above; what they let through is
// appended to the returned doc.warnings. The text is parsed twice without keeping its
// variations, so memory grows with the main line, not with the text.
// An error (syntax, set-up, a move that does not resolve or an action that cannot be played) is
// an InvalidArgument status carrying its Diagnostic, `FILE:LINE:COL: cause` (diagnostic_of(),
// notation/parser.h).
absl::StatusOr<LoadedGame> load_game(
    std::string_view text, std::string_view file, const ReadOptions& opt = {});

// Why text is no game to read, or nullopt: empty (white space only) or only `{...}` comments.
// The reason is written to follow `FILE: ` ("empty file, not a game (write [Board \"Standard\"]
// for the standard opening)"); the command line and the Python module refuse such text alike.
std::optional<std::string> not_a_game(std::string_view text);

// Makes the first `count` actions of the main line on mv (a fork of game.start); for tools
// that walk the game position by position.
void play_main_line(movegen::Multiverse& mv, const LoadedGame& game, std::size_t count,
    std::vector<movegen::MoveUndo>& undo);

} // namespace fived::notation
