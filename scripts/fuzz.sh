#!/usr/bin/env bash
# Fuzzes the notation reader (fuzz/reader_fuzz.cpp) with libFuzzer for SECONDS seconds (default
# 60) under ASan + UBSan. Installs clang if it is missing, builds in build/fuzz, seeds the corpus
# from ../shared/notation-corpus and ../shared/puzzles when present. Fails (non-zero exit) on a
# crash, a sanitizer report, a leak, or an input that runs longer than 10 s; the offending input
# is left in build/fuzz/artifacts/.
set -euo pipefail
seconds=${1:-60}
cd "$(dirname "$0")/.."
root=$PWD
build=$root/build/fuzz

# clang and its libFuzzer runtime (Debian: clang, libclang-rt-14-dev), with the other deps.
if ! command -v clang++ >/dev/null \
    || [ ! -e "$(clang++ -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null)" ]; then
    FIVED_WITH_CLANG=1 bash scripts/install-deps.sh
fi

sanitizers="-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=undefined"
cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS="$sanitizers -fno-omit-frame-pointer" \
    -DFIVED_FUZZ=ON -DFIVED_BUILD_TESTS=OFF -DFIVED_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" --target reader_fuzz -j "${FIVED_JOBS:-2}"

# Seeds: the conformance corpus and the puzzles (copied, so the run never writes to ../shared).
corpus=$build/corpus
mkdir -p "$corpus" "$build/artifacts"
shared=$root/../shared
for dir in "$shared/notation-corpus/valid" "$shared/notation-corpus/invalid" \
    "$shared/notation-corpus/optional" "$shared/puzzles"; do
    [ -d "$dir" ] && cp -n "$dir"/*.5dpgn "$corpus"/ 2>/dev/null || true
done
[ -n "$(ls -A "$corpus")" ] || printf '1. e3 / e6\n' >"$corpus/seed.5dpgn"

export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
"$build/fuzz/reader_fuzz" "$corpus" \
    -dict="$root/fuzz/5dpgn.dict" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=16384 \
    -artifact_prefix="$build/artifacts/" -print_final_stats=1
echo "fuzz: no crash, leak or hang in ${seconds} s"
