#!/usr/bin/env bash
# Installs the dependencies (clang too, for the fuzzer), builds with warnings as errors, runs
# every test (fast and slow labels), builds a program against the installed package, then
# fuzzes (scripts/fuzz.sh: the reader and the solver targets, half the time each) for
# FIVED_FUZZ_SECONDS seconds in total (default 60; 0 skips it). This is the README's test command
# and what CI runs; any failure, fuzzer findings included, makes it exit non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzzSeconds=${FIVED_FUZZ_SECONDS:-60}
withClang=0
if [ "$fuzzSeconds" != 0 ]; then withClang=1; fi
FIVED_WITH_CLANG=$withClang bash scripts/install-deps.sh
cmake --preset ci
cmake --build --preset ci -j "$(nproc)"
# Both labels: fast (about 25 s on 2 cores) and slow (about 35 s: the exact action counts of
# hundreds of thousands of actions, the solver's differential corpus). `-L fast` runs the first.
ctest --preset ci -j "$(nproc)" --timeout 600
# fived as a library: install, then build and run examples/consumer with find_package(fived).
bash scripts/consumer-check.sh build/ci
# ThreadSanitizer over the parallel search and batch (about 4 min on 2 cores); FIVED_TSAN=0
# skips it.
if [ "${FIVED_TSAN:-1}" != 0 ]; then
    FIVED_JOBS=$(nproc) bash scripts/tsan.sh
fi
if [ "$fuzzSeconds" != 0 ]; then
    FIVED_JOBS=$(nproc) bash scripts/fuzz.sh "$fuzzSeconds"
fi
