#pragma once
// Pictures of a multiverse as self-contained SVG (no external fonts, images or style sheets).
//
// The picture is laid out as the game and the web analyzers show it: one row per timeline
// (highest ℓ at the top), one column per half-turn v (white and black boards alternate, turn
// numbers on top), boards drawn from White's side (rank 1 at the bottom). On top of the boards:
// the present (a band over its column), inactive timelines shaded, the playable boards of the
// side to move outlined, arrows (the last action, a key, checks; jumps between boards are
// curved) and the royal pieces in check marked.
//
// Large multiverses are scaled down to fit Options::maxWidth x maxHeight and capped, so that a
// square stays at least readableSquare wide: at most maxTimelines rows (the timelines arrows touch
// first, then those nearest the initial ones; the others are summarised as "+N more timelines") and
// at most maxHalfTurns columns (the latest, widened to the arrows' boards; the earlier ones
// summarised as "+N earlier").
//
// Piece glyphs are drawn as shapes (a disc with the piece's 5DFEN letter stroked as a path,
// royal pieces ringed), so every kind of movegen/types.h is readable without any font; only the
// labels (timelines, turns, captions) are <text> in a generic font family.
//
// This library depends on the rules engine only; notation (labels, move text) comes from the
// caller through Scene.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "movegen/multiverse.h"

namespace fived::render {

enum class ArrowKind : std::uint8_t {
    LastAction, // the moves of the action that led to the position
    Key,        // a solver's key action
    Threat,     // what the attacker threatens
    Check,      // an attack on a royal piece of the side to move
};

struct Arrow {
    movegen::Move move; // from its source square to its target square, both on existing boards
    ArrowKind     kind = ArrowKind::LastAction;
};

struct Options {
    int    maxTimelines = 16;   // rows drawn at most; the others are summarised
    int    maxHalfTurns = 20;   // columns drawn at most (more only to reach an arrow's board)
    double maxWidth     = 1600; // the boards are scaled down to fit (CSS pixels)
    double maxHeight    = 1400;
    double maxSquare    = 40; // side of a square at most, and at least
    double minSquare    = 3;
    // Rather than squares smaller than this, fewer timelines and half-turns are drawn (within
    // maxTimelines and maxHalfTurns).
    double readableSquare = 10;
    bool   unmovedMarks   = false; // a dot on pawns, brawns, kings and rooks that never moved
    // Put before every id of the picture (and every reference to one), so that several pictures
    // can live in one HTML page (render/html.h); letters, digits and '-' only.
    std::string idPrefix;
};

struct Scene {
    std::vector<Arrow>       arrows;
    std::vector<std::string> caption; // lines of text above the boards
    // The label of timeline ℓ (e.g. notation::canonical_line_label); ℓ itself when unset.
    std::function<std::string(int l)> lineLabel;
};

struct Point {
    double x = 0, y = 0;
};

// Where everything goes. All coordinates are SVG user units (CSS pixels), origin top left.
struct Layout {
    struct Row { // a drawn timeline
        int    l      = 0;
        double y      = 0; // top of its boards
        bool   active = true;
    };
    struct Gap { // consecutive timelines not drawn
        int    lowL = 0, highL = 0;
        double y = 0, height = 0;
        int    count() const { return highL - lowL + 1; }
    };
    struct LaidArrow {
        Point     from, to; // centres of the source and target squares
        ArrowKind kind = ArrowKind::LastAction;
        bool      jump = false; // between two boards
    };

    double                 width = 0, height = 0;
    double                 square = 0; // side of one square
    int                    files = 8, ranks = 8;
    double                 boardW = 0, boardH = 0;
    double                 gapX = 0, gapY = 0;
    double                 fontSize   = 14;
    double                 captionTop = 0, headerY = 0; // baseline of the turn labels
    double                 left = 0, top = 0; // top left of the first column's boards in row 0
    int                    v0 = 0, v1 = -1;   // the half-turns drawn
    int                    hiddenEarlier = 0; // half-turns before v0 that have boards
    std::vector<Row>       rows;              // top to bottom (ℓ descending)
    std::vector<Gap>       gaps;              // top to bottom
    std::vector<LaidArrow> arrows;            // in Scene order, those whose both ends are drawn
    int                    droppedArrows = 0;

    const Row* row_of(int l) const;
    // Top left of board (l, v), if it is drawn.
    std::optional<Point> board_origin(int l, int v) const;
    // Centre of square p.sq() on board (p.l(), p.v()), if that board is drawn.
    std::optional<Point> square_center(movegen::Vec4 p) const;
};

Layout layout(const movegen::Multiverse& mv, const Scene& scene, const Options& opt = {});

// The whole picture, an SVG 1.1 document.
std::string svg(const movegen::Multiverse& mv, const Scene& scene, const Options& opt = {});

// The position in words: side to move, present, timelines (active ones), and check, checkmate or
// stalemate ("White to move, present T3, 2 timelines (2 active), in check"). mv is left as it
// was (the verdict makes and unmakes actions on it).
std::string state_text(movegen::Multiverse& mv);

// Text as XML (and HTML) character data or a double-quoted attribute value, valid whatever the
// bytes: markup characters as entities; a byte outside a valid UTF-8 sequence, a control
// character and U+FFFE / U+FFFF as the text \xHH, one per byte (as fived's JSON writes them).
std::string xml_text(std::string_view text);

// The attacks that make the side to move in check (movegen::turn_start_checks), as Check
// arrows onto the royal's last board (not the passed copy the test makes).
std::vector<Arrow> check_arrows(const movegen::Multiverse& mv);

} // namespace fived::render
