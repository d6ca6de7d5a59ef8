#!/usr/bin/env bash
# The README's first command: installs what the fived program needs (not the test tools), builds
# the program alone with the release preset's profile (the `program` preset: no test suites, no
# benchmarks, in build/program), then solves the bundled puzzle. Run it as root or as a user
# with sudo: scripts/install-deps.sh calls sudo only when it is not root and a package is missing.
# scripts/test.sh builds and runs everything.
set -euo pipefail
cd "$(dirname "$0")/.."
FIVED_DEPS=program bash scripts/install-deps.sh
cmake --preset program
cmake --build --preset program -j"$(nproc)"
build/program/cli/fived solve examples/rook-tactics-1.5dpgn
