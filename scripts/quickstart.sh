#!/usr/bin/env bash
# The README's first command: installs what the fived program needs (not the test tools), builds
# the program alone (the `program` preset: Release with IPO and the profile, in build/program; no
# test suites, no benchmarks) and solves the bundled puzzle. Run it as root or as a user with sudo:
# scripts/install-deps.sh calls sudo only when it is not root and a package is missing.
#
# With the profile (cmake/Pgo.cmake: an instrumented copy, trained by `fived bench`, then the
# optimised build) and as a unity build (CMAKE_UNITY_BUILD: a few large translation units, so the
# headers are parsed far fewer times), which keeps the profile's double compile within 3 minutes:
# from a fresh clone on an idle 2-core machine, packages installed, this command took 126 s
# (215 s user), against 89 s without the profile and unity build (session 44).
# scripts/test.sh builds and runs everything.
set -euo pipefail
cd "$(dirname "$0")/.."
FIVED_DEPS=program bash scripts/install-deps.sh
cmake --preset program
cmake --build --preset program -j"$(nproc)"
build/program/cli/fived solve examples/rook-tactics-1.5dpgn
