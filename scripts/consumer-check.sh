#!/usr/bin/env bash
# Installs the build in BUILD_DIR (default build/ci) into a scratch prefix, then configures,
# builds and runs examples/consumer against it with find_package(fived): the check that fived is
# usable as a library from outside its tree. Exit non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/ci}
prefix=$(mktemp -d)
consumer=$(mktemp -d)
trap 'rm -rf "$prefix" "$consumer"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
cmake -S examples/consumer -B "$consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$consumer" >/dev/null
# The bundled puzzle's position (Rook Tactics I) has 21 legal actions (`fived count`).
got=$("$consumer/count_actions" examples/rook-tactics-1.5dpgn)
want=$("$build/cli/fived" count examples/rook-tactics-1.5dpgn)
if [ "$got" != "$want" ]; then
    echo "consumer-check: the installed library counts $got actions, fived counts $want" >&2
    exit 1
fi
echo "consumer-check: examples/consumer built against the installed package, counts $got actions"
