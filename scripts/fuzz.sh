#!/usr/bin/env bash
# Fuzzes the notation reader (fuzz/reader_fuzz.cpp) with libFuzzer for SECONDS seconds (default
# 60) under ASan (leak detection on) + UBSan. scripts/test.sh runs it after the tests, so CI does.
#
# Installs clang if it is missing and builds in build/fuzz (FIVED_FUZZ_BUILD overrides it, with
# FIVED_JOBS parallel jobs, default 2). Seeds: fuzz/seeds (always) and, when ../shared is there,
# its notation-corpus and puzzles. Exits non-zero on a crash, a sanitizer report, a leak, an
# input that runs longer than 10 s or an RSS above 2 GB; the offending input is printed (base64)
# and left in $build/artifacts/.
set -euo pipefail
seconds=${1:-60}
cd "$(dirname "$0")/.."
root=$PWD
build=${FIVED_FUZZ_BUILD:-$root/build/fuzz}

# clang and its libFuzzer runtime (Debian: clang, libclang-rt-dev), with the other deps.
if ! command -v clang++ >/dev/null \
    || [ ! -e "$(clang++ -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null)" ]; then
    FIVED_WITH_CLANG=1 bash scripts/install-deps.sh
fi

sanitizers="-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=undefined"
cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS="$sanitizers -fno-omit-frame-pointer" \
    -DFIVED_FUZZ=ON -DFIVED_BUILD_TESTS=OFF -DFIVED_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" --target reader_fuzz -j "${FIVED_JOBS:-2}"

# The working corpus (libFuzzer adds what it finds here): our seeds, plus the conformance corpus
# and the puzzles when present (copied, so the run never writes to ../shared).
corpus=$build/corpus
artifacts=$build/artifacts
rm -rf "$artifacts" # what is left there after a run is that run's findings
mkdir -p "$corpus" "$artifacts"
shared=$root/../shared
for dir in "$root/fuzz/seeds" "$shared/notation-corpus/valid" "$shared/notation-corpus/invalid" \
    "$shared/notation-corpus/optional" "$shared/puzzles"; do
    if [ -d "$dir" ]; then cp -n "$dir"/*.5dpgn "$corpus"/ 2>/dev/null || true; fi
done
if [ -z "$(ls -A "$corpus")" ]; then
    echo "fuzz: no seeds (fuzz/seeds is empty)" >&2
    exit 1
fi
echo "fuzz: $(ls "$corpus" | wc -l) inputs in $corpus"

export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
status=0
"$build/fuzz/reader_fuzz" "$corpus" \
    -dict="$root/fuzz/5dpgn.dict" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -detect_leaks=1 -max_len=16384 \
    -artifact_prefix="$artifacts/" -print_final_stats=1 || status=$?
if [ "$status" != 0 ]; then
    echo "fuzz: FAILED (exit $status); reproduce with: $build/fuzz/reader_fuzz FILE" >&2
    for f in "$artifacts"/*; do
        [ -f "$f" ] || continue
        echo "--- $f (base64)" >&2
        base64 "$f" >&2
    done
    exit 1
fi
echo "fuzz: no crash, leak or hang in ${seconds} s"
