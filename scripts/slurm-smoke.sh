#!/usr/bin/env bash
# Smoke test of fived batch on Slurm: starts a one-node cluster on this machine from Debian's
# packages (slurm-wlm, munge; controller and node on localhost), submits a 4-task job array
# over ../shared/puzzles (every file), merges the shards and checks that the report equals a
# single-machine `fived batch` run of the same files (every field but the times; items are
# limited by nodes, so the records are deterministic).
# With --shard (issue 56): one puzzle split over a 4-task array instead
# (scripts/slurm/solve-shard.sbatch), the parts' records joined by `fived shard-merge`, and the
# merged answer checked against a single-process `fived solve` (the same tree, text for text).
# Then a smaller puzzle in 4 parts with part 2 split again into a 3-task array of sub-parts
# (SUBOF, --shard-sub), merged in place of its record and checked the same way.
# Usage: scripts/slurm-smoke.sh [--shard] [FIVED]   (as root, or with sudo; a fresh Debian machine)
# Exit 0 when the reports agree. It leaves the daemons running only while it runs.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
mode=batch
if [ "${1:-}" = --shard ]; then
    mode=shard
    shift
fi
fived=$(readlink -f "${1:-build/ci/cli/fived}")
puzzles=$(readlink -f "$root/../shared/puzzles")
[ -x "$fived" ] || { echo "slurm-smoke: $fived is not built" >&2; exit 2; }
[ -d "$puzzles" ] || { echo "slurm-smoke: $puzzles is absent" >&2; exit 2; }
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        slurm-wlm munge
fi
work=$(mktemp -d /tmp/fived-slurm.XXXXXX)
chmod 755 "$work"
# The daemons this script started, by the pid files they wrote under $work.
cleanup() {
    for pidfile in "$work/slurmctld.pid" "$work/slurmd.pid" "$work/munged.pid"; do
        if [ -s "$pidfile" ]; then $SUDO kill "$(cat "$pidfile")" 2>/dev/null || true; fi
    done
}
trap cleanup EXIT
# munge: a key and a daemon of our own.
$SUDO mkdir -p /etc/munge /var/lib/munge /var/log/munge /run/munge
[ -s /etc/munge/munge.key ] || $SUDO dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
$SUDO chown -R munge:munge /etc/munge /var/lib/munge /var/log/munge /run/munge 2>/dev/null || true
$SUDO chmod 400 /etc/munge/munge.key
$SUDO -u munge munged -S "$work/munge.socket" --pid-file="$work/munged.pid" -f 2>/dev/null \
    || $SUDO munged -S "$work/munge.socket" --pid-file="$work/munged.pid" -f --force
export MUNGE_SOCKET="$work/munge.socket"
# Slurm: controller and node on localhost, state under $work.
cpus=$(nproc)
cat > "$work/slurm.conf" <<CONF
ClusterName=fived
SlurmctldHost=localhost
AuthType=auth/munge
AuthInfo=socket=$work/munge.socket
CryptoType=crypto/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
NodeName=localhost CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
mkdir -p "$work/state" "$work/spool" "$work/out"
export SLURM_CONF="$work/slurm.conf"
$SUDO env SLURM_CONF="$SLURM_CONF" slurmctld -f "$work/slurm.conf" -c
$SUDO env SLURM_CONF="$SLURM_CONF" slurmd -f "$work/slurm.conf" -c
for _ in $(seq 60); do
    if sinfo -h -o %T 2>/dev/null | grep -q idle; then break; fi
    sleep 1
done
sinfo
if [ "$mode" = shard ]; then
    # The records DIR/part-*.json merged must be the single-process solve of PUZZLE (the options
    # after it), tree text for text, exit status too; else the difference, the tasks' logs and
    # exit 1. Leaves the merge in DIR.merged.txt and its status in merged_rc.
    merged_is_single() {
        local dir=$1 puzzle=$2 src=0
        shift 2
        merged_rc=0
        "$fived" shard-merge "$dir"/part-*.json > "$dir.merged.txt" || merged_rc=$?
        "$fived" solve "$puzzle" "$@" --quiet > "$dir.single.txt" || src=$?
        if [ "$merged_rc" = "$src" ] && cmp -s "$dir.merged.txt" "$dir.single.txt"; then return 0; fi
        echo "slurm-smoke: $dir: merge exit $merged_rc, solve exit $src; the answers differ:" >&2
        diff "$dir.merged.txt" "$dir.single.txt" | head -20 >&2
        cat "$dir"/*.log >&2 || true
        exit 1
    }
    # A mate in 3 with 38 root actions (read from ../shared, not copied), else the test data's
    # mate in 2.
    puzzle="$root/../shared/puzzles/js-reversed-royalty-checkmate.5dpgn"
    opts=(--at -5 --mate 3)
    if [ ! -f "$puzzle" ]; then
        puzzle="$root/tests/solver/data/rook-tactics-2.5dpgn"
        opts=()
    fi
    puzzle=$(readlink -f "$puzzle")
    echo "slurm-smoke: submitting a 4-task array over $puzzle ${opts[*]}"
    (cd "$work/out" && FIVED="$fived" sbatch --wait --array=1-4 \
        "$root/scripts/slurm/solve-shard.sbatch" "$puzzle" "$work/out" "${opts[@]}") || true
    ls "$work/out"
    "$fived" shard-merge --json "$work"/out/part-*.json | python3 -c '
import json, sys
j = json.load(sys.stdin)
print("slurm-smoke: merged", j["result"], j["mate_in"], j["keys"], "parts", j["parts"],
      "nodes", j["nodes"], "makespan_ms", j["makespan_ms"], "verified", j["verified"])'
    merged_is_single "$work/out" "$puzzle" "${opts[@]}"
    "$fived" verify "$work/out.merged.txt" | head -3
    echo "slurm-smoke: the 4 parts' merged answer equals the single-process solve (exit $merged_rc, $(wc -l < "$work/out.merged.txt") lines of tree)"
    # A part split again (--shard-sub): Rook Tactics II --at -2 (a mate in 3, 14 root actions)
    # in 4 parts, part 2 of them in 3 sub-parts merged in place of its record.
    small="$root/tests/solver/data/rook-tactics-2.5dpgn"
    mkdir -p "$work/sub"
    echo "slurm-smoke: submitting Rook Tactics II --at -2 --mate 3 as 4 parts, then part 2 as 3 sub-parts"
    (cd "$work/sub" && FIVED="$fived" sbatch --wait --array=1-4 \
        "$root/scripts/slurm/solve-shard.sbatch" "$small" "$work/sub" --at -2 --mate 3) || true
    (cd "$work/sub" && FIVED="$fived" SUBOF=2/4 sbatch --wait --array=1-3 \
        "$root/scripts/slurm/solve-shard.sbatch" "$small" "$work/sub" --at -2 --mate 3) || true
    mv "$work/sub/part-2.json" "$work/part-2-whole.json"
    ls "$work/sub"
    merged_is_single "$work/sub" "$small" --at -2 --mate 3
    echo "slurm-smoke: with part 2 in 3 sub-parts, the merged answer equals the single-process solve (exit $merged_rc)"
    exit 0
fi
echo "slurm-smoke: submitting a 4-task array over $(find "$puzzles" -name '*.5dpgn' | wc -l) files"
# A task exits 1 when some of its items are bad input (the collection has such files on
# purpose): their records say so; the run itself must have written all four shards.
(cd "$work/out" && FIVED="$fived" sbatch --wait --array=1-4 \
    "$root/scripts/slurm/batch.sbatch" "$puzzles" -- "$work/out" --nodes 3000 --lenient) || true
for i in 1 2 3 4; do
    [ -s "$work/out/shard-$i.jsonl" ] || {
        echo "slurm-smoke: task $i wrote no records:" >&2
        cat "$work"/out/*_"$i".log >&2
        exit 1
    }
done
"$fived" batch-merge "$work"/out/shard-*.jsonl -o "$work/cluster.jsonl"
"$fived" batch "$puzzles" --nodes 3000 --lenient --jobs 2 -o "$work/single.jsonl" || true
"$fived" batch-merge "$work/single.jsonl" -o "$work/single-merged.jsonl" 2>/dev/null
# Node limits (not time limits) make every record deterministic but its times.
strip() { python3 -c '
import json, sys
for line in open(sys.argv[1]):
    j = json.loads(line)
    for k in ("time_ms", "hashfull"):
        j.pop(k, None)
    print(json.dumps(j, sort_keys=True))' "$1"; }
if diff <(strip "$work/cluster.jsonl") <(strip "$work/single-merged.jsonl") >/dev/null; then
    echo "slurm-smoke: the 4 shards' merged report equals the single-machine run ($(wc -l < "$work/cluster.jsonl") files)"
else
    echo "slurm-smoke: the reports differ:" >&2
    diff <(strip "$work/cluster.jsonl") <(strip "$work/single-merged.jsonl") | head -20 >&2
    exit 1
fi
