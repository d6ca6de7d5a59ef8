#pragma once
// A tree of actions: the one tree type of the engine. The notation reader builds one from a
// Branched 5DPGN text and the writer prints one (notation::GameTree adds the headers and the
// start position); the solver builds one as the proof of a mate and check_proof() walks one
// (solver::SolutionTree is this type). The command line hands the same tree from one side to
// the other, so nothing converts node by node between two tree types.
//
// Design:
//   * An index arena: nodes[0] is the root (the start position, no action), and it always
//     exists. Every other node owns the action that leads into it from its parent, in standard
//     order (the order movegen's enumerations yield). Parents have smaller indices than their
//     children, so a forward loop over `nodes` visits a parent before its children and nothing
//     walks the tree recursively (deep trees neither overflow the stack nor destroy
//     recursively).
//   * Children keep their order. In a written tree the main line is the LAST child; a proof
//     keeps the solver's order, which the command line rearranges before writing.
//   * The annotations are those of the written form (NOTATION.md §7): a mark, a result, an
//     evaluation symbol and a comment. A mate leaf of a proof is a node marked CHECKMATE
//     (mate()), with the result it decides. A defence group (several defences that share one
//     immediately mating answer) is declared in the comment of the defence that is written,
//     as `{K defences share this answer: D1; ...}`: read_group() reads it, group_comment()
//     writes it, so the group costs no field in every node of a big tree.
//
// Not a hot-path type: trees are built after the search, node by node with vectors.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <absl/functional/function_ref.h>

#include "movegen/types.h"

namespace fived::movegen {

class Multiverse;

// `+ # *` after a move, or a lone `#`/`*` closing an action (B 4.6).
enum class Mark : std::uint8_t {
    NONE,
    CHECK,     // +
    CHECKMATE, // #
    SOFTMATE,  // *
};

// Nunn's evaluation symbols (B 4.7).
enum class Evaluation : std::uint8_t {
    NONE,
    GOOD,        // !
    MISTAKE,     // ?
    BRILLIANT,   // !!
    BLUNDER,     // ??
    INTERESTING, // !?
    DUBIOUS,     // ?!
};

// The result token written after a decided leaf.
enum class Outcome : std::uint8_t {
    NONE,
    WHITE_WINS, // 1-0
    BLACK_WINS, // 0-1
    DRAW,       // 1/2-1/2
};

// One node: the position after `action` was made from `parent`'s position.
// (The small fields come first: a tree read from a big text holds millions of nodes.)
struct TreeNode {
    int     parent = -1;            // -1 for the root
    Mark    mark   = Mark::NONE;    // `#`/`*` on the action's last move (engine-computed)
    Outcome result = Outcome::NONE; // a decided leaf: the result token written after it
    // An evaluation symbol written after the action's last move (`!`, `?`, ...): set by tools
    // that annotate (solve --problemist); the reader does not keep them, so the canonical form
    // (fmt) has none (NOTATION.md §7).
    Evaluation        evaluation = Evaluation::NONE;
    std::vector<Move> action;   // from the parent's position, standard order; empty at the root
    std::vector<int>  children; // in order; the main line of a written tree is the LAST child
    std::string       comment;  // written after the action as {comment}; may be empty

    // The side to move here is checkmated (a mate leaf of a proof, or a `#` the reader
    // computed or, without annotation, read).
    bool mate() const { return mark == Mark::CHECKMATE; }
};

struct Tree {
    std::vector<TreeNode> nodes; // nodes[0] is the root

    Tree() : nodes(1) { }

    // Appends a child of `parent` reached by `action`; returns its index.
    int add(int parent, std::span<const Move> action);
    // Appends a child of `parent` with the action and annotations of `like` (not its links).
    int add(int parent, const TreeNode& like);
    // Appends `sub` below `parent`: its root becomes a child reached by `action` (with the
    // root's annotations), its other nodes follow in their order. Returns the new child.
    int graft(int parent, std::span<const Move> action, const Tree& sub);
    // Marks `node` a mate leaf: `mated` (the side to move there) is checkmated.
    void set_mate(int node, Color mated);

    // Actions from the root to `node` (plies).
    int depth(int node) const;
    // The nodes from the root's child down to `node` (empty for the root).
    std::vector<int> line(int node) const;
    // The main line: the root, then each node's last child down to a leaf.
    std::vector<int> main_line() const;
    // Per node, the actions on the longest line below it (0 at a leaf).
    std::vector<int> heights() const;
    // Attacker actions on the longest line from the root, when the side to move at the root
    // is the attacker (every odd ply is an attacker action).
    int length() const;

    // The position of `node`, on a fork of `root` (the position at the root). For tools and
    // tests; walks that visit many nodes use walk().
    Multiverse position_at(const Multiverse& root, int node) const;
    // Visits every node depth-first, a node before its children and children in order, with
    // mv at the node's position: each action is made on the way down and unmade on the way up,
    // so mv (at the root's position on entry) is restored on return. `visit` may change the
    // annotations of nodes, never their links or actions.
    void walk(Multiverse& mv, absl::FunctionRef<void(int node, Multiverse& mv)> visit) const;
    // Gives every move of the tree the flags of the position where it is played
    // (restamp_action()): a tree assembled from actions found in other positions (a sibling's
    // answer) then prints and replays as its own lines do. mv is at the root's position and is
    // restored. Returns false when some move is not a move of the position it stands in (the
    // tree is then partly restamped).
    bool restamp_moves(Multiverse& mv);
    // The tree below `top` as a tree of its own (top becomes a bare root, the other nodes keep
    // their actions and annotations). Numbering: a node's children take consecutive indices,
    // and the subtree of its last child is numbered before those of its other children (the
    // composer's analysis lists duals in index order, so `fived verify` depends on it).
    // Nothing when the copy would hold more than maxNodes nodes.
    std::optional<Tree> subtree(
        int top, std::size_t maxNodes = std::numeric_limits<std::size_t>::max()) const;
};

// --- defence groups -----------------------------------------------------------------------------
//
// At a defender node with many defences, the defences that share one immediately mating answer
// may be written once: the written defence's comment `K defences share this answer: D1; D2; ...`
// declares the group (itself among the K) and names its defences as an action text (any form the
// action formatter prints; blanks do not matter). Without the list, the count alone declares
// K - 1 unnamed defences.

struct DefenceGroup {
    int                      size = 0; // K, at least 1
    std::vector<std::string> names;    // normalise_action_text() of each listed defence
};

// `K defences share this answer: D1; D2; ...` for the given defences (K = their number).
std::string group_comment(const std::vector<std::string>& defences);

// Reads a group out of a comment: the phrase `K defences share this answer`, then optionally
// `:` and the defences separated by `;` up to the end of the comment. Returns false when the
// comment declares no group (K must be at least 1); `group` is then untouched.
bool read_group(std::string_view comment, DefenceGroup& group);

// Whitespace-normalised text of an action (runs of blanks one space, trimmed), as the names of a
// group are compared.
std::string normalise_action_text(std::string_view text);

} // namespace fived::movegen
