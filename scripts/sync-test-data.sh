#!/usr/bin/env bash
# Copies into tests/data the files of ../shared whose licence allows it, and lists the others.
#
#   bash scripts/sync-test-data.sh [SHARED_DIR]      (default: ../shared beside the repository)
#
# The rule (tests/data/NOTICE.md says it for every copied file):
#  * notation-corpus/{valid,invalid,optional}/*.5dpgn: copied unless the `source:` line of the
#    file's header names penteract/cwmtt (GPL-3.0), 5d-chess-js/alexbay218 (AGPL-3.0),
#    Narik-tech (AGPL-3.0) or chess-in-5d (AGPL-3.0). The other files are the corpus's own
#    (`synthetic (this corpus)`), adri326/5dchess-notation (MIT) or ftxi/5dchess_engine (BSD-2).
#  * puzzles/*.5dpgn: copied when the first [Source] header (where the text comes from) is
#    adri326/5dchess-tools or adri326/5dchess-notation (MIT, Adrien Burgun),
#    ftxi/5dchess_engine (BSD-2-Clause) or Slavrick/5dChessGUI (MIT, Slavrick). The others
#    (cwmtt-* GPL-3.0, js-* AGPL-3.0, narik-* AGPL-3.0, tutorial-* chess-in-5d AGPL-3.0, a
#    GitHub issue page, and COUNTS.md whose games are the cwmtt ones) stay in ../shared.
# The names of the files left in ../shared that the tests read go to tests/data/shared-files.txt
# (names only: the tests labelled `shared` read them there, and fail when one is missing).
# GPL and AGPL files are never copied. Run it again when ../shared changes; `git diff` shows
# what moved.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shared=$(cd "${1:-$root/../shared}" && pwd)
data=$root/tests/data
list=$data/shared-files.txt

copy() { # relative path under ../shared
    mkdir -p "$(dirname "$data/$1")"
    cp "$shared/$1" "$data/$1"
    chmod 644 "$data/$1"
}

rm -rf "$data/notation-corpus" "$data/puzzles"
{
    echo "# Files of ../shared that the tests labelled \`shared\` read in place (licence: GPL-3.0,"
    echo "# AGPL-3.0 or not stated; never copied). Written by scripts/sync-test-data.sh."
} >"$list"
for d in valid invalid optional; do
    for f in "$shared/notation-corpus/$d"/*.5dpgn; do
        rel=notation-corpus/$d/$(basename "$f")
        if head -n 4 "$f" | grep -qiE '^ *source:.*(cwmtt|5d-chess-js|alexbay|narik|chess-in-5d)'; then
            echo "$rel" >>"$list"
        else
            copy "$rel"
        fi
    done
done
for f in "$shared/puzzles"/*.5dpgn; do
    rel=puzzles/$(basename "$f")
    src=$(grep -m1 -o '^\[Source "[^"]*' "$f" | cut -c10- || true)
    case $src in
    adri326/5dchess-tools:* | adri326/5dchess-notation:* | ftxi/5dchess_engine:* | Slavrick/5dChessGUI:*)
        copy "$rel" ;;
    *) echo "$rel" >>"$list" ;;
    esac
done
echo puzzles/COUNTS.md >>"$list"
echo "sync-test-data: $(find "$data/notation-corpus" "$data/puzzles" -type f | wc -l) files copied," \
    "$(grep -vc '^#' "$list") left in $shared ($list)"
