#pragma once
// The multiverse: timelines of immutable boards, with make/unmake of single moves.
//
// Design (STYLE.md §2.4, ALGORITHMS.md E.2):
//  * Boards live in an append-only arena and are addressed by 32-bit ids. A move never changes an
//    existing board; it appends one or two new boards (RULES.md §1.4). unmake_move() truncates
//    the arena, so a search does make/unmake without copying the multiverse.
//  * Timeline ℓ (internal index, RULES.md §1.3) is a run of consecutive boards from startV to
//    endV; ids[v - startV] is the board at half-step v. Timelines are contiguous in ℓ: White
//    creates max_l()+1, Black min_l()-1 (§3.3).
//  * The position key is the XOR over all boards of board_slot_key(board.key, ℓ, v), kept up to
//    date incrementally. The side to move and the present are functions of the boards, so they
//    need no key of their own.
//  * A Multiverse cannot be copied implicitly; fork() copies it explicitly.

#include <array>
#include <string>
#include <vector>

#include "movegen/board.h"
#include "movegen/fen_rows.h"
#include "movegen/rules.h"
#include "movegen/types.h"

namespace fived::movegen {

using BoardId = std::uint32_t;

// The rule-relevant settings of a game that are not boards.
struct GameRules {
    int  width  = 8;
    int  height = 8;
    bool even   = false; // two central timelines -0/+0
    // Promotion choices of pawns and brawns, in the order moves are generated. Default {Q}.
    std::array<PieceType, 8> promotions{QUEEN};
    int                      promotionCount = 1;

    bool operator==(const GameRules&) const = default;
};

// Everything unmake_move() needs to restore the state before make_move().
struct MoveUndo {
    std::uint32_t arenaSize       = 0;
    std::int16_t  timelineA       = 0; // timeline that received a new board
    std::int16_t  timelineB       = 0; // second timeline (jumps), valid if hasB
    bool          hasB            = false;
    bool          createdTimeline = false; // timelineB was created by this move
    Key           key             = 0;
};

class Multiverse {
public:
    explicit Multiverse(const GameRules& rules);
    Multiverse(const Multiverse&)            = delete;
    Multiverse& operator=(const Multiverse&) = delete;
    Multiverse(Multiverse&&)                 = default;
    Multiverse& operator=(Multiverse&&)      = default;
    // An explicit, independent copy.
    Multiverse fork() const;

    // --- set-up -------------------------------------------------------------------------------
    // Adds an initial board at (l, v). Boards of one timeline must be added with consecutive v
    // (in any order of timelines). Returns false with a message on a clash.
    bool add_initial_board(int l, int v, const FenGrid& grid, std::string& err);
    // Fixes the initial timeline range, checks that timelines are contiguous in ℓ. Call once
    // after the last add_initial_board().
    bool finish_setup(std::string& err);

    // --- queries ------------------------------------------------------------------------------
    const GameRules& rules() const { return rules_; }
    int              width() const { return rules_.width; }
    int              height() const { return rules_.height; }
    bool             even() const { return rules_.even; }
    Bitboard         valid_squares() const { return validBB; }

    int  min_l() const { return minL; }
    int  max_l() const { return maxL; }
    int  init_min_l() const { return initMinL; }
    int  init_max_l() const { return initMaxL; }
    int  timeline_count() const { return maxL - minL + 1; }
    bool has_timeline(int l) const { return l >= minL && l <= maxL; }
    int  start_v(int l) const { return slot(l).startV; }
    int  end_v(int l) const { return slot(l).startV + int(slot(l).ids.size()) - 1; }
    bool board_exists(int l, int v) const {
        if (!has_timeline(l)) return false;
        const Timeline& t = slot(l);
        return v >= t.startV && v < t.startV + int(t.ids.size());
    }
    // The board at (l, v); the caller guarantees it exists.
    const Board& board(int l, int v) const { return arena[slot(l).ids[v - slot(l).startV]]; }
    // Always inline: the walks along lines ask it at every step (GCC -O3 made a call of it).
    [[gnu::always_inline]] const Board* board_if(int l, int v) const {
        return board_exists(l, v) ? &board(l, v) : nullptr;
    }
    const Board& tip(int l) const { return arena[slot(l).ids.back()]; }
    BoardId      board_id(int l, int v) const { return slot(l).ids[v - slot(l).startV]; }
    const Board& board_by_id(BoardId id) const { return arena[id]; }
    // Boards with ids below this were given in the set-up (the 5DFEN boards).
    BoardId     initial_board_count() const { return initialBoards; }
    std::size_t board_count() const { return arena.size(); }

    // Activity (RULES.md §4.1): ℓ active iff inside active_window() (rules.h).
    int active_radius() const { return activity_radius(created(WHITE), created(BLACK)); }
    // The timelines c has created (W and B of RULES.md §4.1).
    int created(Color c) const { return timelines_created(c, initMinL, initMaxL, minL, maxL); }
    ActiveWindow window() const {
        return active_window(initMinL, initMaxL, created(WHITE), created(BLACK));
    }
    int  active_min_l() const { return std::max(minL, window().lo); }
    int  active_max_l() const { return std::min(maxL, window().hi); }
    bool is_active(int l) const { return l >= active_min_l() && l <= active_max_l(); }
    // The present (§4.2): the smallest end v over active timelines. Its colour moves next.
    int   present_v() const;
    Color to_move() const { return Color(present_v() & 1); }

    Key key() const { return key_; }

    // --- moves --------------------------------------------------------------------------------
    // Makes one move of an action (RULES.md §1.4, §3.2-3.3). The move must be pseudo-legal in
    // the current state: its source is a playable board of the mover and its target exists.
    void make_move(const Move& m, MoveUndo& u);
    void unmake_move(const MoveUndo& u);
    // The two halves of a cross-board move, for action search that orders branching arrivals
    // after all other moves (RULES.md §3.6): the departure appends the source board without the
    // piece; the arrival places it on the target (a hop onto a last board, or a new timeline).
    // make_move() of a jump equals make_departure() then make_arrival().
    void make_departure(const Move& m, MoveUndo& u);
    void make_arrival(const Move& m, MoveUndo& u);
    // The boards these add, key not computed: a physical move's (its source with the move made),
    // a jump's departure (its source without the piece) and arrival (its target with the piece
    // placed; it depends only on the move, not on where or when the arrival is made).
    Board physical_board(const Move& m) const;
    Board departure_board(const Move& m) const;
    Board arrival_board(const Move& m) const;
    // make_arrival() with the board arrival_board(m) already made, its key computed (an action
    // search makes the same arrival in many orders).
    void make_arrival(const Move& m, const Board& arrival, MoveUndo& u);
    // Appends an unchanged copy of timeline l's last board ("passing" it, RULES.md §5.4).
    // Undone by unmake_move().
    void make_pass(int l, MoveUndo& u);
    // Passes every active timeline whose last board is at half-step v (RULES.md §5.4). Undone
    // by unmake_passes(u), not unmake_move(): u only records the arena size and the key, the
    // passed timelines are those whose last board is new.
    void make_passes(int v, MoveUndo& u);
    void unmake_passes(const MoveUndo& u);

    // The index the next timeline created by c would get (RULES.md §3.3).
    int next_new_timeline(Color c) const { return next_timeline_index(c, minL, maxL); }

    // Would this move branch if made now? (target board is not the last of its timeline)
    bool is_branching(const Move& m) const {
        return !m.is_physical() && m.to.v() != end_v(m.to.l());
    }

    // Recomputes the key and checks the timeline table from scratch (for asserts and tests).
    bool is_ok(std::string* why = nullptr) const;
    Key  compute_key_from_scratch() const;

private:
    struct Timeline {
        int                  startV = 0;
        std::vector<BoardId> ids;
    };
    // One slot per index |ℓ| <= MaxTimelineIndex (types.h).
    Timeline&       slot(int l) { return slots[std::size_t(l + MaxTimelineIndex)]; }
    const Timeline& slot(int l) const { return slots[std::size_t(l + MaxTimelineIndex)]; }
    BoardId         push_board(const Board& b);
    void            append_to_timeline(int l, BoardId id);
    // The state every undo record starts from: the arena size and key before the change, no
    // second timeline, no timeline created.
    void begin_record(MoveUndo& u) const {
        u.arenaSize       = std::uint32_t(arena.size());
        u.key             = key_;
        u.hasB            = false;
        u.createdTimeline = false;
    }

    GameRules             rules_;
    Bitboard              validBB = 0;
    std::vector<Board>    arena;
    std::vector<Timeline> slots;
    int                   minL = 0, maxL = -1;
    int                   initMinL = 0, initMaxL = -1;
    BoardId               initialBoards = 0;
    Key                   key_          = 0;
};

// Board validity mask of a width x height board in the 8-wide square layout.
Bitboard board_mask(int width, int height);

} // namespace fived::movegen
