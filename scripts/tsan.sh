#!/usr/bin/env bash
# ThreadSanitizer over what runs threads (issue 55): the `tsan` preset's build of the solver
# tests and of fived, then
#   - the solver tests that search or check a proof with several threads (the whole suite under
#     TSan takes about ten minutes on 2 cores, almost all of it single-threaded work TSan cannot
#     check);
#   - `fived bench --threads 2` (the embedded puzzles with the parallel search and its shared
#     table);
#   - the command-line cases of batch (worker threads, child processes, signals).
# Any TSan report fails the run (halt_on_error, exit 66). oneTBB is not built with TSan; its
# internals are suppressed (tests/solver/tsan.supp). scripts/test.sh runs this unless
# FIVED_TSAN=0.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${FIVED_JOBS:-$(nproc)}
cmake --preset tsan -DFIVED_BUILD_BENCH=OFF >/dev/null
cmake --build build/tsan -j "$jobs" --target solver_test fived
export TSAN_OPTIONS="suppressions=$PWD/tests/solver/tsan.supp halt_on_error=1 second_deadlock_stack=1"
# The filter names 13 tests; a rename that leaves it matching fewer fails here.
filter='Solver.*Thread*:Solver.NodeBudgetsDoNotChangeTheAnswer:Solver.NodeLimitGivesUnknown'
filter+=':Solver.UnknownSaysHowManyKeysItRefuted:Proof.TransposedDefencesAreTwoDefences'
filter+=':CheckProof.Threads*:Solver.AWideNodeSplitBySharesFindsTheDecisiveChildInEveryShare'
filter+=':BlockClaims.*'
out=$(build/tsan/tests/solver/solver_test --gtest_brief=1 --gtest_filter="$filter") || {
    echo "$out"; exit 1; }
echo "$out" | tail -1
echo "$out" | grep -q '^\[  PASSED  \] 13 tests' || { echo "tsan: expected 13 solver tests"; exit 1; }
build/tsan/cli/fived bench --threads 2 >/dev/null
for c in batch batch_failures; do
    python3 tests/cli/cli_test.py build/tsan/cli/fived tests/solver/data "$c"
done
echo "tsan: clean"
