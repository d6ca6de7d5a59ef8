#!/usr/bin/env bash
# The round-trip property of issue 55 on many positions: every solution tree `fived solve`
# writes (default grouping, --group 0, --group 2, --problemist, --problemist --group 2) reads
# back with fived's own reader and verifies, on N random small positions (5x5 and 6x6 custom
# boards, 2 to 6 pieces besides the kings, mate in 1 or 2; tests/cli/roundtrip_test.cpp).
# The CI runs 500 positions; this runs N (default 10000) from seed S (default 1) and prints
#   round trip: N positions, M mates, T texts, F failing, S s
#
#   scripts/roundtrip_trees.sh [N [S]]     (after `cmake --build --preset ci`)
set -euo pipefail
cd "$(dirname "$0")/.."
test_binary=${FIVED_ROUNDTRIP_TEST:-build/ci/tests/cli/cli_roundtrip_test}
if [[ ! -x $test_binary ]]; then
    echo "$test_binary: not built (cmake --build build/ci --target cli_roundtrip_test)" >&2
    exit 2
fi
FIVED_ROUNDTRIP_POSITIONS=${1:-10000} FIVED_ROUNDTRIP_SEED=${2:-1} \
    "$test_binary" --gtest_filter='RoundTrip.EverySolvedTreeReadsBackAndVerifies'
