#pragma once
// The JSON of one puzzle's search split over parts (README "One puzzle on many machines"): the
// record `fived solve FILE --shard I/N` prints for its part, and the answer `fived shard-merge
// --json` prints for the whole search. The commands (cli/cli_shard.cpp) run the parts and
// check and merge the records; these functions only write what they found.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "movegen/multiverse.h"
#include "solver/solver.h"

namespace fived::report {

// A part's record: its kind, its version and the split (shard-merge checks all three).
constexpr const char* ShardRecordKind    = "fived-shard";
constexpr int         ShardRecordVersion = 1;
constexpr const char* ShardSplitName     = "root-round-robin"; // action i to part (i mod N) + 1
// --shard-split block: the root's actions in N runs of consecutive actions, action i (of A) to
// part floor(i N / A) + 1, so the actions of one piece stay together.
constexpr const char* ShardBlockName = "root-block";
// A root too wide to list within --max-actions: root action a to part action_part(a, N) + 1
// (solver/history.h, a hash of its moves), so no part lists the root.
constexpr const char* ShardHashName = "root-hash";
// With more parts than root actions: item j of the frontier ((root action, defence) pairs in
// standard order) to part (j mod N) + 1 (cli/cli_shard.cpp).
constexpr const char* ShardFrontierName = "frontier-round-robin";

// One item of a frontier part: a (root action, defence) pair, or a root action after which the
// defender has no action (root-level: no defence), and what the part proved of it.
struct ShardItem {
    std::int64_t                index = 0, keyIndex = 0;
    std::optional<std::int64_t> defenceIndex; // none: root-level
    std::string                 key, defence;
    solver::Result              result = solver::Result::UNKNOWN;
    int                         mateIn = 0, noMateUpTo = 0;
    std::string                 tree; // the line key, defence and the mate below, as written
    std::uint64_t               nodes = 0;
    std::string                 limit; // unknown: why
};

// What a part found, as its record says it.
struct ShardPart {
    std::string                 file;              // as diagnostics name it
    const movegen::Multiverse*  root    = nullptr; // the puzzle (its hash, its keys' notation)
    int                         maxMate = 0, part = 1, parts = 1, threads = 1;
    std::size_t                 maxActions = 0;
    std::optional<std::size_t>  rootActions; // the root's actions, when they could be listed
    std::optional<std::size_t>  owned;       // the part's share of them (none: split by hash)
    const solver::SolveResult*  r = nullptr;
    std::optional<std::int64_t> keyIndex; // the first key's index among the root's actions
    // The tree as solve writes it, and its self-check ("": it reads back as a proof).
    std::string  written, readBack;
    std::int64_t cpuMs    = 0;
    int          exitCode = 0;
    // The frontier split (split = ShardFrontierName): its items in all (none: not listed) and
    // this part's, and the --group of its trees (the merge writes the joined tree with it).
    const char*                split = ShardSplitName;
    std::optional<std::size_t> frontier;
    std::vector<ShardItem>     items;
    std::size_t                group = 0;
    // --shard-sub: the part of the root's split (round-robin or block) whose own root actions
    // this record's frontier covers; part and parts are then its sub-part J of M.
    struct Within {
        int         part = 1, parts = 1;
        const char* split = ShardSplitName;
    };
    std::optional<Within> within;
};
std::string shard_record_json(const ShardPart& p);

// What shard-merge found; `first` is a record of the merge (the file and the position) and
// `best`, when a part proved a mate, the record of the least mate and key.
struct ShardMerge {
    const nlohmann::json* first    = nullptr;
    const nlohmann::json* best     = nullptr;
    int                   bestPart = 0, bestMateIn = 0;
    bool                  mate = false, noMate = false;
    int                   maxMate = 0, excluded = 0; // no mate within `excluded` in any part
    std::size_t           parts = 0;
    std::vector<int>      unfinished;
    std::uint64_t         nodes = 0, cpuMs = 0, timeMs = 0, makespanMs = 0;
    int                   exitCode = 0;
    // The frontier split: no part holds the key's tree; the merge joined it (best is null).
    bool        frontier = false;
    std::string key, tree; // the key of the least mate proved, the joined tree (re-checked)
};
std::string shard_merge_json(const ShardMerge& m);

} // namespace fived::report
