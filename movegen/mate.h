#pragma once
// Mate in one without listing the attacker's actions one by one (issue 10).
//
// The attacker's actions are searched as a hypercuboid (hypercuboid.h), which never thrashes
// where legal actions are sparse, so a wide position's mate is not behind millions of listed
// actions. An action A that does not give check (§5.4) cannot mate and is left out alone. After
// one that does, the defender's existence test either finds no legal action (checkmate, §5.5)
// or hands back an escape e (first, the last RememberedEscapes escapes found are tested for
// legality, which costs less: sibling checks are usually escaped alike, and the checks of sibling
// positions too; any legal action is an escape). Then every
// action A' alike to A in the sense of HypercuboidSearch::for_each_cut is left out: e stays a legal
// action after each such A'. With fewer than QuietCutBoards playable boards (CUT) `keep` is every
// timeline from the first to the last that a move of e starts on, ends on or crosses. Otherwise
// (CUT_ON_SQUARES, escape_squares()) `keep` holds only the timelines of e's castling, en passant
// and double steps, and the rules (SquareRules) on the boards A created are: the same contents on
// the squares e reads there (each move's from and to squares, and for a line the squares between,
// on every board it travels over; every square of a board a jump of e lands on, whose whole
// contents its arrival copies, onto a new timeline when another move of e made that board a past
// one), and the lines' rules (below) of the defender's royals after e.
//
// Why (RULES.md §3-§5). A' makes the same choice as A on the timelines kept, moves on every
// playable board A moves on with a board that has the same royals of the defender and keeps that
// timeline's rules, and creates as many timelines as A, the k-th with its first board at the same
// time and keeping its rules, or when e does not read that timeline (no rule), with any first
// board later than the present e passes to the attacker, as A's is, or with any first board at
// all when that timeline is inactive after e (SquareRules::anyStart: it has as many timelines of
// each side as A with e, so it is inactive after A' with e too, never holds the present and is
// never passed) (it may move on boards A passes, and make other moves and branches elsewhere).
// Then, after A':
//  * each move of e can be made as after A: the boards it reads that A did not create are the
//    same boards (boards are immutable, and a board A' adds where A passes did not exist after A,
//    so no move of e travelled over it), and on those A created it meets the same contents on
//    every square it travels over, so the same piece moves along the same path to the same
//    capture. Castling (attacked squares), en passant (the previous move) and double steps (the
//    unmoved flags) read more, so their timelines are kept: there A' makes A's choice;
//  * e passes the present to the attacker (RULES.md §4.4) as it did after A: A passes a board
//    only if its timeline does not end the action at the present (A is legal), so a move there
//    ends it later still; every other timeline ends at the same time, except a created one that e
//    does not read, which ends after the present e passes to the attacker either way or is
//    inactive (then it does not count for the present); and the
//    number of timelines of each side (hence activity) is the same;
//  * after e no royal of the defender is attacked: an attack (§5.2) is a capturing move of an
//    attacker piece that starts on a last board of the attacker's colour and travels over boards
//    of that colour only. The attacker-coloured boards after A' followed by e are the history
//    (unchanged), e's new boards and the last boards of the timelines A' passes (a subset of those
//    A passes). The boards A' creates where it differs from A are of the defender's colour and,
//    e not moving there, stay so: no attack starts on, lands on or crosses them. e's new boards
//    are made by the same moves from boards that keep the lines' rules, so no line from a royal
//    meets a piece that captures along it (below).
// Another move of e on a board (SquareRules::local). Where a board the action created is read by
// one move of e only, a move that stays on that board (the escape's own move there, e_ℓ), the
// rules of the lines above are taken on the board after e_ℓ, and `same` holds e_ℓ's squares only.
// An entry whose board fails them is alike too when the defender has a move there that stays on
// the board (not castling, en passant or a double step, which read more) after which the board
// has the same royals of the defender as after e_ℓ and keeps the lines' rules: e with e_ℓ
// replaced by that move is an escape after A'. It is an action: the same boards are moved on
// (so the same present is passed) and it creates no timeline; the rest of e does not read that
// board, so it can be made as before; and the lines' rules only ask of each board's contents
// what they ask whatever the contents of the other boards are, from royals on the same squares.
// (Measured: in cwmtt-many2 --at -5 every check's escape captures the checker, on its own square
// on each board, and a cut took 1 of an axis' 47 entries; with another move there, all but the
// pass.)
// More timelines (SquareRules::anyBranch). When the attacker has created more timelines than the
// defender after A with e (a quiet A: after A), every timeline the attacker creates beyond them is
// inactive and leaves the activity of every other timeline as it is (further_timelines_inactive(),
// RULES.md §4.1). Then A' may create more timelines than A, by any branching jumps. Each such
// jump's departure is a move on a board of the attacker (one A passes, or an entry alike on a
// board A moves on), as above. Its new timeline is inactive, so the present is as it was, and
// in the check test it is not passed; its only board is of the defender's colour, so no attack
// starts on it or crosses it and no royal on it can be attacked (§5.2). e does not read it: it
// did not exist, and it lies past every timeline on the attacker's side, so no move of e crosses
// it; the timelines e creates are numbered on the other side. So e is an escape after A' (and a
// quiet A' gives no check).
// So a cut never removes a mating action; every mate reported is one that was made and tested.
//
// An action A that does not give check leaves out, with it, every action A' that moves on every
// board A moves on, making there an entry whose board has the same royals of the defender and
// keeps that timeline's rules; makes anything on the boards A passes; and creates as many
// timelines, the k-th with a first board at the same time, with the same royals and keeping the
// rules of that new timeline, or with any first board after the present when A's is (then it is
// not passed, and nothing reads it) (action_squares()): the lines' rules of A's check test
// itself, with the defender's mandatory boards passed. After A' the same boards are passed (the
// present and the mandatory boards are the same, as above) and the royals stand where they stood
// after A; by the lines' rules no attack reaches them. So A' gives no check and cannot mate.
//
// The lines' rules. From each royal of the defender on a board of the attacker's colour, walk
// every unit direction of the four axes (RULES.md §2.1: riders, and the kings' and pawns' steps)
// until the first piece on a board whose contents do not depend on the action (a fixed piece),
// or a missing board or the edge; and every leap of 1 and 2 along two axes. On a board whose
// contents depend on the action (the one A creates, or its pass copy or e's board made from it),
// a square k steps along a line is watched for the attacker's pieces that capture k steps along
// it (capturers_along(); a leap's square, for knights), past the pieces met there. If a piece
// beyond the first one met on such a board (or the fixed piece) is such a capturer, that first
// piece's square must hold some piece (a shield), and the line is watched up to it only. A's own
// boards keep these rules: it gives no check (or e escapes it), so no line meets a capturer
// first. On a board A' makes that keeps them, each line's first piece is on a watched square,
// the shield or the fixed piece, and none of these captures along the line: no royal is attacked.
// (A capturer counts whatever board it stands on; an attack also needs a last board of the
// attacker's colour, so this only leaves out less.)
// The tests check the set of mating actions against a plain enumeration.

#include <array>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include <absl/functional/function_ref.h>

#include "movegen/actions.h"
#include "movegen/hypercuboid.h"
#include "movegen/multiverse.h"

namespace fived::movegen {

class MateInOneSearch {
public:
    // The quiet cut (above) is used from this many playable boards of the mover on.
    static constexpr int QuietCutBoards = 2;
    // The escapes remembered, most recently used first (remembered_escape()). Measured on
    // tools-princess-checkmate --at -3 --mate 2, where each key's mate-in-one search after its
    // refutation meets about 25 checks: with the last 2 escapes, 28 % of the checks were escaped
    // by one of them and the rest went to the existence test; with 16, 98 %; with 48, 99.8 % (97 %
    // of those among the first 16). With 32 the case is decided in 34 s (unknown at 60 s with 2).
    static constexpr std::size_t RememberedEscapes = 32;

    MateInOneSearch() {
        // Room for the usual escape in every slot: the slots change places (remember_escape()),
        // and one that had held only short escapes would grow in the middle of a search.
        for (std::vector<Move>& e : lastEscapes)
            e.reserve(16);
    }
    // Does mv's side to move have that many playable boards (the cuts on squares are used)?
    static bool cuts_pay(const Multiverse& mv);

    struct Stats {
        std::uint64_t actions     = 0; // attacker actions tested
        std::uint64_t cuts        = 0; // checking actions whose escape was generalised
        std::uint64_t squareCuts  = 0; // of those, on the squares the escape reads
        std::uint64_t quietCuts   = 0; // actions without check whose quietness was generalised
        std::uint64_t reused      = 0; // of the cuts, escapes found among the last ones
        std::uint64_t byOtherMove = 0; // entries the cuts took by another escape move there
        std::uint64_t byAnyStart  = 0; // branches the cuts took at another time (inactive)
        std::uint64_t byAnyBranch = 0; // cuts that took more created timelines (inactive)
    };
    // Calls mate(action) for mating actions of the side to move (the action made on mv; the
    // visitor must leave mv as it found it) until it returns false; tested() is called before
    // each attacker action is probed and may stop the search by returning false (a limit).
    // Returns false iff stopped, also soon after *stop is set (given). The order is the
    // hypercuboid's, deterministic.
    bool for_each_mate(Multiverse& mv, absl::FunctionRef<bool(std::span<const Move>)> mate,
        absl::FunctionRef<bool()> tested, const std::atomic<bool>* stop = nullptr);
    // Calls check(action) for every action of the side to move that gives check (the action
    // made on mv; the visitor must leave mv as it found it, and may search below it) until it
    // returns false. The actions without check are left out as for_each_mate() leaves them out
    // (the quiet cut), so a wide position's checks are met without meeting its quiet actions
    // one by one; each checking action is shown once. tested() and the order as there; returns
    // false iff stopped.
    bool for_each_check(Multiverse& mv, absl::FunctionRef<bool(std::span<const Move>)> check,
        absl::FunctionRef<bool()> tested, const std::atomic<bool>* stop = nullptr);
    // As for_each_check(), but check(action, keep) answers as a HypercuboidSearch::for_each_cut()
    // visitor does: NEXT, STOP, or a cut of the actions alike to this one (the caller's proof
    // that none of them is wanted: the checks among them are left out too). A CUT_ON_SQUARES
    // answer fills `keep` and the rules cut_squares() and cut_new_squares() give. Needs
    // cuts_pay(mv) (the rules' room).
    // The next for_each_check_cut() walks one share of the attacker's actions only, by their
    // entry on timeline l (HypercuboidSearch::only_share()).
    void only_share(int l, int parts, int part) { attacker.only_share(l, parts, part); }
    // Or over the actions of one pattern (HypercuboidSearch::only_pattern()).
    void only_pattern(std::span<const int> ls, std::span<const int> endVs, unsigned moves) {
        attacker.only_pattern(ls, endVs, moves);
    }
    bool for_each_check_cut(Multiverse& mv,
        absl::FunctionRef<HypercuboidSearch::Verdict(std::span<const Move>, std::vector<int>&)>
                                  check,
        absl::FunctionRef<bool()> tested, const std::atomic<bool>* stop = nullptr);
    // The rules a for_each_check_cut() visitor's CUT_ON_SQUARES leaves out by, as
    // HypercuboidSearch::for_each_cut() takes them: per timeline before the action (ℓ - min ℓ)
    // and per timeline it creates (the k-th). Valid during the visitor, as the walk left them.
    std::span<SquareRules> cut_squares() { return squares; }
    std::span<SquareRules> cut_new_squares() { return newSquares; }
    // A proof of "no mate in one" that holds for a class of positions (the search's class
    // refutation at r = 2, solver/search.h). It is for_each_mate() with two changes: an
    // attacker's action is left out for an attack on its own royals across boards only when
    // that attack's span of timelines meets none of `frozen` (HypercuboidSearch::
    // set_attacks_read_off(); the others are walked, legal or not), and no escape moves on,
    // arrives on or passes across a timeline of `frozen`. Returns true iff that walk ends without
    // a mate; false when it meets one (which may be no mate in mv itself) or is stopped
    // (tested(), *stop). Testing the attacks that read no frozen timeline leaves out most of
    // the illegal actions the walk met without them (cwmtt-wide --at -3: 388,000 actions walked
    // by the class proofs instead of 1,737,000, the same 22,188 classes proved).
    //
    // Why it holds for the class. Let mv be the position after an attacker action A and a
    // defence D, and T a timeline of `frozen` whose last board B (the defender's colour, made
    // by A, not played by D) is later than the present by more than one turn of some active
    // timeline: some active U != T has end_v(U) + 1 < end_v(T) (the caller checks this). Let
    // mv' differ from mv only in B's contents (another move of A there). In mv and in mv':
    //  * no attacker move starts on B, lands on it, or crosses it: the attacker moves only from
    //    and onto its own colour's boards, and a line keeps its board colour (RULES.md 3.1,
    //    3.2);
    //  * no attacker action makes T mandatory for the defender: its present is at most
    //    end_v(U) + 1 < end_v(T) (U stays active and ends at most one board later), so the
    //    check test after it (5.4) does not pass B, and then no attack starts on B, crosses B
    //    or ends on B (5.2: B is the defender's and stays the last board of T);
    //  * an escape that does not touch T is legal or not, and escapes or not, alike: its own
    //    moves do not read B, and the attack test after it does not either (as above).
    // So the attacker's consistent actions, which of them give check, and which of the escapes
    // walked answer them, are the same in mv and mv'. An attack on the attacker's royals that
    // this walk counts reads no board of T (its span meets no frozen timeline); the action
    // makes the same boards in mv' (it does not touch B), so the attack is there in mv' too and
    // the action is illegal in both, as is every action of the slice cut with it (alike on the
    // attack's squares of the boards the action makes). Only the attacks that may read B are
    // not counted. Every legal action of mv' is walked, and each check is escaped as in mv: no
    // mate in one.
    bool no_mate_over_class(Multiverse& mv, std::span<const int> frozen,
        absl::FunctionRef<bool()> tested, const std::atomic<bool>* stop = nullptr);
    // The first mating action, or none.
    bool find(Multiverse& mv, std::vector<Move>* key = nullptr);
    // Is mv's side to move checkmated (movegen::is_checkmate), after an action made on mv? Tested
    // as the search tests its actions: the remembered escapes first, then the existence test,
    // whose escape is remembered. For a search's own candidates (killers): they meet the same
    // checks and escapes as its actions do.
    bool mated(Multiverse& mv);

    const Stats& stats() const { return stats_; }
    // The attacker's hypercuboid forgets its learned slices past this many words (tests).
    void set_learned_cap(std::size_t words) { attacker.set_learned_cap(words); }
    void set_learned_window(std::size_t slices) { attacker.set_learned_window(slices); }
    void set_compare_all_squares(bool all) { attacker.set_compare_all_squares(all); }
    // Tests: the hypercuboids keep no answers about boards (HypercuboidSearch::set_memos).
    void set_memos(bool on) {
        attacker.set_memos(on);
        defender.set_memos(on);
    }
    // Tests: walk_from_royals() walks every line from a royal on a board past the old ends, also
    // those whose (ℓ, T) part lands on no board whose contents vary (they add no rule).
    void set_walk_every_line(bool all) { walkEveryLine = all; }

private:
    // A walk from a royal of the defender on an existing board, stopped where it first meets a
    // board an action may add (one or two past a timeline's end, or on a timeline it creates):
    // resumed for each quiet action.
    struct Ray {
        int          l, v, x, y; // the royal's board and square
        int          j;          // the step that meets the board
        std::uint8_t dir;        // index into UnitDirs, or KnightLeaps with `knight`
        bool         knight;
        int          fl, fv; // the board met (step j)
    };
    // The rays of one royal along the lines of one (ℓ, T) part (the step j that meets the board,
    // and whether the x-y-fixed line is open up to it), or its leaps of one (ℓ, T) part (group:
    // the index into mate.cpp's UnitDirsByLT or KnightLeapsByLT), made into rays by expand().
    struct Seed {
        int          l, v, x, y;
        int          j;
        std::uint8_t group;
        bool         knight, stillOpen;
        int          fl, fv; // the board met
    };
    // Consecutive seeds that meet one board, seeds[firstSeed, lastSeed) (one board may have several
    // groups), and once expanded, their rays, rays[first, last): most such boards do not exist
    // after a given action (it passes there), and one look-up leaves out all of a group's rays.
    struct RayGroup {
        int         fl, fv;
        std::size_t firstSeed, lastSeed;
        std::size_t first = 0, last = 0;
        bool        expanded = false;
    };
    // The attacker's actions walked as a hypercuboid, those without check left out by the quiet
    // cut (or alone, without it); check(a, keep) answers for each one that gives check.
    bool walk_checks(Multiverse& mv,
        absl::FunctionRef<HypercuboidSearch::Verdict(std::span<const Move>, std::vector<int>&)>
                                  check,
        absl::FunctionRef<bool()> tested, const std::atomic<bool>* stop);
    void prepare_rays(const Multiverse& mv);
    void expand(const Multiverse& mv, RayGroup& group);
    // squares[ℓ - min ℓ] and newSquares[k] for the quiet action made on mv: the lines' rules
    // (header comment) on the boards it created (on existing timelines and on the k-th one it
    // creates), and for a created timeline the present it must start after (laterThan).
    void action_squares(Multiverse& mv);
    // Is one of lastEscapes a legal action after the checking action made on mv? Then it is in
    // `escape` and first in lastEscapes (the others keep their order). remember_escape():
    // `escape` (found by the existence test) goes first, the least recently used is forgotten.
    bool remembered_escape(Multiverse& mv);
    void remember_escape();
    // After a checking action made on mv: has the defender a legal action (then in `escape`)?
    // The remembered escapes first, then the existence test (remembered).
    bool escapes(Multiverse& mv);
    // For a checking action with escape e: fills `keep` with the timelines of e's moves that
    // read more than their own board, and the rules (as action_squares()): the same contents on
    // the squares the rest of e reads on the boards the action created, the lines' rules of the
    // defender's royals after e, and the present a created timeline must start after.
    void escape_squares(Multiverse& mv, std::vector<int>& keep);
    // Empties squares and newSquares (no rule, no laterThan).
    void clear_rules();
    // newSquares[k].laterThan (the present of mv), anyStart (the k-th created timeline is
    // inactive on mv; see mate.cpp) and anyBranch (further timelines of the attacker would be).
    void created_timeline_rules(const Multiverse& mv);
    int  max_l0() const { return minL0 + int(end0.size()) - 1; } // the last ℓ before the action
    // The rules of the board (l, v) of mv, made by the action, or null (not the action's).
    SquareRules* created_by_action(const Multiverse& mv, int l, int v);
    // From every royal of the defender on a board of the attacker's colour, each line and each
    // leap, adding the lines' rules (header comment) to variable(l, v): the rules of the board
    // (l, v) when its contents depend on the action, else null.
    template <class Variable>
    void walk_from_royals(const Multiverse& mv, Variable variable);
    // walk_from_royals()'s walks along one line or leap (mate.cpp).
    template <class Variable>
    struct RoyalLines;
    struct LineSquare {
        SquareRules*  rules;
        Square        sq;
        std::uint16_t types; // capturers_along() there
        bool          occupied;
    };
    // walk_from_royals()'s scratch: the squares of a line, and the boards (ℓ, v) with rules.
    std::vector<LineSquare>          lineSquares;
    std::vector<std::pair<int, int>> varBoards;
    std::vector<SquareRules>         squares;
    std::vector<SquareRules>         newSquares; // the k-th created timeline's
    std::vector<Seed>                seeds;      // in groups by the board they meet
    std::vector<Ray>                 rays;       // of the groups expanded
    std::vector<RayGroup>            rayGroups;
    std::vector<int>      end0;    // per timeline (ℓ - min ℓ): its last board before the action
    std::vector<int>      readers; // escape_squares()'s scratch
    int                   minL0         = 0;
    Color                 mover         = WHITE;
    bool                  quietCut      = false; // the walk's: cuts_pay() before the action
    bool                  walkEveryLine = false;
    MoveUndo              passUndo;
    std::vector<MoveUndo> escapeUndo;
    HypercuboidSearch     attacker, defender;
    std::vector<Move>     escape;
    // The escapes found or used last (by any call), most recent first, and their legality test.
    std::array<std::vector<Move>, RememberedEscapes> lastEscapes;
    ActionSearch                                     escapeCheck;
    std::vector<int> frozen_; // no_mate_over_class(): the timelines escapes keep off
    Stats            stats_;
};

} // namespace fived::movegen
