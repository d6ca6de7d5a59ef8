#include "movegen/multiverse.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstdlib>

#include "movegen/keys.h"

namespace fived::movegen {

Bitboard board_mask(int width, int height) {
    Bitboard m = 0;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            m |= square_bb(make_square(x, y));
    return m;
}

namespace {

// A timeline beyond MaxTimelineIndex has no slot and no Vec4: rather than corrupt the state, the
// program stops with a message and exit status 3, the command line's "unknown: a limit ended it"
// (README "Limits"). Reached only by an action creating more timelines than a file read within
// the limit leaves room for.
[[noreturn, gnu::cold, gnu::noinline]] void beyond_timeline_limit(int l) {
    std::fprintf(stderr,
        "fived: an action would create the timeline of index %d, beyond the engine's limit of %d "
        "timelines each way (README \"Limits\"); no answer\n",
        l, MaxTimelineIndex);
    std::fflush(stderr);
    std::_Exit(3);
}

} // namespace

Multiverse::Multiverse(const GameRules& rules) :
    rules_(rules), validBB(board_mask(rules.width, rules.height)),
    slots(std::size_t(2 * MaxTimelineIndex + 1)) {
    arena.reserve(1024);
}

Multiverse Multiverse::fork() const {
    Multiverse m(rules_);
    m.arena = arena;
    m.arena.reserve(std::max<std::size_t>(arena.capacity(), 1024));
    for (int l = minL; l <= maxL; ++l) {
        m.slot(l).startV = slot(l).startV;
        m.slot(l).ids    = slot(l).ids;
    }
    m.minL          = minL;
    m.maxL          = maxL;
    m.initMinL      = initMinL;
    m.initMaxL      = initMaxL;
    m.initialBoards = initialBoards;
    m.key_          = key_;
    return m;
}

BoardId Multiverse::push_board(const Board& b) {
    arena.push_back(b);
    return BoardId(arena.size() - 1);
}

void Multiverse::append_to_timeline(int l, BoardId id) {
    Timeline& t = slot(l);
    t.ids.push_back(id);
    const int v = t.startV + int(t.ids.size()) - 1;
    key_ ^= board_slot_key(arena[id].key, l, v);
}

bool Multiverse::add_initial_board(int l, int v, const FenGrid& grid, std::string& err) {
    if (l < -MaxTimelineIndex || l > MaxTimelineIndex) {
        err = "timeline out of range";
        return false;
    }
    if (v < 0 || v > 0x3FFF - 2) {
        err = "turn out of range";
        return false;
    }
    if (grid.width != rules_.width || grid.height != rules_.height) {
        err = "board size differs from the game's size";
        return false;
    }
    Board b;
    for (int s = 0; s < 64; ++s)
        if (grid.piece[s] != NO_PIECE) b.put(grid.piece[s], s);
    b.unmoved = grid.unmoved & b.pieces();
    compute_board_key(b);

    Timeline&  t      = slot(l);
    const bool exists = !t.ids.empty();
    if (exists) {
        const int end = t.startV + int(t.ids.size()) - 1;
        if (v != end + 1 && v != t.startV - 1) {
            err = (v >= t.startV && v <= end) ? "two boards at the same timeline and turn"
                                              : "boards of a timeline must be consecutive";
            return false;
        }
    }
    const BoardId id = push_board(b);
    if (!exists) {
        t.startV = v;
        t.ids.push_back(id);
    } else if (v == t.startV - 1) {
        t.ids.insert(t.ids.begin(), id);
        t.startV = v;
    } else {
        t.ids.push_back(id);
    }
    key_ ^= board_slot_key(b.key, l, v);
    if (maxL < minL) minL = maxL = l;
    minL = std::min(minL, l);
    maxL = std::max(maxL, l);
    return true;
}

bool Multiverse::finish_setup(std::string& err) {
    if (maxL < minL) {
        err = "no boards";
        return false;
    }
    for (int l = minL; l <= maxL; ++l)
        if (slot(l).ids.empty()) {
            err = "timelines must be contiguous (timeline " + std::to_string(l) + " is missing)";
            return false;
        }
    // Initial (central) range: [0,0] odd, [-1,0] even; timelines outside it given in a 5DFEN
    // count as created by the players (index-based activity, RULES.md §7 #7).
    initMinL = rules_.even ? -1 : 0;
    initMaxL = 0;
    if (minL > initMinL || maxL < initMaxL) {
        err = rules_.even ? "an even game needs both central timelines -0 and +0"
                          : "an odd game needs the central timeline 0";
        return false;
    }
    initialBoards = BoardId(arena.size());
    return true;
}

int Multiverse::present_v() const {
    int p = 1 << 30;
    for (int l = active_min_l(); l <= active_max_l(); ++l)
        p = std::min(p, end_v(l));
    return p;
}

void Multiverse::make_move(const Move& m, MoveUndo& u) {
    if (!m.is_physical()) {
        MoveUndo arrival;
        make_departure(m, u);
        make_arrival(m, arrival);
        u.hasB            = true;
        u.timelineB       = arrival.timelineA;
        u.createdTimeline = arrival.createdTimeline;
        return;
    }
    begin_record(u);
    u.timelineA = std::int16_t(m.from.l());
    assert(m.from.v() == end_v(m.from.l()));
    // A copy of the source board first: push_back may reallocate the arena.
    Board b = physical_board(m);
    compute_board_key(b);
    append_to_timeline(m.from.l(), push_board(b));
}

Board Multiverse::physical_board(const Move& m) const {
    Board       b = tip(m.from.l());
    const Piece p = b.piece_on(m.from.sq());
    b.remove(m.from.sq());
    if (m.flags & MF_ENPASSANT) b.remove(make_square(m.to.x(), m.from.y()));
    if (m.flags & MF_CASTLE) {
        // The rook is the first piece from the king in the direction of travel; it lands on the
        // square the king crossed (RULES.md §2.4).
        const int dir = m.to.x() > m.from.x() ? 1 : -1;
        const int y   = m.from.y();
        int       rx  = m.to.x() + dir;
        while (b.empty(make_square(rx, y)))
            rx += dir;
        const Piece rook = b.piece_on(make_square(rx, y));
        b.remove(make_square(rx, y));
        b.put(rook, make_square(m.from.x() + dir, y));
    }
    b.remove(m.to.sq());
    b.put(m.promotion != NO_PIECE_TYPE ? make_piece(color_of(p), m.promotion) : p, m.to.sq());
    return b;
}

void Multiverse::make_departure(const Move& m, MoveUndo& u) {
    begin_record(u);
    u.timelineA = std::int16_t(m.from.l());
    assert(m.from.v() == end_v(m.from.l()));
    Board b = departure_board(m);
    compute_board_key(b);
    append_to_timeline(m.from.l(), push_board(b));
}

Board Multiverse::departure_board(const Move& m) const {
    Board b = tip(m.from.l());
    b.remove(m.from.sq());
    return b;
}

Board Multiverse::arrival_board(const Move& m) const {
    // The source board is historical once the departure is made (or still the tip if not);
    // either way it holds the moving piece.
    const Piece p = board(m.from.l(), m.from.v()).piece_on(m.from.sq());
    Board       b = board(m.to.l(), m.to.v());
    b.remove(m.to.sq());
    b.put(m.promotion != NO_PIECE_TYPE ? make_piece(color_of(p), m.promotion) : p, m.to.sq());
    return b;
}

void Multiverse::make_arrival(const Move& m, MoveUndo& u) {
    Board b = arrival_board(m);
    compute_board_key(b);
    make_arrival(m, b, u);
}

void Multiverse::make_arrival(const Move& m, const Board& b, MoveUndo& u) {
    begin_record(u);
    const int   tl = m.to.l(), tv = m.to.v();
    const bool  branching = tv != end_v(tl);
    const Piece p         = b.piece_on(m.to.sq());
    if (!branching) {
        u.timelineA = std::int16_t(tl);
        append_to_timeline(tl, push_board(b));
        return;
    }
    const int nl = next_new_timeline(color_of(p));
    if (nl < -MaxTimelineIndex || nl > MaxTimelineIndex) [[unlikely]]
        beyond_timeline_limit(nl);
    Timeline& t = slot(nl);
    t.startV    = tv + 1;
    t.ids.clear();
    if (color_of(p) == WHITE)
        maxL = nl;
    else
        minL = nl;
    u.timelineA       = std::int16_t(nl);
    u.createdTimeline = true;
    append_to_timeline(nl, push_board(b));
}

void Multiverse::make_pass(int l, MoveUndo& u) {
    begin_record(u);
    u.timelineA      = std::int16_t(l);
    const Board copy = tip(l);
    append_to_timeline(l, push_board(copy));
}

void Multiverse::make_passes(int v, MoveUndo& u) {
    begin_record(u);
    for (int l = active_min_l(); l <= active_max_l(); ++l)
        if (end_v(l) == v) append_to_timeline(l, push_board(Board(tip(l))));
}

void Multiverse::unmake_passes(const MoveUndo& u) {
    // Passing creates no timeline, so the active range is the one the passes were made in.
    for (int l = active_min_l(); l <= active_max_l(); ++l)
        if (slot(l).ids.back() >= u.arenaSize) slot(l).ids.pop_back();
    arena.resize(u.arenaSize);
    key_ = u.key;
}

void Multiverse::unmake_move(const MoveUndo& u) {
    // The board appended last is removed first; a created timeline is always the one appended
    // to last (timelineB of a combined jump, timelineA of a lone arrival).
    auto drop_created = [&](int l) {
        if (l == maxL && l > initMaxL)
            --maxL;
        else
            ++minL;
    };
    if (u.hasB) {
        slot(u.timelineB).ids.pop_back();
        if (u.createdTimeline) drop_created(u.timelineB);
        slot(u.timelineA).ids.pop_back();
    } else {
        slot(u.timelineA).ids.pop_back();
        if (u.createdTimeline) drop_created(u.timelineA);
    }
    arena.resize(u.arenaSize);
    key_ = u.key;
}

Key Multiverse::compute_key_from_scratch() const {
    Key k = 0;
    for (int l = minL; l <= maxL; ++l)
        for (int v = start_v(l); v <= end_v(l); ++v) {
            Board b = board(l, v);
            compute_board_key(b);
            k ^= board_slot_key(b.key, l, v);
        }
    return k;
}

bool Multiverse::is_ok(std::string* why) const {
    auto fail = [&](const char* msg) {
        if (why) *why = msg;
        return false;
    };
    for (int l = minL; l <= maxL; ++l)
        if (slot(l).ids.empty()) return fail("empty timeline inside [min_l, max_l]");
    for (int l = minL; l <= maxL; ++l)
        for (int v = start_v(l); v <= end_v(l); ++v) {
            Board b = board(l, v);
            compute_board_key(b);
            if (b.key != board(l, v).key) return fail("stale board key");
            Bitboard occ = 0;
            for (int s = 0; s < 64; ++s)
                if (b.squares[s] != NO_PIECE) occ |= square_bb(s);
            if (occ != b.pieces() || (occ & ~validBB))
                return fail("bitboards disagree with mailbox");
        }
    if (compute_key_from_scratch() != key_)
        return fail("incremental key differs from recomputation");
    return true;
}

} // namespace fived::movegen
