#!/usr/bin/env bash
# The mate-in-one search against plain enumeration, wider than CI's run: positions of up to
# 40,000 legal actions on 8 games of 22 plies per variant (tests/movegen/mate_test.cpp, Budget).
# CI lists up to 2,000; the wider run met a mate the cuts lost that CI never did. Run it after
# changing movegen/mate.* or movegen/hypercuboid.* (about 6 minutes).
# Usage: scripts/wide_compare.sh [BUILD_DIR]   (default build/ci; exit 0 when the sets agree)
set -euo pipefail
build=${1:-"$(dirname "$0")/../build/ci"}
exec env FIVED_WIDE_COMPARE=1 "$build/tests/movegen_test" \
    --gtest_filter='MateInOne.SameMatesAsEnumerationOnRandomGames'
