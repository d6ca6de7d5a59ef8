#pragma once
// The answer of a search question (Value) and the rules-engine names the solver's interfaces use
// (Move, MoveUndo, Multiverse). The public API (solver.h) needs only these from the search, so
// they live here and not in the search's own header (search.h), which includes this one.

#include <cstdint>

#include "movegen/multiverse.h"

namespace fived::solver {

using movegen::Move;
using movegen::MoveUndo;
using movegen::Multiverse;

enum class Value : std::uint8_t {
    NO,
    YES,
    ABORT,
    OPEN // not decided: df-pn within its thresholds, a search within its node budget
};

} // namespace fived::solver
