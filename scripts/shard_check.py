#!/usr/bin/env python3
"""Must-show 1 of issue 56: on the decided rows of the real-position main table
(scripts/real_positions.py: 27 games, --at -1/-3/-5 with --mate 1/2/3) whose position has at
least 20 root actions, the merge of `fived solve --shard I/4` (I = 1..4) equals the
single-process answer (result, mate length) and the merged tree passes `fived verify`.

Each single solve and each part runs on one thread with --time LIMIT; a row the single solve
leaves unknown is listed as not decided and skipped. Prints one line per row and a summary;
exit 0 when every decided row agrees, 1 otherwise, 2 when fived or ../shared is missing.

Usage: scripts/shard_check.py [--fived build/ci/cli/fived] [--time 60] [--parts 4]
                              [--only SUBSTRING] [--max-actions N] [--min-actions N]
                              [--skip-hashed]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from real_positions import GAMES, MAIN, PUZZLES, needs_lenient  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fived", default=os.path.join(ROOT, "build", "ci", "cli", "fived"))
    ap.add_argument("--time", type=float, default=60)
    ap.add_argument("--parts", type=int, default=4)
    ap.add_argument("--only")
    ap.add_argument("--max-actions", type=int, default=100000,
                    help="count root actions up to this (a wider root is split by hash)")
    ap.add_argument("--min-actions", type=int, default=20,
                    help="skip rows with fewer root actions")
    ap.add_argument("--skip-hashed", action="store_true",
                    help="skip rows wider than --max-actions (their parts split by hash whatever "
                         "--shard-split, so a change of the root split leaves them as they were)")
    a = ap.parse_args()
    if not os.access(a.fived, os.X_OK) or not PUZZLES.is_dir():
        print(f"shard_check: {a.fived} or {PUZZLES} is missing", file=sys.stderr)
        return 2
    agree = disagree = undecided = small = wide = 0
    with tempfile.TemporaryDirectory() as tmp:
        for g in GAMES:
            if a.only and a.only not in g:
                continue
            path = PUZZLES / f"{g}.5dpgn"
            lenient = ["--lenient"] if needs_lenient(a.fived, path) else []
            for at, mate in MAIN:
                pos = [str(path), "--at", str(at)] + lenient
                row = f"{g} {at} mate {mate}"
                c = subprocess.run([a.fived, "count"] + pos + ["--cap", str(a.max_actions + 1)],
                                   capture_output=True, text=True, timeout=600)
                if c.returncode != 0:
                    print(f"{row}: count failed ({c.returncode}), skipped")
                    continue
                n = int(c.stdout)
                if n < a.min_actions:
                    small += 1
                    continue
                if n > a.max_actions:  # the parts split it by hash (root-hash)
                    wide += 1
                    if a.skip_hashed:
                        print(f"{row}: more than {a.max_actions} root actions, skipped")
                        continue
                opts = ["--mate", str(mate), "--quiet", "--time", str(a.time)]
                s = subprocess.run([a.fived, "solve"] + pos + opts + ["--json"],
                                   capture_output=True, text=True)
                sj = json.loads(s.stdout)
                if sj["result"] == "unknown":
                    undecided += 1
                    print(f"{row}: {n} actions, single solve unknown within {a.time:g} s")
                    continue
                files, nodes = [], 0
                for i in range(1, a.parts + 1):
                    p = subprocess.run([a.fived, "solve"] + pos + opts +
                                       ["--shard", f"{i}/{a.parts}"], capture_output=True,
                                       text=True)
                    f = os.path.join(tmp, f"{g}{at}-{i}.json")
                    with open(f, "w") as fh:
                        fh.write(p.stdout)
                    files.append(f)
                m = subprocess.run([a.fived, "shard-merge", "--json"] + files,
                                   capture_output=True, text=True)
                mj = json.loads(m.stdout) if m.returncode in (0, 1, 3) else {}
                verified = "-"
                if mj.get("tree"):
                    t = os.path.join(tmp, f"{g}{at}.5dpgn")
                    with open(t, "w") as fh:
                        fh.write(mj["tree"])
                    v = subprocess.run([a.fived, "verify", t, "--json", "--time", str(a.time)],
                                       capture_output=True, text=True)
                    vj = json.loads(v.stdout)
                    verified = "complete" if vj.get("complete") else f"NOT ({v.returncode})"
                same = (mj.get("result"), mj.get("mate_in")) == (sj["result"], sj["mate_in"])
                ok = same and (mj.get("result") != "mate" or verified == "complete")
                agree += ok
                disagree += not ok
                shown = f"{n}" if n <= a.max_actions else f"> {a.max_actions} (by hash)"
                print(f"{row}: {shown} actions, single {sj['result']} {sj['mate_in']} "
                      f"({sj['nodes']} nodes, keys {sj['keys']}), merged {mj.get('result')} "
                      f"{mj.get('mate_in')} ({mj.get('nodes')} nodes, makespan "
                      f"{mj.get('makespan_ms')} ms, keys {mj.get('keys')}), tree {verified}: "
                      f"{'SAME' if ok else 'DIFFERENT'}", flush=True)
    print(f"shard_check: {agree} decided rows agree, {disagree} differ, {undecided} not decided "
          f"by the single solve, {wide} wider than {a.max_actions} (split by hash), {small} with < 20 "
          f"actions")
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
