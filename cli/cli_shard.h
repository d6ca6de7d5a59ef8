#pragma once
// One puzzle's search split over parts (README "One puzzle on many machines"): `fived solve FILE
// --shard I/N` searches part I of N and prints its record; `fived shard-merge` joins the records
// of all N parts into the answer of the whole search (cli_shard.cpp).

#include <cstddef>
#include <string>

#include "movegen/multiverse.h"
#include "notation/game.h"
#include "report/shard_json.h"
#include "solver/solver.h"

namespace fived::cli {

// `fived solve FILE --shard SPEC`: the part's search of `root` (the final position of `game`)
// with the options `o` (its rootActions are set here), its record as one JSON line on stdout.
// `split` is --shard-split: auto (the frontier when N exceeds the root's actions and the bound
// is 2 or more, else the root's actions in blocks), root (round-robin), block (runs of
// consecutive root actions) or frontier; a root too wide to list within o.actionLimit is split by
// hash whatever `split`. Returns the exit status (0 a mate by the part's keys, 1 none within the
// bound, 3 unknown, 2 a bad SPEC or no memory for the table, 4 internal). `subSpec` (--shard-sub
// J/M or slurm): the part's own root actions are split further, their frontier of (key, defence)
// pairs dealt round-robin over M sub-parts, this being sub-part J.
int solve_shard(const notation::LoadedGame& game, const movegen::Multiverse& root,
    const std::string& file, const std::string& spec, solver::SolveOptions o, std::size_t group,
    const std::string& split = "auto", std::uint64_t firstBudget = 1'000,
    const std::string& subSpec = "");

// `fived shard-merge RECORD... [--json]`: the records of the files ('-': standard input) joined
// into the answer of the whole search, printed on stdout as solve prints it (or one JSON
// object); returns 0 (mate), 1 (no mate), 3 (unknown) or 2 with `FILE:LINE:1: cause` (or
// `fived shard-merge: cause`) on stderr for records that are missing, twice, foreign, cut short
// or not such records, and for a tree that does not verify (fuzz/shard_fuzz.cpp holds it to that).
int shard_merge(const std::vector<std::string>& files, bool asJson);

// A part of the frontier split (cli_shard_frontier.cpp): its items searched, rec (split,
// frontier, items, owned) and r (the summary: result, nodes, time, the first limit) filled in.
// Returns the exit status: 0 some item mates, 1 none does, 3 some is unknown, 2 no memory, 4 an
// internal error.
struct FrontierPart {
    const notation::LoadedGame& game;
    const movegen::Multiverse&  root;
    int                         part = 1, parts = 1;
    const solver::SolveOptions& o;
    std::size_t                 group       = 12;
    std::uint64_t               firstBudget = 1'000; // --shard-budget: an item's first nodes
    // The root index of each key of `all` (--shard-sub: a part's own keys); null: all[k] is
    // root action k.
    const std::vector<std::int64_t>* keyIndex = nullptr;
};
int solve_frontier(const FrontierPart& f, solver::Solver& s,
    const std::vector<std::vector<movegen::Move>>& all, report::ShardPart& rec,
    solver::SolveResult& r);

} // namespace fived::cli
