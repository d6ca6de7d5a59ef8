#pragma once
// The exact mate search: a depth-bounded AND/OR depth-first search with a transposition table
// (ALGORITHMS.md E.4, "baseline and oracle").
//
// Terms. The attacker is the side to move at the root. An attacker node with bound r asks
// "is there an action after which the defender is mated within r - 1 more attacker actions?"
// (an OR node); a defender node with bound k asks "does every legal defence lose within k
// attacker actions?" (an AND node; k = 0 asks "is the defender checkmated now?"). Checkmate is
// "in check at the start of the turn (RULES.md §5.4) and no legal action"; stalemate is no mate.
//
// Work per node:
//  * attacker, r = 1: the killers and the ply's recent mates, then the mate-in-one search
//    (movegen/mate.h): the attacker's actions walked as a hypercuboid, only those that leave
//    the defender in check probed by the existence test, escapes generalised. Nothing is
//    collected.
//  * attacker, r >= 2, and defender (k >= 1), before anything is listed: the ply's two killers,
//    and at a defender node the ply's recent refutations, each searched if legal here
//    (killers_first()); a decisive one decides the node. At k = 1 the killer whose last
//    refutation took fewer nodes goes first (the mate-in-one search after it probes less).
//    That order is the NodePicker's first stage (NodePicker::first_tries()).
//  * attacker, r >= 2 and every defender node with at most SearchContext::streamAbove legal
//    actions: the legal actions are collected into the ply's
//    ActionList together with the key of the position they lead to. Children already decided
//    in the table answer at once (enhanced transposition cutoff, table_cutoff()); the rest are
//    searched in the order of the node's NodePicker (node_picker.h, which owns the stages and
//    their weights): attacker, table hint, killers (actions that mated sibling defences),
//    checks, the rest; defender, table hint, killers (defences that refuted sibling attacker
//    actions), then defences without jumps before those with jumps. search_children() is a
//    loop over NodePicker::next().
//  * defender, k >= 2: the killers are searched within a node budget (SearchContext::
//    narrowBudget); when they do not refute in it, the node is listed, and before the usual
//    order the defences that give check with the fewest attacker actions are searched within
//    growing budgets (narrow_checks_first()): a refutation that leaves the attacker few
//    answers is cheap to prove where the killer leaves it thousands.
//  * a node with more actions is searched without listing them (stream()): the killers first
//    (if legal here), then the actions as the action picker enumerates them, each searched as
//    it comes and the node cut by the first decisive child, in two passes: attacker, actions
//    that give check (with two or more playable boards walked by the mate-in-one search, which
//    leaves the quiet actions out by classes: MateInOneSearch::for_each_check), then the
//    others; defender, defences without jumps (enumerated alone, ActionPicker::physical()),
//    then those with.
//    An attacker node with r = 2 (two or more playable boards, some timeline ending beyond
//    the present's next board) searches its checks, then is walked as a hypercuboid instead
//    of the passes; in both, each refuted action leaves out the class its refutation also
//    refutes (class_refuted(); the actions that differ only on timelines far ahead of the
//    present). It does so pattern by pattern (walk_patterns(): the actions that pass or move on
//    some boards ahead as the pattern says), each walk leaving out the classes the node refuted
//    before (ClassStore).
//    A defender node with k >= 2 first tries, within node budgets, the ply's refutations
//    completed on the boards they do not play on, and its narrow checks
//    (narrow_checks_streamed()).
//    Nothing is stored per action, so memory does not grow with the width; the order is the
//    enumeration's, fixed for a position, so the answer and the key do not depend on threads
//    (with two or more threads, the node splits by shares of its actions, each searched in
//    this order: stream_split(); its children may split). It has no NodePicker:
//    with nothing listed there is nothing to score, and its passes are the enumeration's
//    (Searcher::Wide, stream.cpp), after a pass over the ply's two killers.
//  * A collected action is replayed with make_move in standard order, and the key reached must
//    equal the key recorded during enumeration; a mismatch is an internal error that stops the
//    search with "unknown", never a wrong answer.
//
// Values are exact booleans or ABORT (limit hit, stop requested, or the enclosing task group
// cancelled because a sibling decided). ABORT results are never stored.
//
// Parallelism (STYLE.md §2.8) is in the same recursion: at an attacker node whose height
// (plies left) reaches SearchContext::splitHeight the eldest child is searched serially and the
// others by one worker per thread (tasks of a tbb::task_group), each walking a block of
// consecutive children in list order (split_blocks.h; an idle worker takes the back half of the
// largest block left) on a Searcher leased from the pool (never thread_local) and sharing the
// killers and recent actions below the node through the parent; a task replays the path from
// the root on its own multiverse. The first decisive child cancels the group. A wide node
// splits by shares instead (stream_split(), split.cpp; SearchSettings::splitWide): each
// worker walks the node as stream() does and searches the actions of its share; an attacker
// node mates iff a share does, a defender node is refuted iff a share is. An attacker node with
// r = 1 is searched by one thread. Listed defender nodes split only with splitDefender (see
// there). The answer is exact whatever the schedule; only
// node counts and table contents depend on it.
//
// df-pn (dfpn()) is the same AND/OR problem searched best-first by proof and disproof numbers
// (Nagai 2002, ALGORITHMS.md E.4) with the bound as above; its leaves (r = 1, k = 0) are the
// reference search's exact tests, its decided nodes go to the same table, and the tests check
// it against the reference search.

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <tuple>
#include <vector>

#include "movegen/actions.h"
#include "movegen/mate.h"
#include "movegen/multiverse.h"
#include "movegen/picker.h"
#include "solver/history.h"
#include "solver/killers.h"
#include "solver/search_settings.h"
#include "solver/split_blocks.h"
#include "solver/tt.h"
#include "solver/value.h"

namespace fived::solver {

// Proof/disproof number infinity of df-pn (saturating sums stop here).
constexpr std::uint32_t PnInf = 1u << 30;

class Searcher;
class NodePicker;

// Leases Searchers to tasks. Searchers are created on demand (warm-up) and reused.
class SearcherPool {
public:
    explicit SearcherPool(struct SearchContext& context) : ctx(context) { }
    Searcher* acquire();
    void      release(Searcher* s);
    // Calls f(searcher) on every searcher ever created (counters, clearing killers).
    template <class F>
    void for_all(F&& f) {
        std::lock_guard lock(mutex);
        for (auto& s : all)
            f(*s);
    }

private:
    SearchContext&                         ctx;
    std::mutex                             mutex;
    std::vector<std::unique_ptr<Searcher>> all;
    std::vector<Searcher*>                 idle;
};

// What every searcher of one solve shares: the settings (the driver's SolveOptions), the table,
// the counters. Limits set `stop`; limitHit says why.
struct SearchContext : SearchSettings {
    SearchContext(TranspositionTable& t, const Multiverse& r, int plies, const SearchSettings& s) :
        SearchSettings(s), tt(t), root(r), maxPly(plies) { }

    TranspositionTable& tt;
    PnTable*            pnTable = nullptr; // df-pn only
    const Multiverse&   root;              // the puzzle position (searchers fork it)
    int                 maxPly;            // deepest ply a node can have (2 * maximal bound + 1)
    // The split's height: SolveOptions::splitHeight with two or more threads, else 0 (never
    // split). Which nodes split: SearchSettings::splitDefender.
    int           splitHeight = 0;
    SearcherPool* pool        = nullptr;
    // How many workers a split may use now: the threads, or fewer while other processes keep
    // the machine's cores busy (the driver's watcher, cpu_share.h); below 2 no node splits.
    std::atomic<int> splitWorkers{1};
    // splitWorkers now, at least 1.
    int split_workers() const { return std::max(splitWorkers.load(std::memory_order_relaxed), 1); }
    // Tests: called for each class refuted, with the node's ply, the action shown (made on the
    // searcher's multiverse), the refutation and the frozen timelines (class_refuted()).
    using ClassHook = void (*)(void* arg, const Multiverse& mv, int ply, std::span<const Move> a,
        std::span<const Move> d, std::span<const int> frozen);
    ClassHook classHook    = nullptr;
    void*     classHookArg = nullptr;

    std::atomic<bool>          actionLimitHit{false};
    std::atomic<std::uint64_t> nodes{0}; // flushed from the searchers
    std::atomic<bool>          stop{false};
    std::atomic<bool>          limitHit{false};
    std::atomic<bool>          internalError{false};
    // An internal failure (a replayed action reached another position, a walk showed an action
    // of no share): never trust what follows, so the search stops with "unknown".
    void internal_error() {
        internalError.store(true, std::memory_order_relaxed);
        stop.store(true, std::memory_order_relaxed);
    }
    // Progress of the running depth (reset by the driver at each): the attacker's first actions
    // found not to mate, and how many legal ones the root has (0: too many to list, streamed).
    // A streamed root that thrashes may meet an action twice and count it twice.
    std::atomic<std::uint64_t> rootRefuted{0};
    std::atomic<std::uint64_t> classesCut{0}; // classes of actions refuted at once (stream())
    std::atomic<std::uint64_t> splits{0};     // nodes split over threads (split(), stream_split())
    std::atomic<std::uint64_t> streamSplits{0};  // of them, wide attacker nodes (stream_split())
    std::atomic<std::uint64_t> defenceSplits{0}; // and wide defender nodes (stream_split())
    std::atomic<std::uint64_t> countSplits{0};   // narrow candidates' counts split (count_narrow())
    std::atomic<std::uint64_t> rootActions{0};

    // A share of the root (SolveOptions::rootActions, `fived solve --shard`): only these root
    // actions are searched (action_id()s, sorted); the others are skipped as if the table had
    // refuted them, so the root is searched in the order, with the cutoffs and the splits, of
    // the whole solve. rootShare false: every action.
    // With hashParts > 0 the share is instead the actions whose action_part() is hashPart.
    bool                       rootShare = false;
    std::vector<std::uint64_t> rootOwned;
    int                        hashParts = 0, hashPart = 0;
    bool                       owned(int ply, std::span<const Move> a) const {
                              if (ply != 0 || !rootShare) return true;
        if (hashParts > 0) return action_part(a, hashParts) == hashPart;
        return std::binary_search(rootOwned.begin(), rootOwned.end(), action_id(a));
    }
};

// One search thread's state: its own multiverse (a fork of the root, kept at the root between
// uses), per-ply buffers, killers and counters. Every per-ply buffer (action search, action list,
// undo records, path, killers) is reused from node to node and keeps its capacity, so once the
// searcher has seen nodes as large, a node allocates nothing (STYLE.md §2.5; the parallel split
// itself allocates oneTBB tasks).
class Searcher {
public:
    Searcher(SearchContext& ctx);
    ~Searcher();
    Searcher(const Searcher&)            = delete;
    Searcher& operator=(const Searcher&) = delete;

    // The multiverse, at the root position between searches.
    Multiverse& position() { return mv; }

    // Attacker to move: mate within r >= 1 attacker actions?
    Value attack(int r, int ply);
    // Defender to move: mated within k >= 0 attacker actions, whatever it does?
    Value defend(int k, int ply);

    // Depth-first proof-number search (Nagai 2002) with the same node semantics and bound as
    // attack()/defend() (ALGORITHMS.md E.4). Returns YES/NO when decided (stored in the table
    // like the reference search does), OPEN when the node's numbers reached a threshold (then
    // they are in pnOut/dnOut and in the PnTable), or ABORT. Serial; the reference search is
    // its oracle in the tests.
    Value dfpn(bool orNode, int bound, int ply, std::uint32_t thpn, std::uint32_t thdn,
        std::uint32_t& pnOut, std::uint32_t& dnOut);
    // Root driver of dfpn: repeats until the attacker node with bound r is decided.
    Value dfpn_root(int r);

    // Collects the legal actions of the side to move at `ply` into that ply's list (standard
    // order, no sorting). Returns false if stopped.
    bool collect(int ply, bool withChecks) { return list_up_to(ply, withChecks, 0) == Listed::ALL; }
    // The same, stopping after `cap` actions (0 = none) without stopping the search: OVER.
    enum class Listed : std::uint8_t {
        ALL,
        OVER,
        STOPPED
    };
    Listed list_up_to(int ply, bool withChecks, std::size_t cap);
    // The attacker actions at `ply` after which the defender is mated within k - 1 more
    // attacker actions (k >= 1), in the order the search meets them (a listed node: standard
    // order; a wide node: stream() order; mate in one from MateInOneSearch::QuietCutBoards
    // playable boards on: the mate-in-one search's order, which lists nothing): the first, or
    // at most `max` of them (1: the first). Appends to out; false if stopped.
    bool answers(int ply, int k, std::size_t max, std::vector<std::vector<Move>>& out);
    // The children of the node at `ply` decided the way its side wants, in the search's order:
    // attacker to move (`attacker`), the actions mating within k (answers()); defender to move,
    // the defences after which the attacker has no mate within k (every defence if k = 0). At
    // most `max` (a wide node's stream() may give more; the caller keeps what it needs).
    // Appends to out; false if stopped.
    bool decisive(
        int ply, bool attacker, int k, std::size_t max, std::vector<std::vector<Move>>& out);
    // Is `a` one of the legal actions at `ply` (attacker to move) after which the defender is
    // mated within k - 1 more attacker actions (k >= 1)? YES, NO or ABORT; mv is left as found.
    Value             mates_with(int ply, int k, const std::vector<Move>& a);
    const ActionList& list(int ply) const { return lists[std::size_t(ply)]; }
    // Makes action i of the ply's list (after collect), recording it on the path; returns false
    // (and flags an internal error) if the key reached differs from the recorded one.
    bool make(int ply, std::size_t i);
    void unmake(int ply);
    // Makes `action` at `ply`, recording it on the path (undone by unmake(ply)).
    void enter_step(int ply, std::span<const Move> action);
    // Replays a path (actions of plies 0..n-1) on this searcher, which must be at the root.
    void                               enter_path(std::span<const std::vector<Move>> path);
    void                               leave_path(int n);
    std::span<const std::vector<Move>> path(int n) const {
        return {pathMoves.data(), std::size_t(n)};
    }

    // On a searcher at the root (a leased one): replays parentPath and action (which must
    // reach the key `expect`), searches the child (defend(bound) if defenderNext, else
    // attack(bound)) and returns to the root.
    Value search_child(std::span<const std::vector<Move>> parentPath, std::span<const Move> action,
        Key expect, bool defenderNext, int bound);

    void clear_killers();
    // The killers of plies >= ply taken from another searcher (a leased searcher that continues
    // its work below a node: the tree's defences, the keys).
    void copy_killers(const Searcher& from, int ply) { killers.copy_from(from.killers, ply); }
    std::uint64_t nodes() const { return totalNodes; }
    // Adds the nodes not yet flushed to the shared counter.
    void flush_nodes();
    // Counts a node; false when the node limit is reached (the search then stops everywhere).
    bool count_node();

private:
    bool stopped();
    // dfpn(): a listed node's children numbered and scored.
    void  dfpn_children(bool orNode, int childBound, int ply, std::uint32_t hint);
    Value attack_last(Key key, int ply);
    // A listed node (node_picker.h): the table's decided children (enhanced transposition
    // cutoff), then the others in the picker's order.
    Value table_cutoff(NodePicker& picker, int bound, int ply, Key key, std::uint64_t nodes0);
    Value search_children(NodePicker& picker, int bound, int ply, Key key, std::uint64_t nodes0);
    // A node with more than ctx.streamAbove actions, searched without listing them (see the
    // definition). With `out`, it also appends the children decided its side's way (mates at an
    // attacker node, refutations at a defender node; all of them with `all`).
    Value stream(bool orNode, int bound, int ply, Key key, std::uint64_t nodes0,
        std::vector<std::vector<Move>>* out = nullptr, bool all = false, bool useKillers = true);
    // Does stream() walk this attacker node's classes (r = 2, class cuts possible here)?
    bool class_walks(int bound) const;
    // An active timeline whose last board is at the present (the first such): the mover must
    // play there, and a class cut keeps it but where a refutation moves the present back.
    int present_timeline() const;
    // The timelines of a class walk's pattern boards (share_pattern()).
    using PatternTimelines = std::array<int, movegen::HypercuboidSearch::MaxPatternBoards>;
    // The boards whose moves split a class walk into shares (stream_split()), one share per
    // pattern of moving or passing on each (HypercuboidSearch::only_pattern()): up to `boards`
    // of the mover's boards ahead of the present, the furthest ahead first, in ls. Returns how
    // many (none: the shares go by entry on present_timeline()).
    int share_pattern(PatternTimelines& ls, int boards) const;
    // Is this wide node (more than streamAbove actions) searched over the threads by shares
    // (stream_split())?
    bool stream_splits(bool orNode, int bound) const;
    // A wide node over the threads: one share of its actions per thread, each searched as
    // stream() would (split.cpp). The value (stored) or ABORT.
    Value stream_split(bool orNode, int bound, int ply, Key key);
    struct Shared;     // what the shares of one stream_split() share (search_internal.h)
    struct ClassStore; // the classes a class-walk node refuted (search_internal.h)
    // A class-walk node (class_walks()) on this thread: the walks of its patterns one after the
    // other (share_pattern(); stream_split() runs them on the threads), sharing its ClassStore.
    Value walk_patterns(int bound, int ply, Key key, std::uint64_t nodes0, bool useKillers);
    // How many boards the patterns of a class walk take at most (share_pattern()): 4 (16
    // patterns), or as many as SearchSettings::patternsPerThread per thread need; and how many a
    // split over that many threads needs (split_pattern_boards()).
    static constexpr int PatternBoards = 4;
    int                  split_pattern_boards(int threads) const;
    int                  pattern_boards(int threads) const {
                         return std::max(PatternBoards, split_pattern_boards(threads));
    }
    // A wide node's value, stored (stream(), stream_split()): `decided` by the child reached
    // with key winChild (a mate, a refutation), or not, after `effort` nodes.
    Value store_wide(
        bool orNode, int bound, Key key, bool decided, Key winChild, std::uint64_t effort);
    // On a searcher at the root (a leased one): replays parentPath (which must reach `expect`)
    // and searches share `part` of `parts` of the wide node there (an attacker's by entry when
    // it walks classes; stream.cpp); nothing is stored for the node (one share's value is not
    // the node's). Returns whether the share found a decisive child (a mate, a refutation),
    // ABORT, or OPEN for a walker that left the node (Shared::stays()); after YES winChild is
    // the key after it, and the first killer of the ply that action.
    Value stream_share(std::span<const std::vector<Move>> parentPath, Key expect, bool orNode,
        int bound, bool classWalk, int patternBoards, int parts, int part, Shared& shared,
        Key& winChild);
    struct Wide; // stream()'s node and stages (stream.cpp)
    Value killers_first(bool orNode, int bound, int ply, Key key, std::uint64_t nodes0);
    // Defender node with k >= 2, listed: the narrow checks first, within node budgets (see the
    // definition). The refutation found (stored), ABORT, or OPEN.
    Value narrow_checks_first(NodePicker& picker, int k, int ply, Key key, std::uint64_t nodes0);
    // The same for a defender node searched by stream().
    Value narrow_checks_streamed(int k, int ply, Key key, std::uint64_t nodes0);
    // The check signature and count of attacker actions of each candidate in `cs` (made at
    // `ply` by enter() on this searcher, or by its moves action() on a leased one); false if a
    // limit or an internal error stopped it.
    struct NarrowCandidate;
    template <class Enter, class Action>
    bool count_narrow(int ply, std::span<NarrowCandidate> cs, Enter enter, Action action);
    template <class Enter, class Action, class Answered>
    Value narrow_rounds(int k, int ply, Key key, std::uint64_t nodes0, std::size_t fixed,
        Enter enter, Action action, Answered answered);
    // A signature of the checks the side to move faces (movegen::turn_start_checks): equal for
    // two actions that give the same checks, whatever else they play.
    std::uint64_t check_signature();
    // f() searched within `budget` more nodes of this searcher (and any budget around it): its
    // value, or OPEN when this budget ran out.
    template <class F>
    Value within(std::uint64_t budget, F f);
    // The value of the child reached by action a (made on mv): from the table, or searched.
    Value child_value(bool orNode, int childBound, int ply, std::span<const Move> a);
    // The cut policy, asked here only: does the side to move at mv have the playable boards for
    // the mate-in-one search's cuts (MateInOneSearch::cuts_pay())? Where it does, quiet actions
    // go by classes: the checks come from the walk, answers and narrow checks from its search.
    bool cuts_pay() const { return movegen::MateInOneSearch::cuts_pay(mv); }
    // Does some timeline end after the present's next board (else no class can be frozen)?
    bool classes_possible() const;
    // Called with attacker action `a` made at `ply` (an OR node with r = 2) and just refuted:
    // does the refutation found (the first killer of ply + 1) refute every action that differs
    // from `a` only in its moves on some timelines it moves on? If so, fills `keep` with the
    // other timelines and the rules (`squares` per timeline before `a`, `newSquares` per
    // timeline it created; HypercuboidSearch::for_each_cut leaves that class out by them) and
    // returns true. `interrupted`: a limit or a budget ended the proof (the caller stops).
    // [lo0, hi0]: the timelines before `a` (the others, `a` created).
    bool class_refuted(int ply, std::span<const Move> a, int lo0, int hi0, std::vector<int>& keep,
        std::span<movegen::SquareRules> squares, std::span<movegen::SquareRules> newSquares,
        bool& interrupted);
    // The rules of a class refuted with timelines `frozen` and `behind` (class_refuted()): `keep`
    // the other timelines of mv, any board on an existing frozen timeline, on one created any
    // branching arrival later than behind + 1.
    void class_rules(std::span<const int> frozen, int behind, int lo0, int hi0,
        std::vector<int>& keep, std::span<movegen::SquareRules> squares,
        std::span<movegen::SquareRules> newSquares) const;
    // The position key of mv without the last boards of the timelines `frozen` (Shared::
    // RefutedClass).
    Key key_without(std::span<const int> frozen) const;
    // If `a` is one of the legal actions of mv (the position at `ply`; ActionSearch::reset_only
    // lists exactly the legal actions made of its moves): f(a) with a made on mv, then undone.
    // Returns whether it was legal.
    template <class F>
    bool with_if_legal(int ply, const std::vector<Move>& a, F f);
    // If `a` is one of the legal actions at `ply` (ActionSearch::reset_only), made: its child's
    // value (child_value), the child's key in *child when given; else OPEN.
    Value value_if_legal(
        bool orNode, int childBound, int ply, const std::vector<Move>& a, Key* child);
    // The picker's current action and those after it, as tasks (split.cpp).
    Value split(const NodePicker& picker, int bound, int ply);
    void  set_killer(int ply, std::span<const Move> a);
    // An attacker action at `ply` was found not to mate within its bound (counted at the root).
    void refuted(int ply) {
        if (ply == 0) ctx.rootRefuted.fetch_add(1, std::memory_order_relaxed);
    }

    SearchContext&                        ctx;
    Multiverse                            mv;
    std::vector<movegen::ActionPicker>    pickers;      // per ply: the legal actions (picker.h)
    std::vector<movegen::ActionSearch>    onlySearches; // per ply: with_if_legal()'s test
    std::vector<movegen::MateInOneSearch> mateSearches; // per ply: attack_last()'s search
    // Per ply: the class walk of a wide attacker node with r = 2 (stream()), and the proofs
    // that refute a class (class_refuted(), at the next ply).
    std::vector<movegen::HypercuboidSearch> classWalks;
    std::vector<movegen::MateInOneSearch>   classProofs;
    std::vector<std::unique_ptr<ClassStore>>
                     classStores; // per ply: walk_patterns(), stream_split()
    std::vector<int> frozenScratch;
    int classBehind = 0; // class_refuted(): the earliest end of an active timeline not frozen
    // Per ply: the class walk's rules (for_each_cut's squares and newSquares).
    std::vector<std::vector<movegen::SquareRules>> classSquares, classNewSquares;
    std::vector<ActionList>                        lists; // per ply
    std::vector<std::vector<MoveUndo>> undos;     // per ply: undo records of the made action
    std::vector<std::vector<Move>>     pathMoves; // per ply: the action made at that ply
    Killers                            killers;   // per ply (killers.h)
    // Per ply: narrow_checks_first()'s and narrow_checks_streamed()'s candidates.
    struct NarrowCandidate {
        std::uint64_t width   = 0;     // attacker actions after it (counted up to NarrowCountCap)
        std::uint32_t index   = 0;     // in the list, or in narrowActions
        std::uint64_t sig     = 0;     // check_signature() after it
        int           score   = 0;     // CandidateHistory::score(): the higher, the sooner
        int           lead    = 0;     // rounds it starts ahead (CandidateHistory::lead())
        bool          counted = false; // not one of the fixed candidates
        bool          operator<(const NarrowCandidate& o) const { return order() < o.order(); }
        // Refuters first, the cheapest (smallest lead) first; then the unknown, then the failed.
        std::tuple<int, int, int, bool, std::uint64_t, std::uint32_t> order() const {
            const int group = score > 0 ? 0 : score == 0 ? 1 : 2;
            return std::tuple(group, score > 0 ? lead : 0, -score, counted, width, index);
        }
    };
    std::vector<std::vector<NarrowCandidate>> narrow;
    // Per ply: how the narrow rounds' candidates fared at siblings (CandidateHistory).
    std::vector<CandidateHistory> history;
    // Per ply: narrow_checks_streamed()'s candidate actions (their buffers kept).
    std::vector<std::vector<std::vector<Move>>> narrowActions;
    std::vector<std::uint64_t>                  narrowSeen; // their checks' signatures
    std::vector<Key>  checkChildren; // list_up_to(): the keys after the actions that give check
    std::vector<Move> checkMoves;
    // Per ply: stream()'s conflict pass over a wide defender node with one move to go, and the
    // checks of the mate that answered a defence there.
    std::vector<movegen::HypercuboidSearch> conflicts;
    std::vector<Move>                       mateChecks;
    std::vector<SplitBlocks>                splitBlocks; // per ply: split()'s blocks of children
    std::vector<Move> shareWinner; // stream_split(): the decisive action a share found
    std::uint64_t     totalNodes = 0;
    std::uint64_t     unflushed  = 0;
    // The node budget (within()): count_node() fails once totalNodes passes budgetEnd, and sets
    // budgetOut. No budget: NoBudget. A searcher under a budget splits as one without: each
    // worker gets what is left of the budget when the split starts (lent_budget(), lend_to()),
    // and one that runs out of it sets the parent's budgetOut (took_back()), so the enclosing
    // within() answers OPEN as it would on one thread. (A split's work may then take up to that
    // many nodes per worker: a budget only orders the work, what it decides is exact.)
    static constexpr std::uint64_t NoBudget = UINT64_MAX;
    std::uint64_t                  lent_budget() const {
                         return budgetEnd == NoBudget ? NoBudget
                             : budgetEnd > totalNodes ? budgetEnd - totalNodes
                                                      : 0;
    }
    void lend_to(Searcher& worker, std::uint64_t lent) const {
        worker.budgetEnd = lent == NoBudget ? NoBudget : worker.totalNodes + lent;
        worker.budgetOut = false;
    }
    // After a worker's last child: did it run out of its budget? Its budget cleared.
    static bool took_back(Searcher& worker) {
        const bool out   = worker.budgetOut && worker.budgetEnd != NoBudget;
        worker.budgetEnd = NoBudget;
        worker.budgetOut = false;
        return out;
    }
    // narrow_checks_first(): the growth of the budget per round (the first is
    // ctx.narrowBudget), the rounds, the checks counted, the candidates searched, the cap of
    // their count of attacker actions and the depth-first nodes that count may take (past them
    // the defence counts as wide: cwmtt-ctp1 --at -9 spent 15.6 s of its 27 s in 147 counts that
    // reached the cap after up to 260,000 nodes each). The last round's budget, 160,000 nodes by
    // default (256,000 when this was measured, from 4,000): slavrick samet --at -5 has a key (the
    // 1,345th of the order) whose narrow checks, about 1,300 attacker actions each, refute within
    // neither 4,000 nor 32,000 nodes, and whose killer, a quiet defence, took 2.9M nodes (66 s) to
    // refute; 256,000 refutes it in 54,438 nodes and decides the case (no mate in 3) in 45 s, where
    // it was unknown after 60 s (scripts/real_positions.py, 1 thread). Four rounds growing by 4
    // (then 4,000, 16,000, 64,000, 256,000) rather than three by 8: each candidate that does not
    // refute costs up to the budget of the round where another does, so smaller steps waste less
    // (cwmtt-standard --at -5, keys refuted within 6M nodes, with CandidateHistory: 1,630 by 8,
    // 2,242 by 4, 2,078 by 2 in seven rounds).
    static constexpr std::uint64_t NarrowGrowth       = 4;
    static constexpr int           NarrowRounds       = 4;
    static constexpr std::size_t   NarrowCounted      = 64;
    static constexpr std::size_t   NarrowChecks       = 8;
    static constexpr std::size_t   SameCheckCollected = 4; // per check, in a streamed node
    static constexpr std::uint64_t NarrowCountCap     = 2000;
    static constexpr std::uint64_t NarrowCountEffort  = 20000;
    // With a second worker free, the counts of at least this many candidates split over the
    // threads (count_narrow()).
    static constexpr std::size_t NarrowSplitAt = 4;
    std::uint64_t                budgetEnd     = NoBudget;
    bool                         budgetOut     = false;
};

} // namespace fived::solver
