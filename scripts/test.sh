#!/usr/bin/env bash
# Installs the dependencies, builds with warnings as errors and runs every test.
# This is the README's test command and what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset ci
cmake --build --preset ci -j "$(nproc)"
# The fast label is every push's suite; the slow label (third-party positions the action search
# still takes seconds to minutes on) runs with: ctest --preset ci -L slow
ctest --preset ci -j "$(nproc)" --timeout 600 -L fast
