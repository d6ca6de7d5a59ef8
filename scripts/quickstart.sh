#!/usr/bin/env bash
# The README's first command: installs what the fived program needs (not the test tools), builds
# the program alone (the `program` preset: Release with IPO, in build/program; no test suites, no
# benchmarks) and solves the bundled puzzle. Run it as root or as a user with sudo:
# scripts/install-deps.sh calls sudo only when it is not root and a package is missing.
#
# Without the release preset's profile (cmake/Pgo.cmake): the profile compiles everything twice
# (an instrumented copy, then the optimised one), which doubled this command's compile work,
# 7.0 CPU minutes against 3.6 (user + sys, measured from a fresh clone), for 1-5 % less time on
# wide positions; a 2-core machine cannot build that within 3 minutes. `cmake --preset release
# && cmake --build --preset release` builds the profiled program and everything else.
# scripts/test.sh builds and runs everything.
set -euo pipefail
cd "$(dirname "$0")/.."
FIVED_DEPS=program bash scripts/install-deps.sh
cmake --preset program
cmake --build --preset program -j"$(nproc)"
build/program/cli/fived solve examples/rook-tactics-1.5dpgn
