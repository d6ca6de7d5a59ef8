#!/usr/bin/env bash
# Compares `fived bench --threads 1` with the values kept in bench/signature.txt.
# Usage: scripts/check_bench.sh FIVED [SIGNATURE_FILE]; exit 0 when they agree, 1 otherwise.
set -euo pipefail
fived=$1
expected=${2:-"$(dirname "$0")/../bench/signature.txt"}
got=$("$fived" bench --threads 1 2>&1 | grep -E '^(Nodes searched|Signature|Answers) ' || true)
want=$(grep -v '^#' "$expected")
if [ "$got" != "$want" ]; then
    echo "fived bench differs from $expected:" >&2
    diff <(echo "$want") <(echo "$got") >&2 || true
    echo "If the search changed on purpose, update the file and say 'Bench: <nodes>' in the commit." >&2
    exit 1
fi
echo "bench signature ok: $(echo "$got" | tr -s ' ' | paste -sd' ')"
