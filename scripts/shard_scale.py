#!/usr/bin/env python3
"""Simulated scale of one puzzle split over parts (issue 56): runs the N parts of
`fived solve FILE --shard I/N` one after another on this machine, merges them with
`fived shard-merge`, and reports for each N the total work against the single-process solve
(nodes, CPU seconds), the longest part (the makespan N machines would see, in nodes and in
seconds) and the speed-up that implies.

    work inflation  = nodes of all parts / nodes of the single solve
    speed-up        = single solve / longest part, in nodes (reliable) and in seconds (noisy on
                      a shared machine)

A part stopped by --time counts with the nodes and time it used: its speed-up is a lower
bound of nothing (the part did not finish); the merged result column says whether the whole
search was decided with N parts ("unknown(k)": k parts unfinished). With N above the root's
actions the parts split the frontier of (key, defence) pairs instead (README "One puzzle on many
machines"; each part then lists the whole frontier, a node per action listed).

--split passes --shard-split to every part (auto, root, block or frontier; default auto), so the
round-robin and block splits can be compared on the same rows.

Usage: scripts/shard_scale.py FILE [--at K] [--mate N] [--lenient] [--time 60]
           [--parts 1,2,4,8,16,64] [--split auto] [--fived build/ci/cli/fived] [--json-out FILE]
Exit status: 0 when every run gave a record and every decided merge agrees with the single
solve, 1 otherwise, 2 on bad usage.
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd):
    c0, t0 = cpu_children(), time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr, cpu_children() - c0, time.monotonic() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file")
    ap.add_argument("--at")
    ap.add_argument("--mate", type=int)
    ap.add_argument("--lenient", action="store_true")
    ap.add_argument("--time", type=float, default=60, help="time limit of each part and solve")
    ap.add_argument("--parts", default="1,2,4,8,16,64")
    ap.add_argument("--split", default="auto", choices=["auto", "root", "block", "frontier"],
                    help="--shard-split of every part")
    ap.add_argument("--fived", default=os.path.join(ROOT, "build", "ci", "cli", "fived"))
    ap.add_argument("--json-out")
    a = ap.parse_args()
    common = [a.file, "--quiet", "--time", str(a.time)]
    if a.at is not None:
        common += ["--at", a.at]
    if a.mate:
        common += ["--mate", str(a.mate)]
    if a.lenient:
        common.append("--lenient")
    rc, out, err, cpu, wall = run([a.fived, "solve"] + common + ["--json"])
    if rc not in (0, 1, 3):
        print(f"shard_scale: the single solve failed (exit {rc}): {err.strip()}", file=sys.stderr)
        return 1
    single = json.loads(out)
    s_nodes = single["nodes"]
    s_ms = max(single["time_ms"], 1)
    s_res = single["result"] + (f" {single['mate_in']}" if single["mate_in"] else "")
    print(f"{a.file} {' '.join(common[2:])} --shard-split {a.split}")
    print(f"single: {s_res}, {s_nodes} nodes, {cpu:.2f} CPU s, {s_ms / 1000:.2f} s")
    print(f"{'N':>4} {'merged':<14} {'nodes':>12} {'inflation':>9} {'CPU s':>8} "
          f"{'max part nodes':>14} {'makespan s':>10} {'speed-up nodes':>14} {'speed-up s':>10}")
    rows, bad = [], False
    with tempfile.TemporaryDirectory() as tmp:
        for n in [int(x) for x in a.parts.split(",")]:
            files, recs, cpu_n = [], [], 0.0
            for i in range(1, n + 1):
                rc, out, err, cpu, _ = run([a.fived, "solve"] + common + ["--shard", f"{i}/{n}",
                                                             "--shard-split", a.split])
                cpu_n += cpu
                if rc not in (0, 1, 3):
                    print(f"shard_scale: part {i}/{n} failed (exit {rc}): {err.strip()}",
                          file=sys.stderr)
                    return 1
                f = os.path.join(tmp, f"{n}-{i}.json")
                with open(f, "w") as fh:
                    fh.write(out)
                files.append(f)
                recs.append(json.loads(out))
            rc, out, err, _, _ = run([a.fived, "shard-merge", "--json"] + files)
            if rc not in (0, 1, 3):
                print(f"shard_scale: merge of {n} parts failed (exit {rc}): {err.strip()}",
                      file=sys.stderr)
                return 1
            m = json.loads(out)
            res = m["result"] + (f" {m['mate_in']}" if m["mate_in"] else "")
            if m["result"] == "unknown":
                res += f"({len(m['unfinished'])})"
            elif single["result"] != "unknown" and (m["result"], m["mate_in"]) != (
                    single["result"], single["mate_in"]):
                print(f"shard_scale: {n} parts merged {res}, the single solve {s_res}",
                      file=sys.stderr)
                bad = True
            nodes = sum(r["nodes"] for r in recs)
            max_nodes = max(r["nodes"] for r in recs)
            makespan = max(max(r["time_ms"] for r in recs), 1)
            row = {"parts": n, "merged": res, "nodes": nodes, "inflation": nodes / max(s_nodes, 1),
                   "cpu_s": cpu_n, "max_part_nodes": max_nodes, "makespan_s": makespan / 1000,
                   "speedup_nodes": s_nodes / max(max_nodes, 1), "speedup_s": s_ms / makespan,
                   "unfinished": m["unfinished"]}
            rows.append(row)
            print(f"{n:>4} {res:<14} {nodes:>12} {row['inflation']:>9.2f} {cpu_n:>8.2f} "
                  f"{max_nodes:>14} {row['makespan_s']:>10.2f} {row['speedup_nodes']:>14.2f} "
                  f"{row['speedup_s']:>10.2f}")
    if a.json_out:
        with open(a.json_out, "w") as fh:
            json.dump({"file": a.file, "options": common[1:], "split": a.split, "single": {
                "result": s_res, "nodes": s_nodes, "time_s": s_ms / 1000}, "rows": rows}, fh,
                indent=1)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
