#pragma once
// The solution viewer for the command line (cli_html.cpp): `fived html FILE` and `solve --html`
// write a tree of actions as one self-contained HTML page (render/html.h) with one picture per
// node (render/svg.h), notation's move text, and the problemist markup of `solve --problemist`
// (the key, its threat, the tries, the duals) shown as such.

#include <cstddef>
#include <string>
#include <vector>

#include "notation/game.h"
#include "notation/tree.h"
#include "render/svg.h"

namespace fived::cli {

// At most this many nodes (one picture each) by default: a page of a few tens of MB at most.
constexpr std::size_t DefaultHtmlNodes = 1000;

struct HtmlRequest {
    std::string              file; // the input, for the title and the pictures' captions
    render::Options          picture;
    std::size_t              maxNodes = DefaultHtmlNodes;
    std::vector<std::string> summary; // lines above the move list (e.g. solve's answer)
};

// Writes the viewer of `tree` to `out` ('-' = standard output). puzzleNode: the node of the
// puzzle position (its children are the keys, the nodes before it the prelude), or -1 for a
// game. Returns an exit status: ExitOk, or ExitBadInput after printing why (more than maxNodes
// nodes, an output that cannot be written).
int write_html(
    const std::string& out, const notation::GameTree& tree, int puzzleNode, const HtmlRequest& req);

// The viewer `solve --html` writes: the written solution (prelude and proof, problemist markup if
// any), or without one (no mate, unknown) the prelude alone; `result` ("mate in 2", ...) above
// the move list.
int write_solve_html(const std::string& out, const std::string& file,
    const notation::LoadedGame& game, const notation::GameTree* solution,
    const std::string& result);

} // namespace fived::cli
