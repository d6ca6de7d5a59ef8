#pragma once
// Existence of a legal action by the hypercuboid method (ALGORITHMS.md B; penteract's
// FastCheckmate, ftxi's hypercuboid search), in our own formulation.
//
// The candidate actions form a product space. Each playable board is an axis whose entries are
// what can happen to that timeline in an action: a pass, a physical move, the departure of a piece
// (one entry per piece, whatever its target), or the arrival of a non-branching jump ("hop") from
// another axis. The k-th timeline the action may create is an axis too: a pass (not created) or
// one of the branching arrivals. A point (one entry per axis) is an action when departures and
// arrivals match one to one; it is legal when its jumps are consistent with the order in which
// the new timelines are numbered, the present passes to the opponent, and no royal of the mover
// is attacked afterwards.
//
// The space is kept as a stack of disjoint boxes (one set of entries per axis, as bitsets). The
// search takes a consistent point of a box (a matching between departures and arrivals); when the
// point is illegal it derives a *slice* — a box, constrained on a few axes, every point of which
// is illegal for the same reason — and cuts it out, which leaves at most one box per constrained
// axis. A legal point ends the search; an empty stack proves that there is no legal action.
//
// Slices:
//  * order: a branching jump onto a start-of-turn last board whose timeline passes (it would be a
//    hop), or whose timeline is replaced only by a later branching departure;
//  * present: a passed board whose timeline ends the action on the mover's colour at the
//    smallest end of the active timelines, with the conditions (number of new timelines, their
//    start times) under which it stays so;
//  * check: the attack found after making the point, as the entries that put the same piece (or
//    emptiness) on every square of its path that lies on a board the action creates.
//
// Soundness rests on the same fact as ActionSearch: within an action an attack never goes away.
// Everything is exact; there is no limit that could turn into a wrong "no legal action".

#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include <absl/functional/function_ref.h>

#include "movegen/matching.h"
#include "movegen/movegen.h"
#include "movegen/multiverse.h"

namespace fived::movegen {

// What a CUT_ON_SQUARES visitor (HypercuboidSearch::for_each_cut) asks of the board that an
// action alike to the one it was shown creates on a timeline, square by square: on `same` the
// same contents as the board that action created; on `watched` no piece of the mover whose type
// is in forbid[square] (bit per PieceType); on `shield` some piece. The shown action's own board
// must keep them (only the squares where two boards differ are looked at). On a created timeline
// with no square rule, laterThan >= 0 says that nothing reads its board as long as it comes after
// the present laterThan: then any branching arrival whose board is later than laterThan (at any
// time, with any contents) is alike when the shown action's is.
//
// With `anyStart` as well (a created timeline that is inactive, RULES.md §4.1), the present never
// depends on it and no line reads it wherever it starts: any branching arrival is alike.
//
// With `anyBranch`, on the k-th created timeline of a shown action that creates fewer than k + 1:
// any entry is alike (the timeline is not created, or created by any branching arrival: it would
// be inactive, see mate.h).
//
// With `local` (an escape's own move on that board, mate.h), `same` holds only that move's squares
// and the other rules are read on the board after it: an entry whose board fails the rules is
// alike too when the opponent has another move that stays on its board (find_local_move)
// after which the board holds the opponent's royals `royalsAfter` and keeps watched, forbid and
// shield.
struct SquareRules {
    Bitboard                      same = 0, watched = 0, shield = 0;
    std::array<std::uint16_t, 64> forbid{}; // zero off `watched`
    int                           laterThan   = -1;
    bool                          anyStart    = false;
    bool                          local       = false;
    bool                          anyBranch   = false;
    Bitboard                      royalsAfter = 0;

    bool empty() const { return !(same | watched | shield); }
    // Do the two ask the same of a board where the opponent has another move (`local`): the
    // parts HypercuboidSearch::alike_by_other_move() reads.
    bool same_for_other_move(const SquareRules& o) const {
        return watched == o.watched && shield == o.shield && royalsAfter == o.royalsAfter
            && forbid == o.forbid;
    }
    // Does the rule on square sq refuse piece p there, the shown action being the mover's?
    bool forbids(int sq, Piece p, Color mover) const {
        return p != NO_PIECE && color_of(p) == mover
            && (forbid[std::size_t(sq)] >> type_of(p) & 1u);
    }
    void clear() {
        for (Bitboard w = watched; w; w &= w - 1)
            forbid[std::size_t(std::countr_zero(w))] = 0;
        same = watched = shield = 0;
        laterThan               = -1;
        anyStart                = false;
        local                   = false;
        anyBranch               = false;
        royalsAfter             = 0;
    }
};

// Yes/no answers about a board that depend only on its contents and a tag (the question), kept
// across searches: direct-mapped by a hash of both, each answer kept with the whole board and
// tag, so one is found only for the same question. The slots are allocated by the first answer
// (once: no allocation afterwards); forget() empties them.
class BoardAnswers {
public:
    // 80 bytes each: 80 KiB per memo, two per search that uses them. Small, so that they stay in
    // the cache: tools-dead-timeline --at -5 --mate 3 --nodes 1500000 took as long with 4,096
    // slots as without the memos (A/B 0.99), and 0.91 of that time with 1,024 (0.98 with 256).
    static constexpr std::size_t Slots = std::size_t(1) << 10;
    // The answer to (board, tag): the one kept, else found(), which is then kept in the slot.
    template <class Found>
    bool answer(const Piece* board, std::uint64_t tag, Found found) {
        if (slots.empty()) slots.resize(Slots);
        Slot& s = slots[index(board, tag)];
        if (holds(s, board, tag)) return s.yes;
        const bool yes = found();
        std::memcpy(s.board.data(), board, sizeof s.board);
        s.tag  = tag;
        s.used = true;
        s.yes  = yes;
        return yes;
    }
    // The answer kept for (board, tag), without finding one (tests): 1 yes, 0 no, -1 none.
    int  find(const Piece* board, std::uint64_t tag) const;
    void forget();

private:
    struct Slot {
        std::array<Piece, 64> board{};
        std::uint64_t         tag  = 0;
        bool                  used = false, yes = false;
    };
    static std::size_t index(const Piece* board, std::uint64_t tag);
    static bool        holds(const Slot& s, const Piece* board, std::uint64_t tag) {
               return s.used && s.tag == tag && std::memcmp(s.board.data(), board, sizeof s.board) == 0;
    }
    std::vector<Slot> slots;
};

class HypercuboidSearch {
public:
    // Is there a legal action for the side to move of mv? mv is used for make/unmake and
    // restored. If witness is given and an action exists, it receives that action's moves in
    // an order in which they can be made.
    bool exists(Multiverse& mv, std::vector<Move>* witness = nullptr);
    // Lazy enumeration: calls visit(action) for every legal action, moves in standard order,
    // with the action made on mv (the visitor must leave mv as it found it); stops when visit
    // returns false. Returns false iff stopped by the visitor. The order of the actions is not
    // ActionSearch's. Cheap where legal actions are sparse (the enumeration cannot thrash), but
    // slower per action than ActionSearch on dense positions. Without `jumps`, only the legal
    // actions made of physical moves (no jump) are visited.
    bool for_each(
        Multiverse& mv, absl::FunctionRef<bool(std::span<const Move>)> visit, bool jumps = true);
    std::uint64_t count(Multiverse& mv, std::uint64_t cap = UINT64_MAX);

    // What a for_each_cut() visitor answers for an action.
    enum class Verdict : std::uint8_t {
        STOP,           // end the enumeration
        NEXT,           // go on with the other actions
        CUT,            // go on, leaving out the actions alike to this one (see for_each_cut)
        CUT_ON_SQUARES, // CUT, narrowed to entries alike on the squares given (for_each_cut)
    };
    // for_each() whose visitor may leave out more than the action it is shown. For CUT it fills
    // `keep` with timelines (any order, repeats allowed; timelines without a playable board are
    // ignored); then every action is left out that, compared with this one, makes the same
    // choice (the same move, departure or arrival) on the playable board of each timeline in
    // `keep` (its created timelines included); moves (any move, departure or arrival) on every
    // other playable board this one moves on and does anything on those it passes; and creates
    // as many timelines, the k-th (outside `keep`) by any branching arrival whose new board has
    // the same time. The visitor vouches that none of those is wanted (mate.h gives the
    // argument for mate in one). Every action not left out is shown once.
    // CUT_ON_SQUARES narrows the choice on a timeline ℓ outside `keep` that the action moves
    // on to the entries whose created board holds the same royals of the opponent and keeps
    // squares[ℓ - squaresMinL] (SquareRules; a timeline outside the span: the same contents on
    // every square), and on the k-th created timeline to the branching arrivals whose board
    // also keeps newSquares[k] (none beyond the span: the action's own), or with its laterThan,
    // to those later than it (SquareRules); past the timelines this one creates, with anyBranch,
    // to any entry. The squares are read when the visitor returns, so it may fill them for each
    // action. With `stop`, the enumeration also ends (returns false) soon
    // after *stop is set, between two actions too: cutting can take long where slices multiply.
    // The next for_each_cut() goes over one share of the actions only: those whose entry on
    // timeline l's playable board has entry_share() == part (of `parts`), the others left out
    // from the start, a whole entry of that axis at a time. for_each_cut() clears it.
    void only_share(int l, int parts, int part) {
        shareL     = l;
        shareParts = parts;
        sharePart  = part;
    }
    // The share (0 .. parts - 1) of action `a` by its entry on timeline l, whose last board was
    // at v = endV before `a`: a function of that entry alone (a pass, a physical move, the
    // departure of the piece on a square whatever its target, or a hop from another timeline),
    // so every action that makes the same choice there is in one share.
    static int entry_share(std::span<const Move> a, int l, int endV, int parts);
    // The next for_each_cut() goes over the actions that, on the playable board of each timeline
    // ls[i] (its last board at v = endVs[i]), pass when bit i of `moves` is clear and make any
    // other entry when it is set (move_pattern() == moves); for_each_cut() clears it. The 2^n
    // patterns share the actions out. A CUT whose `keep` holds every timeline the action passes
    // on (the solver's class cuts) leaves out actions of the action's own pattern only: they
    // move where it moves and pass where it passes.
    static constexpr int MaxPatternBoards = 6;
    void only_pattern(std::span<const int> ls, std::span<const int> endVs, unsigned moves) {
        patternLs.assign(ls.begin(), ls.end());
        patternEndVs.assign(endVs.begin(), endVs.end());
        patternMoves = moves;
    }
    // Bit i: does `a` make an entry other than a pass on timeline ls[i]'s board (at endVs[i])?
    static unsigned move_pattern(
        std::span<const Move> a, std::span<const int> ls, std::span<const int> endVs);
    bool for_each_cut(Multiverse&                                                 mv,
        absl::FunctionRef<Verdict(std::span<const Move>, std::vector<int>& keep)> visit,
        std::span<const SquareRules> squares = {}, int squaresMinL = 0,
        std::span<const SquareRules> newSquares = {}, const std::atomic<bool>* stop = nullptr);

    // The learned slices take at most this many words; past it they are forgotten (sound, see
    // bound_learned() in hypercuboid.cpp), so memory stays bounded whatever the width.
    static constexpr std::size_t LearnedWordsCap = std::size_t(1) << 22; // 32 MiB
    void                         set_learned_cap(std::size_t words) { learnedCap = words; } // tests
    // A box taken from the stack catches up on at most the last LearnedWindow slices learned
    // since it was made (sound as forgetting is, see run()). Where tens of thousands of slices
    // are learned (a mate-in-one search that leaves out classes of actions), catching up on all
    // of them made meets() 85 % of the time; the points that the skipped slices would have
    // removed are met again and cut again.
    static constexpr std::size_t LearnedWindow = 256;
    void set_learned_window(std::size_t slices) { learnedWindow = slices; } // tests, >= 1
    // Tests: alike() compares every square, not only those where the entries' boards differ
    // from their timeline's last board (Entry::changed).
    void set_compare_all_squares(bool all) { compareAll = all; }
    // Class proofs (MateInOneSearch::no_mate_over_class()): with timelines given, the test for
    // an attack on the mover's royals before any move is left out, and an attack across boards
    // found after a point counts only if its span (from the lower of the attacking board's and
    // the royal's board's ℓ to the higher) meets none of them. Such an attack reads no board
    // of those timelines (a ride's boards lie within its span, a leap reads its two ends), so
    // it is there whatever their boards hold. The points shown are then the legal ones and
    // those whose attacks all read one of these timelines. Empty: every attack counts.
    void set_attacks_read_off(std::span<const int> ls) { readOff.assign(ls.begin(), ls.end()); }
    // Class proofs: no entry is made of a move whose timelines span (from the lower of its
    // source's and target's ℓ to the higher) meets one of these timelines, so the actions
    // shown neither move on them, nor arrive on them, nor pass across them (their axes keep
    // the pass only). Empty: none excluded.
    void set_excluded_timelines(std::span<const int> ls) { excluded.assign(ls.begin(), ls.end()); }
    // Tests: neither keep nor use the answers of otherMoveMemo and inBoardAttackMemo.
    void set_memos(bool on) { memos = on; }

    // take_point() pairs the axes that must take part in a jump by backtracking for at most this
    // many steps, then in polynomial time (CoverMatching).
    static constexpr int MatchSteps = 16;
    void                 set_match_steps(int steps) { matchStepsMax = steps; } // tests, >= 0

    struct Stats {
        std::uint64_t points      = 0; // consistent points tested
        std::uint64_t slices      = 0; // slices cut
        std::uint64_t maxBoxes    = 0; // largest stack
        std::uint64_t forgotten   = 0; // times the learned slices were forgotten (bound_learned)
        std::uint64_t windowed    = 0; // boxes that skipped slices older than the learned window
        std::uint64_t byOtherMove = 0; // entries alike by another move (SquareRules::local)
        std::uint64_t byAnyStart  = 0; // branches alike at another time (SquareRules::anyStart)
        std::uint64_t byAnyBranch = 0; // cuts open to more created timelines (anyBranch)
        std::uint64_t matchings   = 0; // pairings left to CoverMatching (take_point())
    };
    const Stats& stats() const { return stats_; }

private:
    enum EntryType : std::uint8_t {
        E_PASS,
        E_PHYS,
        E_LEAVE,
        E_HOP,
        E_BRANCH
    };
    struct Entry {
        Move     move{};       // PHYS, HOP, BRANCH
        int      srcAxis = -1; // HOP, BRANCH: the axis of the departure
        int      leave   = -1; // HOP, BRANCH: index of the departure entry on srcAxis
        int      v       = 0;  // v of the board the entry creates (not for PASS)
        int      square  = -1; // LEAVE: the square the piece leaves
        int      srcL    = 0;  // BRANCH: timeline of the departure
        int      board   = -1; // index of the created board's contents in `contents`
        Bitboard royals  = 0;  // the opponent's royals on the created board
        // The squares where that board differs from the last board of the entry's timeline (all:
        // a branch, made from a board of another timeline).
        Bitboard  changed = ~Bitboard(0);
        EntryType type    = E_PASS;
    };
    struct Axis {
        int  l     = 0; // timeline (tip axes), or k (new-timeline axes)
        bool isNew = false;
        int  first = 0; // first entry in `entries`
        int  n     = 0; // number of entries
        int  off   = 0; // first word in a box
        int  words = 0;
    };
    using Contents = std::array<Piece, 64>;

    bool build();
    void add_axis_entries(int l, int a);
    void flatten_axes();
    void add_entry(std::vector<Entry>& list, Entry e, const Board& b, const Board* base);
    bool run(Multiverse& m, absl::FunctionRef<Verdict(std::span<const Move>)> visit);
    bool take_point(const std::uint64_t* box);
    // Pair every axis in `must` (mate, point) along the edges `adj`, if it can be done. match():
    // backtracking from must[i] on, within matchSteps steps (1: paired, 0: cannot be, -1: out
    // of steps, nothing changed); pair_must(): in polynomial time (take_point()).
    int  match(std::size_t i);
    bool pair_must();
    // Returns true if the point is legal; otherwise fills `slice` (one set per axis, all ones on
    // the axes it does not constrain) and returns false.
    bool test_point();
    bool point_in_slice() const;
    void slice_point();
    // The CUT slice of for_each_cut, from `keep` (and the squares, with onSquares).
    void slice_alike(bool onSquares);
    // May entry j of axis a be left out with entry e (CUT_ON_SQUARES): the same royals, and
    // entry j's board keeps the rules (null: the same contents everywhere).
    bool alike(int a, int e, int j, const SquareRules* rules) const;
    // ... or, with rules->local, alike by another move of the opponent on entry j's board.
    // rulesId: other_move_rules_id(rules).
    bool alike_by_other_move(int a, int j, const SquareRules* rules, std::uint32_t rulesId);
    // The answers of alike_by_other_move() depend only on the entry's board (its contents; the
    // opponent's royals are read from them), the mover and the parts of the rules it reads:
    // watched, forbid, shield and royalsAfter (and on the game's size and promotions). Sibling
    // searches ask the same questions again (the escape is usually a remembered one, and most
    // boards are the same as the sibling's: in tools-dead-timeline --at -5 after a key and its
    // refutation, 147,622 questions were 3,874 distinct ones). So they are kept (otherMoveMemo)
    // under an id for the rule set, the same for equal rule sets met recently.
    // 0 without rules or without `local` (then no entry is alike by another move).
    std::uint32_t other_move_rules_id(const SquareRules* rules);
    bool          other_move_fits(int a, int j, const SquareRules* rules); // the answer, found
    // A new game (size, promotions): the memos' answers no longer hold.
    void forget_if_another_game();
    // The axis of the start-of-turn last board that branch e on new axis a lands on, when the
    // point does not replace that board before it (passes it, or replaces it by a later
    // branching departure); else -1 (order_problem()).
    int  unreplaced_tip(int a, const Entry& e) const;
    bool order_problem();
    // Moves the point's branches within the box so that fewer fail order_problem() (.cpp).
    void reorder_branches(const std::uint64_t* box);
    bool present_problem();
    int  make_and_check(bool arrivals);
    void unmake_all();
    bool active_with(int l, int created) const;
    int  new_timeline(int k) const { return nth_new_timeline(us, minL0, maxL0, k); }
    void slice_all();
    void slice_clear(int a);
    void slice_set(int a, int e);
    bool in(const std::uint64_t* words, int a, int e) const {
        const Axis& ax = axes[std::size_t(a)];
        return (words[ax.off + (e >> 6)] >> (e & 63)) & 1;
    }
    const Entry& entry(int a, int e) const {
        return entries[std::size_t(axes[std::size_t(a)].first + e)];
    }
    void learn();
    void bound_learned();
    bool meets(const std::uint64_t* box, std::size_t i) const;
    void cut(std::size_t at, std::size_t i, std::uint64_t applied);
    bool attacked_after(const MoveUndo& u, AttackInfo* info) const;
    // Is a royal of the mover attacked within `after`, a board made from (l, v) by a move? The
    // answer depends only on its contents: kept (inBoardAttackMemo), as sibling searches make the
    // same boards again.
    bool in_board_attack(int l, int v, const Board& after);
    bool in_board_attack_found(int l, int v, const Board& after);

    Multiverse*                     mv       = nullptr;
    Color                           us       = WHITE;
    int                             presentV = 0, minL0 = 0, maxL0 = 0;
    int                             tipAxes = 0, newAxes = 0;
    int                             stride = 0;
    std::vector<int>                startEnd; // per timeline (ℓ - minL0)
    std::vector<int>                axisOf;   // per timeline: its axis, or -1
    int                             shareL = 0, shareParts = 1, sharePart = 0; // only_share()
    std::vector<int>                patternLs, patternEndVs;                   // only_pattern()
    unsigned                        patternMoves = 0;
    std::vector<Axis>               axes;
    std::vector<Entry>              entries;
    std::vector<Contents>           contents;
    std::vector<std::vector<Entry>> perAxis;  // build scratch
    std::vector<Entry>              branches; // build scratch
    // The new axes' branch entries [lo, hi) that leave from one departure (take_point()).
    struct BranchGroup {
        int lo, hi, srcAxis, leave;
    };
    std::vector<BranchGroup>        branchGroups;
    std::vector<const BranchGroup*> liveGroups; // take_point(): departure in the box
    std::vector<Move>               gen;
    // alike_by_other_move(): per created board (contents index), whether it was asked about
    // (then its squares), and its local moves once listed (in localCache).
    struct LocalMoves {
        std::uint32_t first = 0, count = 0;
        Bitboard      occupied = 0, pieces = 0, pawns = 0; // the opponent's pieces, pawn-likes
        bool          asked = false, listed = false;
    };
    std::vector<LocalMoves> localOf;
    std::vector<Move>       localCache;
    // other_move_rules_id(): the rule sets met last, with their ids (0: none).
    struct OtherMoveRules {
        SquareRules   rules;
        Color         us = WHITE;
        std::uint32_t id = 0;
    };
    static constexpr std::size_t               RecentRuleSets = 64;
    std::array<OtherMoveRules, RecentRuleSets> recentRules{};
    std::size_t                                nextRulesSlot = 0;
    std::uint32_t                              nextRulesId   = 1;
    BoardAnswers otherMoveMemo;     // alike_by_other_move(), tag: the rules' id
    BoardAnswers inBoardAttackMemo; // in_board_attack(), tag: the mover
    GameRules    memoRules;         // the game the memos' answers are for
    // in_board_attack(): per board, at (ℓ - minL0) * cleanSpan + v, whether no royal of the mover
    // is attacked within it (-1: not asked yet).
    std::vector<std::int8_t>   cleanOf;
    int                        cleanSpan = 0;
    std::vector<std::uint64_t> stack;      // boxes, `stride` words each
    std::vector<std::uint64_t> slice;      // one box
    std::vector<std::uint64_t> cur;        // the box being cut
    std::vector<std::uint64_t> learned;    // slices, sparse (see learn())
    std::vector<std::size_t>   learnedOff; // where each starts in `learned`
    std::vector<std::uint8_t>  scratchFlags;
    // The current point.
    std::vector<int> point; // entry per axis
    std::vector<int> mate;  // axis matched with (departure <-> arrival), or -1
    std::vector<int> sameBoard;
    std::vector<int> must;
    struct Edge {
        int other, arrivalAxis, arrival, leave;
    };
    // Pairs axis u with e.other along e (mate, point): match() and pair_must().
    void pair_along(int u, const Edge& e);

    std::vector<std::vector<Edge>> adj;
    std::vector<std::uint8_t>      pairSeen;
    int                            matchSteps = 0, matchStepsMax = MatchSteps;
    CoverMatching                  matcher;
    std::vector<int>               matchVertex, matchAxis; // axis <-> matcher vertex
    std::vector<MoveUndo>          undo;
    std::vector<Move>              made;
    std::vector<Move>              out;  // the action handed to the visitor
    std::vector<int>               keep; // for_each_cut: the visitor\'s timelines
    std::span<const SquareRules>   cutSquares, newCutSquares; // for_each_cut's squares
    int                            cutSquaresMinL = 0;
    const std::atomic<bool>*       stopFlag       = nullptr; // for_each_cut's stop
    bool                           withJumps      = true;    // for_each's jumps
    std::size_t                    learnedCap     = LearnedWordsCap;
    std::size_t                    learnedWindow  = LearnedWindow;
    bool                           compareAll     = false;
    std::vector<int>               excluded; // set_excluded_timelines()
    std::vector<int>               readOff;  // set_attacks_read_off()
    bool                           memos = true;
    Stats                          stats_;
};

} // namespace fived::movegen
