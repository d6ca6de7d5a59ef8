#!/usr/bin/env python3
"""Times `fived solve` on every puzzle of ../shared/puzzles that claims a mate length, and on
heavier searches derived from the shared games.

Usage: scripts/solve_times.py [--fived build/release/cli/fived] [--threads 1,2] [--repeat 3]
                              [--no-heavy]

For each file with a [Puzzle "mate-in-N"] header, runs `fived solve FILE --json --quiet
--threads T` (the Puzzle header bounds the search) and prints the result, the mate length, the
nodes and the best time of --repeat runs per thread count (the solver's own time_ms, without
process start), then the speed-up of the last thread count over the first. Files are read
leniently (third-party spelling).

The puzzles are small (all take milliseconds), so the speed-up is also measured on HEAVY: the
slowest searches of the set (brawn-tactics-2 one move deeper than its claim) and positions a
few actions before the end of real games (`--at`), which are wide multiverses.
"""
import argparse
import json
import pathlib
import re
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
PUZZLES = ROOT.parent / "shared" / "puzzles"


# (file, --at, --mate): the heavier workloads of the speed-up measurement.
HEAVY = [
    ("brawn-tactics-2", None, 5),
    ("slavrick-aquababyvsandrey-6-14-2021", -3, 2),
    ("ftxi-branched-example-game", -3, 2),
    ("tools-bitboard-unicorn-timecheck", -3, 2),
    ("cwmtt-chessin5d-illegal-move-example", -1, 1),
    ("cwmtt-ctp1", -1, 1),
    ("js-check-not-mate-1", -1, 1),
]


def run(fived, path, threads, extra=()):
    cmd = [fived, "solve", str(path), "--json", "--quiet", "--lenient", "--threads", str(threads),
           *extra]
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    wall = time.perf_counter() - t0
    # Exit status (README "Exit status"): 0 mate, 1 no mate, 3 unknown (a limit) all print the
    # JSON result; 2 (bad input) and 4 (internal error) do not.
    if out.returncode not in (0, 1, 3):
        return None, wall, out.stderr.strip()
    return json.loads(out.stdout), wall, ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fived", default=str(ROOT / "build/release/cli/fived"))
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-heavy", dest="heavy", action="store_false",
                    help="only the puzzles, not the heavier derived searches")
    args = ap.parse_args()
    threads = [int(t) for t in args.threads.split(",")]
    if not PUZZLES.is_dir():
        print(f"{PUZZLES} is absent", file=sys.stderr)
        return 2
    print(f"{'puzzle':44} {'claim':>6} {'result':>8} {'mate':>4} {'nodes':>9} "
          + " ".join(f"{str(t) + ' thr s':>9}" for t in threads) + "  speed-up")
    jobs = []
    for path in sorted(PUZZLES.glob("*.5dpgn")):
        m = re.search(r'\[Puzzle "mate-in-(\d+)"\]', path.read_text(errors="replace"))
        if m:
            jobs.append((path.stem, path, m.group(1), ()))
    if args.heavy:
        for stem, at, mate in HEAVY:
            extra = ("--mate", str(mate)) + (("--at", str(at)) if at is not None else ())
            name = f"{stem} at {at if at is not None else 'end'}"
            jobs.append((name, PUZZLES / f"{stem}.5dpgn", f"<={mate}", extra))
    for name, path, claim, extra in jobs:
        best, res = {}, None
        for t in threads:
            for _ in range(args.repeat):
                r, wall, err = run(args.fived, path, t, extra)
                if r is None:
                    print(f"{name}: error {err}", file=sys.stderr)
                    break
                res = r
                best[t] = min(best.get(t, 1e9), r.get("time_ms", wall * 1000) / 1000)
        if res is None:
            continue
        speed = best[threads[0]] / best[threads[-1]] if best.get(threads[-1]) else 0
        print(f"{name[:44]:44} {claim:>6} {res['result']:>8} {str(res.get('mate_in')):>4} "
              f"{res.get('nodes', 0):>9} " + " ".join(f"{best.get(t, 0):9.3f}" for t in threads)
              + f"  {speed:5.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
