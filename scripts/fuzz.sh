#!/usr/bin/env bash
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
# Fuzzes with libFuzzer under ASan (leak detection on) + UBSan for SECONDS seconds in total
# (default 60), split evenly over the TARGETs (default: all seven), run one after the other:
#   reader  fuzz/reader_fuzz.cpp: the notation reader and writer (round trip);
#   solve   fuzz/solve_fuzz.cpp: tree reading, check_proof, solve (both algorithms) and analyse
#           on small positions;
#   verify  fuzz/verify_fuzz.cpp: trees of legal actions of any depth and width, written, read
#           back and verified (check_proof, analysis, solve);
#   records fuzz/records_fuzz.cpp: batch records as batch --resume and batch-merge read them;
#   json    fuzz/json_fuzz.cpp: any bytes through json_text(), the writer of every --json output;
#   fen     fuzz/fen_fuzz.cpp: 5DFEN at the engine's limits (sizes, timelines, pieces, a
#           turn of history), counted;
#   shard   fuzz/shard_fuzz.cpp: records of `solve --shard` as `fived shard-merge` reads and
#           merges them (an answer or a refusal naming the record, never a crash).
# scripts/test.sh runs it after the tests (every target, 70 s in total), so CI does.
#
# Installs clang if it is missing and builds in build/fuzz (FIVED_FUZZ_BUILD overrides it, with
# FIVED_JOBS parallel jobs, default 2). Seeds: fuzz/seeds for the reader and the solver; the
# reader also gets the notation corpus and the puzzles of tests/data, and the files left in
# ../shared when it is there, the solver its test data (tests/solver/data); each target also
# starts from its corpus kept in the repository, fuzz/corpus/TARGET (minimised with -merge=1,
# see fuzz/corpus/README.md). Each target keeps its working corpus in $build/corpus/TARGET
# across runs. FIVED_FUZZ_KEEP=1 replaces fuzz/corpus/TARGET (but its seed-* files) by the
# working corpus, minimised with -merge=1, after a run without findings (how the kept corpora
# are made; fuzz/corpus/README.md).
# Exits non-zero on a crash, a sanitizer report, a leak, an input that runs longer than 10 s or
# an RSS above 2 GB; the offending input is printed (base64) and left in $build/artifacts/TARGET.
set -euo pipefail
seconds=${1:-60}
if [ $# -gt 0 ]; then shift; fi
targets=("$@")
if [ ${#targets[@]} = 0 ]; then targets=(reader solve verify records json fen shard); fi
for t in "${targets[@]}"; do
    case $t in
    reader | solve | verify | records | json | fen | shard) ;;
    *)
        echo "fuzz: unknown target '$t' (reader, solve, verify, records, json, fen, shard)" >&2
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
    # The structured targets (verify, records, json, fen, shard) read bytes of their own: their only
    # seeds are their kept corpora.
    seeds=()
    case $t in
    reader)
        seeds+=("$root/fuzz/seeds")
        for d in notation-corpus/valid notation-corpus/invalid notation-corpus/optional puzzles; do
            seeds+=("$root/tests/data/$d" "$shared/$d")
        done ;;
    solve) seeds+=("$root/fuzz/seeds" "$root/tests/solver/data") ;;
    esac
    # Not the GPL/AGPL puzzles (cwmtt-*, js-*; ../shared/puzzles/INDEX.md): what the working
    # corpus holds may be kept in fuzz/corpus/TARGET, in the repository.
    for dir in "${seeds[@]}"; do
        [ -d "$dir" ] || continue
        for f in "$dir"/*.5dpgn; do
            case ${f##*/} in cwmtt-* | js-*) continue ;; esac
            if [ -f "$f" ]; then cp -n "$f" "$corpus"/; fi
        done
    done
    if [ -d "$root/fuzz/corpus/$t" ]; then cp -n "$root/fuzz/corpus/$t"/* "$corpus"/ 2>/dev/null || true; fi
    if [ -z "$(ls -A "$corpus")" ]; then
        echo "fuzz: no seeds for $t (fuzz/seeds or fuzz/corpus/$t is empty)" >&2
        exit 1
    fi
    echo "fuzz: $t: $(ls "$corpus" | wc -l) inputs in $corpus, ${share} s"
    status=0
    dict=()
    case $t in
    reader | solve) dict=(-dict="$root/fuzz/5dpgn.dict") ;;
    records | json | shard) dict=(-dict="$root/fuzz/json.dict") ;;
    esac
    "$build/fuzz/${t}_fuzz" "$corpus" \
        "${dict[@]}" \
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
        # FIVED_FUZZ_KEEP=1: the working corpus, minimised (-merge=1), replaces the kept one.
        # Not the reader's: its seeds are third-party texts (fuzz/corpus/README.md).
        if [ "${FIVED_FUZZ_KEEP:-0}" = 1 ] && [ "$t" != reader ]; then
            kept=$root/fuzz/corpus/$t
            rm -rf "$kept.new"
            mkdir -p "$kept.new"
            "$build/fuzz/${t}_fuzz" -merge=1 -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
                "$kept.new" "$corpus" 2>/dev/null
            # The hand-made seed-* files stay (tests and commit messages name them).
            mkdir -p "$kept"
            find "$kept" -type f ! -name 'seed-*' -delete
            mv "$kept.new"/* "$kept"/ 2>/dev/null || true
            rm -rf "$kept.new"
            echo "fuzz: $t: kept $(ls "$kept" | wc -l) inputs, $(du -sk "$kept" | cut -f1) KB in $kept"
        fi
    fi
done
exit $failed
