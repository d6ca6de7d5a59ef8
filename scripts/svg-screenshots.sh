#!/usr/bin/env bash
# Headless Chromium screenshots of two pictures drawn by `fived svg`, to see them as a browser
# shows them: a small puzzle (examples/rook-tactics-1.5dpgn, its final position and its key from
# `fived solve --svg`) and a wide game with many timelines from the shared puzzles
# (../shared/puzzles/cwmtt-100-timelines.5dpgn, read in place; skipped when absent).
# Usage: scripts/svg-screenshots.sh [FIVED [OUTDIR]]
#   FIVED   the fived program (default: build/release/cli/fived, else build/ci/cli/fived)
#   OUTDIR  where the .svg and .png files go (default: build/screenshots)
# Needs Debian's chromium (apt-get install -y chromium); without it the script says so and
# exits 0. Not part of CI: the ctest render_cli_svg_renders renders with rsvg-convert instead.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
fived=${1:-}
if [ -z "$fived" ]; then
    fived=$repo/build/release/cli/fived
    [ -x "$fived" ] || fived=$repo/build/ci/cli/fived
fi
out=${2:-$repo/build/screenshots}
shared=${FIVED_SHARED_DIR:-../shared}
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
    echo "svg-screenshots: chromium not installed (apt-get install -y chromium): skipped"
    exit 0
fi
[ -x "$fived" ] || { echo "svg-screenshots: no fived program at $fived" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)

# shot NAME: screenshots $out/NAME.svg at its own size into $out/NAME.png.
shot() {
    local svg=$out/$1.svg w h
    w=$(grep -o -m1 '<svg [^>]*' "$svg" | sed -n 's/.* width="\([0-9]*\).*/\1/p')
    h=$(grep -o -m1 '<svg [^>]*' "$svg" | sed -n 's/.* height="\([0-9]*\).*/\1/p')
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --user-data-dir="$out/.chromium" --window-size="$((w + 1)),$((h + 1))" \
        --screenshot="$out/$1.png" "file://$svg" >/dev/null 2>&1
    [ -s "$out/$1.png" ] || { echo "svg-screenshots: no screenshot of $svg" >&2; exit 1; }
    echo "$out/$1.png  (${w}x${h})"
}

cd "$repo" # short file names in the captions
small=examples/rook-tactics-1.5dpgn
"$fived" svg "$small" -o "$out/small.svg"
shot small
"$fived" solve "$small" --quiet --svg "$out/small-key.svg" >/dev/null
shot small-key
wide=$shared/puzzles/cwmtt-100-timelines.5dpgn
if [ -f "$wide" ]; then
    "$fived" svg "$wide" -o "$out/wide.svg"
    shot wide
else
    echo "svg-screenshots: $wide absent: the wide example is skipped"
fi
