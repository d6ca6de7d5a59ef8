#pragma once
// What the solve and verify fuzz targets share: the mate bound and the options of their small
// searches, which keep the work per input within the fuzzer's timeout (10 s under ASan).
#include <cstdint>

#include "solver/solver.h"

namespace fived::fuzzing {

inline constexpr int           MaxMate   = 2;
inline constexpr std::uint64_t NodeLimit = 1000; // per solve, and for the whole analysis

inline solver::SolveOptions small_options(solver::Algorithm algo = solver::Algorithm::REFERENCE) {
    solver::SolveOptions o;
    o.algorithm    = algo;
    o.maxMate      = MaxMate;
    o.threads      = 1;
    o.hashMb       = 1;
    o.nodeLimit    = NodeLimit;
    o.actionLimit  = 5000;
    o.maxTreeNodes = 2000;
    return o;
}

} // namespace fived::fuzzing
