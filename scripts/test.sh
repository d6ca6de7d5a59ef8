#!/usr/bin/env bash
# Installs the dependencies (clang too, for the fuzzer), builds with warnings as errors, runs
# every test (fast and slow labels), builds a program against the installed package, then
# fuzzes (scripts/fuzz.sh: every target, the time split evenly) for FIVED_FUZZ_SECONDS seconds
# in total (default 70, 10 s a target; 0 skips it). This is the README's test command and what
# CI runs; any failure, fuzzer findings included, makes it exit non-zero.
#
# ../shared beside the repository (CI always has it) holds the GPL/AGPL test files that are never
# copied into it; the tests that read them carry the labels shared-fast and shared-slow (README,
# "Tests"). With ../shared every test runs; without it those are left out and a line says so:
# "not run: label shared (N tests) - needs ../shared at PATH". With CI=true a missing ../shared is
# an error, not a reason to leave tests out. Any test that ctest reports skipped or not run
# (its JUnit report) makes the run fail.
set -euo pipefail
cd "$(dirname "$0")/.."
sharedDir=$(cd .. && pwd)/shared
haveShared=0
if [ -d "$sharedDir/puzzles" ] && [ -d "$sharedDir/notation-corpus" ]; then haveShared=1; fi
if [ "$haveShared" = 0 ] && [ "${CI:-}" = true ]; then
    echo "test.sh: CI=true but $sharedDir is missing: CI always has ../shared, so its tests" \
        "(label shared) must run" >&2
    exit 1
fi
fuzzSeconds=${FIVED_FUZZ_SECONDS:-70}
withClang=0
if [ "$fuzzSeconds" != 0 ]; then withClang=1; fi
FIVED_WITH_CLANG=$withClang bash scripts/install-deps.sh
cmake --preset ci
cmake --build --preset ci -j "$(nproc)"
# Both labels: fast (about 25 s on 2 cores) and slow (about 35 s: the exact action counts of
# hundreds of thousands of actions, the solver's differential corpus). `-L fast` runs the first.
junit=$PWD/build/ci/ctest-junit.xml
rm -f "$junit"
notRun=""
if [ "$haveShared" = 1 ]; then
    ctest --preset ci -j "$(nproc)" --timeout 600 --output-junit "$junit"
else
    n=$(ctest --test-dir build/ci -N -L shared | sed -n 's/^Total Tests: //p')
    notRun="not run: label shared ($n tests) - needs ../shared at $sharedDir (GPL/AGPL test files, never copied: tests/data/shared-files.txt)"
    echo "$notRun"
    ctest --preset ci -j "$(nproc)" --timeout 600 -LE shared --output-junit "$junit"
fi
# No silent skip: every test ctest started must have run (a GTEST_SKIP, exit code 77 or a
# disabled test shows in the report with another status).
python3 - "$junit" <<'EOF'
import sys
import xml.etree.ElementTree as ET
cases = list(ET.parse(sys.argv[1]).getroot().iter("testcase"))
bad = [(c.get("name"), c.get("status")) for c in cases if c.get("status") != "run"]
for name, status in bad:
    print(f"test.sh: {name}: {status} (no test may skip)", file=sys.stderr)
print(f"test.sh: {len(cases) - len(bad)} tests ran, {len(bad)} skipped or not run")
sys.exit(1 if bad or not cases else 0)
EOF
if [ -n "$notRun" ]; then echo "$notRun"; fi
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
