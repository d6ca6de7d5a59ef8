#pragma once
// The tree reader: a whole Document (every variation, at any depth) into a resolved GameTree.
//
// Steps (NOTATION.md §4-§6):
//  1. the start position from the headers and the 5DFEN (build_start_position);
//  2. a depth-first walk over the document's nodes with an explicit stack, replaying each action
//     on ONE multiverse by make/unmake (no copy per node): every move is resolved against the
//     moves playable at that moment (§5), the action must be submittable, its turn serial must
//     name its sub-turn;
//  3. each action is put in standard order (§6) and compared with the siblings already read:
//     equal actions are one child (their subtrees merge recursively, comments are joined);
//  4. comments, result tokens and the `#`/`*` marks of the text are attached (a mark belongs to
//     the action: a lone mark or one on any of its moves); with ReadOptions::annotate the
//     engine checks those marks instead (annotate_tree), keeping only the true ones.
//
// From text (read_game_tree, check_game_text) no Document of the whole tree is built: the text
// is parsed twice with parse_document_streaming() (notation/parser.h), once for the syntax and
// the head, then with each node walked in step 2 as soon as it is parsed, so what is kept is the
// GameTree alone (at most ReadOptions::maxNodes nodes), or nothing for check_game_text.
//
// Time is linear in the document apart from move generation itself; nothing is recursive, so a
// tree of any depth is read without growing the call stack.

#include <optional>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "notation/game.h"
#include "notation/headers.h"
#include "notation/tree.h"

namespace fived::notation {

// The head of a tree read from `doc`, on `out` whose start position is set: its headers as
// the reader keeps them (those the writer computes from out.start dropped, in canonical form)
// and a root node whose comment is the document's comments before the first action. Any other
// node of `out` is dropped. For tools that write a new tree after a document's head.
void read_tree_head(const Document& doc, GameTree& out);

// Appends a comment's text to a node's comment: trimmed, braces turned into parentheses (the
// writer never nests comments, NOTATION.md §7), separated from earlier text by one space.
void append_comment(std::string& to, std::string_view text);

// Reads `doc` into `out`. Semantic errors are appended to `errors` (at most opt.maxErrors;
// after each one the offending subtree is skipped). Returns true iff there was none. What `opt`
// lets through (an action leaving a royal piece attacked, with checkKingSafety off) is appended
// to `warnings` when given.
bool read_tree(const Document& doc, std::string_view file, const ReadOptions& opt, GameTree& out,
    std::vector<Diagnostic>& errors, std::vector<Diagnostic>* warnings = nullptr);

// Parses and reads text. On failure returns nullopt; `errors` holds the syntax error, or the
// semantic errors found. `warnings` (when given) receives the document's (deprecated piece
// names) and read_tree()'s.
std::optional<GameTree> read_game_tree(std::string_view text, std::string_view file,
    const ReadOptions& opt, std::vector<Diagnostic>& errors,
    std::vector<Diagnostic>* warnings = nullptr);

// What check-notation needs: parses and replays every variation of text like read_game_tree()
// (the same errors, up to opt.maxErrors, and warnings) without keeping any tree, in memory that
// grows with the depth of the tree only. Returns true iff there was no error.
bool check_game_text(std::string_view text, std::string_view file, const ReadOptions& opt,
    std::vector<Diagnostic>& errors, std::vector<Diagnostic>* warnings = nullptr);

// The same as a status carrying the first diagnostic (see error_status() in parser.h).
absl::StatusOr<GameTree> read_game_tree(
    std::string_view text, std::string_view file, const ReadOptions& opt = {});

// Engine annotation of a tree: every mark is cleared, then each evaluated node (every leaf, or
// with `only`, the nodes it flags; the reader flags those its text marked `#` or `*`) gets
//  * at a leaf whose side to move is checkmated: mark CHECKMATE and, if it has no result, the
//    win of the side that moved; at a stalemated leaf without a result: DRAW;
//  * where legal actions remain: SOFTMATE if the side to move is softmated (RULES.md §5.5).
// Cost: a mate test (a search over the legal actions) per evaluated leaf, and an enumeration
// of the legal actions wherever the side to move is in check. A checkmate across many
// timelines can take the current movegen minutes to prove, which is why the reader does not
// annotate by default.
void annotate_tree(GameTree& tree, const std::vector<bool>* only = nullptr);

} // namespace fived::notation
