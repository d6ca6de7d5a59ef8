#!/usr/bin/env bash
# Records every CLI output of fived on the shared puzzles, and compares two programs' records:
# the check that a restructuring leaves each command's stdout, stderr and exit status unchanged.
#
# Usage: scripts/cli_outputs.sh record FIVED OUTDIR [PUZZLE_DIR...]
#        scripts/cli_outputs.sh compare FIVED_A FIVED_B [PUZZLE_DIR...]
#   record   runs FIVED over every *.5dpgn file of the PUZZLE_DIRs (not their subfolders) and
#            writes one file per file x command, OUTDIR/DIR/STEM.COMMAND (DIR: the folder's name),
#            holding the command line, the masked stdout and stderr and the exit status (or
#            TIMEOUT, or SKIPPED and why). OUTDIR must be absent or empty. The wall time of each
#            run goes to OUTDIR/.times.tsv (not compared); the slowest five are printed.
#   compare  copies both programs (a build relinked meanwhile does not matter), records them into
#            temporary folders (at once, one process each) and diffs them: prints `cli_outputs: N files x M commands, D differences`, the outputs that
#            differ and the start of `diff -ru` (CLI_OUTPUTS_DIFF_LINES lines, default 200).
# PUZZLE_DIRs default to ../shared/puzzles (next to the repository; skipped with a note when
# absent), tests/solver/data and examples. Exit status: 0 recorded / no difference, 1 some
# difference, 2 usage error (bad arguments, a FIVED that is not executable, a missing folder).
#
# Commands (NAME: arguments; FILE is the file's name, run in its folder so that outputs do not
# depend on where the puzzles are; every command that has --lenient gets it, the third-party
# files need it; everything with --threads runs on 1 thread; no time limits, only node limits):
#   status, status-json (--json), status-at-1 / status-at-3 (--at -1 / --at -3), moves,
#   actions (--max 200), actions-json (--json --max 50), count (--cap 100000),
#   perft-1 (perft FILE 1 --threads 1), fen, hash, fmt, fmt-short (--style short),
#   check-notation (--lenient), check-notation-strict (without --lenient: the errors of the
#   third-party files are outputs too), svg (to stdout),
#   solve (--threads 1 --nodes 20000), solve-problemist (+ --problemist --tries),
#   solve-group-2 (+ --group 2), solve-json (+ --json), solve-at-1 / solve-at-3 (+ --at -1/-3),
#   verify, verify-json (--threads 1 [--json]; on files with a [Puzzle] header: the files with a
#   claim, which is where solution trees are; a whole game without a claim is not a solution
#   tree, which verify says at once since issue 55),
#   verify-solved (verify - --threads 1: the tree written by `solve`, on standard input, when
#   solve found a mate).
# Skipped, with the reason recorded as the output (so both sides still compare):
#   perft-1 where FIVED's count reaches its cap of 100000 (perft 1 there runs 6 s to minutes);
#   verify, verify-json on files without a [Puzzle] header; verify-solved where solve's exit
#   status is not 0; and the 23 SLOW runs below (solve variants on 11 wide positions), which take
#   more than 2 s with the reference program (db57d8a) and could otherwise reach the 20 s limit
#   on one side only on a loaded machine. CLI_OUTPUTS_ALL=1 runs them too.
# Each run has `timeout 20`; a run that reaches it is recorded as TIMEOUT (its partial output is
# dropped), so both sides still compare.
#
# Masks (sed on stdout and stderr; everything else is compared as written):
#   - the program's absolute path (as given and resolved; CLI11's usage lines) -> FIVED;
#   - JSON `"time_ms":N` -> `"time_ms":"<ms>"`;
#   - solve's progress `depth D: ... (nodes N, S.SSs)`: the seconds -> `<s>` (N is kept);
#   - solve's `info depth D [keys R/A] nodes N nps X hashfull H% time S.SSs` lines are dropped:
#     one is printed each second while a question runs (how many depends on the speed) and they cannot
#     be told from the one printed when it ends; the final node count is still compared in the
#     `depth` lines, in `unknown (...; N nodes)` and in solve-json's `nodes`;
#   - bench/batch timing lines, should a command print them: `Total time (ms) : X`,
#     `Nodes/second : X` and `X.Y ms` figures.
# Node counts are never masked: every search runs on 1 thread with a node limit.
#
# `compare` takes 1.5 minutes on this 2-core machine when it is quiet, 2 to 3 minutes while
# builds run (both sides at once; about 2,000 runs each). A program compared with itself gives
# 0 differences.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
limit=20
export LC_ALL=C

usage() {
    echo "usage: scripts/cli_outputs.sh record FIVED OUTDIR [PUZZLE_DIR...]" >&2
    echo "       scripts/cli_outputs.sh compare FIVED_A FIVED_B [PUZZLE_DIR...]" >&2
    exit 2
}

# NAME|ARGUMENTS (@ = the file's name). The order matters only for verify-solved (after solve).
commands=(
    "status|status @ --lenient"
    "status-json|status @ --lenient --json"
    "status-at-1|status @ --lenient --at -1"
    "status-at-3|status @ --lenient --at -3"
    "moves|moves @ --lenient"
    "actions|actions @ --lenient --max 200"
    "actions-json|actions @ --lenient --json --max 50"
    "count|count @ --lenient --cap 100000"
    "perft-1|perft @ 1 --lenient --threads 1"
    "fen|fen @ --lenient"
    "hash|hash @ --lenient"
    "fmt|fmt @ --lenient"
    "fmt-short|fmt @ --lenient --style short"
    "check-notation|check-notation @ --lenient"
    "check-notation-strict|check-notation @"
    "svg|svg @ --lenient"
    "solve|solve @ --lenient --threads 1 --nodes 20000"
    "solve-problemist|solve @ --lenient --threads 1 --nodes 20000 --problemist --tries"
    "solve-group-2|solve @ --lenient --threads 1 --nodes 20000 --group 2"
    "solve-json|solve @ --lenient --threads 1 --nodes 20000 --json"
    "solve-at-1|solve @ --lenient --threads 1 --nodes 20000 --at -1"
    "solve-at-3|solve @ --lenient --threads 1 --nodes 20000 --at -3"
    "verify|verify @ --lenient --threads 1"
    "verify-json|verify @ --lenient --threads 1 --json"
    "verify-solved|verify - --lenient --threads 1"
)

# STEM COMMAND: the runs of more than 2 s with the reference program (db57d8a) on this 2-core
# machine under a moderate load: 2.1 to 15.7 s, and niceAndrey's first five reach the 20 s limit.
# While two builds ran, runs took up to 5 times as long: 2 s keeps the others well under 20 s.
# Found with the .times.tsv of a CLI_OUTPUTS_ALL=1 record; update it when a puzzle is added.
SLOW="
cwmtt-niceAndrey solve
cwmtt-niceAndrey solve-problemist
cwmtt-niceAndrey solve-group-2
cwmtt-niceAndrey solve-json
cwmtt-niceAndrey solve-at-3
cwmtt-niceAndrey solve-at-1
advanced-branching-2 solve-problemist
cwmtt-manyChecks solve-at-3
cwmtt-100-timelines solve-at-3
cwmtt-wide solve-at-3
tools-standard-complex solve-at-1
tools-standard-nonmate solve-at-1
js-check-not-mate-2 solve
js-check-not-mate-2 solve-problemist
js-check-not-mate-2 solve-group-2
js-check-not-mate-2 solve-json
tools-dead-timeline-2 solve-at-1
tools-dead-timeline-2 solve-at-3
tools-princess-checkmate solve-at-3
tools-standard-nonmate-2 solve
tools-standard-nonmate-2 solve-problemist
tools-standard-nonmate-2 solve-group-2
tools-standard-nonmate-2 solve-json
"

# sed_literal STRING: STRING escaped for the pattern of a `sed -E 's#...#...#'` command.
sed_literal() { printf '%s' "$1" | sed -e 's/[]\/$*.^[#+?(){}|]/\\&/g'; }

# puzzle_dirs [DIR...]: sets `dirs` to the puzzle folders (absolute) of the arguments, or the
# defaults.
puzzle_dirs() {
    dirs=()
    local d
    if [ $# -gt 0 ]; then
        for d in "$@"; do
            [ -d "$d" ] || { echo "cli_outputs: $d is not a folder" >&2; exit 2; }
            dirs+=("$(cd "$d" && pwd)")
        done
        return
    fi
    if [ -d "$repo/../shared/puzzles" ]; then
        dirs+=("$(cd "$repo/../shared/puzzles" && pwd)")
    else
        echo "cli_outputs: $repo/../shared/puzzles is absent: skipped" >&2
    fi
    dirs+=("$repo/tests/solver/data" "$repo/examples")
}

# record FIVED OUTDIR DIR...: the outputs of FIVED into OUTDIR (see the header).
record() {
    local fived=$1 out=$2
    shift 2
    { [ -x "$fived" ] && [ -f "$fived" ]; } || { echo "cli_outputs: $fived is not an executable file" >&2; exit 2; }
    if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
        echo "cli_outputs: $out is not empty" >&2
        exit 2
    fi
    local dirs
    puzzle_dirs "$@"
    mkdir -p "$out"
    out=$(cd "$out" && pwd)
    local abs
    abs=$(readlink -f "$fived")
    local masks=(-e "s#$(sed_literal "$abs")#FIVED#g")
    [ "$fived" = "$abs" ] || masks+=(-e "s#$(sed_literal "$fived")#FIVED#g")
    masks+=(
        -e 's/"time_ms": *[0-9.]+/"time_ms":"<ms>"/g'
        -e '/^info depth -?[0-9]+ (keys [0-9/]+ )?nodes [0-9]+ nps /d'
        -e 's/^(depth [0-9]+: .*\(nodes [0-9]+), [0-9.]+s\)$/\1, <s>)/'
        -e 's/^(Total time \(ms\) *: ).*/\1<ms>/'
        -e 's/^(Nodes\/second *: ).*/\1<nps>/'
        -e 's/[0-9]+\.[0-9] ms\b/<ms> ms/g'
    )
    local work
    work=$(mktemp -d)
    # shellcheck disable=SC2064 # expand now: $work is local
    trap "rm -rf '$work'" EXIT
    local times=$out/.times.tsv nfiles=0 t0=$EPOCHREALTIME
    : >"$times"
    local -A tags=()
    local dir tag f stem entry name spec args skip rc s e dest a
    for dir in "${dirs[@]}"; do
        tag=$(basename "$dir")
        while [ -n "${tags[$tag]:-}" ]; do tag=$tag-2; done
        tags[$tag]=1
        mkdir -p "$out/$tag"
        cd "$dir"
        for f in *.5dpgn; do
            [ -f "$f" ] || continue
            nfiles=$((nfiles + 1))
            stem=${f%.5dpgn}
            rm -f "$work"/*.out "$work"/*.rc
            for entry in "${commands[@]}"; do
                name=${entry%%|*}
                spec=${entry#*|}
                args=()
                for a in $spec; do
                    if [ "$a" = @ ]; then args+=("$f"); else args+=("$a"); fi
                done
                dest=$out/$tag/$stem.$name
                skip=""
                case $name in
                perft-1)
                    [ "$(cat "$work/count.out" 2>/dev/null || true)" != 100000 ] ||
                        skip="count reaches its cap of 100000"
                    ;;
                verify | verify-json)
                    grep -q '^\[Puzzle ' "$f" || skip="no [Puzzle] header"
                    ;;
                verify-solved)
                    rc=$(cat "$work/solve.rc" 2>/dev/null || echo none)
                    if [ "$rc" = none ]; then
                        skip="solve did not run"
                    elif [ "$rc" != 0 ]; then
                        skip="solve exited with $rc"
                    fi
                    ;;
                esac
                if [ -z "$skip" ] && [ "${CLI_OUTPUTS_ALL:-0}" != 1 ] && grep -qxF "$stem $name" <<<"$SLOW"; then
                    skip="slow (SLOW in scripts/cli_outputs.sh)"
                fi
                {
                    echo "\$ fived ${args[*]}"
                    if [ -n "$skip" ]; then
                        echo "--- SKIPPED: $skip"
                        continue
                    fi
                    s=$EPOCHREALTIME
                    rc=0
                    if [ "$name" = verify-solved ]; then
                        timeout -k 5 "$limit" "$abs" "${args[@]}" <"$work/solve.out" \
                            >"$work/out" 2>"$work/err" || rc=$?
                    else
                        timeout -k 5 "$limit" "$abs" "${args[@]}" </dev/null \
                            >"$work/out" 2>"$work/err" || rc=$?
                    fi
                    e=$EPOCHREALTIME
                    printf '%.3f\t%s/%s\t%s\t%s\n' "$(bc <<<"$e - $s")" "$tag" "$stem" "$name" "$rc" >>"$times"
                    cp "$work/out" "$work/$name.out"
                    echo "$rc" >"$work/$name.rc"
                    if [ "$rc" = 124 ]; then
                        echo "--- TIMEOUT (${limit} s)"
                        continue
                    fi
                    echo "--- stdout"
                    sed -E "${masks[@]}" "$work/out"
                    if [ -s "$work/out" ] && [ -n "$(tail -c1 "$work/out")" ]; then echo; echo "(no newline at the end)"; fi
                    echo "--- stderr"
                    sed -E "${masks[@]}" "$work/err"
                    if [ -s "$work/err" ] && [ -n "$(tail -c1 "$work/err")" ]; then echo; echo "(no newline at the end)"; fi
                    echo "--- exit $rc"
                } >"$dest"
            done
        done
    done
    cd "$repo"
    echo "cli_outputs: recorded $nfiles files x ${#commands[@]} commands of $fived into $out" \
        "($(printf '%.0f' "$(bc <<<"$EPOCHREALTIME - $t0")") s); slowest runs:"
    sort -rn "$times" | sed -n "1,5s/^/  /p"
}

compare() {
    local a=$1 b=$2
    shift 2
    local x
    for x in "$a" "$b"; do
        { [ -x "$x" ] && [ -f "$x" ]; } || { echo "cli_outputs: $x is not an executable file" >&2; exit 2; }
    done
    puzzle_dirs "$@"
    local tmp
    tmp=$(mktemp -d)
    # shellcheck disable=SC2064 # expand now: $tmp is local
    trap "rm -rf '$tmp'" EXIT
    # Copies: a build that is relinked while this runs must not give two programs on one side.
    cp "$a" "$tmp/fived-a"
    cp "$b" "$tmp/fived-b"
    local t0=$EPOCHREALTIME pa pb ra=0 rb=0
    bash "$0" record "$tmp/fived-a" "$tmp/a" "${dirs[@]}" >"$tmp/a.log" 2>&1 &
    pa=$!
    bash "$0" record "$tmp/fived-b" "$tmp/b" "${dirs[@]}" >"$tmp/b.log" 2>&1 &
    pb=$!
    wait "$pa" || ra=$?
    wait "$pb" || rb=$?
    if [ "$ra" != 0 ] || [ "$rb" != 0 ]; then
        echo "cli_outputs: recording failed" >&2
        cat "$tmp/a.log" "$tmp/b.log" >&2
        exit 2
    fi
    local nfiles d
    nfiles=$(find "$tmp/a" -mindepth 2 -name "*.${commands[0]%%|*}" | wc -l)
    d=$(diff -rq -x .times.tsv "$tmp/a" "$tmp/b" | wc -l || true)
    echo "cli_outputs: $nfiles files x ${#commands[@]} commands, $d differences" \
        "($(printf '%.0f' "$(bc <<<"$EPOCHREALTIME - $t0")") s; A = $a, B = $b)"
    if [ "$d" = 0 ]; then exit 0; fi
    echo "differing outputs (first 30):"
    diff -rq -x .times.tsv "$tmp/a" "$tmp/b" | sed -E -e "s#$(sed_literal "$tmp")/##g" -e 's/^/  /' | head -30 || true
    echo "diff -ru (first ${CLI_OUTPUTS_DIFF_LINES:-200} lines):"
    (cd "$tmp" && diff -ru -x .times.tsv a b | sed -E 's/^((---|\+\+\+) [^\t]*)\t.*/\1/' |
        head -n "${CLI_OUTPUTS_DIFF_LINES:-200}") || true
    exit 1
}

[ $# -ge 1 ] || usage
mode=$1
shift
case $mode in
record)
    [ $# -ge 2 ] || usage
    record "$@"
    ;;
compare)
    [ $# -ge 2 ] || usage
    compare "$@"
    ;;
*) usage ;;
esac
