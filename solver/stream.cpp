// Wide nodes of the reference search (search.h): Searcher::stream(), a node with more legal
// actions than SearchContext::streamAbove searched without listing them (killers, the checks
// pass, the class walk, the conflict pass, the passes), and the class cuts of an attacker node
// with r = 2 (classes_possible(), class_refuted()).
#include <algorithm>
#include <climits>

#include "movegen/action.h"
#include "movegen/actions.h"
#include "movegen/keys.h"
#include "movegen/movegen.h"
#include "movegen/picker.h"
#include "movegen/rules.h"
#include "solver/search.h"
#include "solver/search_internal.h"

namespace fived::solver {

using detail::same_action;

using Cut = movegen::HypercuboidSearch::Verdict;

// One wide node being searched by stream(): what its stages share (the node, whether a child
// decided it or a limit stopped it) and the stages, in the order stream() runs them.
struct Searcher::Wide {
    Searcher&                       s;
    const bool                      orNode;
    const int                       bound, ply, childBound;
    const Value                     decisive;
    std::vector<std::vector<Move>>* out;
    const bool                      all, useKillers;
    const int                       lo0, hi0; // the timelines before any action of the node
    const std::vector<Move>*        killer[2];
    bool                            aborted = false, decided = false;
    bool left     = false; // a walker that left the node (aborted too; Shared::stays())
    Key  winChild = 0;
    // A share of the node (stream_share()), one of shareParts. In a class walk (byEntry) the
    // actions that move on the boards of the pattern (patternLs, at v = patternVs) as the bits of
    // the share's number say (HypercuboidSearch::move_pattern()), or without a pattern those
    // whose entry on timeline starL (its last board at v = starV) is the share's
    // (HypercuboidSearch::entry_share()); else the actions the passes meet in the blocks of
    // SearchSettings::shareBlock consecutive positions this walker claimed first (take()).
    // `shared`: what the shares share (the claims; the position of a mate one of them found,
    // past which the others stop; their killers, traded every TradeEvery positions).
    static constexpr std::uint64_t TradeEvery = 64;
    int                            shareParts = 1, sharePart = 0;
    bool                           byEntry = false;
    int                            starL = 0, starV = 0;
    int                            patternN = 0;
    PatternTimelines               patternLs{}, patternVs{};
    std::uint64_t                  met = 0; // positions: the actions the passes met so far
    // The block of positions take() met last, and whether this walker claimed it.
    std::uint64_t claimedBlock = UINT64_MAX;
    bool          mineBlock    = false;
    // In a pass before the walk (the killers, the conflicts), whose actions have no position.
    bool    beforeWalk = false;
    Shared* shared     = nullptr;
    // The classes refuted at this node so far (a class walk's; shared with the node's other
    // patterns and shares), or none.
    ClassStore* store = nullptr;

    Wide(Searcher& searcher, bool orNode_, int bound_, int ply_,
        std::vector<std::vector<Move>>* out_, bool all_, bool useKillers_) :
        s(searcher),
        orNode(orNode_), bound(bound_), ply(ply_), childBound(orNode_ ? bound_ - 1 : bound_),
        decisive(orNode_ ? Value::YES : Value::NO), out(out_), all(all_), useKillers(useKillers_),
        lo0(searcher.mv.min_l()), hi0(searcher.mv.max_l()), killer{&searcher.killers.first(ply_),
                                                                &searcher.killers.second(ply_)} { }

    // Is the node still open: nothing stopped it and (unless every decisive child is wanted)
    // nothing decided it?
    bool open() const { return !aborted && !(decided && !all); }
    // Stop checks between the actions a walk meets, each counted as a node (a node limit bounds
    // a walk too).
    bool tested() {
        aborted = aborted || s.stopped() || !s.count_node();
        return !aborted;
    }
    bool visit(std::span<const Move> a);
    // This walk as share `part` of `parts` of a class walk: the pattern `part` of the boards
    // share_pattern() gives (patternBoards of them), or with none, by entry on the present
    // timeline. False if share_pattern() gives another number of boards.
    bool share_walk(int parts, int part, int patternBoards) {
        shareParts = parts;
        sharePart  = part;
        byEntry    = true;
        patternN   = s.share_pattern(patternLs, patternBoards);
        for (int i = 0; i < patternN; ++i)
            patternVs[std::size_t(i)] = s.mv.end_v(patternLs[std::size_t(i)]);
        starL = s.present_timeline();
        starV = s.mv.end_v(starL);
        return patternN == patternBoards;
    }
    // The walk (a class walk's, or the checks') kept to this share's actions.
    template <class Walk>
    void only_share(Walk& walk) const {
        if (patternN > 0)
            walk.only_pattern(std::span(patternLs.data(), std::size_t(patternN)),
                std::span(patternVs.data(), std::size_t(patternN)), unsigned(sharePart));
        else
            walk.only_share(starL, shareParts, sharePart);
    }
    // Is `a` one this walk searches: the solve's (SearchContext::owned) and, by entry, the
    // share's?
    bool owns(std::span<const Move> a) const {
        return s.ctx.owned(ply, a) && (!byEntry || share_of(a) == sharePart);
    }
    int share_of(std::span<const Move> a) const {
        if (patternN > 0)
            return int(movegen::HypercuboidSearch::move_pattern(a,
                std::span(patternLs.data(), std::size_t(patternN)),
                std::span(patternVs.data(), std::size_t(patternN))));
        return movegen::HypercuboidSearch::entry_share(a, starL, starV, shareParts);
    }
    // The next action the passes or the checks' walk meet, by its position: this share's, another
    // share's, or past a mate another share found (then the share stops: aborted).
    enum class Taken : std::uint8_t {
        MINE,
        OTHERS,
        PASSED
    };
    Taken take() {
        const std::uint64_t i = met++;
        if (shared && i % TradeEvery == 0) trade_killers();
        if (shareParts == 1 || byEntry) return Taken::MINE;
        if (shared && i > shared->stopAt.load(std::memory_order_relaxed)) {
            aborted = true;
            return Taken::PASSED;
        }
        // The block's first position: claimed by the first walker to reach it (BlockClaims),
        // unless this walker leaves there (Shared::stays()).
        const std::uint64_t block = i / std::max<std::uint64_t>(s.ctx.shareBlock, 1);
        if (block != claimedBlock) {
            const bool flipped =
                s.ctx.walkerFlip > 0 && (block / s.ctx.walkerFlip) % 2 == 0; // tests
            if (shared->walkers && !shared->stays(flipped ? 1 : s.ctx.split_workers())) {
                left = aborted = true;
                return Taken::PASSED;
            }
            claimedBlock               = block;
            const BlockClaims::Claim c = shared->claims.claim(block);
            mineBlock                  = c == BlockClaims::Claim::MINE;
            if (c == BlockClaims::Claim::GAP) { // a block no walker searched: never a wrong answer
                s.ctx.internal_error();
                aborted = true;
                return Taken::PASSED;
            }
        }
        return mineBlock ? Taken::MINE : Taken::OTHERS;
    }
    // Is `a`, shown by a walk, one this share does not search? In a class walk by entry the walk
    // shows only the share's (only_share()): one that owns() refuses would be searched by no
    // share, so it is an internal error that stops the search ("unknown", never a wrong NO).
    bool outside(std::span<const Move> a) {
        if (owns(a)) return false;
        if (byEntry && s.ctx.owned(ply, a)) {
            s.ctx.internal_error();
        }
        return true;
    }
    void attacker_stages(bool classWalk);
    void defender_stages();
    // A share's killers below the node traded with the other shares' (through the parent's):
    // what refuted one share's actions is tried first on the others' (see stream_split()).
    void trade_killers() {
        std::lock_guard lock(shared->killerMutex);
        shared->parent->merge_from(s.killers, ply + 1);
        s.killers.copy_from(*shared->parent, ply + 1);
    }
    // Was `a` searched already as one of the killers?
    bool searched_killer(std::span<const Move> a) const {
        return useKillers && (same_action(a, *killer[0]) || same_action(a, *killer[1]));
    }
    void killers_pass();
    // Is `a` (made on mv) in a class the node refuted already (its ClassStore)? Then the rules
    // of that class are filled (for the walk's cut) and true returned.
    bool in_refuted_class(std::span<const Move> a, std::vector<int>& keep,
        std::span<movegen::SquareRules> squares, std::span<movegen::SquareRules> newSquares);
    // Keeps the class class_refuted() just refuted (its action made on mv) in the store.
    void  keep_class();
    Cut   class_cut(std::span<const Move> a, std::vector<int>& keep,
          std::span<movegen::SquareRules> squares, std::span<movegen::SquareRules> newSquares);
    void  checks_pass(bool cuts);
    void  class_walk();
    void  conflict_pass();
    void  passes(bool walked);
    Value finish(Key key, std::uint64_t nodes0);
};

// The child reached by `a` (made on mv): searched (or answered by the table). Returns whether
// the walk that met `a` goes on.
bool Searcher::Wide::visit(std::span<const Move> a) {
    if (!owns(a)) return true;             // another part's or share's
    if (shared && !byEntry && !beforeWalk) // the position this share searches now
        shared->at[std::size_t(sharePart)].store(met - 1, std::memory_order_relaxed);
    const Key   child = s.mv.key();
    const Value v     = s.child_value(orNode, childBound, ply, a);
    if (v == Value::ABORT) {
        aborted = true;
        return false;
    }
    if (v != decisive) {
        if (orNode) s.refuted(ply);
        return true;
    }
    if (!decided) {
        winChild = child;
        s.killers.decided_by(ply, a, !orNode);
        // The other shares stop past it (a killer's or a conflict's position is not known: at
        // once).
        if (shared) shared->decided_at(beforeWalk || byEntry ? 0 : met - 1, sharePart);
    }
    decided = true;
    if (!out) return false;
    if (std::find_if(
            out->begin(), out->end(), [&](const std::vector<Move>& k) { return same_action(a, k); })
        == out->end())
        out->emplace_back(a.begin(), a.end());
    return all;
}

// The killers of this ply, each only if it is one of the legal actions here.
void Searcher::Wide::killers_pass() {
    if (shareParts > 1 && !byEntry && sharePart != 0) return; // shares by position: the first's
    beforeWalk = true;
    for (const std::vector<Move>* k : killer) {
        if (!useKillers || k->empty() || !open()) continue;
        s.with_if_legal(ply, *k, [&](std::span<const Move> a) { visit(a); });
    }
    beforeWalk = false;
}

// An action just searched and refuted (made on mv): its class left out when its refutation
// refutes the class, by the rules given.
Cut Searcher::Wide::class_cut(std::span<const Move> a, std::vector<int>& keep,
    std::span<movegen::SquareRules> squares, std::span<movegen::SquareRules> newSquares) {
    bool       interrupted = false;
    const bool cut = s.class_refuted(ply, a, lo0, hi0, keep, squares, newSquares, interrupted);
    if (interrupted) {
        aborted = true;
        return Cut::STOP;
    }
    if (!cut) return Cut::NEXT;
    s.ctx.classesCut.fetch_add(1, std::memory_order_relaxed);
    if (store) keep_class();
    return Cut::CUT_ON_SQUARES;
}

// The group of a class is its frozen timelines: within one node, an existing one ends a board
// later after any action that moved there, and a created one is told by its number (lo0, hi0).
void Searcher::Wide::keep_class() {
    std::vector<int>& frozen = s.frozenScratch;
    std::sort(frozen.begin(), frozen.end());
    const Key       reduced = s.key_without(frozen);
    std::lock_guard lock(store->mutex);
    if (store->kept >= ClassStore::MaxClasses) return;
    std::size_t g = 0;
    while (g < store->used && store->groups[g].frozen != frozen)
        ++g;
    if (g == store->used) {
        if (g == store->groups.size()) store->groups.emplace_back();
        ClassStore::Group& group = store->groups[g];
        group.frozen.assign(frozen.begin(), frozen.end());
        group.ends.clear();
        for (const int t : frozen)
            group.ends.push_back(t < lo0 || t > hi0 ? -1 : s.mv.end_v(t));
        ++store->used;
    }
    const bool added =
        store->groups[g]
            .classes
            .try_emplace(reduced, ClassStore::Refuted{s.classBehind, s.mv.min_l(), s.mv.max_l()})
            .second;
    store->kept += added;
}

// Keeps the groups' capacity: one store per ply and searcher, reused from node to node.
void Searcher::ClassStore::clear() {
    for (std::size_t g = 0; g < used; ++g)
        groups[g].classes.erase(groups[g].classes.begin(), groups[g].classes.end());
    used = 0;
    kept = 0;
}

// A member x of a class kept (ClassStore): the position after x has, on each frozen timeline
// that existed, one board more (x moved there), on each created one a single board later than
// behind + 1, the same timelines, and the other boards of the refuted action (equal keys without
// the frozen timelines' last boards). The refutation's proof holds for x as for that action
// (class_refuted()), and so for every action alike to x by the class's rules.
bool Searcher::Wide::in_refuted_class(std::span<const Move> a, std::vector<int>& keep,
    std::span<movegen::SquareRules> squares, std::span<movegen::SquareRules> newSquares) {
    if (!store) return false;
    const Multiverse& mv = s.mv;
    std::lock_guard   lock(store->mutex);
    for (std::size_t gi = 0; gi < store->used; ++gi) {
        const ClassStore::Group& g     = store->groups[gi];
        bool                     alike = true;
        for (std::size_t i = 0; i < g.frozen.size() && alike; ++i) {
            const int t = g.frozen[i];
            alike       = mv.has_timeline(t)
                && (g.ends[i] < 0 ? mv.start_v(t) == mv.end_v(t) : mv.end_v(t) == g.ends[i]);
        }
        if (!alike) continue;
        const auto found = g.classes.find(s.key_without(g.frozen));
        if (found == g.classes.end()) continue;
        const ClassStore::Refuted& c = found->second;
        if (mv.min_l() != c.minL || mv.max_l() != c.maxL) continue;
        for (std::size_t i = 0; i < g.frozen.size() && alike; ++i)
            alike = g.ends[i] >= 0 || mv.end_v(g.frozen[i]) > c.behind + 1;
        if (!alike) continue;
        s.class_rules(g.frozen, c.behind, lo0, hi0, keep, squares, newSquares);
        if (s.ctx.memberHook) s.ctx.memberHook(s.ctx.memberHookArg, mv, ply, a);
        return true;
    }
    return false;
}

// The checks without meeting the quiet actions one by one: the mate-in-one search's walk
// leaves them out by classes (MateInOneSearch::for_each_check). Where quiet actions are most
// of a wide node, the checks come after a few of them instead of after all (cwmtt-silly
// --at -7: 22 million actions met in 30 s, none a check). Before a class walk (`cuts`), the
// checks' classes are left out too (cwmtt-100-timelines --at -9: its key, a check, came after
// 108,000 refuted actions of the walk's order, 3.4M nodes; the checks found it in 1.3M).
void Searcher::Wide::checks_pass(bool cuts) {
    movegen::MateInOneSearch& walk = s.mateSearches[std::size_t(ply)];
    if (byEntry) only_share(walk); // as class_walk()
    const bool done = walk.for_each_check_cut(
        s.mv,
        [&](std::span<const Move> a, std::vector<int>& keep) {
            if (const Taken t = take(); t != Taken::MINE)
                return t == Taken::PASSED ? Cut::STOP : Cut::NEXT;
            if (outside(a)) return Cut::NEXT; // not searched: no class to cut
            if (cuts && in_refuted_class(a, keep, walk.cut_squares(), walk.cut_new_squares()))
                return Cut::CUT_ON_SQUARES;
            if (!searched_killer(a) && !visit(a)) return Cut::STOP;
            return cuts ? class_cut(a, keep, walk.cut_squares(), walk.cut_new_squares())
                        : Cut::NEXT;
        },
        [&] { return tested(); }, &s.ctx.stop);
    // Stopped without a decision and not by the visitor: the stop flag (a limit).
    if (!done && !decided) aborted = true;
}

// The class walk: an attacker with two moves to go, too wide to list. Each action is searched
// as in the passes; when refuted, the refutation may refute its class too (class_refuted():
// the actions that differ from it only in their moves on timelines far ahead of the present),
// and the walk leaves that class out (HypercuboidSearch::for_each_cut). Where most boards are
// ahead of the present (cwmtt-silly --at -5, about 10^9 actions), the classes are few. The walk
// shows every legal action not left out, so it replaces the passes.
void Searcher::Wide::class_walk() {
    const auto p        = std::size_t(ply);
    auto       onAction = [&](std::span<const Move> a, std::vector<int>& keep) {
        if (s.stopped() || !s.count_node()) {
            aborted = true;
            return Cut::STOP;
        }
        if (outside(a)) return Cut::NEXT; // not searched: no class to cut
        if (in_refuted_class(a, keep, s.classSquares[p], s.classNewSquares[p]))
            return Cut::CUT_ON_SQUARES;
        if (!visit(a)) return Cut::STOP;
        return class_cut(a, keep, s.classSquares[p], s.classNewSquares[p]);
    };
    const std::size_t n = std::size_t(hi0 - lo0 + 1);
    s.classSquares[p].resize(n);
    s.classNewSquares[p].resize(n); // at most one new timeline per timeline
    // A share: the walk keeps to its actions from the start. A class it cuts moves or passes
    // where its action does (class_refuted() freezes only timelines the action moves on), so with
    // a pattern it is in one share; by the entry on starL, it is unless a refutation moves the
    // present back (then starL may be frozen).
    if (byEntry) only_share(s.classWalks[p]);
    const bool done = s.classWalks[p].for_each_cut(
        s.mv, onAction, s.classSquares[p], lo0, s.classNewSquares[p], &s.ctx.stop);
    // Stopped without a decision and not by the visitor: the stop flag (a limit).
    if (!done && !decided) aborted = true;
}

// The conflict pass: a defender with one move to go. Its defences are one move per board, and
// facing a mate threat most of them lose, usually to the same mate M: those that keep the move
// that let M in on the board where M checks (the timeline of the royal it attacks). The
// enumeration varies one board's move fastest, so when that board is another one, every
// defence in between is searched and lost (measured on tools-standard-checkmate-4 --at -5: 941
// defences on average before the refutation). Here each lost defence leaves out, for this pass
// only, the defences that make the same choice on the timelines M checks on
// (HypercuboidSearch::for_each_cut): the pass tries another move there next (measured there:
// 1.7 defences on average; the case took 147 s instead of 315 s). The pass is only an order:
// what it leaves out is searched by the passes after it (those it searched are answered by the
// table), so the node's value does not depend on it.
void Searcher::Wide::conflict_pass() {
    if (shareParts > 1 && sharePart != 0) return; // an order only: the first share's
    const std::vector<Move>& mate = s.killers.first(ply + 1);
    // Each defence: searched; when lost, the timelines of the royals its mate checks.
    auto onDefence = [&](std::span<const Move> a, std::vector<int>& keep) {
        if (s.stopped() || !s.count_node()) {
            aborted = true;
            return Cut::STOP;
        }
        if (!visit(a)) return Cut::STOP;
        // Lost: where does the mate that answered it (the killer of the next ply, when it is
        // legal here) check?
        if (mate.empty()) return Cut::NEXT;
        s.mateChecks.clear();
        s.with_if_legal(ply + 1, mate,
            [&](std::span<const Move>) { movegen::turn_start_checks(s.mv, s.mateChecks); });
        for (const Move& c : s.mateChecks)
            keep.push_back(c.to.l());
        return s.mateChecks.empty() ? Cut::NEXT : Cut::CUT;
    };
    beforeWalk = true;
    const bool done =
        s.conflicts[std::size_t(ply)].for_each_cut(s.mv, onDefence, {}, 0, {}, &s.ctx.stop);
    beforeWalk = false;
    // Stopped without a refutation and not by the visitor: the stop flag (a limit).
    if (!done && !decided) aborted = true;
}

// The passes (none after a class walk, which showed every action): attacker, checks then the
// rest; defender, defences without jumps then with jumps. A defender's first pass is the defences
// without jumps, enumerated alone (ActionPicker::physical()): where they are rare among millions of
// actions with jumps, the picker does not meet the others to find them.
void Searcher::Wide::passes(bool walked) {
    movegen::ActionPicker& picker = s.pickers[std::size_t(ply)];
    picker.reset(s.mv);
    for (int pass = 0; pass < 2 && !walked && open(); ++pass) {
        auto filtered = [&](std::span<const Move> a) {
            // Most actions of a pass are filtered out: stop checks come here, not only in
            // visit(), or a limit would wait for the whole enumeration; and each action met
            // counts as a node (as each tested action of the mate-in-one search does), so a
            // node limit bounds a pass too.
            if (s.stopped() || !s.count_node()) {
                aborted = true;
                return false;
            }
            if (const Taken t = take(); t != Taken::MINE) return t == Taken::OTHERS;
            if (searched_killer(a)) return true;
            bool first = true;
            if (orNode) {
                first = movegen::in_check_at_turn_start(s.mv);
            } else {
                for (const Move& m : a)
                    first = first && m.is_physical();
            }
            if (first != (pass == 0)) return true;
            return visit(a);
        };
        if (!orNode && pass == 0) {
            picker.physical(filtered);
        } else if (orNode && pass == 0 && s.cuts_pay()) {
            checks_pass(false);
        } else if (picker.depth_first(filtered) && picker.thrashed()) {
            picker.fallback(filtered);
        }
    }
}

// The node's value, stored.
Value Searcher::Wide::finish(Key key, std::uint64_t nodes0) {
    if (aborted) return Value::ABORT;
    return s.store_wide(orNode, bound, key, decided, winChild, s.totalNodes - nodes0 + 1);
}

Value Searcher::store_wide(
    bool orNode, int bound, Key key, bool decided, Key winChild, std::uint64_t effort) {
    if (decided == orNode) {
        ctx.tt.store_proof(key, bound, orNode ? action_hint(winChild) : 0, effort);
        return Value::YES;
    }
    ctx.tt.store_disproof(key, bound, orNode ? 0 : action_hint(winChild), effort);
    return Value::NO;
}

// A wide node, searched without listing its actions. Killers first (each only if legal here,
// ActionSearch::reset_only), then two passes of the ply's picker (the depth-first engine, and
// the hypercuboid enumeration after a thrash, which shows every action again: an action seen
// twice is searched twice, the second time answered by the table), each action searched as it
// comes: attacker, checks then the rest; defender, defences without jumps then with jumps. With
// two or more playable boards the attacker's checks come from the mate-in-one search's walk
// instead (MateInOneSearch::for_each_check), which leaves the quiet actions out by classes.
// The table decides a child at once where it can (enhanced transposition cutoff). The first
// decisive child ends the node (unless `out` and `all`: every key is wanted).
Value Searcher::stream(bool orNode, int bound, int ply, Key key, std::uint64_t nodes0,
    std::vector<std::vector<Move>>* out, bool all, bool useKillers) {
    // A defender with two or more moves to go: the ply's refutations completed, and its narrow
    // checks, first, within budgets (narrow_checks_streamed()).
    if (!orNode && bound >= 2 && ctx.narrowBudget > 0 && useKillers && !out && cuts_pay())
        if (const Value v = narrow_checks_streamed(bound, ply, key, nodes0); v != Value::OPEN)
            return v;
    if (!out && stream_splits(orNode, bound)) return stream_split(orNode, bound, ply, key);
    if (!out && orNode && class_walks(bound))
        return walk_patterns(bound, ply, key, nodes0, useKillers);
    Wide node(*this, orNode, bound, ply, out, all, useKillers);
    if (out) { // the keys: the killers, then the passes
        node.killers_pass();
        node.passes(false);
    } else if (orNode) {
        node.attacker_stages(class_walks(bound));
    } else {
        node.defender_stages();
    }
    return node.finish(key, nodes0);
}

// An attacker node's stages (no keys wanted): the killers, then with a class walk the checks,
// their classes cut too (a mate in two usually starts with one: the walk's order alone took
// tools-standard-checkmate --at -3 from 2 s to 32 s), and the walk for what they did not decide
// (each check met again answered by the table); without, the passes.
void Searcher::Wide::attacker_stages(bool classWalk) {
    killers_pass();
    if (classWalk && s.ctx.classChecks && open()) checks_pass(true);
    if (classWalk && open()) {
        class_walk();
        return;
    }
    if (!classWalk) passes(false);
}

// A defender node's stages: the killers, with one move to go the conflict pass, then the passes.
void Searcher::Wide::defender_stages() {
    killers_pass();
    if (bound == 1 && s.ctx.conflictPass && open()) conflict_pass();
    passes(false);
}

// The patterns' walks one after the other, as stream_split()'s shares (Wide::share_walk()); the
// first that finds a mate decides the node. Walking a class walk by patterns refutes fewer,
// larger classes than one walk of the whole node (measured, one thread: cwmtt-wide --at -3
// --mate 2 refuted 22,188 classes in 680,792 nodes with one walk, 7,117 in 108,000 by 16
// patterns; tools-princess-checkmate --at -3 --mate 2 902,533 nodes against 357,297 by its 4):
// the passing and moving on the boards ahead, which the cuts split the boxes by anyway, is fixed
// from the start, and the store gives each walk the classes the others refuted.
Value Searcher::walk_patterns(int bound, int ply, Key key, std::uint64_t nodes0, bool useKillers) {
    PatternTimelines ls{};
    const int        boards = share_pattern(ls, pattern_boards(1));
    const int        parts  = 1 << boards;
    ClassStore&      store  = *classStores[std::size_t(ply)];
    store.clear();
    for (int part = 0; part < parts; ++part) {
        Wide node(*this, true, bound, ply, nullptr, false, useKillers);
        node.share_walk(parts, part, boards);
        node.store = &store;
        node.attacker_stages(true);
        if (node.aborted) return Value::ABORT;
        if (node.decided)
            return store_wide(true, bound, key, true, node.winChild, totalNodes - nodes0 + 1);
    }
    return store_wide(true, bound, key, false, 0, totalNodes - nodes0 + 1);
}

int Searcher::split_pattern_boards(int threads) const {
    int boards = 0;
    while (boards < movegen::HypercuboidSearch::MaxPatternBoards
        && (1 << boards) < std::max(ctx.patternsPerThread, 1) * threads)
        ++boards;
    return boards;
}

bool Searcher::class_walks(int bound) const {
    return bound == 2 && ctx.classCuts && cuts_pay() && classes_possible();
}

// One share of a wide node split over the threads (stream_split()): stream()'s stages
// (attacker_stages(), defender_stages()) over the actions of the share only (Wide::take() by
// position, or Wide::owns() by entry in a class walk; the other shares search the others). Not
// stored: the node mates (an attacker's) or is refuted (a defender's) if one share is.
Value Searcher::stream_share(std::span<const std::vector<Move>> parentPath, Key expect, bool orNode,
    int bound, bool classWalk, int patternBoards, int parts, int part, Shared& shared,
    Key& winChild) {
    const int ply = int(parentPath.size());
    enter_path(parentPath);
    Value v = Value::ABORT;
    if (mv.key() != expect) {
        ctx.internal_error();
    } else {
        Wide node(*this, orNode, bound, ply, nullptr, false, true);
        node.shareParts = parts;
        node.sharePart  = part;
        if (classWalk && !node.share_walk(parts, part, patternBoards))
            ctx.internal_error(); // another position than the split's
        node.shared = &shared;
        node.store  = shared.store;
        if (orNode)
            node.attacker_stages(classWalk);
        else
            node.defender_stages();
        winChild = node.winChild;
        v        = node.left      ? Value::OPEN
                   : node.aborted ? Value::ABORT
                   : node.decided ? Value::YES
                                  : Value::NO;
    }
    leave_path(ply);
    return v;
}

int Searcher::share_pattern(PatternTimelines& ls, int boards) const {
    const int present = mv.present_v();
    int       n       = 0;
    for (; n < boards; ++n) { // the mover's boards ahead of the present, the furthest ahead first
        int best = -1;
        for (int l = mv.active_min_l(); l <= mv.active_max_l(); ++l) {
            const int v = mv.end_v(l);
            if (v <= present || movegen::Color(v & 1) != mv.to_move()
                || std::find(ls.begin(), ls.begin() + n, l) != ls.begin() + n)
                continue;
            if (best < 0 || v > mv.end_v(best)) best = l;
        }
        if (best < 0) break;
        ls[std::size_t(n)] = best;
    }
    return n;
}

int Searcher::present_timeline() const {
    const int present = mv.present_v();
    int       l       = mv.active_min_l();
    while (l < mv.active_max_l() && mv.end_v(l) != present)
        ++l;
    return l;
}

// Can a class be frozen here at all: does some timeline end after the present's next board
// (class_refuted() freezes only timelines that end, after the action and its refutation, more
// than a turn after an active one)? Where every board is at the present (tools-princess --at -5:
// four boards), the walk would only be slower than the passes (195,890 keys refuted in 60 s
// instead of 1,589,626).
bool Searcher::classes_possible() const {
    const int present = mv.present_v();
    for (int l = mv.min_l(); l <= mv.max_l(); ++l)
        if (mv.end_v(l) > present + 1) return true;
    return false;
}

// The class of `a` (made on mv): the actions that make the same choices as `a` on every
// timeline except some it moves from (G), where they may move otherwise. The first killer of
// the next ply (D, usually the defence that just refuted `a`) refutes them all when:
//  * D is legal after `a` and moves on, arrives on or passes across no timeline of G;
//  * each T of G ends, after a and D, later than the present by more than a turn of some other
//    active timeline U (end_v(U) + 1 < end_v(T));
//  * MateInOneSearch::no_mate_over_class() proves no mate in one after a and D with G frozen.
// Then for a' in the class, D is legal after a' as after a (D reads no board of G; the
// attacks on D's royals come from boards of the attacker's colour, and G's last boards are the
// defender's: RULES.md 5.2), and no_mate_over_class() gives no mate in one after a' and D.
// Every a' of the class that is legal is refuted, so none needs its own search.
bool Searcher::class_refuted(int ply, std::span<const Move> a, int lo0, int hi0,
    std::vector<int>& keep, std::span<movegen::SquareRules> squares,
    std::span<movegen::SquareRules> newSquares, bool& interrupted) {
    const std::vector<Move>& d = killers.first(ply + 1);
    if (d.empty()) return false;
    const int lo = mv.min_l(), hi = mv.max_l();
    bool      refutes = false;
    int       behind  = INT32_MAX;
    with_if_legal(ply + 1, d, [&](std::span<const Move>) {
        // Frozen: the timelines `a` moves from or created that D does not touch, each ending
        // more than a turn after `behind`, the earliest end of an active timeline not frozen
        // (the same for every action of the class: the others keep their boards).
        std::vector<int>& frozen = frozenScratch;
        frozen.clear();
        auto consider = [&](int t) {
            if (std::find(frozen.begin(), frozen.end(), t) == frozen.end()
                && !movegen::touches_any(d, std::span<const int>(&t, 1)))
                frozen.push_back(t);
        };
        for (const Move& m : a)
            consider(m.from.l());
        for (int l = lo; l <= hi; ++l)
            if (l < lo0 || l > hi0) consider(l); // the timelines `a` created
        for (std::size_t before = SIZE_MAX; before != frozen.size();) {
            before = frozen.size();
            behind = INT32_MAX;
            for (int l = mv.min_l(); l <= mv.max_l(); ++l)
                if (mv.is_active(l) && std::find(frozen.begin(), frozen.end(), l) == frozen.end())
                    behind = std::min(behind, mv.end_v(l));
            if (behind == INT32_MAX) {
                frozen.clear();
                break;
            }
            std::erase_if(frozen, [&](int t) { return mv.end_v(t) <= behind + 1; });
        }
        if (frozen.empty()) return;
        refutes = classProofs[std::size_t(ply + 1)].no_mate_over_class(
            mv, frozen,
            [&] {
                interrupted = interrupted || stopped() || !count_node();
                return !interrupted;
            },
            &ctx.stop);
        interrupted = interrupted || stopped();
    });
    if (!refutes || interrupted) return false;
    if (ctx.classHook) ctx.classHook(ctx.classHookArg, mv, ply, a, d, frozenScratch);
    classBehind = behind;
    class_rules(frozenScratch, behind, lo0, hi0, keep, squares, newSquares);
    return true;
}

void Searcher::class_rules(std::span<const int> frozen, int behind, int lo0, int hi0,
    std::vector<int>& keep, std::span<movegen::SquareRules> squares,
    std::span<movegen::SquareRules> newSquares) const {
    const movegen::Color attacker = ~mv.to_move(); // the action is made
    for (int l = mv.min_l(); l <= mv.max_l(); ++l)
        if (std::find(frozen.begin(), frozen.end(), l) == frozen.end()) keep.push_back(l);
    // A frozen timeline that existed: any board (the same royals of the defender); one that the
    // action created: any branching arrival whose board is later than behind + 1.
    for (movegen::SquareRules& r : squares)
        r.clear();
    for (movegen::SquareRules& r : newSquares)
        r.clear();
    for (const int t : frozen)
        if (t < lo0 || t > hi0) {
            const int k = movegen::new_timeline_number(attacker, lo0, hi0, t);
            newSquares[std::size_t(k)].laterThan = behind + 1;
        }
}

Key Searcher::key_without(std::span<const int> frozen) const {
    Key k = mv.key();
    for (const int t : frozen)
        k ^= movegen::board_slot_key(mv.tip(t).key, t, mv.end_v(t));
    return k;
}

} // namespace fived::solver
