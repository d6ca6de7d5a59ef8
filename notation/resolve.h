#pragma once
// Resolution of written moves and actions (NOTATION.md §5-§6): a written pattern matched against
// the moves playable now (pawn-first rule, jump indicator, capture mark, promotion), an action
// replayed and checked for submission (present passes, no royal of the mover attacked), and the
// standard order of an action. The pattern matcher (MovePattern, match_pattern) is shared with
// the short-form writer.
//
// Errors are Diagnostics naming file, line, column and the cause, e.g.
// "no legal move matches `Nf3` on (0T3)", "ambiguous: `Nd2` matches (0T4)Nb1d2 and (0T4)Nf3d2".

#include <cstddef>
#include <optional>
#include <string_view>
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

// The options of `--lenient`, which every command that reads a file takes: with it, a wrong
// capture mark or jump indicator (known errors of third-party files) is accepted.
inline ReadOptions read_options(bool lenient) {
    ReadOptions opt;
    if (lenient) opt.checkCaptureMark = opt.checkJumpIndicator = false;
    return opt;
}

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

// Makes the moves of `action` on mv and returns them in the standard order of NOTATION.md §6
// (physical moves and hops by arrival timeline, ascending for White and descending for Black,
// then the branching jumps in their given order); mv is restored. The action must be playable
// in the given order from the current state.
void standard_order(movegen::Multiverse& mv, std::vector<movegen::Move>& action);
// The same from the branching flags observed while the moves were made in the given order.
void standard_order(
    std::vector<movegen::Move>& action, const std::vector<bool>& branching, movegen::Color us);

} // namespace fived::notation
