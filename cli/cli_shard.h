#pragma once
// One puzzle's search split over parts (README "One puzzle on many machines"): `fived solve FILE
// --shard I/N` searches part I of N and prints its record; `fived shard-merge` joins the records
// of all N parts into the answer of the whole search (cli_shard.cpp).

#include <cstddef>
#include <string>

#include "movegen/multiverse.h"
#include "notation/game.h"
#include "solver/solver.h"

namespace fived::cli {

// `fived solve FILE --shard SPEC`: the part's search of `root` (the final position of `game`)
// with the options `o` (its rootActions are set here), its record as one JSON line on stdout.
// Returns the exit status (0 a mate by the part's keys, 1 none within the bound, 3 unknown, 2 a
// bad SPEC or no memory for the table, 4 internal).
int solve_shard(const notation::LoadedGame& game, const movegen::Multiverse& root,
    const std::string& file, const std::string& spec, solver::SolveOptions o, std::size_t group);

} // namespace fived::cli
