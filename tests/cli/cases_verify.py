"""verify: under a limit, on games and deep trees within a memory cap, stopped by a signal (cases
of cli_test.py).
"""
import json
import os
import signal
import subprocess

from cli_common import (NEGATIVE, UNKNOWN, STANDARD, GB, run, check, write, puzzle, shared_puzzle,
                        knights_game, nested_variations)

FIVED = DATA = None  # set by run_cases() (cli_common.py)


def verify_unknown():
    """Item 8: verify cut off by a limit prints only what was decided."""
    rc, tree, _ = run(["solve", os.path.join(DATA, "rook-tactics-2.5dpgn"), "--quiet"])
    t = write("rt2-tree.5dpgn", tree)
    # --nodes bounds the proof check and the analysis each: 50 is enough for the check of this
    # tree, not for the analysis.
    rc, out, _ = run(["verify", t, "--nodes", "50", "--tries"])
    check(rc == UNKNOWN and "verdict:  unknown (node limit of 50 reached)" in out,
          f"verify under a limit: {rc} {out!r}")
    for line in ("cooks:", "shortest:", "duals:", "tries:"):
        check(line not in out, f"verify under a limit prints `{line}`: {out!r}")
    check("proof:    complete" in out, f"verify under a limit lost the decided proof: {out!r}")
    rc, out, _ = run(["verify", t, "--nodes", "50", "--tries", "--json"])
    j = json.loads(out)
    for field in ("cooks", "cooks_capped", "shortest", "duals", "tries", "claim_holds"):
        check(field not in j, f"verify --json under a limit has `{field}`: {j}")
    check(j.get("verdict", "").startswith("unknown") and "limit" in j and j.get("complete"),
          f"verify --json: {j}")
    # A limit that stops the proof check itself (issue 55): the proof is unknown, not
    # incomplete, and nothing is analysed.
    for opt in (["--nodes", "10"], ["--max-actions", "1"]):
        rc, out, _ = run(["verify", t] + opt)
        check(rc == UNKNOWN and out.count("unknown (") == 2 and "INCOMPLETE" not in out
              and "cooks:" not in out, f"verify {opt}: {rc} {out!r}")
        rc, out, _ = run(["verify", t, "--json"] + opt)
        j = json.loads(out)
        check(rc == UNKNOWN and j.get("complete", False) is None and "limit" in j
              and j.get("exit_code") == UNKNOWN, f"verify --json {opt}: {rc} {j}")


def verify_bounded():
    """Issue 55, items 1 and 4: verify reads a game, a deep game and deep variations within a
    memory cap, without recursion over the tree: a game is no solution tree (exit 1, said so),
    never a crash or a runaway."""
    game = write("deep-game.5dpgn", knights_game(2000))
    rc, out, err = run(["verify", game], memory=2 * GB, timeout=300)
    check(rc == NEGATIVE and "verdict:  not a solution tree" in out
          and "the tree is a single line of 4000 action(s)" in out
          and "proof:    INCOMPLETE" in out and out.count("  problem: ") == 20,
          f"verify of a 2000-turn game: exit {rc}: {out[-600:]!r} {err[-300:]!r}")
    rc, out, err = run(["verify", game, "--json"], memory=2 * GB, timeout=300)
    j = json.loads(out) if out.startswith("{") else {}
    check(rc == NEGATIVE and j.get("verdict") == "not a solution tree"
          and j.get("complete") is False and j.get("exit_code") == NEGATIVE
          and "limit" not in j and "cooks" not in j,
          f"verify --json of a 2000-turn game: exit {rc}: {out[-300:]!r} {err[-300:]!r}")
    # A Puzzle header marks the last 3 actions as the solution: a tree (a mate in 2 that is
    # not one), checked and analysed as such.
    rc, out, err = run(["verify", write("deep-claim.5dpgn",
                                        knights_game(2000, '[Puzzle "mate-in-2"]\n'))],
                       memory=2 * GB, timeout=300)
    check(rc == NEGATIVE and "verdict:  incomplete proof" in out and "not a solution tree"
          not in out, f"verify of a game with a claim: exit {rc}: {out[-600:]!r} {err[-300:]!r}")
    rc, out, err = run(["verify", write("deep-variations.5dpgn", nested_variations(2000))],
                       memory=2 * GB, timeout=300)
    check(rc == NEGATIVE and "verdict:  incomplete proof" in out,
          f"verify of 2000 nested variations: exit {rc}: {out[-600:]!r} {err[-300:]!r}")


def verify_not_a_tree(path, opts):
    rc, out, err = run(["verify", path] + opts, memory=2 * GB, timeout=300)
    check(rc == NEGATIVE and "verdict:  not a solution tree" in out,
          f"verify {path} {opts}: exit {rc}: {out[-400:]!r} {err[-300:]!r}")


def verify_game_file():
    """Issue 55, item 1: verify of a real game file (a wide position on its main line) under a
    memory cap: not a solution tree."""
    verify_not_a_tree(puzzle("tools-standard-checkmate"), ["--max-actions", "1000", "--time", "10"])


def shared_verify_game_file():
    """verify_game_file on cwmtt-NP (GPL-3.0, ../shared)."""
    verify_not_a_tree(shared_puzzle("cwmtt-NP"), [])


def verify_signal():
    """Issue 55: a signal stops verify's analysis (here a search for mates in up to 6 from the
    standard start, minutes of work) once `--progress` says it runs: the verdict the proof check
    decided (incomplete: exit 1), the analysis marked interrupted."""
    line = "1. e3 / e6\n2. Qf3 / Nc6\n3. Bc4 / Nb4\n4. Nh3 / a6\n5. Ng5 / a5\n6. Qxf7#\n"
    tree = write("long-analysis.5dpgn", STANDARD + '[Puzzle "mate-in-6"]\n[Prelude "0"]\n' + line)
    p = subprocess.Popen([FIVED, "verify", tree, "--progress", "--json"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    seen = []
    while not seen or not seen[-1].startswith(("verify: analysis", "info ")) and seen[-1]:
        seen.append(p.stderr.readline())
    p.send_signal(signal.SIGINT)
    try:
        out, _ = p.communicate(timeout=60)  # a hang guard
    except subprocess.TimeoutExpired:
        p.kill()
        out, _ = p.communicate()
        check(False, "verify still running 60 s after SIGINT")
    j = json.loads(out) if out.startswith("{") else {}
    check(seen[:2] == ["verify: proof check of 12 nodes\n", "verify: analysis, mates in at most 6\n"],
          f"verify --progress lines: {seen}")
    check(p.returncode == NEGATIVE and j.get("limit") == "interrupted"
          and j.get("verdict") == "incomplete proof" and j.get("exit_code") == NEGATIVE,
          f"verify after SIGINT: exit {p.returncode} {out[-300:]!r}")
