#!/usr/bin/env python3
"""Resources as a contract (issue 55): every command of fived on a huge input, a deep input,
its own limit and SIGINT, with its exit status, peak RSS and time.

Usage: scripts/resources.py FIVED [--only CMD,...] [--cap MB]

Prints a Markdown table: command | case | exit | peak RSS MB | time s | note. Each run has an
address-space cap (--cap, default 2048 MB: RLIMIT_AS, as `ulimit -v` sets it) and a 300 s
guard. For the SIGINT rows the signal goes once the command has run for 1 s (or has printed
its first progress line), and "time s" is the time from the signal to the exit. Peak RSS is the
child's ru_maxrss (os.wait4). Exit statuses: README "Exit status" (0 ok, 1 negative answer, 2 bad
input, 3 unknown / limit / interrupted, 4 internal error); a status of -N is death by signal N.

The inputs are generated in a temporary folder: a game of 8,000 turns (knights going back and
forth; the engine's limit is turn 8191), 14 such lines as variations (2 MB), 5,000 nested
variations, a file of 300,000 headers, and the standard position (long searches and counts).
"""
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time

# The generated inputs are the command-line tests' (tests/cli/cli_test.py), one definition.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "cli"))
from cli_test import STANDARD, knights_game, many_lines, nested_variations  # noqa: E402


def measure(fived, args, cap_mb, interrupt=False, stdin=None):
    """(exit, peak RSS MB, seconds, stderr tail). With interrupt: SIGINT after 1 s or at the
    first stderr line, seconds counted from the signal."""
    def limit():
        cap = cap_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    err_path = os.path.join(TMP, "stderr.txt")
    with open(err_path, "wb") as err, open(os.devnull, "wb") as null:
        t0 = time.monotonic()
        p = subprocess.Popen([fived] + args, stdout=null, stderr=err, preexec_fn=limit,
                             stdin=subprocess.DEVNULL if stdin is None else open(stdin, "rb"))
        sent = None
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            now = time.monotonic()
            if interrupt and sent is None and now - t0 >= 1.0:
                p.send_signal(signal.SIGINT)
                sent = now
            if now - t0 > 300:
                p.kill()
            time.sleep(0.01)
        end = time.monotonic()
    code = os.waitstatus_to_exitcode(status)
    with open(err_path, "rb") as f:
        tail = f.read()[-160:].decode("utf-8", "replace").strip().splitlines()
    note = tail[-1] if tail else ""
    if interrupt and sent is None:
        note = "ended before the signal; " + note
    return code, usage.ru_maxrss / 1024, end - (sent if sent else t0), note


def cases(files, shared):
    """(command, case, args, interrupt) for every command."""
    huge, wide, deep, headers, std = (files[k] for k in ("huge", "wide", "deep", "headers", "std"))
    test1 = os.path.join(shared, "puzzles", "cwmtt-test1.5dpgn")
    wide_at = [test1, "--at", "18"] if os.path.exists(test1) else [std]
    out = os.path.join(TMP, "out")
    rows = []
    for cmd in ("status", "moves", "fen", "hash"):
        rows += [(cmd, "huge (8000 turns)", [cmd, huge], False),
                 (cmd, "deep (5k nested)", [cmd, deep], False),
                 (cmd, "limit: --at 1", [cmd, huge, "--at", "1"], False),
                 (cmd, "SIGINT (14 lines of 8000 turns)", [cmd, wide], True)]
    rows += [("actions", "huge (8000 turns)", ["actions", huge], False),
             ("actions", "deep (5k nested)", ["actions", deep], False),
             ("actions", "limit: --max 1000000, 39.6M actions", ["actions"] + wide_at + ["--max", "1000000"], False),
             ("actions", "SIGINT, 39.6M actions", ["actions"] + wide_at, True),
             ("count", "huge (8000 turns)", ["count", huge], False),
             ("count", "deep (5k nested)", ["count", deep], False),
             ("count", "limit: --cap 1000, 39.6M actions", ["count"] + wide_at + ["--cap", "1000"], False),
             ("count", "SIGINT: --each, 8000 turns", ["count", huge, "--each"], True),
             ("perft", "huge (8000 turns), depth 2", ["perft", huge, "2"], False),
             ("perft", "deep (5k nested), depth 2", ["perft", deep, "2"], False),
             ("perft", "limit: none (depth 4 of the start)", ["perft", std, "4"], False),
             ("perft", "SIGINT: depth 5 of the start", ["perft", std, "5"], True)]
    for cmd in ("fmt", "check-notation"):
        rows += [(cmd, "huge (14 lines of 8000 turns)", [cmd, wide], False),
                 (cmd, "deep (5k nested)", [cmd, deep], False),
                 (cmd, "300k headers", [cmd, headers], False),
                 (cmd, "SIGINT (14 lines of 8000 turns)", [cmd, wide], True)]
    rows += [("solve", "huge (8000 turns), --mate 1", ["solve", huge, "--mate", "1", "--quiet"], False),
             ("solve", "deep (5k nested), --mate 1", ["solve", deep, "--mate", "1", "--quiet"], False),
             ("solve", "limit: --time 2, --mate 6 (start)", ["solve", std, "--mate", "6", "--time", "2", "--quiet"], False),
             ("solve", "limit: --nodes 100000, --mate 6", ["solve", std, "--mate", "6", "--nodes", "100000", "--quiet"], False),
             ("solve", "limit: --hash 4096 --time 1", ["solve", std, "--mate", "6", "--hash", "4096", "--time", "1", "--quiet"], False),
             ("solve", "SIGINT: --mate 6 (start)", ["solve", std, "--mate", "6", "--quiet"], True),
             ("verify", "huge (8000 turns)", ["verify", huge], False),
             ("verify", "deep (5k nested)", ["verify", deep], False),
             ("verify", "limit: --nodes 1000, claimed #2", ["verify", files["claim"], "--nodes", "1000"], False),
             ("verify", "SIGINT: 14 lines of 8000 turns", ["verify", wide], True),
             ("svg", "huge (8000 turns)", ["svg", huge, "-o", out + ".svg"], False),
             ("svg", "deep (5k nested)", ["svg", deep, "-o", out + ".svg"], False),
             ("svg", "limit: --max-turns 1", ["svg", huge, "--max-turns", "1", "-o", out + ".svg"], False),
             ("svg", "SIGINT (14 lines of 8000 turns)", ["svg", wide, "-o", out + ".svg"], True),
             ("html", "huge (8000 turns)", ["html", huge, "-o", out + ".html"], False),
             ("html", "deep (5k nested)", ["html", deep, "-o", out + ".html"], False),
             ("html", "limit: --max-nodes 20000, 5k nested", ["html", deep, "--max-nodes", "20000", "-o", out + ".html"], False),
             ("html", "SIGINT (14 lines of 8000 turns)", ["html", wide, "--max-nodes", "200000", "-o", out + ".html"], True),
             ("solve --shard", "limit: --time 2, part 1/4 (start, --mate 6)", ["solve", std, "--mate", "6", "--time", "2", "--shard", "1/4", "--quiet"], False),
             ("solve --shard", "SIGINT: part 1/4 (start, --mate 6)", ["solve", std, "--mate", "6", "--shard", "1/4", "--quiet"], True),
             ("shard-merge", "one record of 20 MB", ["shard-merge", files["bigrecord"]], False),
             ("bench", "limit: --hash 1", ["bench", "--hash", "1"], False),
             ("bench", "SIGINT", ["bench"], True),
             ("batch", "huge+deep+headers folder", ["batch", files["folder"], "--mate", "1", "-o", out + ".jsonl"], False),
             ("batch", "limit: --time 1 per item", ["batch", files["slow"], "--mate", "6", "--time", "1", "-o", out + "2.jsonl"], False),
             ("batch", "SIGINT: --mate 6 items", ["batch", files["slow"], "--mate", "6", "-o", out + "3.jsonl"], True),
             ("batch-merge", "100k records", ["batch-merge", files["records"], "-o", out + "4.jsonl"], False),
             ("batch-merge", "one record of 20 MB", ["batch-merge", files["bigrecord"], "-o", out + "5.jsonl"], False)]
    return rows


def main():
    global TMP
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    fived = os.path.abspath(sys.argv[1])
    only = None
    cap = 2048
    args = sys.argv[2:]
    while args:
        if args[0] == "--only":
            only = set(args[1].split(","))
        elif args[0] == "--cap":
            cap = int(args[1])
        args = args[2:]
    shared = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared")
    with tempfile.TemporaryDirectory() as tmp:
        TMP = tmp

        def put(name, text):
            path = os.path.join(tmp, name)
            with open(path, "w") as f:
                f.write(text)
            return path
        files = {"huge": put("huge.5dpgn", knights_game(8000)),
                 "wide": put("wide.5dpgn", many_lines(14, 8000)),
                 "deep": put("deep.5dpgn", nested_variations(5000)),
                 "headers": put("headers.5dpgn", STANDARD + "".join(
                     f'[Key{i} "value {i}"]\n' for i in range(300000)) + "1. Nf3 / Nf6\n"),
                 "std": put("std.5dpgn", STANDARD),
                 "claim": put("claim.5dpgn", knights_game(2000, '[Puzzle "mate-in-2"]\n'))}
        folder = os.path.join(tmp, "folder")
        os.makedirs(folder)
        for k in ("huge", "deep", "headers"):
            os.link(files[k], os.path.join(folder, k + ".5dpgn"))
        files["folder"] = folder
        slow = os.path.join(tmp, "slow")
        os.makedirs(slow)
        for i in range(4):
            put(os.path.join("slow", f"start{i}.5dpgn"), STANDARD + f"{{copy {i}}}\n")
        files["slow"] = slow
        rec = '{"file":"f%d.5dpgn","mode":"solve","exit_code":1,"result":"no mate","time_ms":1}\n'
        files["records"] = put("records.jsonl", "".join(rec % i for i in range(100000)))
        files["bigrecord"] = put("big.jsonl", '{"file":"big.5dpgn","mode":"solve","exit_code":1,'
                                 '"result":"no mate","time_ms":1,"pad":"' + "x" * (20 << 20) + '"}\n')
        print(f"address-space cap {cap} MB; fived {fived}\n")
        print("| command | case | exit | peak RSS MB | time s | last stderr line |")
        print("|---|---|---:|---:|---:|---|")
        for cmd, case, cargs, intr in cases(files, shared):
            if only and cmd not in only:
                continue
            code, rss, secs, note = measure(fived, cargs, cap, intr)
            note = note.replace("|", "/")[:90]
            print(f"| {cmd} | {case} | {code} | {rss:.0f} | {secs:.2f} | {note} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
