#pragma once
// The semantic layer of the reader: from a syntax Document to positions of the rules engine.
//
//  * build_start_position(): the initial multiverse from the headers (Board/Variant, Size,
//    Timeline(s), Promotions) and the 5DFEN boards (NOTATION.md §4, semantic constraints).
//  * resolve_move(): NOTATION.md §5, matching a written pattern against the moves playable now
//    (pawn-first rule, jump indicator, capture mark, promotion); the pattern matcher itself
//    (MovePattern, match_pattern) is shared with the short-form writer.
//  * replay_action(): resolves and makes every move of a written action in written order, then
//    checks that it can be submitted (present passes, no royal of the mover attacked).
//  * standard_order(): NOTATION.md §6.
//  * format_move(): the full notation of a move, `(0T1)Pe2e3`, `(0T5)Qb3>>x(0T1)f7`.
//  * load_game(): the main line only; the whole tree is read by notation/reader.h.
//
// Errors are Diagnostics naming file, line, column and the cause, e.g.
// "no legal move matches `Nf3` on (0T3)", "ambiguous: `Nd2` matches (0T4)Nb1d2 and (0T4)Nf3d2".

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
    // An action must not leave a royal piece of the mover attacked (RULES.md §5.3). ftxi does
    // not test this, and a few texts written with it contain such actions (the `(2b. d5)` of
    // its softmate game). Off, such an action is still found, and accepted with a warning.
    bool checkKingSafety = true;
    // Tree reader only (notation/reader.h):
    bool annotate  = false; // verify the text's `#`/`*` marks with the engine (annotate_tree)
    int  maxErrors = 1;     // semantic errors collected before giving up; after an error in a
                            // variation the reader skips that subtree and goes on with the rest
    // The most nodes a GameTree read from text may have (after merging equal variations); one
    // more ends the read with the error "the game tree has more than N nodes" at the action that
    // would add it. A node takes about 150 bytes, so the default bounds a tree near 0.6 GB.
    std::size_t maxNodes = 4'000'000;
};

// Builds the start position. On failure returns nullopt and fills err.
std::optional<movegen::Multiverse> build_start_position(
    const Document& doc, std::string_view file, Diagnostic& err);

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

// Resolves one written move of player `us` in the current (possibly mid-action) state.
// `candidates` is a caller-owned scratch buffer.
std::optional<movegen::Move> resolve_move(const movegen::Multiverse& mv, movegen::Color us,
    const Move& written, const ReadOptions& opt, std::string_view file,
    std::vector<movegen::Move>& candidates, Diagnostic& err);

// --- pattern matching (NOTATION.md §5), shared by the reader and the short-form writer --------

// A written move with its board labels turned into internal timeline indices (step 1). Empty
// optionals and NO_PIECE_TYPE are the nil entries of the pattern.
struct MovePattern {
    MoveKind           kind   = MoveKind::PHYSICAL;
    CastleSide         castle = CastleSide::NONE;
    JumpIndicator      jump   = JumpIndicator::NONE;
    std::optional<int> fromL, fromT, toL, toT;
    movegen::PieceType piece = movegen::NO_PIECE_TYPE;
    std::optional<int> fromFile, fromRank;
    int                toFile = 0, toRank = 0;
    bool               capture   = false;
    movegen::PieceType promotion = movegen::NO_PIECE_TYPE;
};

// A move playable now, with what matching needs to know about it (step 2).
struct MoveCandidate {
    movegen::Move      move;
    movegen::PieceType piece     = movegen::NO_PIECE_TYPE;
    bool               branching = false;
};

// Every pseudo-legal move of `us` in the current state, as candidates (`out` is cleared first;
// `moves` is scratch).
void collect_candidates(const movegen::Multiverse& mv, movegen::Color us,
    std::vector<MoveCandidate>& out, std::vector<movegen::Move>& moves);

enum class MatchResult : std::uint8_t {
    UNIQUE,    // `chosen` is the move
    NONE,      // no candidate matches
    AMBIGUOUS, // several match (and the pawn-first rule does not decide)
};

// Steps 3-5: the candidates matching `p`, the pawn-first rule, uniqueness. `matches` receives
// the indices of all matching candidates (for error messages). The checks of step 6 that `opt`
// turns off only apply when the strict match finds no candidate at all: leniency never changes
// what a strict read resolves (a unique move, or an ambiguity), it only accepts more.
MatchResult match_pattern(const movegen::Multiverse& mv, const MovePattern& p,
    std::span<const MoveCandidate> candidates, const ReadOptions& opt, std::size_t& chosen,
    std::vector<std::size_t>& matches);

// Resolves and makes the moves of `action` on mv, then checks submission. On success the moves
// (in written order) are appended to `made` and their undo records to `undo`; on failure mv is
// restored and err filled.
bool replay_action(movegen::Multiverse& mv, const Action& action, const ReadOptions& opt,
    std::string_view file, std::vector<movegen::Move>& made, std::vector<movegen::MoveUndo>& undo,
    Diagnostic& err);

// Buffers of replay_action() kept by a caller that replays many actions. After a successful
// call, `branching[i]` tells whether the i-th made move branched (for standard_order()), and
// `warning` holds what the options let through (an action leaving a royal piece attacked while
// checkKingSafety is off), at the action's first move.
struct ReplayScratch {
    std::vector<movegen::Move> moves;
    std::vector<MoveCandidate> candidates;
    std::vector<MoveCandidate> near; // the short-form writer's candidates landing on one square
    std::vector<std::size_t>   matches;
    std::vector<bool>          branching;
    std::optional<Diagnostic>  warning;
};
bool replay_action(movegen::Multiverse& mv, const Action& action, const ReadOptions& opt,
    std::string_view file, std::vector<movegen::Move>& made, std::vector<movegen::MoveUndo>& undo,
    Diagnostic& err, ReplayScratch& scratch);

// resolve_move() with the candidate buffers of a ReplayScratch.
std::optional<movegen::Move> resolve_move(const movegen::Multiverse& mv, movegen::Color us,
    const Move& written, const ReadOptions& opt, std::string_view file, ReplayScratch& scratch,
    Diagnostic& err);

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

// Makes the moves of `action` on mv and returns them in the standard order of NOTATION.md §6
// (physical moves and hops by arrival timeline, ascending for White and descending for Black,
// then the branching jumps in their given order); mv is restored. The action must be playable
// in the given order from the current state.
void standard_order(movegen::Multiverse& mv, std::vector<movegen::Move>& action);
// The same from the branching flags observed while the moves were made in the given order.
void standard_order(
    std::vector<movegen::Move>& action, const std::vector<bool>& branching, movegen::Color us);

// Parses and replays the main line of text. ReadOptions as above; what they let through is
// appended to the returned doc.warnings. The text is parsed twice without keeping its
// variations, so memory grows with the main line, not with the text.
std::optional<LoadedGame> load_game(
    std::string_view text, std::string_view file, const ReadOptions& opt, Diagnostic& err);

// Makes the first `count` actions of the main line on mv (a fork of game.start); for tools
// that walk the game position by position.
void play_main_line(movegen::Multiverse& mv, const LoadedGame& game, std::size_t count,
    std::vector<movegen::MoveUndo>& undo);

} // namespace fived::notation
