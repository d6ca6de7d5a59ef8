#pragma once
// A solution viewer: one self-contained HTML page (inline CSS, JS and SVG; nothing loaded from
// the network) that shows a tree of actions as a clickable move list, main line and variations
// nested, beside the picture of the multiverse after the move chosen (render/svg.h, one SVG per
// node, all embedded; the script only switches which one is shown). Keys: a click on a move;
// ← the parent, → the main continuation, ↑ / ↓ the previous / next sibling variation.
//
// The page's structure (what tests and scripts rely on):
//   * each node n of the tree is one move element `<a class="mv" id="mN" data-node="N">` (the
//     root: the start position), in document order as the moves are written (each node's main
//     continuation first, then its other children as variations, nested);
//   * each node is one frame `<div class="frame" id="fN" data-node="N">` holding its picture;
//     every frame but the one shown has the `hidden` attribute;
//   * `<body data-current="N">` names the node shown.
// A note longer than 120 bytes is shown cut at a blank, whole as the tooltip (title attribute).
// Every text of the page (titles, headers, moves, comments) is written through xml_text(): a
// byte that is not valid UTF-8 or a control character becomes the text \xHH, markup characters
// entities, so no input can add markup or script.
//
// Like svg.h, this library knows the rules engine only: the caller supplies the texts.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fived::render {

// A note beside a move: a comment, or what a problemist's markup says of it.
struct HtmlNote {
    enum class Kind : std::uint8_t {
        Comment, // any text
        Threat,  // the threat of a key ("threat: ... (mate in M)", "no threat (zugzwang)", ...)
        Dual,    // the attacker has two mating answers after this defence
    };
    Kind        kind = Kind::Comment;
    std::string text;
};

struct HtmlNode {
    int                   parent = -1; // -1 for the root (nodes[0])
    std::vector<int>      children;    // the main continuation first, then the variations in order
    std::string           number;      // the move number ("1w.", "2b."); empty at the root
    std::string           action;      // the action's text with its marks (`#`, `!`)
    bool                  key     = false; // a key of the puzzle (problemist `!`)
    bool                  prelude = false; // before the puzzle position
    std::vector<HtmlNote> notes;
    std::string           svg; // the picture after the action (an SVG document)
};

struct HtmlPage {
    std::string                                      title;
    std::vector<std::pair<std::string, std::string>> headers; // shown as a table
    std::vector<std::string>                         summary; // lines above the move list
    // Problemist tries: an attacker action and the one defence that refutes it.
    std::vector<std::pair<std::string, std::string>> tries;
    std::vector<HtmlNode>                            nodes;       // nodes[0] is the root
    int                                              initial = 0; // the node shown first
};

// The page. Nodes must form a tree (parents before children, as movegen::Tree keeps them).
std::string html(const HtmlPage& page);

} // namespace fived::render
