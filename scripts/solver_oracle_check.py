#!/usr/bin/env python3
"""Replays the solution trees of `fived solve` in the independent engine of ../shared/oracle.

For every puzzle of the set, `fived solve --json` gives the tree; every line from the puzzle
position to a leaf is written as a linear 5DPGN game (the puzzle file's headers and 5DFEN, the
file's main line as prelude, then the line) and handed to the oracle:
  * `check-line` must find no illegal action;
  * `state --exact` must say the side to move at the end is checkmated.

With --suite FILE (the --json-out of scripts/real_positions.py), the cases are the suite's rows
that proved a mate: each is solved again with its --at and --mate, its tree must also pass
`fived verify` (a complete proof), and its lines are replayed as above.

Usage: scripts/solver_oracle_check.py [--fived PATH] [--oracle DIR] [--threads T]
                                      [--timeout MS] [--verify-time S] [--max-lines N]
                                      [--suite FILE | PUZZLE.5dpgn ...]
The oracle's exact checkmate search is exhaustive and times out on wide final positions, the
games' own final positions among them. A line it leaves undecided whose final position is the
source game's own final position (the same `fived hash`) is confirmed by the source's verdict
instead: each game of the suite is in ../shared/puzzles because its source (penteract's
z3-based detector, adri326's and other engines; the file's [Kind] and [Reliability] headers)
says its final position is checkmate, or that the side to move has no legal action there while
in check.

Exit status 0 when every line of every tree replays and ends in checkmate (by the oracle, or by
the source's verdict on the game's own final position); 1 when a line is illegal or does not
end in checkmate (or fived fails); 3 when the oracle's exact search timed out on some other
final position (--timeout) and nothing failed.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.path.join(os.path.dirname(ROOT), "shared")

# (file, --mate bound) of the mate claims in ../shared/puzzles (INDEX.md mate groups).
PUZZLES = [
    ("rook-tactics-1-5x5", 1),
    ("std-qe2-qh5-mate-in-1", 1),
    ("narik-temporal-knight-mate", 1),
    ("timeline-tactitian-issue-1", 1),
    ("advanced-branching-2", 1),
    ("brawn-tactics-1", 1),
    ("standard-mate-1-custom8x8", 3),
    ("rook-tactics-6x6-two-rooks", 2),
    ("rook-tactics-5x5-pawn-timeline", 2),
    ("narik-knight-underpromotion", 1),
]


def header_lines(path):
    """Headers and 5DFEN boards: the leading lines that start with '['."""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            s = line.strip()
            if not s:
                continue
            if s.startswith("["):
                out.append(s)
            else:
                break
    return out


def lines_of(tree):
    """Every root-to-leaf list of actions of the JSON tree."""
    stack = [(tree, [])]
    while stack:
        node, path = stack.pop()
        kids = node.get("children", [])
        if not kids:
            yield path
        for k in reversed(kids):
            stack.append((k, path + [k["action"]]))


def movetext(actions, white_first):
    parts = []
    for i, a in enumerate(actions):
        j = i + (0 if white_first else 1)
        if j % 2 == 0:
            parts.append(f"{j // 2 + 1}. {a}")
        else:
            parts.append(f"/ {a}" if i > 0 else f"{j // 2 + 1}b. {a}")
    return " ".join(parts)


# The [Kind] of the suite's games: their final position is checkmate (real_positions.py).
# (ftxi-branched-example-game's is a human annotation, not an engine's verdict: not counted.)
FINAL_MATE_KINDS = ("checkmate verdict", "no-legal-action verdict", "mate verdict")


def final_position_hash(fived, text):
    """`fived hash` of a 5DPGN text's final position (None if fived cannot read it)."""
    p = subprocess.run([fived, "hash", "-", "--lenient"], input=text, capture_output=True,
                       text=True)
    return p.stdout.strip() if p.returncode == 0 and p.stdout.strip() else None


def source_says_mate(heads):
    """Do a file's headers (header_lines()) say, by its [Kind], that its final position is
    checkmate?"""
    kind = next((h for h in heads if h.lower().startswith("[kind ")), "")
    return any(k in kind.lower() for k in FINAL_MATE_KINDS)


def oracle(oracle_js, args, text):
    p = subprocess.run(["node", oracle_js] + args, input=text, capture_output=True, text=True,
                       timeout=None)  # the oracle keeps its own --timeout
    try:
        return p.returncode, json.loads(p.stdout)
    except json.JSONDecodeError:
        return p.returncode, {"raw": p.stdout + p.stderr}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fived", default=os.environ.get(
        "FIVED", os.path.join(ROOT, "build", "release", "cli", "fived")))
    ap.add_argument("--oracle", default=os.path.join(SHARED, "oracle"))
    ap.add_argument("--threads", default="1")
    ap.add_argument("--suite", help="the rows of a real_positions.py --json-out file")
    ap.add_argument("--timeout", default="60000", help="the oracle's time limit per question, ms")
    ap.add_argument("--max-lines", type=int, default=0,
                    help="replay at most this many lines of a tree, evenly spaced (0 = all)")
    ap.add_argument("--verify-time", type=float, default=60,
                    help="--time of fived verify (its analysis beyond the proof), s")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    oracle_js = os.path.join(a.oracle, "oracle.js")
    # An oracle that cannot run is not a failed replay: say so once and stop.
    probe = subprocess.run(["node", oracle_js, "selftest"], capture_output=True, text=True,
                           timeout=600)
    if probe.returncode != 0:
        print(f"the oracle at {a.oracle} does not run (install it with {a.oracle}/install.sh):\n"
              + (probe.stdout + probe.stderr).strip()[-400:], file=sys.stderr)
        return 2
    # (file, --mate bound, --at or None)
    todo = [(f, None, None) for f in a.files] or [
        (os.path.join(SHARED, "puzzles", p + ".5dpgn"), n, None) for p, n in PUZZLES]
    if a.suite:
        with open(a.suite) as f:
            tables = json.load(f)
        todo = [(os.path.join(SHARED, "puzzles", r["game"] + ".5dpgn"), r["mate"], r["at"])
                for rows in tables.values() for r in rows if r.get("result") == "mate"]
    failures = undecided_total = by_source_total = 0
    for path, bound, at in todo:
        cmd = [a.fived, "solve", path, "--lenient", "--json", "--quiet", "--threads", a.threads]
        if bound:
            cmd += ["--mate", str(bound)]
        if at is not None:
            cmd += ["--at", str(at)]
        p = subprocess.run(cmd, capture_output=True, text=True)
        name = os.path.basename(path) + ("" if at is None else f" --at {at}")
        if at is not None and p.returncode == 0:
            # The same search as text: its tree must pass fived verify as a complete proof.
            text = subprocess.run([c for c in cmd if c != "--json"], capture_output=True,
                                  text=True).stdout
            # Only the proof's completeness is asked; the composer's analysis (keys, cooks)
            # searches the whole root again and is bounded by --verify-time.
            v = subprocess.run([a.fived, "verify", "-", "--lenient", "--json", "--time",
                                str(a.verify_time)], input=text, capture_output=True, text=True)
            try:
                complete = json.loads(v.stdout).get("complete") is True
            except json.JSONDecodeError:
                complete = False
            if not complete:
                print(f"{name}: fived verify does not find a complete proof: "
                      f"{(v.stdout + v.stderr).strip()[-300:]}")
                failures += 1
        # Exit status (README "Exit status"): 0 mate, 1 no mate, 3 unknown print the JSON
        # result; 2 (bad input) and 4 (internal error) are failures.
        if p.returncode not in (0, 1, 3):
            print(f"{name}: fived exited with {p.returncode}: {p.stderr.strip()[-400:]}")
            failures += 1
            continue
        res = json.loads(p.stdout)
        if res["result"] != "mate" or "tree" not in res:
            print(f"{name}: {res['result']} (no tree to replay)")
            continue
        heads = header_lines(path)
        promos = [] if any(h.lower().startswith("[promotions ") for h in heads) else [
            "--promotions", "Q"]
        n_lines = bad = undecided = by_source = 0
        # The game's own final position, when its source says it is checkmate.
        game_final = None
        if at is not None and source_says_mate(heads):
            with open(path, encoding="utf-8") as f:
                game_final = final_position_hash(a.fived, f.read())
        lines = list(lines_of(res["tree"]))
        total = len(lines)
        if a.max_lines and total > a.max_lines:
            # An evenly spaced sample, the first and the last line included (fived verify has
            # checked the whole tree above).
            step = (total - 1) / (a.max_lines - 1) if a.max_lines > 1 else total
            lines = [lines[round(k * step)] for k in range(a.max_lines)]
        for line in lines:
            n_lines += 1
            game = "\n".join(heads) + "\n\n" + movetext(
                res["prelude"] + line, res["start_side"] == "white") + "\n"
            limit = ["--timeout", a.timeout]
            rc, chk = oracle(oracle_js, ["check-line"] + promos + limit, game)
            rc2, st = oracle(oracle_js, ["state", "--exact", "--no-mate"] + promos + limit, game)
            legal = rc == 0 and chk.get("firstIllegal") is None
            exact = st.get("exact", {})
            mate = exact.get("checkmate") is True
            # The oracle's exhaustive search has a time limit (--timeout): on a wide final
            # position it may end without an answer, which is neither a pass nor a failure.
            open_ = legal and exact.get("checkmate") is None and exact.get("timedOut") is True
            if open_ and game_final and final_position_hash(a.fived, game) == game_final:
                by_source += 1
                print(f"  {name}: line {' | '.join(line)}: legal, the oracle's exact search "
                      f"timed out ({exact.get('ms')} ms); it ends in the game's own final "
                      f"position, checkmate by the source's verdict")
            elif open_:
                undecided += 1
                print(f"  {name}: line {' | '.join(line)}: legal, the oracle's exact search "
                      f"timed out ({exact.get('ms')} ms, {exact.get('nodes')} nodes)")
            elif not (legal and mate):
                bad += 1
                print(f"  {name}: line {' | '.join(line)}: "
                      f"{'legal' if legal else 'ILLEGAL ' + json.dumps(chk.get('firstIllegal', chk))}, "
                      f"{'checkmate' if mate else 'NOT checkmate'}")
        failures += bad
        undecided_total += undecided
        by_source_total += by_source
        sampled = f" (a sample of {n_lines} of its {total})" if n_lines < total else ""
        source = f" ({by_source} by the source's verdict)" if by_source else ""
        print(f"{name}: mate in {res['mate_in']}, {n_lines} line(s){sampled}, "
              + (str(bad) + " FAILED" if bad else
                 f"{undecided} undecided by the oracle, the others replay and end in "
                 f"checkmate{source}" if undecided else
                 f"all replay and end in checkmate{source}"))
    if by_source_total:
        print(f"{by_source_total} line(s) confirmed by the source's verdict on the game's own "
              f"final position (the oracle's exact search timed out there)")
    if undecided_total:
        print(f"{undecided_total} line(s) undecided by the oracle (its time limit)")
    return 1 if failures else 3 if undecided_total else 0


if __name__ == "__main__":
    sys.exit(main())
