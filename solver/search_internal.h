#pragma once
// What the reference search's files (search.cpp, narrow.cpp, stream.cpp, split.cpp, dfpn.cpp)
// share beyond search.h: bounds, heights and the Searcher's member templates used in more than
// one of them. Internal, not installed.

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include <absl/container/flat_hash_map.h>
#include <tbb/task_group.h>

#include "movegen/action.h"
#include "movegen/actions.h"
#include "movegen/types.h"
#include "solver/search.h"

namespace fived::solver {
namespace detail {

// Bounds used for facts that hold for every bound (no legal action at all).
constexpr int AllBounds = 250;

// Plies left below a node: an attacker node with bound r has 2r - 1 (it ends with the
// attacker's mating action), a defender node with bound k has 2k.
inline int height(bool orNode, int bound) { return orNode ? 2 * bound - 1 : 2 * bound; }

} // namespace detail

// The classes of attacker actions refuted at one class-walk node (Searcher::class_refuted()),
// so that a walk does not refute a class again: the class walk meets the classes its checks pass
// refuted, and each pattern's walk those of the others (Searcher::walk_patterns(),
// stream_split()); without it, cwmtt-wide --at -3 --mate 2 refuted 16,377 classes by patterns on
// two threads, with it 8,678. A class is kept by what its proof asks of a member x, the position
// after x: the timelines it froze (`frozen`, sorted), x moved on each that existed (which then
// ends at `ends`, -1 for one the action created) and created each other with one board later than
// behind + 1; every other board is the refuted action's, so the class is a key (the position
// key without the frozen timelines' last boards, Searcher::key_without()) in the group of its
// frozen timelines. Under the mutex (the shares of a split share one store). clear() keeps the
// capacity: one per ply and searcher, reused from node to node.
struct Searcher::ClassStore {
    struct Refuted {
        int behind = 0, minL = 0, maxL = 0;
    };
    struct Group {
        std::vector<int>                  frozen, ends;
        absl::flat_hash_map<Key, Refuted> classes;
    };
    // At most this many classes are kept (about 40 bytes each, 10 MiB a store): memory stays
    // bounded however long one node is searched; past it a class met again is refuted again
    // (cwmtt-wide --at -3 --mate 2 keeps 7,117).
    static constexpr std::size_t MaxClasses = std::size_t(1) << 18;
    std::mutex                   mutex;
    std::vector<Group>           groups;
    std::size_t                  used = 0; // groups[0, used) are this node's
    std::size_t                  kept = 0; // classes in them
    void                         clear();  // stream.cpp
};

// What the shares of one stream_split() (split.cpp) share: the position of a decisive child one
// of them found (stopAt: a mate, or at a defender node a refutation), and their killers below
// the node, traded through the parent's under the mutex as they go (Wide::take(), stream.cpp).
// Each share runs in a task group of its own (groups[part], under the mutex while it runs) and
// publishes the position it is searching (at[part]; 0 before its walk: the killers, the
// conflicts): a share that decides the node cancels those already past its position, whose
// work is not needed (Wide::visit()).
struct Searcher::Shared {
    static constexpr int                              MaxShares = 64;
    std::atomic<std::uint64_t>                        stopAt{UINT64_MAX};
    std::mutex                                        killerMutex;
    Killers*                                          parent = nullptr;
    std::array<std::atomic<std::uint64_t>, MaxShares> at{};
    std::array<tbb::task_group*, MaxShares>           groups{};
    // Without a class walk: which walker searches which block of positions, and the walkers
    // (one per share number, taken from `next`), which come and go with the watcher's count
    // (SearchContext::splitWorkers) at the blocks' starts (stays()).
    BlockClaims      claims;
    bool             walkers = false;
    std::atomic<int> next{0}, active{0};
    int              maxWalkers = 1;
    std::thread::id  parentThread;
    void (*spawn)(void*) = nullptr; // starts one more walker (stream_split())
    void* spawnArg       = nullptr;
    // A walker at the start of a block, `workers` the watcher's count now: false if it leaves
    // (one of more than `workers` walkers, not on the parent's thread: never the last, and
    // between blocks, so every block claimed is searched); with fewer walkers than `workers`,
    // starts another.
    bool stays(int workers);
    // A share decided the node at position p: p becomes stopAt (the least such), and the shares
    // searching past it are cancelled.
    void decided_at(std::uint64_t p, int part);
    // The node's refuted classes (the parent's ClassStore of the ply).
    ClassStore* store = nullptr;
};

// f() searched within `budget` more nodes (see search.h).
template <class F>
Value Searcher::within(std::uint64_t budget, F f) {
    const std::uint64_t outer = budgetEnd;
    const std::uint64_t mine  = std::min(outer, totalNodes + budget);
    if (outer == NoBudget) budgetOut = false; // left set by a search that stopped
    budgetEnd     = mine;
    const Value v = f();
    budgetEnd     = outer;
    if (v == Value::ABORT && budgetOut && mine < outer
        && !ctx.stop.load(std::memory_order_relaxed)) {
        budgetOut = false; // this budget ran out, not an enclosing one
        return Value::OPEN;
    }
    return v;
}

// f(a) with `a` made, if it is one of the legal actions at `ply` (see search.h).
template <class F>
bool Searcher::with_if_legal(int ply, const std::vector<Move>& a, F f) {
    if (!movegen::starts_from_playable_boards(mv, a)) return false;
    bool                   legal  = false;
    movegen::ActionSearch& search = onlySearches[std::size_t(ply)];
    search.reset_only(mv, a);
    search.for_each([&](std::span<const Move> b) {
        if (!detail::same_action(b, a)) return true;
        legal = true;
        f(b);
        return false;
    });
    return legal;
}

} // namespace fived::solver
