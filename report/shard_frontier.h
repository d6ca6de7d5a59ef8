#pragma once
// The arithmetic of the frontier split's merge (README "One puzzle on many machines"; the
// argument is at the head of cli/cli_shard.cpp): from what the parts proved of each (key,
// defence) pair, what each root action and the whole root are proved to do. Pure: the command
// (cli/cli_shard.cpp) reads and checks the records, this only counts.

#include <cstdint>
#include <span>
#include <vector>

namespace fived::report {

// One item of the frontier as its part proved it. A pair (root action `key`, defence): the
// attacker to move after both, bound maxMate - 1: MATE in mateIn (none shorter), NO_MATE (none
// within maxMate - 1) or UNKNOWN (none within noMateUpTo). A root-level item (a root action after
// which the defender has no action): the root action itself, bound maxMate.
struct FrontierItem {
    enum class Res : std::uint8_t {
        MATE,
        NO_MATE,
        UNKNOWN
    };
    std::int64_t key       = 0;
    bool         rootLevel = false;
    Res          res       = Res::UNKNOWN;
    int          mateIn = 0, noMateUpTo = 0;
};

// What is proved of one root action: it mates in exactly `length` (mate), and it mates in no
// length <= excluded (excluded = maxMate: it does not mate within the bound).
struct KeyBound {
    bool mate     = false;
    int  length   = 0;
    int  excluded = 0;
};
KeyBound key_bound(std::span<const FrontierItem> itemsOfKey, int maxMate);

// The whole root: mate in mateIn with key (the least root index of that length) when every root
// action excludes a shorter mate; noMate when every one excludes maxMate; else unknown, with
// provenMate (0: none) and no mate within `excluded`.
struct FrontierAnswer {
    bool         mate = false, noMate = false;
    int          mateIn = 0, provenMate = 0, excluded = 0;
    std::int64_t key = -1;
};
// items: every item of the frontier, sorted by key, each root action 0..rootActions-1 present.
FrontierAnswer merge_frontier(std::span<const FrontierItem> items, int maxMate);

// A frontier part's own result from its items (sorted by key): UNKNOWN when an item is unknown
// and no other item of the part refutes its key (a NO_MATE defence decides the key whatever its
// other defences, so the part leaves them unsearched), else MATE when an item mates, else
// NO_MATE.
FrontierItem::Res part_result(std::span<const FrontierItem> items);

} // namespace fived::report
