#!/usr/bin/env bash
# The pictures end to end: `fived svg` and `fived solve --svg` write SVG that parses as XML
# (xmllint, else Python's parser) and that librsvg renders to a PNG of the picture's size.
# Usage: svg_cli_check.sh FIVED REPO [SHARED]. With SHARED (../shared), only the wide game
# cwmtt-100-timelines (GPL-3.0, left in ../shared; ctest label `shared`, a missing file fails).
# Exits 77 (skipped) when rsvg-convert is absent (Debian package librsvg2-bin, installed by
# scripts/install-deps.sh).
set -euo pipefail
fived=$1 repo=$2 shared=${3:-}
if ! command -v rsvg-convert >/dev/null; then
    echo "rsvg-convert not installed (Debian package librsvg2-bin): skipped"
    exit 77
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# check SVG: well-formed, renders, and the PNG has the SVG's width and height (rounded up).
check() {
    local svg=$1
    if command -v xmllint >/dev/null; then
        xmllint --noout "$svg"
    else
        python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$svg"
    fi
    rsvg-convert "$svg" -o "$svg.png"
    [ "$(od -An -tx1 -N8 "$svg.png" | tr -d ' \n')" = 89504e470d0a1a0a ] || {
        echo "$svg.png: not a PNG"
        exit 1
    }
    local w h pw ph
    w=$(grep -o -m1 '<svg [^>]*' "$svg" | sed -n 's/.* width="\([0-9.]*\)".*/\1/p')
    h=$(grep -o -m1 '<svg [^>]*' "$svg" | sed -n 's/.* height="\([0-9.]*\)".*/\1/p')
    pw=$(od -An -tu1 -j16 -N4 "$svg.png" | awk '{print $1*16777216+$2*65536+$3*256+$4}')
    ph=$(od -An -tu1 -j20 -N4 "$svg.png" | awk '{print $1*16777216+$2*65536+$3*256+$4}')
    awk -v w="$w" -v h="$h" -v pw="$pw" -v ph="$ph" \
        'BEGIN { exit !(pw >= w && pw < w + 1 && ph >= h && ph < h + 1) }' || {
        echo "$svg: SVG is ${w}x${h}, PNG ${pw}x${ph}"
        exit 1
    }
    echo "$svg: ${w}x${h}, PNG $(wc -c <"$svg.png") bytes"
}

# A wide game (120 timelines): capped, still renders.
if [ -n "$shared" ]; then
    wide=$shared/puzzles/cwmtt-100-timelines.5dpgn
    "$fived" svg "$wide" -o "$out/wide.svg"
    check "$out/wide.svg"
    grep -q 'more timelines' "$out/wide.svg"
    echo "svg_cli_check (wide): ok"
    exit 0
fi

example=$repo/examples/rook-tactics-1.5dpgn
# The final position with the last action's arrow; the same on standard output.
"$fived" svg "$example" -o "$out/final.svg"
check "$out/final.svg"
grep -q 'marker-end="url(#head-last)"' "$out/final.svg"
"$fived" svg "$example" >"$out/stdout.svg"
cmp "$out/final.svg" "$out/stdout.svg"
# --at 0: the start position, no last action.
"$fived" svg "$example" --at 0 -o "$out/start.svg"
check "$out/start.svg"
! grep -q 'head-last)' "$out/start.svg"
# solve --svg: the key as an arrow; the solution tree still on standard output.
"$fived" solve "$example" --quiet --svg "$out/key.svg" >"$out/tree.5dpgn"
check "$out/key.svg"
grep -q 'marker-end="url(#head-key)"' "$out/key.svg"
grep -q '(0T3)Re1e5' "$out/key.svg"
grep -q 'Re1e5#' "$out/tree.5dpgn"
echo "svg_cli_check: ok"
