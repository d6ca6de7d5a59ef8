#!/usr/bin/env python3
"""The real-position suite of issue 10: mates near the end of real games.

For each of the 27 games of ../shared/puzzles whose final position is checkmate, solves the
positions 1, 3 and 5 actions before the end with --mate 1, 2 and 3 (81 searches; every --at -1
case has a mate in 1, the game's own). With --deep, a second table: 7 and 9 actions before the
end with --mate 4 and 5. Every search runs on 1 thread with --time LIMIT (default 60); each case
that took more than 1 s runs again on 2 threads, and the two must agree. With --hash-check each
decided case runs again on 1 thread with --hash 1 and with --hash 1024 (a table of 1 MB and of
1 GB), and each of those that decides must give the same answer (a mate length that depends on
the table's size is a known failure of long-mate solvers).

Prints one row per case (result, mate length, time, nodes; for a 2-thread run its time, the
speed-up = 1-thread time / 2-thread time, the CPU seconds of the 1- and 2-thread runs and the
2-thread nodes) and per table the summary line
    decided A/81, unknown B, mate-in-1 found C/27 (C1 under 1 s), total T s; 2 threads on K rows
    over 3 s: median R (from R0 to R1), M at 1.7x or more
where "decided" is mate or no-mate within the limit, and "mate-in-1 found" counts --at -1 cases
answered mate. With --hash-check a line per table counts the cases each table size decided the
same way, and names those it left unknown. Exit status: 0 when the suite ran (whatever it
decided), 1 when 1 and 2 threads (or two table sizes) disagree on a decided case or a case gives
an error, 2 when fived or ../shared is missing.

The "2 threads" column also shows "peak N MB" on a row whose search raised the largest resident
set of the run so far; the summary line names the run's peak and the row that reached it (with
--hash-check, the 1 GB table's runs count too: measure memory without it).

Usage: scripts/real_positions.py [--fived build/release/cli/fived] [--time 60] [--deep | --deep-only]
                                 [--only SUBSTRING] [--no-threads-check] [--hash-check]
                                 [--json-out FILE]
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from shard_scale import cpu_children  # noqa: E402 (CPU seconds of the finished children)

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT.parent / "shared" / "puzzles"

# The games named in issue 10, in its order.
GAMES = [
    "tools-defended-pawn-checkmate", "tools-standard-checkmate", "tools-standard-checkmate-2",
    "tools-standard-checkmate-3", "tools-standard-checkmate-4", "tools-princess-checkmate",
    "tools-dead-timeline", "cwmtt-100-timelines", "cwmtt-NP0", "cwmtt-ctp1", "cwmtt-ctp2",
    "cwmtt-futures", "cwmtt-many2", "cwmtt-manyChecks", "cwmtt-silly", "cwmtt-standard",
    "cwmtt-tesseractMageOChicken", "cwmtt-test1", "cwmtt-wide", "std-qe2-qh5-checkmate",
    "js-reversed-royalty-checkmate", "tutorial-scholars-mate-checkmate",
    "tutorial-5d-fools-mate-past-king", "slavrick-aquababyvsandrey-6-14-2021",
    "slavrick-aquababyvssamet-6-12-2021", "slavrick-aquababyvswritenwrong-6-13-2021",
    "ftxi-branched-example-game",
]
MAIN = [(-1, 1), (-3, 2), (-5, 3)]
DEEP = [(-7, 4), (-9, 5)]


def needs_lenient(fived, path):
    """True when the file reads only with --lenient (known errors in third-party files)."""
    strict = subprocess.run([fived, "status", str(path)], capture_output=True, text=True)
    return strict.returncode != 0


def solve(fived, path, at, mate, threads, limit, lenient, hash_mb=None):
    cmd = [fived, "solve", str(path), "--at", str(at), "--mate", str(mate), "--threads",
           str(threads), "--time", str(limit), "--json", "--quiet"]
    if lenient:
        cmd.append("--lenient")
    if hash_mb is not None:
        cmd += ["--hash", str(hash_mb)]
    t0, c0 = time.monotonic(), cpu_children()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit * 3 + 60)
    wall, cpu = time.monotonic() - t0, cpu_children() - c0
    try:
        j = json.loads(p.stdout)
    except json.JSONDecodeError:
        err = (p.stderr or p.stdout).strip()
        # A game shorter than |at| has no such position: the case does not exist.
        result = "n/a" if "the main line has" in err else "error"
        return {"result": result, "error": err[:200], "exit": p.returncode, "wall": wall,
                "cpu": cpu}
    j["wall"] = wall
    j["cpu"] = cpu
    j["exit"] = p.returncode
    return j


def same_answer(a, b):
    """Do two decided runs give the same answer: result, mate length and first key?"""
    return (a.get("result") == b.get("result") and a.get("mate_in") == b.get("mate_in")
            and (a.get("keys") or [None])[0] == (b.get("keys") or [None])[0])


HASH_SIZES = (1, 1024)  # MB: --hash-check's two tables


def show(j):
    r = j.get("result", "error")
    if r == "mate":
        return "mate in %d" % j.get("mate_in", 0)
    if r == "unknown":
        if j.get("mate_proven"):
            return "unknown (mate in %d, no tree)" % j["mate_proven"]
        proved = j.get("no_mate_up_to", 0)
        parts = ["no mate <= %d" % proved] if proved else []
        # How far the bound it stopped in got: keys refuted, of how many (when listed).
        st = j.get("stopped_at")
        if st:
            parts.append("%d%s keys" % (st["keys_refuted"],
                                        "/%d" % st["keys"] if st.get("keys") else ""))
        return "unknown" + (" (%s)" % "; ".join(parts) if parts else "")
    return r


def run_table(args, cases, label):
    rows, disagreements, errors = [], 0, 0
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print("== %s: %d searches, 1 thread, --time %g" % (label, len(cases), args.time))
    print("%-42s %4s %5s  %-36s %9s %12s  %s" %
          ("game", "at", "mate", "result", "time s", "nodes", "2 threads"))
    for game, at, mate in cases:
        path = PUZZLES / (game + ".5dpgn")
        lenient = needs_lenient(args.fived, path)
        one = solve(args.fived, path, at, mate, 1, args.time, lenient)
        secs = one.get("time_ms", one["wall"] * 1000) / 1000
        two_txt, two = "", None
        if not args.no_threads_check and secs > 1 and one.get("result") in ("mate", "no-mate"):
            two = solve(args.fived, path, at, mate, 2, args.time, lenient)
            tsecs = two.get("time_ms", two["wall"] * 1000) / 1000
            two["time_s"] = tsecs
            agree = same_answer(one, two)
            if two.get("result") == "unknown":
                two_txt = "unknown in %.2f s" % tsecs
            else:
                # Time, speed-up (1-thread time / 2-thread time), CPU and nodes of each.
                two_txt = "%.2f s %.2fx  cpu %.1f/%.1f s  nodes %s" % (
                    tsecs, secs / tsecs if tsecs > 0 else 0, one["cpu"], two["cpu"],
                    two.get("nodes", "-"))
                if not agree:
                    two_txt += "  DISAGREES: " + show(two)
                disagreements += not agree
        if one.get("result") == "error":
            errors += 1
        # The largest resident set of any search so far (Linux: KiB): a row that raises it
        # shows the new peak.
        now = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        rss = now // 1024 if now > peak else None
        peak = max(peak, now)
        if rss is not None:
            two_txt = ("%s  " % two_txt if two_txt else "") + "peak %d MB" % rss
        print("%-42s %4d %5d  %-36s %9.2f %12s  %s" %
              (game, at, mate, show(one), secs, one.get("nodes", "-"), two_txt), flush=True)
        if one.get("result") in ("error", "n/a"):
            print("    %s: %s" % (one["result"], one.get("error", "")), flush=True)
        hashes = {}
        if args.hash_check and one.get("result") in ("mate", "no-mate"):
            for mb in HASH_SIZES:
                h = solve(args.fived, path, at, mate, 1, args.time, lenient, mb)
                decided = h.get("result") in ("mate", "no-mate")
                hashes[mb] = ("same" if decided and same_answer(one, h)
                              else "unknown" if h.get("result") == "unknown"
                              else "DISAGREES: " + show(h))
                disagreements += hashes[mb].startswith("DISAGREES")
            print("    --hash %s" % ", --hash ".join("%d: %s" % (mb, v) for mb, v in hashes.items()),
                  flush=True)
        rows.append({"game": game, "at": at, "mate": mate, "lenient": lenient,
                     "result": one.get("result"), "mate_in": one.get("mate_in"),
                     "time_s": secs, "nodes": one.get("nodes"), "cpu_s": one.get("cpu"),
                     "two_threads": two_txt,
                     "two_time_s": two.get("time_s") if two else None,
                     "two_result": two.get("result") if two else None,
                     "two_cpu_s": two.get("cpu") if two else None,
                     "two_nodes": two.get("nodes") if two else None,
                     "peak_rss_mb": rss, "stopped_at": one.get("stopped_at"),
                     "hash_check": {str(mb): v for mb, v in hashes.items()} or None})
    return rows, disagreements, errors


def summary(rows, label):
    absent = sum(r["result"] == "n/a" for r in rows)
    rows = [r for r in rows if r["result"] != "n/a"]
    decided = sum(r["result"] in ("mate", "no-mate") for r in rows)
    unknown = sum(r["result"] == "unknown" for r in rows)
    m1 = [r for r in rows if r["mate"] == 1]
    found = [r for r in m1 if r["result"] == "mate"]
    fast = sum(r["time_s"] < 1 for r in found)
    total = sum(r["time_s"] for r in rows)
    line = "%s: decided %d/%d, unknown %d" % (label, decided, len(rows), unknown)
    raised = [r for r in rows if r.get("peak_rss_mb")]
    if m1:
        line += ", mate-in-1 found %d/%d (%d under 1 s)" % (len(found), len(m1), fast)
    line += ", total %.1f s" % total
    if absent:
        line += " (%d cases skipped: the game is shorter)" % absent
    if raised:
        r = raised[-1]
        line += ", peak RSS %d MB (%s %d)" % (r["peak_rss_mb"], r["game"], r["at"])
    # Issue 58's measure of the second thread: the rows decided by both runs whose 1-thread
    # time is over 3 s, speed-up = 1-thread time / 2-thread time.
    sp = sorted(r["time_s"] / r["two_time_s"] for r in rows
                if r.get("two_time_s") and r["time_s"] > 3 and r.get("two_result") == r["result"])
    if sp:
        line += "; 2 threads on %d rows over 3 s: median %.2fx (%.2fx to %.2fx), %d at 1.7x or more" % (
            len(sp), statistics.median(sp), sp[0], sp[-1], sum(x >= 1.7 for x in sp))
    return line


def hash_summary(rows, label):
    """--hash-check's line: per table size, the decided cases it answered the same way."""
    checked = [r for r in rows if r.get("hash_check")]
    parts = []
    for mb in HASH_SIZES:
        got = [(r, r["hash_check"][str(mb)]) for r in checked]
        same = sum(v == "same" for _, v in got)
        left = ["%s %d" % (r["game"], r["at"]) for r, v in got if v == "unknown"]
        parts.append("--hash %d same on %d/%d%s" % (
            mb, same, len(got), " (unknown: %s)" % ", ".join(left) if left else ""))
    return "%s: %s" % (label, "; ".join(parts))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fived", default=str(ROOT / "build/release/cli/fived"))
    ap.add_argument("--time", type=float, default=60)
    ap.add_argument("--deep", action="store_true", help="also the --mate 4 / 5 table")
    ap.add_argument("--deep-only", action="store_true", help="only the --mate 4 / 5 table")
    ap.add_argument("--only", default="", help="games whose name contains this")
    ap.add_argument("--no-threads-check", action="store_true")
    ap.add_argument("--hash-check", action="store_true",
                    help="each decided case again with --hash 1 and --hash 1024")
    ap.add_argument("--json-out", help="write every row as JSON to this file")
    args = ap.parse_args()
    if not os.access(args.fived, os.X_OK):
        print("real_positions: no fived at %s (build it, or give --fived)" % args.fived,
              file=sys.stderr)
        return 2
    if not PUZZLES.is_dir():
        print("real_positions: no %s" % PUZZLES, file=sys.stderr)
        return 2
    games = [g for g in GAMES if args.only in g]
    tables = [] if args.deep_only else [("main", [(g, at, m) for at, m in MAIN for g in games])]
    if args.deep or args.deep_only:
        tables.append(("deep", [(g, at, m) for at, m in DEEP for g in games]))
    status, out, lines = 0, {}, []
    for label, cases in tables:
        rows, dis, err = run_table(args, cases, label)
        out[label] = rows
        lines.append(summary(rows, label))
        print(lines[-1], flush=True)
        if args.hash_check:
            lines.append(hash_summary(rows, label))
            print(lines[-1], flush=True)
        if dis or err:
            status = 1
            lines.append("%s: %d disagreements (threads, table sizes), %d errors" %
                         (label, dis, err))
            print(lines[-1])
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(out, indent=1) + "\n")
    print("\n".join(["== summary"] + lines))
    return status


if __name__ == "__main__":
    sys.exit(main())
