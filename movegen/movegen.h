#pragma once
// Pseudo-legal move generation for every piece in four dimensions, and the attack test.
//
// "Pseudo-legal" means: the piece moves by its rules (RULES.md §2), from a playable board of its
// colour (the last board of a timeline, §3.1) to an existing board of the same colour, with
// blocking, castling and en passant rules applied, but without the check rule, which applies to
// whole actions (§5.3). This is the set `fived moves` prints and the set shortened notation is
// resolved against (NOTATION.md §5 step 2).
//
// Output goes into caller-owned buffers (std::vector with retained capacity), never into returned
// vectors, so that search nodes allocate nothing after warm-up.

#include <vector>

#include <span>

#include <absl/functional/function_ref.h>

#include "movegen/multiverse.h"

namespace fived::movegen {

// Appends the pseudo-legal moves of the pieces on the last board of timeline l, which must be
// a board of the colour that moves on it. Moves of one piece are contiguous. With `from`, only
// the moves of the pieces on those squares.
void generate_board_moves(
    const Multiverse& mv, int l, std::vector<Move>& out, Bitboard from = ~Bitboard(0));

// Calls found(m) for the moves generate_board_moves(mv, l, ..., from) appends, in its order, until
// found returns true; returns whether it did.
bool find_board_move(
    const Multiverse& mv, int l, Bitboard from, absl::FunctionRef<bool(const Move&)> found);

// Calls found(m) for the moves of colour us's pieces on the squares `from` of board b, taken alone
// as if it stood at (l, v) with no other board in the multiverse: the moves that stay on b, by the
// rules of mv (its size and promotions), until found returns true; returns whether it did.
// Castling and double steps come only with b's unmoved flags; no en passant.
bool find_local_move(const Multiverse& mv, const Board& b, int l, int v, Color us, Bitboard from,
    absl::FunctionRef<bool(const Move&)> found);

// Gives each move of `action` (made in order from mv's position, as in an action) the flags
// the move generator gives it there: capture, en passant, castling, double step. Moves compare
// equal without their flags, so a move found in another position (a sibling's answer, a
// transposition) may carry that position's flags; its notation (`x`) and its make (en passant)
// must use this position's. mv is restored. Returns false, leaving the rest unchanged, at the
// first move that is not a pseudo-legal move of the last board of its timeline. Not for hot
// paths (it allocates).
bool restamp_action(Multiverse& mv, std::span<Move> action);

// Appends the pseudo-legal moves of colour us from all its playable boards, timelines ascending.
void generate_moves(const Multiverse& mv, Color us, std::vector<Move>& out);

// True iff some royal piece of colour us is attacked (RULES.md §5.2): a piece of ~us standing on
// the last board of its timeline, that board being of colour ~us, has a capturing pseudo-legal
// move onto it.
// The fast implementation visits only the boards aligned with each attacking tip (attacks.cpp).
bool royal_attacked(const Multiverse& mv, Color us);
// The same test for one tip: does a piece on timeline l's last board, when that board is of
// ~us's colour, have a capturing pseudo-legal move onto a royal of us?
bool tip_attacks_royal(const Multiverse& mv, int l, Color us);
// Incremental form for action search: given that no royal of us was attacked before the last
// board of timeline l was added, is one attacked now? (Only attacks that start on, end on or
// pass through that board are tested.)
// On success, info (if given) names the attack: the attacker's board (la, va), the royal's board
// (lk, vk), and whether it is a ride along the line of boards between them (whose squares then
// matter) or a leap.
// The path fields describe the capture itself, for searches that need to know which squares
// matter (hypercuboid.h): the attacker's square `from` on (la, va), the royal's square `to` on
// (lk, vk), and for a ride the unit step (ux, uy, ut, ul) (ut in turns) and its length k (the
// squares from + j·unit, 0 < j < k, on boards (la + j·ul, va + 2·j·ut) are empty). k = 0 for a
// leap. inBoard: a capture within one board (la, va) = (lk, vk), from unknown.
struct AttackInfo {
    int  la = 0, va = 0, lk = 0, vk = 0;
    bool ride = false;
    int  from = -1, to = -1;
    int  ux = 0, uy = 0, ut = 0, ul = 0, k = 0;
    bool inBoard = false;

    void set_path(int f, int t, int x, int y, int tt, int l, int steps, bool board) {
        from    = f;
        to      = t;
        ux      = x;
        uy      = y;
        ut      = tt;
        ul      = l;
        k       = steps;
        inBoard = board;
    }
};

// How far the boards run without a gap from board (l, v) along each unit (ul, ut) of the (ℓ, T)
// plane with ul = ±1. A ride of k steps crosses the boards 1 .. k-1 steps away, so a board k
// steps away along a line is reached by a ride only if the run is at least k long.
struct LineRuns {
    int len[2][3] = {}; // [ul > 0][ut + 1]

    LineRuns(const Multiverse& mv, int l, int v);
    // The run along the line towards (dl, dt) (dl != 0, dt = 0 or |dt| = |dl|).
    int toward(int dl, int dt) const { return len[dl > 0][(dt > 0) - (dt < 0) + 1]; }
    // How many timelines away (up: towards higher ℓ) some board may be reached: leaps reach 2.
    int reach(bool up) const { return std::max({2, len[up][0], len[up][1], len[up][2]}); }
    // How many timelines away, either way, the attack tests of the board look: as far as some
    // board may be reached, and one more on each line for the missing board that ends its run.
    // Whether an attack involves the board depends only on the boards this close to it (and not
    // on where it lies: the rules of movement are the same on every timeline).
    int window() const;
};

// acrossOnly: the caller has tested that board alone (royal_attacked_on_board() below, or this
// test when the board was made first), so only attacks between boards are looked for.
// runs: LineRuns of that board, when the caller has them.
bool attacked_via_board(const Multiverse& mv, Color us, int l, AttackInfo* info = nullptr,
    bool acrossOnly = false, const LineRuns* runs = nullptr);
// The first capture (in generation order) onto a royal of us by a piece of ~us standing on board
// (l, v), which must be a last board of ~us's colour, found by generating the pieces' captures;
// false if there is none. On a board with few pieces this is cheaper than looking back from
// every royal of every aligned board (attacks.cpp chooses).
bool royal_capture_from_board(const Multiverse& mv, int l, int v, Color us, Move* found);
// The same answer by generating every capture of every piece on every tip; for tests.
bool royal_attacked_reference(const Multiverse& mv, Color us);

// The attacks behind royal_attacked(): appends every capturing move of ~us onto a royal of us,
// in generation order, generated only from the tips that tip_attacks_royal().
void royal_attacks(const Multiverse& mv, Color us, std::vector<Move>& out);

// Is the side to move in check at the start of its turn (§5.4): mandatory boards are passed
// (an unchanged copy appended) and the §5.2 test is applied to the result.
bool in_check_at_turn_start(Multiverse& mv);
// The attacks behind in_check_at_turn_start(): appends every capture of a royal of the side to
// move, with the mandatory boards passed. A royal on a passed board (v = present + 1) is the
// same piece as on the last board (v = present), which is unchanged. Empty iff not in check.
void turn_start_checks(Multiverse& mv, std::vector<Move>& out);

// Is square sq of board b attacked by pieces of colour by standing on b itself, counting
// physical moves only (the castling rule, §2.4).
bool attacked_on_board(const Board& b, int width, int height, int sq, Color by);
// The square of a royal of us on board b that a piece of ~us on b itself attacks, or -1. Such a
// board is an attack wherever it is added as a last board of ~us's colour (a branching jump's
// arrival: actions.h).
int royal_attacked_on_board(const Board& b, int width, int height, Color us);
// royal_attacked_on_board(after, ...) >= 0, for a board `after` made by a move of us from a board
// `before` on which no royal of us is attacked by a piece on it. Where the move leaves the royals
// of us where they were and adds no piece of ~us (every square it changes is emptied or given a
// piece of us), only a line through a square it emptied can have opened: those lines are looked
// at alone. Otherwise the whole test.
bool royal_attacked_on_board_after(
    const Board& before, const Board& after, int width, int height, Color us);

} // namespace fived::movegen
