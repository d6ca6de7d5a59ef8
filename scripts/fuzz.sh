#!/usr/bin/env bash
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
# Fuzzes with libFuzzer under ASan (leak detection on) + UBSan for SECONDS seconds in total
# (default 60), split evenly over the TARGETs (default: both), run one after the other:
#   reader  fuzz/reader_fuzz.cpp: the notation reader and writer (round trip);
#   solve   fuzz/solve_fuzz.cpp: tree reading, check_proof, solve (both algorithms) and analyse
#           on small positions.
# scripts/test.sh runs it after the tests (both targets, 60 s in total), so CI does.
#
# Installs clang if it is missing and builds in build/fuzz (FIVED_FUZZ_BUILD overrides it, with
# FIVED_JOBS parallel jobs, default 2). Seeds: fuzz/seeds for both; the reader also gets the
# notation corpus and the puzzles of tests/data, and the files left in ../shared when it is there,
# the solver its test data (tests/solver/data). Each target keeps its working corpus in $build/corpus/TARGET across runs.
# Exits non-zero on a crash, a sanitizer report, a leak, an input that runs longer than 10 s or
# an RSS above 2 GB; the offending input is printed (base64) and left in $build/artifacts/TARGET.
set -euo pipefail
seconds=${1:-60}
if [ $# -gt 0 ]; then shift; fi
targets=("$@")
if [ ${#targets[@]} = 0 ]; then targets=(reader solve); fi
for t in "${targets[@]}"; do
    case $t in
    reader | solve) ;;
    *)
        echo "fuzz: unknown target '$t' (reader, solve)" >&2
        exit 2
        ;;
    esac
done
if ! [[ $seconds =~ ^[0-9]+$ ]] || [ "$seconds" -lt ${#targets[@]} ]; then
    echo "fuzz: SECONDS must be a whole number, at least 1 per target (got '$seconds')" >&2
    exit 2
fi
share=$((seconds / ${#targets[@]}))
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
cmake --build "$build" --target "${targets[@]/%/_fuzz}" -j "${FIVED_JOBS:-2}"

shared=$root/../shared
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
failed=0
for t in "${targets[@]}"; do
    # The working corpus (libFuzzer adds what it finds here), seeded by copies (so the run never
    # writes to ../shared or the repository).
    corpus=$build/corpus/$t
    artifacts=$build/artifacts/$t
    rm -rf "$artifacts" # what is left there after a run is that run's findings
    mkdir -p "$corpus" "$artifacts"
    seeds=("$root/fuzz/seeds")
    case $t in
    reader)
        for d in notation-corpus/valid notation-corpus/invalid notation-corpus/optional puzzles; do
            seeds+=("$root/tests/data/$d" "$shared/$d")
        done ;;
    solve) seeds+=("$root/tests/solver/data") ;;
    esac
    for dir in "${seeds[@]}"; do
        if [ -d "$dir" ]; then cp -n "$dir"/*.5dpgn "$corpus"/ 2>/dev/null || true; fi
    done
    if [ -z "$(ls -A "$corpus")" ]; then
        echo "fuzz: no seeds for $t (fuzz/seeds is empty)" >&2
        exit 1
    fi
    echo "fuzz: $t: $(ls "$corpus" | wc -l) inputs in $corpus, ${share} s"
    status=0
    "$build/fuzz/${t}_fuzz" "$corpus" \
        -dict="$root/fuzz/5dpgn.dict" \
        -max_total_time="$share" -timeout=10 -rss_limit_mb=2048 -detect_leaks=1 -max_len=16384 \
        -artifact_prefix="$artifacts/" -print_final_stats=1 || status=$?
    if [ "$status" != 0 ]; then
        failed=1
        echo "fuzz: $t FAILED (exit $status); reproduce with: $build/fuzz/${t}_fuzz FILE" >&2
        for f in "$artifacts"/*; do
            [ -f "$f" ] || continue
            echo "--- $f (base64)" >&2
            base64 "$f" >&2
        done
    else
        echo "fuzz: $t: no crash, leak or hang in ${share} s"
    fi
done
exit $failed
