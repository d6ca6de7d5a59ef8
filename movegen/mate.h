#pragma once
// Mate in one without listing the attacker's actions one by one (issue 10).
//
// The attacker's actions are searched as a hypercuboid (hypercuboid.h), which never thrashes
// where legal actions are sparse, so a wide position's mate is not behind millions of listed
// actions. An action A that does not give check (§5.4) cannot mate and is left out alone. After
// one that does, the defender's existence test either finds no legal action (checkmate, §5.5)
// or hands back an escape e. Then every action A' alike to A in the sense of
// HypercuboidSearch::for_each_cut is left out, with `keep` = every timeline from the first to the
// last that a move of e starts on, ends on or crosses: e stays a legal action after each such A'.
//
// Why (RULES.md §3-§5). A' makes the same choice as A on e's timelines, passes the same playable
// boards and creates the same timelines. Then, after A':
//  * every board e reads is the same board: boards are immutable, the boards A' creates on e's
//    timelines are A's, and the other boards e could cross (between its first and last timeline)
//    are kept too; so each move of e can be made as after A (same piece, path, capture, en
//    passant and castling conditions, which read only these boards);
//  * the timelines, their last boards' times and colours, and the new timelines are the same, so
//    the active timelines, the present and the mandatory boards are the same, and e passes the
//    present to the attacker as it did after A;
//  * after e no royal of the defender is attacked: an attack (§5.2) is a capturing move of an
//    attacker piece that starts on a last board of the attacker's colour and travels over boards
//    of that colour only. The attacker-coloured boards after A' followed by e are the history
//    (unchanged), e's new boards (the same) and the last boards of the timelines A' passes (the
//    same: A passes them too). The boards A' creates where it differs from A are of the
//    defender's colour and, e not moving there, stay so: no attack starts on, lands on or
//    crosses them.
// So a cut never removes a mating action; every mate reported is one that was made and tested.
//
// An action A that does not give check leaves out, with it, every action A' that moves on the
// same playable boards, creates the same timelines the same way, and whose every created board
// holds what A's does on that timeline's attack squares (attack_squares()): walking from each
// royal of the defender on a board of the attacker's colour (existing, or one an action creates:
// royals stand there as on the last board, since an action captures none) along every unit
// direction of the four axes (RULES.md §2.1: riders, and the kings' and pawns' steps) over
// existing boards while their square is empty, and over created boards whatever they hold,
// until no board can be there; and every leap of 1 and 2 along two axes. The squares met on
// created boards are the attack squares. If A creates timelines, their boards copy existing
// ones: royals may stand there on any royal square at any time, and the lines from them widen
// the squares (branchSquares). An attack on the defender after A' (§5.4: its mandatory boards
// passed, then §5.2) is a capturing move from a last board of the attacker's colour (the same
// boards after A and A') along such a line or leap onto such a royal, every square of it either
// on an existing board (unchanged) or an attack square of a created board (the same contents
// after A). So A would be in check too: A' gives no check and cannot mate.
// The tests check the set of mating actions against a plain enumeration.

#include <cstdint>
#include <span>
#include <vector>

#include <absl/functional/function_ref.h>

#include "movegen/hypercuboid.h"
#include "movegen/multiverse.h"

namespace fived::movegen {

class MateInOneSearch {
public:
    // The quiet cut (above) is used from this many playable boards of the mover on.
    static constexpr int QuietCutBoards = 3;

    struct Stats {
        std::uint64_t actions   = 0; // attacker actions tested
        std::uint64_t cuts      = 0; // checking actions whose escape was generalised
        std::uint64_t quietCuts = 0; // actions without check whose quietness was generalised
    };
    // Calls mate(action) for mating actions of the side to move (the action made on mv; the
    // visitor must leave mv as it found it) until it returns false; tested() is called before
    // each attacker action is probed and may stop the search by returning false (a limit).
    // Returns false iff stopped. The order is the hypercuboid's, deterministic.
    bool for_each_mate(Multiverse& mv, absl::FunctionRef<bool(std::span<const Move>)> mate,
        absl::FunctionRef<bool()> tested);
    // The first mating action, or none.
    bool find(Multiverse& mv, std::vector<Move>* key = nullptr);

    const Stats& stats() const { return stats_; }

private:
    // squares[ℓ - min ℓ]: the squares of timeline ℓ (on any of its boards) that lie on a line
    // or a knight's leap to a royal of the defender (on any board): see the header comment.
    void                  attack_squares(const Multiverse& mv);
    std::vector<Bitboard> squares;       // for actions that create no timeline
    std::vector<Bitboard> branchSquares; // for those that do
    HypercuboidSearch     attacker, defender;
    std::vector<Move>     escape;
    Stats                 stats_;
};

} // namespace fived::movegen
