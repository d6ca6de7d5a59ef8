#pragma once
// Reader of 5DPGN, 5DFEN and Branched 5DPGN text into the syntax tree of notation/syntax.h.
//
// What is checked here (NOTATION.md §4): the whole grammar and lexical rules 1-7, strictly
// (unconsumed input is an error); header syntax, duplicate keys, the Size header (WxH, at most
// 8x8) and the Timeline(s) header (Odd/Even); every 5DFEN board's fields and rows against the
// Size; 5DFEN timeline labels against the parity (`0` in an even game, `-0`/`+0` in an odd one,
// or both kinds mixed); files a..h and ranks 1..8 in moves (B 6).
//
// What is NOT checked (it needs the position or the rules): whether squares exist on a
// narrower board, timeline labels of moves against the parity, turn numbers against the side
// to move (see check_turn_serials), move resolution, legality, marks. Those errors belong to
// the semantic layer, which reports them with error_status() in the same format.
//
// The parser is iterative: variations nest through an explicit stack and comments through a
// depth counter, so input depth never reaches the call stack; time is linear in the input.

#include <optional>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "movegen/types.h"
#include "notation/syntax.h"

namespace fived::notation {

// Parses a whole document. On failure returns false and fills `err`; `out` is then
// unspecified. `fileName` only labels diagnostics.
bool parse_document(
    std::string_view text, std::string_view fileName, Document& out, Diagnostic& err);

// Receives the nodes of a document from parse_document_streaming(), in document order (which is
// the depth-first order of the tree, children in written order).
class NodeSink {
public:
    virtual ~NodeSink() = default;
    // A new node `id` (the parent's id is node.parent; the root is 0 and is never announced).
    // Its action is complete; comments and a result standing after it may still come.
    virtual bool on_node(int id, const Node& node) = 0;
    // Node `id` is complete: every comment and its result are in; the parser drops it after
    // this call. The root (0, with the root's result; its comments are in the Document) comes
    // last. Every finished node lies on the path from the root to the newest node.
    virtual bool on_finish(int id, const Node& node) = 0;
};

// parse_document() without keeping the tree: `out` receives the headers, 5DFEN boards, root
// comments, warnings, promotionsNamed and the root, while every other node lives only as long
// as the parser can still add to it (the current node and the nodes whose variation is open),
// so memory grows with the depth of the tree, not with its size. Each node is handed to `sink`
// (if any) as it is read and when it is complete. When a sink call returns false the parse
// stops and returns false with `err` empty (cause ""); a syntax error returns false as in
// parse_document(), possibly after nodes were handed on.
bool parse_document_streaming(std::string_view text, std::string_view fileName, Document& out,
    NodeSink* sink, Diagnostic& err);

// The same as a status: on failure kInvalidArgument with the message "FILE:LINE:COL: CAUSE"
// and the diagnostic attached as a payload (read it back with diagnostic_of()).
absl::StatusOr<Document> parse_document(std::string_view text, std::string_view fileName);

// The error status for a diagnostic, in the format above. For the semantic layer as well, so
// every notation error looks alike and carries its position.
absl::Status error_status(const Diagnostic& d);

// The diagnostic carried by a status made by error_status() (or a failed parse_document());
// nullopt for an OK status or a status from elsewhere.
std::optional<Diagnostic> diagnostic_of(const absl::Status& status);

// Checks every turn serial against the sub-turn its action is played on, given who moves first
// at the root: a numbered serial `N.`/`Nw.`/`Nb.` must name exactly that sub-turn, counting full
// turns from 1 at the root (a Black-to-move record starts with `1b.`, NOTATION.md §7); `/` is
// "the next sub-turn" and always fits. This is the semantic check of invalid/turn-number-skipped
// and optional/turn-number-repeated-aivsai; it is separate from parse_document() because the
// side to move comes from the position.
// The error of one serial: nullopt when `s` names the sub-turn of a node `ply` actions from the
// root (see check_turn_serials()).
std::optional<Diagnostic> serial_error(
    const Serial& s, int ply, movegen::Color firstToMove, std::string_view fileName);

absl::Status check_turn_serials(
    const Document& doc, std::string_view fileName, movegen::Color firstToMove);

} // namespace fived::notation
