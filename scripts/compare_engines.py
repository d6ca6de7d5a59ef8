#!/usr/bin/env python3
"""Side-by-side CPU time of fived and another engine on the slow families of the move-generator
issue ("no position where another engine is faster").

Usage: scripts/compare_engines.py [--fived build/ci/cli/fived] [--other PATH] [--other-kind ftxi]
                                  [--repeat 3] [--timeout 120] [--list 100000] [--only SUBSTRING]
                                  [--family FAMILY] [--quick] [--puzzles DIR]

For each case of CASES (a game of ../shared/puzzles, the position after k actions of its main
line or the final one, and an operation) runs both engines as whole processes and takes the CPU
seconds of each (user + system of the child, from os.wait4), the minimum of --repeat runs:

  count    number of legal actions: `fived count FILE --at K` / ftxi `5dtools count balanced MAX`;
  list     the first --list actions: `fived actions FILE --at K --max N` / ftxi `5dtools all
           balanced N` (both print one action a line; the numbers of lines are compared);
  verdict  on positions with no legal action: `fived status --json` / ftxi `5dtools checkmate`.

fived reads the puzzle file itself (`--at K`, `--lenient`). The other engine reads the game on
standard input as fived writes it (`fived fmt --style full`, which fixes third-party spelling),
cut after k actions of the main line when the case names a k. Parsing the file is part of both
processes' time.

Prints the load average at start and end, then one row per case: fived's and the other engine's
answer, their CPU seconds, the ratio other/fived (> 1: fived is faster) and fived's actions/s;
then the geometric mean of the ratios over the cases both finished and the worst (smallest) one.
A run over --timeout seconds of wall time is killed and shown as `timeout`; a ratio against a
timeout is a bound (`>` when only fived finished, `<` when only the other engine did: those are
listed apart, the latter loudly) and is left out of the geometric mean.

Without --other (or when it is not executable) only fived's figures are printed and the
comparison is said to be skipped. Exit status: 0 when every case both engines answered agrees,
1 on a disagreement (printed as DISAGREE, and listed at the end) or an engine error, 2 when fived
or the puzzles are missing.

The other engine is not part of this project: build it yourself and give its path. Only
`--other-kind ftxi` (ftxi/5dchess_engine's `5dtools`, built with -DTOOLS=on, Release) is known.
"""
import argparse
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = Path(os.environ.get("FIVED_PUZZLES") or ROOT.parent / "shared" / "puzzles")

# (family, puzzle id, k or None for the final position, operation, slow). Expected answers are in
# ../shared/puzzles/COUNTS.md; the slow cases are left out with --quick.
CASES = [
    # No legal action: `fived actions`/`count` must take < 20 ms.
    ("no-action", "cwmtt-manyChecks", 52, "count", False),
    ("no-action", "cwmtt-manyChecks", 52, "list", False),
    ("no-action", "cwmtt-manyChecks", 52, "verdict", False),
    ("no-action", "cwmtt-NP0", None, "count", False),
    ("no-action", "cwmtt-NP0", None, "verdict", False),
    ("no-action", "cwmtt-wide", None, "count", False),
    ("no-action", "cwmtt-wide", None, "verdict", False),
    ("no-action", "cwmtt-100-timelines", None, "count", False),
    ("no-action", "cwmtt-100-timelines", None, "verdict", False),
    ("no-action", "cwmtt-futures", None, "count", False),
    ("no-action", "cwmtt-silly", None, "count", False),
    ("no-action", "cwmtt-standard", None, "count", False),
    ("no-action", "cwmtt-ctp1", None, "count", False),
    ("no-action", "cwmtt-ctp1", None, "verdict", False),
    # Sparse wide: >= 1M actions/s.
    ("sparse", "cwmtt-ctp1", 12, "count", False),
    ("sparse", "cwmtt-NP", 56, "count", False),
    ("sparse", "cwmtt-NP0", 81, "count", False),
    # The first N actions (N = --list): >= 5x faster than ftxi on NP k=71.
    ("first-N", "cwmtt-NP", 71, "list", False),
    ("first-N", "cwmtt-NP0", 71, "list", False),
    # Heavy counts.
    ("heavy", "cwmtt-another", None, "count", False),
    ("heavy", "cwmtt-exiledKings", None, "count", False),
    ("heavy", "ftxi-count-55332", None, "count", False),
    ("heavy", "ftxi-count-30134", None, "count", False),
    ("heavy", "cwmtt-futures", 15, "count", False),
    ("heavy", "cwmtt-silly", 12, "count", False),
    ("heavy", "cwmtt-futures", 17, "count", True),  # neither engine is known to finish
]

FTXI_MAX = 2147483647  # 5dtools count/all stop at MAX (default 10000); INT_MAX = no bound


def loadavg():
    try:
        return "load average %.2f %.2f %.2f" % os.getloadavg()
    except OSError:
        return "load average unavailable"


def run_timed(cmd, stdin_path, timeout):
    """Runs cmd (stdin from stdin_path or /dev/null, stdout to a temporary file). Returns
    (cpu seconds or None on timeout, exit status, stdout text, stderr text)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            open(stdin_path or os.devnull, "rb") as inp:
        p = subprocess.Popen(cmd, stdin=inp, stdout=out, stderr=err, start_new_session=True)
        expired = threading.Event()

        def kill():
            expired.set()
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            _, status, ru = os.wait4(p.pid, 0)
        finally:
            timer.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        text, etext = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    if expired.is_set():
        return None, p.returncode, text, etext
    return ru.ru_utime + ru.ru_stime, p.returncode, text, etext


# --- The k-action prefix of a game, for an engine that reads the final position only ----------

MOVENUM = re.compile(r"^\d+[wb]?\.$")


def prefix_game(canonical, k):
    """The game text `canonical` (fived fmt --style full: headers, then a main line of numbered
    turns `N. white-action / black-action`) cut after its first k actions."""
    head, moves = [], []
    for line in canonical.splitlines():
        (moves if moves or MOVENUM.match(line.split(" ", 1)[0]) else head).append(line)
    text = re.sub(r"\{[^}]*\}", " ", "\n".join(moves))
    out, actions, cur = [], 0, []

    def close():
        nonlocal actions, cur
        if any(not MOVENUM.match(t) and t != "/" for t in cur):
            actions += 1
        out.extend(cur)
        cur = []

    for tok in text.split():
        if tok.startswith("(") and not re.match(r"^\(-?\d+T-?\d+\)", tok):
            raise ValueError("variations are not supported")
        if MOVENUM.match(tok) or tok == "/":
            close()
            if actions >= k:
                break
        cur.append(tok)
    else:
        close()
    if actions < k:
        raise ValueError("the main line has only %d actions" % actions)
    while out and (out[-1] == "/" or MOVENUM.match(out[-1])):
        out.pop()
    return "\n".join(head).rstrip() + "\n\n" + " ".join(out) + "\n"


# --- Engines -----------------------------------------------------------------------------------

def fived_cmd(fived, path, k, op, n):
    at = ["--at", str(k)] if k is not None else []
    if op == "count":
        return [fived, "count", str(path), "--lenient", *at]
    if op == "list":
        return [fived, "actions", str(path), "--lenient", "--max", str(n), *at]
    return [fived, "status", str(path), "--lenient", "--json", *at]


def fived_answer(op, text):
    if op == "count":
        return int(text.strip().splitlines()[-1])
    if op == "list":
        return sum(1 for line in text.splitlines() if line.strip())
    m = re.search(r'"verdict":"(\w+)"', text)
    return m.group(1) if m else None


def ftxi_cmd(other, op, n, policy):
    if op == "count":
        return [other, "count", policy, str(FTXI_MAX)]
    if op == "list":
        return [other, "all", policy, str(n)]
    return [other, "checkmate", policy]


def ftxi_answer(op, text):
    if op in ("count", "list"):
        m = re.search(r"Summary: totally (\d+) options", text)
        if not m:
            return None
        if op == "list":  # the listed lines must be as many as the summary says
            lines = sum(1 for line in text.splitlines()
                        if line.strip() and not line.startswith("Summary:"))
            if lines != int(m.group(1)):
                return None
        return int(m.group(1))
    if "Not checkmate" in text:
        return "ongoing"
    for word in ("Checkmate", "Stalemate"):
        if word in text:
            return word.lower()
    return None


def measure(cmd, stdin_path, answer, repeat, timeout):
    """Best CPU seconds of `repeat` runs (None: timeout), the answer, and an error text."""
    best, ans = None, None
    for _ in range(repeat):
        secs, code, text, etext = run_timed(cmd, stdin_path, timeout)
        if secs is None:
            return None, None, ""
        if code != 0:
            return None, None, "exit %d: %s" % (code, (etext or text).strip()[:200])
        try:
            a = answer(text)
        except (ValueError, IndexError):
            a = None
        if a is None:
            return None, None, "unreadable output: %s" % (text.strip()[-200:] or etext[:200])
        ans = a
        best = secs if best is None else min(best, secs)
    return best, ans, ""


def fmt_secs(s, err, timeout):
    if err:
        return "error"
    return "timeout" if s is None else "%.3f" % s


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fived", default=str(ROOT / "build/ci/cli/fived"))
    ap.add_argument("--other", help="the other engine's program (e.g. ftxi's 5dtools)")
    ap.add_argument("--other-kind", default="ftxi", choices=["ftxi"],
                    help="which command lines the other engine takes")
    ap.add_argument("--other-policy", default="balanced",
                    help="ftxi search policy (balanced, naive, stable, iterative, mixed)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per engine and case (min taken)")
    ap.add_argument("--timeout", type=float, default=120, help="wall seconds per run")
    ap.add_argument("--list", type=int, default=100000, help="N of the first-N listing cases")
    ap.add_argument("--only", default="", help="cases whose game id contains this")
    ap.add_argument("--family", default="",
                    help="cases of this family only (no-action, sparse, first-N, heavy)")
    ap.add_argument("--quick", action="store_true", help="leave out the cases marked slow")
    ap.add_argument("--puzzles", default=str(PUZZLES))
    args = ap.parse_args()

    puzzles = Path(args.puzzles)
    if not os.access(args.fived, os.X_OK):
        print("compare_engines: no fived at %s (build it, or give --fived)" % args.fived,
              file=sys.stderr)
        return 2
    if not puzzles.is_dir():
        print("compare_engines: no %s (set FIVED_PUZZLES or --puzzles)" % puzzles,
              file=sys.stderr)
        return 2
    other = args.other if args.other and os.access(args.other, os.X_OK) else None

    print("start: " + loadavg())
    print("fived: %s" % args.fived)
    if other:
        print("other: %s (%s, policy %s)" % (other, args.other_kind, args.other_policy))
    else:
        print("other: %s -- comparison skipped, fived's figures only"
              % ("not given" if not args.other else "%s is not executable" % args.other))
    print("CPU seconds of the whole process, min of %d runs, timeout %g s; ratio = other/fived"
          % (args.repeat, args.timeout))
    print("%-9s %-28s %-7s %11s %11s %9s %9s %9s %12s" %
          ("family", "position", "op", "fived", "other", "fived s", "other s", "ratio",
           "fived act/s"))

    cases = [c for c in CASES if args.only in c[1] and not (args.quick and c[4])
             and (not args.family or c[0] == args.family)]
    ratios, lower, upper, bad = [], [], [], []
    tmp = tempfile.TemporaryDirectory()
    for family, game, k, op, _slow in cases:
        path = puzzles / (game + ".5dpgn")
        name = "%s %s" % (game.replace("cwmtt-", ""), "final" if k is None else "k=%d" % k)
        if not path.is_file():
            print("%-9s %-28s %-7s  (absent)" % (family, name, op))
            continue
        fs, fa, ferr = measure(fived_cmd(args.fived, path, k, op, args.list), None,
                               lambda t: fived_answer(op, t), args.repeat, args.timeout)
        os_, oa, oerr = None, None, ""
        if other:
            stdin_path = Path(tmp.name) / ("%s-%s.5dpgn" % (game, k))
            if not stdin_path.exists():
                fmt = subprocess.run([args.fived, "fmt", str(path), "--lenient", "--style", "full"],
                                     capture_output=True, text=True)
                try:
                    text = fmt.stdout if k is None else prefix_game(fmt.stdout, k)
                except ValueError as e:
                    text, oerr = "", "cannot cut the game: %s" % e
                stdin_path.write_text(text)
            if not oerr:
                os_, oa, oerr = measure(ftxi_cmd(other, op, args.list, args.other_policy),
                                        stdin_path, lambda t: ftxi_answer(op, t), args.repeat,
                                        args.timeout)
        ratio = "-"
        if other and not ferr and not oerr:
            if fs is not None and os_ is not None:
                r = os_ / max(fs, 1e-3)
                ratios.append((r, name + " " + op))
                ratio = "%.2f" % r
            elif fs is not None:
                r = args.timeout / max(fs, 1e-3)
                lower.append((r, name + " " + op))
                ratio = ">%.1f" % r
            elif os_ is not None:  # the other engine finished where fived did not
                r = os_ / args.timeout
                upper.append((r, name + " " + op))
                ratio = "<%.2f" % r
        rate = "-"
        if op != "verdict" and fs and fa:
            rate = "%.0f" % (fa / fs)
        fcol = "-" if fa is None else str(fa)
        ocol = "-" if not other else ("-" if oa is None else str(oa))
        mark = ""
        if fa is not None and oa is not None and fa != oa:
            mark = "  DISAGREE"
            bad.append("%s %s: fived %s, other %s" % (name, op, fa, oa))
        for who, err in (("fived", ferr), ("other", oerr)):
            if err:
                bad.append("%s %s: %s error: %s" % (name, op, who, err))
        print("%-9s %-28s %-7s %11s %11s %9s %9s %9s %12s%s" %
              (family, name, op, fcol, ocol, fmt_secs(fs, ferr, args.timeout),
               fmt_secs(os_, oerr, args.timeout) if other else "-", ratio, rate, mark),
              flush=True)
        for who, err in (("fived", ferr), ("other", oerr)):
            if err:
                print("    %s error: %s" % (who, err), flush=True)
    tmp.cleanup()

    if other:
        if ratios:
            gm = math.exp(sum(math.log(max(r, 1e-9)) for r, _ in ratios) / len(ratios))
            worst = min(ratios)
            line = ("summary: geometric mean ratio %.2f over %d cases both finished; worst %.2f "
                    "(%s)" % (gm, len(ratios), worst[0], worst[1]))
        else:
            line = "summary: no case both engines finished"
        if lower:
            line += "; %d more where only fived finished (ratio > %.1f)" % (
                len(lower), min(lower)[0])
        print(line)
        if upper:
            print("ONLY THE OTHER ENGINE FINISHED (%d): %s" % (
                len(upper), "; ".join("%s (ratio < %.2f)" % (n, r) for r, n in upper)))
    else:
        print("summary: comparison skipped (no other engine)")
    if bad:
        print("PROBLEMS (%d):" % len(bad))
        for b in bad:
            print("  " + b)
    print("end: " + loadavg())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
