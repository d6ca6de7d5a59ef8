#!/usr/bin/env python3
"""End-to-end checks of the `fived` command line: read errors, errors that must not pass as
results, the exit-status table, claims, wrong claimed lengths, verify under a limit, limits and
signals (README.md, "Commands" and "Exit status").

Usage: cli_test.py FIVED DATA_DIR CASE   (CASE: one of the functions named in CASES)
Exit 0 = pass, 1 = fail (the reasons are printed), 77 = skipped.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile

FIVED = DATA = TMP = None
failures = []

# The exit statuses (README.md, "Exit status").
OK, NEGATIVE, BAD_INPUT, UNKNOWN, INTERNAL = 0, 1, 2, 3, 4

CORNER_ROOK = "[Board \"custom\"]\n[Size \"5x5\"]\n{puzzle}[k4/5/1K3/5/4R:0:1:w]\n"
STANDARD = "[Board \"Standard\"]\n"


def run(args, stdin=None, stdout=subprocess.PIPE, timeout=120, memory=None):
    """memory: an address-space cap in bytes (RLIMIT_AS), for the cases about memory."""
    def cap():
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    p = subprocess.run([FIVED] + args, input=stdin, stdout=stdout, stderr=subprocess.PIPE,
                       text=True, timeout=timeout, preexec_fn=cap if memory else None)
    return p.returncode, p.stdout or "", p.stderr


GB = 1 << 30


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def corner_rook(puzzle_header):
    return CORNER_ROOK.format(puzzle=f'[Puzzle "{puzzle_header}"]\n' if puzzle_header else "")


# Every command that reads a file, with the arguments it needs around FILE.
FILE_COMMANDS = [["status"], ["moves"], ["actions"], ["count"], ["perft", None, "1"],
                 ["solve", None, "--quiet"], ["verify"], ["fmt"], ["fen"], ["hash"], ["html"],
                 ["check-notation"]]


def with_file(cmd, path):
    args = list(cmd)
    if None in args:
        args[args.index(None)] = path
    else:
        args.append(path)
    return args


def read_errors():
    """Item 1: a directory, a missing file, an empty file are FILE: cause, exit 2, no output."""
    empty = write("empty.5dpgn", "")
    blank = write("blank.5dpgn", " \n\t\n")
    comment = write("comment.5dpgn", "{only a comment}\n")
    missing = os.path.join(TMP, "missing.5dpgn")
    for cmd in FILE_COMMANDS:
        for path, cause in [(TMP, "Is a directory"), (missing, "No such file"),
                            (empty, "empty file"), (blank, "empty file"),
                            (comment, "only comments")]:
            rc, out, err = run(with_file(cmd, path))
            check(rc == BAD_INPUT, f"{cmd[0]} {path}: exit {rc}, expected {BAD_INPUT}")
            check(err.startswith(path + ": ") and cause in err,
                  f"{cmd[0]} {path}: stderr {err!r} lacks `{path}: ...{cause}`")
            check(out == "", f"{cmd[0]} {path}: printed {out!r} as a result")
    # A file without read permission (root reads it anyway).
    if os.geteuid() != 0:
        locked = write("locked.5dpgn", STANDARD)
        os.chmod(locked, 0)
        rc, out, err = run(["status", locked])
        check(rc == BAD_INPUT and err.startswith(locked + ": Permission denied"),
              f"status of an unreadable file: exit {rc}, stderr {err!r}")
    # Standard input: empty is refused too; the explicit opening is a game.
    rc, out, err = run(["status", "-"], stdin="")
    check(rc == BAD_INPUT and err.startswith("<stdin>: empty file"), f"status - (empty): {rc} {err!r}")
    rc, out, err = run(["status", "-"], stdin=STANDARD)
    check(rc == OK and "to move:   white" in out, f"status of [Board \"Standard\"]: {rc} {out!r}")


def errors_not_results():
    """Item 4: a table that cannot be allocated and a failed write are errors, not results."""
    with open("/proc/sys/vm/overcommit_memory") as f:
        if f.read().strip() == "1":
            print("overcommit_memory = 1: any allocation succeeds; the --hash part is skipped")
        else:
            p = write("cr.5dpgn", corner_rook("mate-in-1"))
            for args in (["solve", p, "--quiet"], ["solve", p, "--quiet", "--json"], ["verify", p]):
                rc, out, err = run(args + ["--hash", "1048576"])
                check(rc == BAD_INPUT, f"{args} --hash 1048576: exit {rc}")
                check("cannot allocate" in err, f"{args} --hash 1048576: stderr {err!r}")
                check(out == "", f"{args} --hash 1048576: printed {out!r}")
            rc, out, err = run(["bench", "--hash", "1048576"])
            check(rc == BAD_INPUT and "cannot allocate" in err and "Signature" not in out + err,
                  f"bench --hash 1048576: exit {rc}, stderr {err[-300:]!r}")
    if not os.path.exists("/dev/full"):
        print("no /dev/full: the write-error part is skipped")
        return
    rt2 = os.path.join(DATA, "rook-tactics-2.5dpgn")
    for cmd in FILE_COMMANDS[:-1] + [["solve", None, "--quiet", "--json"], ["status", None, "--json"]]:
        with open("/dev/full", "w") as full:
            rc, _, err = run(with_file(cmd, rt2), stdout=full)
        check(rc == BAD_INPUT and "cannot write the output" in err,
              f"{cmd[0]} > /dev/full: exit {rc}, stderr {err!r}")
    # bench reports on stdout, and writes Google Benchmark JSON to a file when asked.
    for args in (["bench"], ["bench", "--json"]):
        with open("/dev/full", "w") as full:
            p = subprocess.run([FIVED] + args, stdout=full, stderr=subprocess.PIPE, timeout=120)
        check(p.returncode != OK, f"{args} > /dev/full: exit {p.returncode}")
    p = subprocess.run([FIVED, "bench", "--benchmark-out", "/dev/full"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=120, text=True)
    check(p.returncode == BAD_INPUT and "cannot write" in p.stderr,
          f"bench --benchmark-out /dev/full: exit {p.returncode}, {p.stderr!r}")


def solve_json(args):
    rc, out, err = run(["solve", "--quiet", "--json"] + args)
    j = json.loads(out) if out.strip() else {}
    check(j.get("exit_code") == rc, f"solve {args}: JSON exit_code {j.get('exit_code')} != {rc}")
    return rc, j, err


def exit_codes():
    """Item 5: one table for every command; --json carries the same status."""
    cr = os.path.join(DATA, "corner-rook.5dpgn")
    rt2 = os.path.join(DATA, "rook-tactics-2.5dpgn")
    rc, out, _ = run(["solve", cr, "--quiet"])
    check(rc == OK and "#" in out, f"solve, mate: exit {rc}")
    rc, j, _ = solve_json([cr])
    check(rc == OK and j.get("result") == "mate", f"solve --json, mate: exit {rc} {j}")
    rc, out, _ = run(["solve", rt2, "--quiet", "--mate", "2", "--at", "-2"])
    check(rc == NEGATIVE and out.startswith("no mate in 2"), f"solve, no mate: exit {rc} {out!r}")
    rc, j, _ = solve_json([rt2, "--mate", "2", "--at", "-2"])
    check(rc == NEGATIVE and j.get("result") == "no-mate", f"solve --json, no mate: exit {rc}")
    rc, out, _ = run(["solve", rt2, "--quiet", "--nodes", "3"])
    check(rc == UNKNOWN and out.startswith("unknown (node limit"), f"solve, limit: exit {rc} {out!r}")
    rc, j, _ = solve_json([rt2, "--nodes", "3"])
    check(rc == UNKNOWN and j.get("result") == "unknown", f"solve --json, limit: exit {rc}")
    rc, _, _ = run(["solve", rt2, "--mate", "0"])
    check(rc == BAD_INPUT, f"solve --mate 0: exit {rc}")
    # verify: sound 0, cooked 1, incomplete 1, unknown 3.
    tree = os.path.join(TMP, "cr-tree.5dpgn")
    with open(tree, "w") as f:
        subprocess.run([FIVED, "solve", cr, "--quiet"], stdout=f, check=True)
    rc, out, _ = run(["verify", tree])
    check(rc == OK and "verdict:  sound" in out, f"verify, sound: exit {rc}")
    rc, out, _ = run(["verify", tree, "--json"])
    check(rc == OK and json.loads(out).get("exit_code") == OK, f"verify --json, sound: {rc} {out}")
    cooked = os.path.join(TMP, "rt2-tree.5dpgn")
    with open(cooked, "w") as f:
        subprocess.run([FIVED, "solve", rt2, "--quiet", "--all-keys"], stdout=f, check=True)
    rc, out, _ = run(["verify", cooked])
    check(rc == NEGATIVE and "verdict:  cooked" in out, f"verify, cooked: exit {rc} {out!r}")
    rc, out, _ = run(["verify", os.path.join(DATA, "rook-tactics-2-incomplete.5dpgn"), "--json"])
    check(rc == NEGATIVE and json.loads(out).get("exit_code") == NEGATIVE,
          f"verify --json, incomplete: exit {rc}")
    rc, out, _ = run(["verify", tree, "--max-actions", "1", "--json"])
    check(rc == UNKNOWN and json.loads(out).get("exit_code") == UNKNOWN,
          f"verify --json, limit: exit {rc} {out!r}")
    # status and the other queries: 0; bad usage: 2.
    rc, out, _ = run(["status", cr, "--json"])
    check(rc == OK and json.loads(out).get("exit_code") == OK, f"status --json: {rc} {out!r}")
    rc, _, _ = run(["status"])
    check(rc == BAD_INPUT, f"status without FILE: exit {rc}")


def claims():
    """Item 6: the spellings people write are read; other stipulations are refused."""
    for spelling, n in [("Mate-In-1", 1), ("mate in 1", 1), ("#1", 1), ("# 1", 1),
                        ("MATE IN ONE", 1), ("White to mate in 1", 1), ("mate-in-1 moves", 1),
                        ("mate in 2", 2), ("#2", 2), ("mate-in-N", 3)]:
        p = write("claim.5dpgn", corner_rook(spelling))
        rc, j, err = solve_json([p])
        check(rc == OK and j.get("max_mate") == n and j.get("mate_in") == 1,
              f"[Puzzle \"{spelling}\"]: exit {rc}, max_mate {j.get('max_mate')}, expected {n}; {err}")
    for spelling, kind in [("helpmate-in-2", "helpmate"), ("h#2", "helpmate"),
                           ("selfmate in 2", "selfmate"), ("s#2", "selfmate"),
                           ("reflexmate-in-2", "reflexmate"), ("ser-#3", "series"),
                           ("stalemate in 2", "stalemate"), ("Rook Tactics I", "not a stipulation"),
                           ("mate in 0", "not a stipulation"), ("Black to mate in 1", "Black mates")]:
        p = write("claim.5dpgn", corner_rook(spelling))
        for cmd in (["solve", p, "--quiet"], ["verify", p]):
            rc, out, err = run(cmd)
            check(rc == BAD_INPUT and kind in err and out == "",
                  f"{cmd[0]} [Puzzle \"{spelling}\"]: exit {rc}, stderr {err!r}, stdout {out!r}")


def wrong_claim():
    """Item 7: a wrong claimed length is reported by solve and verify."""
    p = write("claim3.5dpgn", corner_rook("mate-in-3"))
    rc, out, err = run(["solve", p, "--quiet"])
    check(rc == OK and "claim: mate in 3; shortest: mate in 1" in err,
          f"solve, claim 3, mate in 1: stderr {err!r}")
    check("{claim: mate in 3; shortest: mate in 1}" in out,
          f"solve, claim 3, mate in 1: the tree does not say so: {out!r}")
    rc, j, _ = solve_json([p])
    check(j.get("claim") == 3 and j.get("claim_holds") is False and j.get("mate_in") == 1,
          f"solve --json, claim 3: {j}")
    rc, j, _ = solve_json([os.path.join(DATA, "corner-rook.5dpgn")])
    check(j.get("claim") == 1 and j.get("claim_holds") is True, f"solve --json, claim 1: {j}")
    # verify: a mate-in-2 tree (rook-tactics-2) claimed as mate in 1, and as mate in 3.
    rc, tree, _ = run(["solve", os.path.join(DATA, "rook-tactics-2.5dpgn"), "--quiet"])
    check(rc == OK and '[Puzzle "mate-in-2"]' in tree, f"solve rook-tactics-2: {rc}")
    for claimed in (1, 3):
        t = write(f"claim{claimed}-tree.5dpgn",
                  tree.replace('[Puzzle "mate-in-2"]', f'[Puzzle "mate-in-{claimed}"]'))
        note = f"claim: mate in {claimed}; shortest: mate in 2"
        rc, out, _ = run(["verify", t])
        check(rc == NEGATIVE and note in out and "verdict:  wrong claim" in out,
              f"verify, claim {claimed}, tree of 2: exit {rc} {out!r}")
        rc, out, _ = run(["verify", t, "--json"])
        j = json.loads(out)
        check(j.get("claim") == claimed and j.get("claim_holds") is False
              and j.get("shortest") == 2 and j.get("verdict") == "wrong claim",
              f"verify --json, claim {claimed}: {j}")


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
    for field in ("cooks", "shortest", "duals", "tries", "claim_holds"):
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


def knights_game(turns, header=""):
    """A plain game of `turns` turns: knights going back and forth."""
    moves = [f"{t}. " + ("Nf3 / Nf6" if t % 2 else "Ng1 / Ng8") for t in range(1, turns + 1)]
    return STANDARD + header + "\n".join(moves) + "\n"


def nested_variations(depth):
    """`depth` nested variations, each one ply deeper: (1w. Nf3 (1b. Nf6 (... ) 1b. Na6) 1w. Na3."""
    cycle = ["Ng1f3", "Ng8f6", "Nf3g1", "Nf6g8"]
    opened, closed = [], []
    for k in range(depth):
        t, side = k // 2 + 1, "wb"[k % 2]
        opened.append(f"({t}{side}. (0T{t}){cycle[k % 4]}\n")
        closed.append(f") {t}{side}. (0T{t}){'Nb1a3' if side == 'w' else 'Nb8a6'}\n")
    return STANDARD + "".join(opened) + "".join(reversed(closed))


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


def many_lines(lines, turns):
    """`lines` variations from the start (a different first pawn move each), each a game of
    `turns` turns (the knights going back and forth after the first move)."""
    firsts = [f + r for f in "abcdegh" for r in "34"][:lines]  # f3 would block Nf3
    out = []
    for i, first in enumerate(firsts):
        body = [f"1. {first} / Nf6"] + [f"{t}. " + ("Nf3 / Ng8" if t % 2 == 0 else "Ng1 / Nf6")
                                        for t in range(2, turns + 1)]
        text = "\n".join(body)
        out.append(text if i == len(firsts) - 1 else "(" + text + ")\n")
    return STANDARD + "".join(out) + "\n"


def memory_caps():
    """Issue 55: every command under an address-space cap (`ulimit -v`, 512 MB) on the longest
    game the engine takes (8000 turns, its turn limit is 8191), 14 such lines as variations and
    5000 nested variations: the documented exit status, never a crash or a runaway
    (scripts/resources.py measures the same commands' peak RSS and time)."""
    cap = 512 << 20
    long_game = write("long.5dpgn", knights_game(8000))
    wide = write("wide.5dpgn", many_lines(14, 8000))
    deep = write("deep5000.5dpgn", nested_variations(5000))
    svg = os.path.join(TMP, "capped.svg")
    folder = os.path.join(TMP, "capped")
    os.makedirs(folder)
    for p in (long_game, deep):
        os.link(p, os.path.join(folder, os.path.basename(p)))
    records = os.path.join(TMP, "capped.jsonl")
    runs = []
    for path in (long_game, wide, deep):
        for cmd, want in ((["status"], OK), (["moves"], OK), (["actions"], OK), (["count"], OK),
                          (["perft", None, "1"], OK), (["fen"], OK), (["hash"], OK),
                          (["fmt"], OK), (["check-notation"], OK),
                          (["solve", None, "--mate", "1", "--quiet"], NEGATIVE),
                          (["verify"], NEGATIVE), (["svg", None, "-o", svg], OK)):
            runs.append((with_file(cmd, path), want))
    runs += [(["batch", folder, "--mate", "1", "--jobs", "2", "-o", records], OK),
             (["batch-merge", records], OK), (["bench", "--hash", "1"], OK)]
    for args, want in runs:
        rc, out, err = run(args, memory=cap, timeout=300)
        check(rc == want, f"{' '.join(os.path.basename(a) for a in args)} under 512 MB: "
                          f"exit {rc}, want {want}: {err[-300:]!r}")
    recs = [json.loads(l) for l in open(records)]
    check(len(recs) == 2 and all(r["exit_code"] == NEGATIVE for r in recs),
          f"batch records under 512 MB: {recs}")


def puzzle(name):
    """A puzzle file copied into the repository (tests/data/puzzles, tests/data/NOTICE.md)."""
    return os.path.join(DATA, "..", "..", "data", "puzzles", name + ".5dpgn")


def shared_puzzle(name):
    """A GPL/AGPL puzzle file left in ../shared (tests/data/shared-files.txt). Only the cases
    named shared_* read one (ctest label `shared`); a missing file fails the case."""
    path = os.path.join(DATA, "..", "..", "..", "..", "shared", "puzzles", name + ".5dpgn")
    check(os.path.exists(path), f"{path} is missing (the case needs ../shared)")
    return path


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


def many_headers():
    """Issue 55, item 8: fmt and verify are linear in the number of headers (300,000 took
    minutes: each was compared with every one kept before). The timeout is a hang guard."""
    n = 300000
    text = STANDARD + "".join(f'[Key{i} "value {i}"]\n' for i in range(n)) + "1. Nf3 / Nf6\n"
    path = write("many-headers.5dpgn", text)
    rc, out, err = run(["fmt", path], timeout=100)
    check(rc == OK and out.count("\n[Key") == n and f'[Key{n - 1} "value {n - 1}"]' in out,
          f"fmt of {n} headers: exit {rc}, {out.count(chr(10))} lines, {err[-200:]!r}")
    rc, out, err = run(["verify", path], timeout=100)
    check(rc == NEGATIVE and "verdict:  not a solution tree" in out,
          f"verify of {n} headers: exit {rc}: {out[-300:]!r} {err[-200:]!r}")


def shared_actions_streams():
    """Issue 55, item 8: `actions` streams: its memory does not grow with the actions printed
    (a position of 39.6 million actions grew by 75 bytes an action, 1.6 GB in 30 s). 2,000,000
    actions under a 100 MB address-space cap, on cwmtt-test1 (GPL-3.0, ../shared)."""
    game = shared_puzzle("cwmtt-test1")
    n = 2000000
    rc, out, err = run(["actions", game, "--at", "18", "--max", str(n)], memory=100 << 20,
                       timeout=300)
    check(rc == OK and out.count("\n") == n and len(set(out.splitlines())) == n,
          f"actions --max {n} under 100 MB: exit {rc}, {out.count(chr(10))} lines, "
          f"{err[-200:]!r}")


def implicit_defences():
    """Item 2: a defence left out of a tree is answered only when a grouping comment declares it."""
    import re
    rc, tree, _ = run(["solve", os.path.join(DATA, "rook-tactics-2.5dpgn"), "--quiet",
                       "--group", "1"])
    group = re.compile(r"\{(\d+) defences share this answer:[^}]*\}")
    groups = group.findall(tree)
    check(rc == OK and groups, f"solve --group 1 writes no grouping comment: {tree!r}")
    hidden = sum(int(k) - 1 for k in groups)
    # As written: complete; the grouped defences are counted.
    rc, out, _ = run(["verify", write("grouped.5dpgn", tree), "--json"])
    j = json.loads(out)
    check(j.get("complete") is True and j.get("answered_by_group") == hidden,
          f"verify of the grouped tree: {j}")
    # The comments removed: each left-out defence is named and the proof is incomplete.
    rc, out, _ = run(["verify", write("ungrouped.5dpgn", group.sub("", tree))])
    missing = [l for l in out.splitlines()
               if l.startswith("  problem: defence ") and "neither written nor declared" in l]
    check(rc == NEGATIVE and "proof:    INCOMPLETE" in out and len(missing) == hidden
          and "verdict:  incomplete proof" in out,
          f"verify without the grouping comments: exit {rc}, {hidden} hidden: {out!r}")
    # A count alone declares them too.
    counted = group.sub(lambda m: "{" + m.group(1) + " defences share this answer}", tree)
    rc, out, _ = run(["verify", write("counted.5dpgn", counted), "--json"])
    j = json.loads(out)
    check(j.get("complete") is True and j.get("answered_by_group") == hidden,
          f"verify of the counted tree: {j}")
    # A list naming something that is no legal defence: a problem, and nothing is covered.
    bad = group.sub(lambda m: "{" + m.group(1) + " defences share this answer: (0T1)Ka1a2}",
                    tree)
    rc, out, _ = run(["verify", write("badgroup.5dpgn", bad)])
    check(rc == NEGATIVE and "proof:    INCOMPLETE" in out
          and "names '(0T1)Ka1a2', which is not a legal defence here" in out,
          f"verify of a group naming no defence: exit {rc}: {out!r}")


def limits():
    """Item 9: limits are validated; --time counts the table; a signal ends a solve."""
    cr = os.path.join(DATA, "corner-rook.5dpgn")
    for cmd in (["solve", cr], ["verify", cr]):
        for opt in (["--time", "0"], ["--time", "-1"], ["--time", "nan"], ["--time", "inf"],
                    ["--time", "x"], ["--hash", "0"], ["--hash", "-1"]):
            rc, out, err = run(cmd + opt)
            check(rc == BAD_INPUT and out == "", f"{cmd[0]} {opt}: exit {rc}, stdout {out!r}")
    for opt in (["--nodes", "0"], ["--nodes", "-5"], ["--max-actions", "-1"], ["--group", "-1"]):
        rc, out, _ = run(["solve", cr] + opt)
        check(rc == BAD_INPUT and out == "", f"solve {opt}: exit {rc}, stdout {out!r}")
    std = write("standard.5dpgn", STANDARD)
    for n in (0, 1, 3):
        rc, out, _ = run(["actions", std, "--max", str(n)])
        check(rc == OK and out.count("\n") == n, f"actions --max {n}: exit {rc}, {out!r}")
    for opt in (["--hash", "0"], ["--hash", "-2"]):
        rc, out, err = run(["bench"] + opt)
        check(rc == BAD_INPUT and "Signature" not in out + err, f"bench {opt}: exit {rc}")
    # A limit inside a bound says how far that bound got: the standard start has 20 keys and no
    # mate in 2; 400 nodes (one thread) refute 13 of them.
    rc, out, _ = run(["solve", std, "--quiet", "--mate", "2", "--nodes", "400"])
    check(rc == UNKNOWN and "; mate in 2: 13 of 20 keys refuted; 401 nodes)" in out,
          f"solve --nodes 400: {rc} {out!r}")
    rc, j, _ = solve_json([std, "--mate", "2", "--nodes", "400"])
    check(j.get("stopped_at") == {"mate_in": 2, "keys_refuted": 13, "keys": 20},
          f"solve --json --nodes 400: {j.get('stopped_at')}")
    # A limit while the tree is built, after the mate and its key are proven (the last node of
    # a solve is the tree's): the key is named, the result stays unknown.
    rt2 = os.path.join(DATA, "rook-tactics-2.5dpgn")
    rc, j, _ = solve_json([rt2])
    last = str(j.get("nodes", 0) - 1)
    rc, out, _ = run(["solve", rt2, "--quiet", "--nodes", last])
    check(rc == UNKNOWN and out.startswith(f"unknown (node limit of {last} reached; mate in 2 "
                                           "proven with key (0T2)Rb1f1, tree not finished; "),
          f"solve --nodes {last}, tree unfinished: {rc} {out!r}")
    rc, j, _ = solve_json([rt2, "--nodes", last])
    check(j.get("result") == "unknown" and j.get("mate_proven") == 2
          and j.get("keys") == ["(0T2)Rb1f1"], f"solve --json --nodes {last}: {j}")
    # The time limit includes the table: 4 GB used to cost seconds of page faults first (16 s
    # here). A hang guard, not a speed test: the subprocess timeout, far above 0.3 s.
    rc, out, _ = run(["solve", std, "--quiet", "--mate", "6", "--hash", "4096", "--time", "0.3"],
                     timeout=60)
    check(rc == UNKNOWN and out.startswith("unknown (time limit"), f"solve --time 0.3: {rc} {out!r}")
    # SIGTERM / SIGINT once the search runs (its first progress line): the result so far, text
    # and JSON. No sleep: the signal goes when stderr says the search has started.
    for sig, extra in ((signal.SIGTERM, []), (signal.SIGINT, ["--json"])):
        p = subprocess.Popen([FIVED, "solve", std, "--mate", "6"] + extra,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        first = p.stderr.readline()
        p.send_signal(sig)
        try:
            out, err = p.communicate(timeout=60)  # a hang guard
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
            check(False, f"{sig.name}: still running 60 s after the signal")
        check(first.startswith(("depth ", "info ")), f"{sig.name}: first stderr line {first!r}")
        check(p.returncode == UNKNOWN, f"{sig.name}: exit {p.returncode}")
        if extra:
            j = json.loads(out) if out.strip() else {}
            check(j.get("result") == "unknown" and j.get("limit") == "interrupted"
                  and j.get("nodes", 0) > 0 and "no_mate_up_to" in j
                  and j.get("exit_code") == UNKNOWN, f"{sig.name} --json: {out!r}")
        else:
            check(out.startswith("unknown (interrupted; no mate in ") and " nodes)" in out,
                  f"{sig.name}: stdout {out!r}")


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


def wide_time_limit():
    """A time limit ends a search of a wide node (streamed, most of its actions filtered out by
    a pass) at once: a hang guard, not a timing claim."""
    game = puzzle("slavrick-aquababyvswritenwrong-6-13-2021")
    # (--at -3 --mate 2 was used until the search decided it within 3 s.) The subprocess
    # timeout is the hang guard (it used to take 90 s to stop).
    rc, out, _ = run(["solve", game, "--at", "-5", "--mate", "3", "--time", "3", "--json",
                      "--quiet"], timeout=60)
    j = json.loads(out) if out.startswith("{") else {}
    check(rc == UNKNOWN and j.get("limit", "").startswith("time limit"),
          f"wide solve --time 3: exit {rc}, {out[:200]!r}")


def shared_wide_node_limit():
    """A node limit bounds a streamed pass too (each action it meets is a node): cwmtt-NP
    (GPL-3.0, ../shared) with --nodes 3000 ran for minutes. (The whole proof, no mate in 3, now
    takes 2,726 nodes; 1000 stops it in its mate-in-2 pass.)"""
    np = shared_puzzle("cwmtt-NP")
    rc, out, _ = run(["solve", np, "--lenient", "--nodes", "1000", "--json", "--quiet"],
                     timeout=60)
    check(rc == UNKNOWN and "node limit of 1000" in out,
          f"wide solve --nodes 1000: exit {rc}: {out[:150]!r}")


def perft_divide():
    """perft --divide and --threads (issue 12): the counts per first action add up to perft's,
    sorted by action, the same for any thread count and in JSON."""
    two = write("two.5dpgn", '[Board "Standard - Two Timelines"]\n')
    rc, out, _ = run(["perft", two, "2"])
    check(rc == OK and out.strip().isdigit(), f"perft 2: exit {rc}, {out!r}")
    total = int(out) if out.strip().isdigit() else -1
    rc, div, _ = run(["perft", two, "2", "--divide"])
    lines = div.splitlines()
    rows = [l.rsplit(": ", 1) for l in lines[:-1]]
    check(rc == OK and lines and lines[-1] == f"total: {total}"
          and len(rows) == 484 and sum(int(n) for _, n in rows) == total
          and [a for a, _ in rows] == sorted(a for a, _ in rows),
          f"perft 2 --divide: exit {rc}, {len(rows)} rows, last {lines[-1:]!r}")
    for threads in ("1", "2"):
        rc, out2, _ = run(["perft", two, "2", "--divide", "--threads", threads])
        check(rc == OK and out2 == div, f"perft --divide --threads {threads} differs")
    rc, out, _ = run(["perft", two, "2", "--threads", "2"])
    check(rc == OK and out.strip() == str(total), f"perft --threads 2: {out!r}")
    rc, out, _ = run(["perft", two, "2", "--divide", "--json"])
    j = json.loads(out) if out.startswith("{") else {}
    check(j.get("total") == total and j.get("depth") == 2 and len(j.get("divide", [])) == 484
          and sum(d["count"] for d in j.get("divide", [])) == total and j.get("exit_code") == 0,
          f"perft --divide --json: {out[:200]!r}")
    p = subprocess.run([FIVED, "perft", two, "2", "--threads", "2", "--progress"],
                       capture_output=True, text=True, timeout=120)
    check(p.returncode == OK and p.stdout.strip() == str(total)
          and "perft: 484 of 484 first actions" in p.stderr,
          f"perft --progress: {p.stderr[-80:]!r}")
    rc, _, _ = run(["perft", two, "2", "--threads", "0"])
    check(rc == BAD_INPUT, f"perft --threads 0: exit {rc}")


def count_engines():
    """count --engine (issue 13): each exact engine alone counts what the policy counts, at every
    position of a game with timelines, in text and JSON; an unknown engine is bad input."""
    games = [os.path.join(DATA, "rook-tactics-2-incomplete.5dpgn"),
             os.path.join(DATA, "..", "..", "notation", "data", "tree.5dpgn"),
             write("two.5dpgn", '[Board "Standard - Two Timelines"]\n')]
    for game in games:
        rc, auto, _ = run(["count", game, "--each"])
        check(rc == OK and auto.split() and all(n.isdigit() for n in auto.split()),
              f"count --each {game}: exit {rc}, {auto!r}")
        for engine in ("auto", "depth-first", "hypercuboid"):
            rc, out, _ = run(["count", game, "--each", "--engine", engine])
            check(rc == OK and out == auto, f"count --each --engine {engine} {game}: {out!r}")
        rc, out, _ = run(["count", game, "--engine", "hypercuboid", "--json"])
        j = json.loads(out) if out.startswith("{") else {}
        check(rc == OK and str(j.get("count")) == auto.split()[-1],
              f"count --engine hypercuboid --json {game}: {out!r}")
    rc, out, _ = run(["count", games[2]])
    check(rc == OK and out.strip() == "484", f"count of the two-timeline start: {out!r}")
    rc, _, err = run(["count", games[2], "--engine", "bogus"])
    check(rc == BAD_INPUT and "bogus" in err, f"count --engine bogus: exit {rc}, {err!r}")


def bench_report():
    """bench prints its report on stdout, as JSON with --json, and writes Google Benchmark JSON
    with --benchmark-out (issue 12); the signature is the same in all three."""
    rc, out, err = run(["bench"])
    sig = [l.split(":", 1)[1].strip() for l in out.splitlines() if l.startswith("Signature")]
    check(rc == OK and len(sig) == 1 and "Signature" not in err,
          f"bench: exit {rc}, signature on stdout {sig}, stderr {err[:100]!r}")
    rc, out, _ = run(["bench", "--json"])
    j = json.loads(out) if out.startswith("{") else {}
    check(rc == OK and sig and j.get("signature") == sig[0] and j.get("puzzles")
          and sum(p["nodes"] for p in j["puzzles"]) == j.get("nodes") and j.get("exit_code") == 0,
          f"bench --json: {out[:200]!r}")
    path = os.path.join(TMP, "gbench.json")
    rc, _, _ = run(["bench", "--benchmark-out", path])
    with open(path) as f:
        g = json.load(f)
    names = [b.get("name") for b in g.get("benchmarks", [])]
    fields = ("name", "run_type", "iterations", "real_time", "cpu_time", "time_unit")
    check(rc == OK and "context" in g and "fived_bench/total" in names
          and all(all(k in b for k in fields) for b in g["benchmarks"])
          and g["context"].get("signature") == (sig[0] if sig else None),
          f"bench --benchmark-out: {str(g)[:200]!r}")


def at_everywhere():
    """--at K on every command that works on one position (issue 12): the same position as a
    file cut after K actions, and an out-of-range K refused (exit 2) by each."""
    rt2 = os.path.join(DATA, "rook-tactics-2.5dpgn")
    with open(rt2) as f:
        text = f.read()
    # rook-tactics-2: two actions in its main line (1. Re2 / Kf4); the cut file has none.
    cut = write("rt2-start.5dpgn", text.split("1. ")[0])
    for cmd in (["status", "--json"], ["moves"], ["actions"], ["count"], ["perft", "2"], ["fen"],
                ["hash"]):
        rc1, at0, _ = run([cmd[0], rt2, "--at", "0"] + cmd[1:])
        rc2, ref, _ = run([cmd[0], cut] + cmd[1:])
        check(rc1 == OK and rc2 == OK and at0 == ref and at0,
              f"{cmd[0]} --at 0 differs from the cut file: {at0[:80]!r} vs {ref[:80]!r}")
        rc3, last, _ = run([cmd[0], rt2, "--at", "2"] + cmd[1:])
        rc4, full, _ = run([cmd[0], rt2] + cmd[1:])
        check(rc3 == OK and last == full, f"{cmd[0]} --at 2 is not the final position")
        rc5, back, _ = run([cmd[0], rt2, "--at", "-2"] + cmd[1:])
        check(rc5 == OK and back == at0, f"{cmd[0]} --at -2 is not the start")
        for k in ("3", "-3"):
            rc, out, err = run([cmd[0], rt2, "--at", k] + cmd[1:])
            check(rc == BAD_INPUT and out == "" and f"--at {k}: the main line has 2 actions" in err,
                  f"{cmd[0]} --at {k}: exit {rc}, {err!r}")


def schema_validator(data, report):
    """The JSON Schema of fived's outputs (docs/fived.schema.json, found from DATA_DIR `data`),
    checked itself, and `valid(obj, name, what)`, which reports (report(False, ...)) an object
    that is not a valid `$defs/name`. Exits 77 when python3-jsonschema is missing
    (scripts/install-deps.sh installs it; scripts/test.sh fails on a skipped test)."""
    try:
        import jsonschema
    except ImportError:
        print("skipped: python3-jsonschema is not installed (scripts/install-deps.sh installs it)")
        sys.exit(77)
    with open(os.path.join(data, "..", "..", "..", "docs", "fived.schema.json")) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)

    def valid(obj, name, what):
        sub = dict(schema)
        sub["$ref"] = "#/$defs/" + name
        try:
            jsonschema.Draft202012Validator(sub).validate(obj)
        except jsonschema.ValidationError as e:
            report(False, f"{what}: not a valid `{name}`: {e.message}")
    return schema, valid


def json_schema():
    """Every command's --json output validates against docs/fived.schema.json (issue 12)."""
    schema, valid = schema_validator(DATA, check)
    import jsonschema  # present: schema_validator() exits otherwise

    rt2 = os.path.join(DATA, "rook-tactics-2.5dpgn")
    cr = os.path.join(DATA, "corner-rook.5dpgn")
    tree = write("rt2-tree.5dpgn", run(["solve", rt2, "--quiet"])[1])
    cases = [
        ("status", ["status", rt2, "--json"]), ("moves", ["moves", rt2, "--json"]),
        ("count", ["count", rt2, "--json"]), ("count", ["count", rt2, "--each", "--json"]),
        ("perft", ["perft", rt2, "2", "--json"]), ("perft", ["perft", rt2, "2", "--divide", "--json"]),
        ("fen", ["fen", rt2, "--json"]), ("hash", ["hash", rt2, "--json"]),
        ("check_notation", ["check-notation", rt2, cr, "--json"]),
        ("solve", ["solve", rt2, "--quiet", "--json"]),
        ("solve", ["solve", rt2, "--quiet", "--json", "--mate", "1"]),
        ("solve", ["solve", rt2, "--quiet", "--json", "--nodes", "1"]),
        ("solve", ["solve", write("std-schema.5dpgn", STANDARD), "--quiet", "--json", "--mate", "2",
                   "--nodes", "400"]),  # stopped_at
        ("verify", ["verify", tree, "--json", "--tries"]),
        ("verify", ["verify", tree, "--json", "--nodes", "10"]),  # proof undecided: complete null
        ("verify", ["verify", write("game-schema.5dpgn", knights_game(3)), "--json"]),
        ("bench", ["bench", "--json"]),
    ]
    for name, args in cases:
        rc, out, _ = run(args)
        try:
            obj = json.loads(out)
        except json.JSONDecodeError:
            check(False, f"{args}: not one JSON object: {out[:100]!r}")
            continue
        valid(obj, name, " ".join(args[:1] + args[2:]))
        check(obj.get("exit_code") == rc, f"{args}: exit_code {obj.get('exit_code')} vs exit {rc}")
    # actions: JSON lines, one per action, then the count.
    rc, out, _ = run(["actions", rt2, "--json"])
    lines = [json.loads(l) for l in out.splitlines()]
    for l in lines[:-1]:
        valid(l, "action_line", "actions --json line")
    valid(lines[-1], "actions", "actions --json last line")
    check(lines[-1].get("count") == len(lines) - 1 and lines[-1].get("complete") is True,
          f"actions --json: {lines[-1]}")
    rc, out, _ = run(["actions", rt2, "--json", "--max", "3"])
    last = json.loads(out.splitlines()[-1])
    check(last.get("count") == 3 and last.get("complete") is False, f"actions --max 3: {last}")
    # batch: one record a line.
    records = os.path.join(TMP, "records.jsonl")
    run(["batch", DATA, "--jobs", "2", "-o", records])
    lines = open(records).read().splitlines()
    check(len(lines) == 3, f"batch over the test data: {len(lines)} records")
    for l in lines:
        valid(json.loads(l), "batch_record", "batch record")
    # The schema rejects what it should: a wrong type is caught.
    bad = json.loads(run(["status", rt2, "--json"])[1])
    bad["timelines"] = "one"
    try:
        sub = dict(schema)
        sub["$ref"] = "#/$defs/status"
        jsonschema.Draft202012Validator(sub).validate(bad)
        check(False, "the schema accepted a status with a string for timelines")
    except jsonschema.ValidationError:
        pass


def problemist():
    """solve --problemist (issue 12): the key marked `!` with its threat, the summary comment,
    duals and tries; verify reads it with the plain tree's verdict; fmt drops the symbols."""
    import re
    rt2 = os.path.join(DATA, "rook-tactics-2.5dpgn")
    rc, plain, _ = run(["solve", rt2, "--quiet"])
    rc2, marked, _ = run(["solve", rt2, "--quiet", "--problemist", "--tries"])
    check(rc == OK and rc2 == OK, f"solve exits {rc}, --problemist {rc2}")
    check("(0T2)Rb1f1! {checking key: no threat}" in marked, f"key and threat: {marked!r}")
    check("#2, white to play. Cooked: 2 keys" in marked and "2 tries" in marked
          and "try (0T2)Rb1b3? (0T2)Kf4f5!" in marked and "{dual}" in marked,
          f"summary, tries and duals: {marked!r}")
    results = []
    for name, text in (("plain.5dpgn", plain), ("marked.5dpgn", marked)):
        rc, out, _ = run(["verify", write(name, text)])
        results.append((rc, [l for l in out.splitlines() if l.startswith(("proof:", "verdict:"))]))
    check(results[0] == results[1], f"verify differs on the marked tree: {results}")
    rc, canon, _ = run(["fmt", write("marked2.5dpgn", marked)])
    moves_only = re.sub(r"\{[^}]*\}", "", canon)
    check(rc == OK and "!" not in moves_only and "?" not in moves_only,
          f"fmt keeps evaluation symbols: {canon!r}")
    # The other key is quiet: the defender's pass leaves White without a mate in 1 (zugzwang).
    rc, allk, _ = run(["solve", rt2, "--quiet", "--problemist", "--all-keys"])
    check(rc == OK and "(0T2)Rb1b5! {no threat (zugzwang)}" in allk,
          f"the quiet key's threat: {allk!r}")


def solve_keeps_head():
    """solve writes the input's headers and comments as fmt keeps them (issue 55, item 9): the
    tree after the solution replaces only the Puzzle and Prelude headers, and reads back."""
    with open(os.path.join(DATA, "rook-tactics-2.5dpgn")) as f:
        text = f.read()
    # A header of each kind fmt keeps, a comment before the first action and one after the
    # first action of the prelude, and a wrong claim that solve corrects.
    body = text.replace("[Board", '[Event "Keep me"]\n[Composer "A. N. Other"]\n'
                        '{Before the moves.}\n[Board', 1)
    body = body.replace('[Puzzle "mate-in-2"]', '[Puzzle "mate-in-3"]', 1)
    lines = body.split("\n")
    first = next(i for i, l in enumerate(lines) if l.startswith("1."))
    lines[first] = lines[first].replace(" / ", " {after the first action} / ", 1)
    src = write("head.5dpgn", "\n".join(lines))
    rc, kept, _ = run(["fmt", src])
    check(rc == OK and "{after the first action}" in kept, f"fmt of the input: exit {rc} {kept!r}")
    rc, out, err = run(["solve", src, "--quiet"])
    check(rc == OK, f"solve: exit {rc} {err!r}")
    for want in ('[Event "Keep me"]', '[Composer "A. N. Other"]', "Before the moves.",
                 "{after the first action}", '[Puzzle "mate-in-2"]',
                 "claim: mate in 3; shortest: mate in 2"):
        check(want in out, f"solve output lacks {want!r}: {out!r}")
    check('[Puzzle "mate-in-3"]' not in out, f"the old claim is kept: {out!r}")
    rc, canon, _ = run(["fmt", write("head-out.5dpgn", out)])
    check(rc == OK and canon == out, f"fmt of solve's tree differs: exit {rc}\n{canon}\n{out}")
    # The same verdict as the tree solved from the file without them (rook-tactics-2 is cooked).
    verdicts = []
    for name, tree in (("plain.5dpgn", run(["solve", os.path.join(DATA, "rook-tactics-2.5dpgn"),
                                                 "--quiet"])[1]), ("head-out2.5dpgn", out)):
        rc, vout, _ = run(["verify", write(name, tree)])
        verdicts.append((rc, [l for l in vout.splitlines() if l.startswith(("proof:", "verdict:"))]))
    check(verdicts[0] == verdicts[1] and verdicts[1][0] == NEGATIVE
          and "verdict:  cooked" in verdicts[1][1], f"verify of solve's tree: {verdicts}")


ISSUE55_CAPTURE = ('[Board "custom"]\n[Mode "5D"]\n[Size "6x6"]\n'
                   '[6/6/B1k3/1q4/6/1b1RK1:0:1:w]\n')
ISSUE55_Q251 = '[Board "custom"]\n[Size "8x8"]\n[Puzzle "#2"]\n[4Q3/3K4/8/5n2/B1kr4/b7/1R6/8:0:1:w]\n'


def read_back():
    """Every tree solve prints reads back and verifies (issue 55, items 2 and 7): an answer
    shared by several defences is written with the capture mark of its own line, and the
    problemist `dual` stays out of a defence group's list."""
    import re
    src = write("capture.5dpgn", ISSUE55_CAPTURE)
    for opts in ([], ["--group", "0"], ["--group", "2"], ["--problemist"], ["--problemist", "--tries"]):
        rc, tree, err = run(["solve", src, "--quiet"] + opts)
        check(rc == OK and tree.startswith("[Board"), f"solve {opts}: exit {rc} {err!r}")
        # After Kc4d3 the square c3 is empty: the answer is written without `x` (the old tree
        # copied `Rc1xc3` from the line after Qb3c3). Grouped, that defence is not written.
        if "--group" not in opts:
            check(re.search(r"\(0T1\)Kc4d3[^\n]*\n 2\. \(0T2\)Rc1c3# 1-0", tree),
                  f"solve {opts}: the answer to Kc4d3: {tree!r}")
        out = write("capture-tree.5dpgn", tree)
        for cmd in (["check-notation"], ["fmt"]):
            rc, _, err = run(cmd + [out])
            check(rc == OK, f"{cmd} on solve {opts}: exit {rc} {err!r}")
        rc, report, err = run(["verify", out])
        check(rc == NEGATIVE and "proof:    complete, mate in 2" in report
              and "verdict:  cooked" in report, f"verify on solve {opts}: exit {rc} {report!r} {err!r}")
    rc, out, err = run(["solve", src, "--quiet", "--json"])
    j = json.loads(out) if out.strip() else {}
    answers = {d["action"]: d["children"][0]["action"]
               for d in j.get("tree", {}).get("children", [{}])[0].get("children", [])}
    check(rc == OK and j.get("verified") is True and j.get("exit_code") == OK
          and answers.get("(0T1)Kc4d3") == "(0T2)Rc1c3"
          and answers.get("(0T1)Qb3c3") == "(0T2)Rc1xc3", f"solve --json: exit {rc} {answers} {err!r}")
    # q251: the duals of grouped defences. The marked tree verifies as the plain one does.
    src = write("q251.5dpgn", ISSUE55_Q251)
    results = []
    for opts in ([], ["--problemist"], ["--problemist", "--tries", "--group", "2"]):
        rc, tree, err = run(["solve", src, "--quiet"] + opts)
        check(rc == OK, f"q251 solve {opts}: exit {rc} {err!r}")
        if opts:
            check("{dual; 9 defences share this answer: (0T1)Ba3xb2;" in tree
                  and "; dual}" not in tree, f"q251 solve {opts}: {tree!r}")
        rc, report, _ = run(["verify", write("q251-tree.5dpgn", tree)])
        lines = [l for l in report.splitlines() if l.startswith(("proof:", "key:", "verdict:"))]
        check(rc == NEGATIVE and "proof:    complete" in report, f"q251 verify {opts}: {report!r}")
        results.append(lines)
    check(results[0] == results[1], f"q251: verify differs on the marked tree: {results}")


def batch():
    """fived batch / batch-merge (issue 12): errors as records, resume, shards (also from
    Slurm's variables) that cover every file once, merge equal to the unsharded run."""
    folder = os.path.join(TMP, "collection")
    os.makedirs(os.path.join(folder, "sub"))
    for name in ("corner-rook.5dpgn", "rook-tactics-2.5dpgn", "rook-tactics-2-incomplete.5dpgn"):
        with open(os.path.join(DATA, name)) as f, open(os.path.join(folder, name), "w") as g:
            g.write(f.read())
    with open(os.path.join(folder, "sub", "bad.5dpgn"), "w") as g:
        g.write("[Board \"Standard\"]\n1. Qz9 /\n")
    out = os.path.join(TMP, "all.jsonl")
    rc, _, err = run(["batch", folder, "--jobs", "2", "-o", out])
    recs = [json.loads(l) for l in open(out)]
    files = sorted(r["file"] for r in recs)
    check(rc == NEGATIVE and len(recs) == 4 and len(set(files)) == 4,
          f"batch: exit {rc}, {len(recs)} records: {err!r}")
    bad = [r for r in recs if r["file"].endswith("bad.5dpgn")]
    check(bad and bad[0]["exit_code"] == BAD_INPUT and "bad.5dpgn:2:" in bad[0].get("error", ""),
          f"the bad file's record: {bad}")
    good = [r for r in recs if r["file"].endswith("rook-tactics-2.5dpgn")]
    check(good and good[0].get("result") == "mate" and good[0].get("mate_in") == 2,
          f"rook-tactics-2's record: {good}")
    # Resume: nothing left to do.
    rc, _, err = run(["batch", folder, "--jobs", "2", "-o", out, "--resume"])
    check(sum(1 for _ in open(out)) == 4 and "0 of 4 inputs" in err, f"resume: {err!r}")
    # Shards, by option and by Slurm's variables, cover every file once.
    parts = []
    for i in (1, 2):
        part = os.path.join(TMP, f"shard{i}.jsonl")
        rc, _, _ = run(["batch", folder, "--shard", f"{i}/2", "-o", part])
        parts.append(part)
    env_part = os.path.join(TMP, "slurm2.jsonl")
    env = dict(os.environ, SLURM_ARRAY_TASK_ID="5", SLURM_ARRAY_TASK_MIN="4",
               SLURM_ARRAY_TASK_COUNT="2")
    subprocess.run([FIVED, "batch", folder, "-o", env_part], env=env, capture_output=True,
                   timeout=120)
    check(open(env_part).read().count("\n") == open(parts[1]).read().count("\n"),
          "the Slurm task 5 of 4..5 is not shard 2/2")
    shard_files = [json.loads(l)["file"] for p in parts for l in open(p)]
    check(sorted(shard_files) == files, f"shards cover {sorted(shard_files)} not {files}")
    merged, whole = os.path.join(TMP, "merged.jsonl"), os.path.join(TMP, "whole.jsonl")
    rc1, _, summary = run(["batch-merge"] + parts + ["-o", merged])
    rc2, _, _ = run(["batch-merge", out, "-o", whole])
    strip = lambda p: [{k: v for k, v in json.loads(l).items() if k not in ("time_ms", "hashfull")}
                       for l in open(p)]
    check(rc1 == OK and rc2 == OK and strip(merged) == strip(whole),
          "merged shards differ from the unsharded run")
    check("4 inputs" in summary and "errors" in summary and "slowest 1:" in summary,
          f"merge summary: {summary!r}")
    # --nodes reaches verify too (issue 55): one node cannot check a solution tree's proof.
    rc, tree, _ = run(["solve", os.path.join(DATA, "rook-tactics-2.5dpgn"), "--quiet"])
    one = write("rt2-solution.5dpgn", tree)
    rc, lines, err = run(["batch", one, "--verify", "--nodes", "1"])
    recs = [json.loads(l) for l in lines.splitlines()]
    check(rc == OK and len(recs) == 1 and recs[0]["exit_code"] == UNKNOWN
          and recs[0].get("limit") == "node limit of 1 reached",
          f"batch --verify --nodes 1: exit {rc}, {recs} {err!r}")
    rc, lines, err = run(["batch", one, "--verify"])
    recs = [json.loads(l) for l in lines.splitlines()]
    check(rc == OK and len(recs) == 1 and recs[0]["exit_code"] == NEGATIVE
          and recs[0].get("verdict") == "cooked" and recs[0].get("complete") is True,
          f"batch --verify: exit {rc}, {recs} {err!r}")


def batch_failures():
    """fived batch (issue 55, item 5): a crashed child is an error record (exit_code 4, its
    signal); a FIFO and an unlistable folder are error records and the run goes on; SIGTERM ends
    the children and batch exits 3 with whole records; SIGKILL ends them too; --resume repairs a
    last record cut short. The children are a stand-in (FIVED_BATCH_PROGRAM, test-only) that
    crashes on one file and runs fived on the others."""
    import select
    folder = os.path.join(TMP, "failing")
    os.makedirs(os.path.join(folder, "locked"))
    for name in ("corner-rook.5dpgn", "rook-tactics-2.5dpgn"):
        with open(os.path.join(DATA, name)) as f, open(os.path.join(folder, name), "w") as g:
            g.write(f.read())
    with open(os.path.join(folder, "locked", "hidden.5dpgn"), "w") as g:
        g.write(STANDARD)
    fifo = os.path.join(folder, "pipe.5dpgn")
    os.mkfifo(fifo)
    os.chmod(os.path.join(folder, "locked"), 0)
    # Root lists any folder: the run is then made as nobody, for whom the folder is locked.
    os.chmod(TMP, 0o755)
    outdir = os.path.join(TMP, "out")
    os.makedirs(outdir)
    os.chmod(outdir, 0o777)
    as_user = (lambda: (os.setgroups([]), os.setgid(65534), os.setuid(65534))) \
        if os.geteuid() == 0 else None
    stand_in = write("stand-in.sh", "#!/bin/sh\n"
                     "case \"$2\" in *corner-rook*) kill -SEGV $$;; esac\n"
                     "case \"$2\" in *rook-tactics*) [ -n \"$READY\" ] && "
                     "{ exec 3>\"$READY\"; echo $$ >&3; exec sleep 600; };; esac\n"
                     f"exec '{FIVED}' \"$@\"\n")
    os.chmod(stand_in, 0o755)

    def start(args, ready=None):
        env = dict(os.environ, FIVED_BATCH_PROGRAM=stand_in)
        if ready:
            env["READY"] = ready
        return subprocess.Popen([FIVED, "batch"] + args, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, preexec_fn=as_user)

    out = os.path.join(outdir, "crash.jsonl")
    p = start([folder, "--jobs", "2", "-o", out])
    _, err = p.communicate(timeout=120)
    recs = {r["file"]: r for r in map(json.loads, open(out))}
    check(p.returncode == NEGATIVE and len(recs) == 4, f"batch: exit {p.returncode}, {recs} {err!r}")
    crash = recs.get(os.path.join(folder, "corner-rook.5dpgn"), {})
    check(crash.get("exit_code") == INTERNAL and crash.get("signal") == "SIGSEGV"
          and "crashed" in crash.get("error", "") and "result" not in crash,
          f"the crashed item's record: {crash}")
    pipe_rec = recs.get(fifo, {})
    check(pipe_rec.get("exit_code") == BAD_INPUT and "not a regular file" in pipe_rec.get("error", ""),
          f"the FIFO's record: {pipe_rec}")
    locked = recs.get(os.path.join(folder, "locked"), {})
    check(locked.get("exit_code") == BAD_INPUT and "cannot be listed" in locked.get("error", ""),
          f"the locked folder's record: {locked}")
    good = recs.get(os.path.join(folder, "rook-tactics-2.5dpgn"), {})
    check(good.get("result") == "mate", f"the good item's record: {good}")
    rc, _, summary = run(["batch-merge", out])
    check(rc == OK and "errors               3" in summary and "?" not in summary,
          f"batch-merge files the crash under errors: {summary!r}")
    # A record of an item stopped by a limit before any result (exit 3, no `result`) is unknown.
    stopped = write("stopped.jsonl", json.dumps({"file": "x.5dpgn", "mode": "solve",
                                                 "exit_code": UNKNOWN, "error": "a limit"}) + "\n")
    rc, _, summary = run(["batch-merge", stopped])
    check(rc == OK and "unknown              1" in summary and "?" not in summary,
          f"batch-merge of an exit-3 record without result: {summary!r}")
    # A FIFO named as input is refused without blocking.
    p = start([fifo, "-o", os.path.join(outdir, "fifo.jsonl")])
    _, err = p.communicate(timeout=120)
    check(p.returncode == NEGATIVE, f"batch FIFO: exit {p.returncode} {err!r}")
    # The records may go to a pipe (only --resume reads OUT, and needs a regular file).
    rc, piped, err = run(["batch", os.path.join(DATA, "corner-rook.5dpgn"), "-o", "/dev/stdout"])
    check(rc == OK and json.loads(piped).get("result") == "mate", f"-o /dev/stdout: {rc} {err!r}")

    # SIGTERM, then SIGKILL, while a child runs: the child (it holds the FIFO `ready` open) is
    # ended, so reading `ready` reaches its end.
    def ready_fifo(name):
        path = os.path.join(outdir, name)
        os.mkfifo(path)
        os.chmod(path, 0o666)
        return path

    def child_ends(ready, p, sig):
        with open(ready) as r:
            pid = r.readline().strip()
            check(pid.isdigit(), f"the stand-in's pid: {pid!r}")
            p.send_signal(sig)
            p.wait(timeout=120)
            ended = select.select([r], [], [], 120)[0] and r.read() == ""
        check(ended, f"the child {pid} outlived batch after signal {sig}")
        if not ended:
            os.kill(int(pid), signal.SIGKILL)
        return p.returncode

    out = os.path.join(outdir, "term.jsonl")
    ready = ready_fifo("ready-term")
    p = start([folder, "--jobs", "1", "-o", out], ready)
    rc = child_ends(ready, p, signal.SIGTERM)
    err = p.stderr.read()
    lines = open(out).read().splitlines(keepends=True)
    check(rc == UNKNOWN and "stopped by SIGTERM" in err, f"batch after SIGTERM: exit {rc} {err!r}")
    check(all(l.endswith("\n") and "file" in json.loads(l) for l in lines)
          and not any("rook-tactics-2" in l for l in lines), f"records after SIGTERM: {lines}")
    p = start([folder, "--jobs", "1", "-o", os.path.join(outdir, "kill.jsonl")],
              ready_fifo("ready-kill"))
    child_ends(os.path.join(outdir, "ready-kill"), p, signal.SIGKILL)

    # --resume after a record cut short: the line is dropped and its item done again.
    with open(out, "a") as f:
        f.write('{"file": "' + folder)
    rc, _, err = run(["batch-merge", out])
    check(rc == BAD_INPUT and f"{out}:{len(lines) + 1}:1: a last record cut short" in err,
          f"batch-merge on a cut record: exit {rc} {err!r}")
    p = start([folder, "--jobs", "1", "-o", out, "--resume"])
    _, err = p.communicate(timeout=120)
    check(f"{out}:{len(lines) + 1}:1: a record cut short" in err, f"resume: {err!r}")
    rc, merged, summary = run(["batch-merge", out])
    check(rc == OK and len(merged.splitlines()) == 4 and "mate                 1" in summary,
          f"batch-merge after the resume: exit {rc} {summary!r}")


def hostile_records():
    """batch-merge and batch --resume on records fived did not write (issue 55, fuzzing:
    fuzz/records_fuzz.cpp): a "result" or "verdict" that is no string, huge numbers, invalid
    UTF-8 and a duplicate file give a line number or a summary, never an abort."""
    records = os.path.join(TMP, "hostile.jsonl")
    empty = os.path.join(TMP, "hostile-empty")
    os.makedirs(empty, exist_ok=True)
    for bad in ('{"file":"x","exit_code":0,"result":7}', '{"file":"x","verdict":["a"]}',
                '{"file":"x","exit_code":1,"result":null}'):
        with open(records, "w") as f:
            f.write('{"file":"ok","exit_code":0,"result":"mate"}\n' + bad + "\n")
        rc, _, err = run(["batch-merge", records])
        check(rc == BAD_INPUT and err == f"{records}:2:1: not a batch record\n",
              f"batch-merge on {bad}: exit {rc} {err!r}")
        out = os.path.join(TMP, "hostile-out.jsonl")
        with open(out, "w") as f:
            f.write(bad + "\n")
        rc, _, err = run(["batch", empty, "-o", out, "--resume"])
        check(rc == BAD_INPUT and f"{out}:1:1: not a batch record" in err,
              f"batch --resume on {bad}: exit {rc} {err!r}")
    with open(records, "wb") as f:
        f.write(b'{"file":"a","exit_code":18446744073709551616,"time_ms":1e308}\n'
                b'{"file":"a","exit_code":0,"result":"mate","time_ms":-1}\n'
                b'{"file":"b","exit_code":-9223372036854775809,"verdict":"sound"}\n')
    rc, out, err = run(["batch-merge", records])
    check(rc == OK and len(out.splitlines()) == 2 and "fived batch-merge: 2 inputs" in err
          and "errors               1" in err and "mate                 1" in err,
          f"batch-merge on huge numbers: exit {rc} {out!r} {err!r}")
    with open(records, "wb") as f:
        f.write(b'{"file":"caf\xe9"}\n')
    rc, _, err = run(["batch-merge", records])
    check(rc == BAD_INPUT and err == f"{records}:1:1: not a batch record\n",
          f"batch-merge on invalid UTF-8: exit {rc} {err!r}")


def timeline_limit():
    """Issue 55, item 6: timelines up to MaxTimelineIndex (2047) each way are read and worked
    on; one past it is refused when read (FILE:LINE:COL, exit 2); an action that would create a
    timeline past it ends the command with a message and exit 3, never a crash."""
    def position(n, branch=False):
        # White to move on L0 (at T2 with `branch`, its T1 board in the past: the rook can jump
        # back to it and branch); empty boards on every other timeline out to +-n, at T5.
        rows = ['[Board "custom"]', '[Size "3x3"]', "[k2/3/K1R:0:1:w]"]
        if branch:
            rows += ["[k2/3/K1R:0:1:b]", "[k2/3/K1R:0:2:w]"]
        rows += [f"[3/3/3:{l:+d}:5:w]" for l in range(-n, n + 1) if l]
        return write(f"timelines-{n}{'-branch' if branch else ''}.5dpgn", "\n".join(rows) + "\n")

    at = position(2047)
    rc, out, err = run(["count", at])
    check(rc == OK and out == "4\n", f"count at the limit: exit {rc} {out!r} {err!r}")
    rc, out, err = run(["solve", at, "--mate", "1", "--quiet"])
    check(rc == OK and "Rc1c3#" in out, f"solve at the limit: exit {rc} {err!r}")
    rc, out, err = run(["actions", at])
    check(rc == OK and len(out.splitlines()) == 4, f"actions at the limit: exit {rc} {err!r}")
    past = position(2048)
    for cmd in (["count"], ["actions"], ["status"], ["solve", None, "--quiet"]):
        rc, out, err = run(with_file(cmd, past))
        check(rc == BAD_INPUT and out == "" and err.startswith(
            f"{past}:4:8: timeline `-2048` is beyond the engine's limit: timelines -2047 to 2047"),
            f"{cmd[0]} one past the limit: exit {rc} {err!r}")
    # The issue's crash: a branch from a file at the old limit (1023) segfaulted.
    rc, out, err = run(["count", position(1023, branch=True)])
    check(rc == OK and out == "5\n", f"count branching past 1023: exit {rc} {out!r} {err!r}")
    branching = position(2047, branch=True)
    for cmd in (["count"], ["actions"], ["solve", None, "--mate", "1", "--quiet"]):
        rc, _, err = run(with_file(cmd, branching))
        check(rc == UNKNOWN and "beyond the engine's limit of 2047 timelines each way" in err,
              f"{cmd[0]} creating timeline 2048: exit {rc} {err!r}")


def run_bytes(args, env=None):
    """run() for arguments and output that need not be UTF-8 (bytes in, bytes out)."""
    p = subprocess.run([os.fsencode(FIVED)] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120, env=env)
    return p.returncode, p.stdout, p.stderr


def parses_as_xml(path):
    """True if the file is well-formed XML (xmllint, else Python's expat parser)."""
    if subprocess.run(["sh", "-c", "command -v xmllint"], capture_output=True).returncode == 0:
        return subprocess.run([b"xmllint", b"--noout", path], capture_output=True).returncode == 0
    import xml.etree.ElementTree as ET
    try:
        ET.parse(path)
        return True
    except ET.ParseError:
        return False


def invalid_utf8():
    """Issue 55 item 3: bytes that are not UTF-8, in a file's text and in its name, never abort
    a --json output (they are written as the text \\xHH, a backslash before x as \\x5C); batch records of such names are read
    back by batch --resume and batch-merge; svg writes valid XML for them."""
    folder = os.path.join(os.fsencode(TMP), b"latin1")
    os.makedirs(folder)
    good = os.path.join(folder, b"caf\xe9.5dpgn")  # Latin-1 e-acute in the name
    bad = os.path.join(folder, b"na\xefve-bad.5dpgn")  # and a stray byte in the text
    with open(good, "wb") as f:
        f.write(corner_rook("mate-in-1").encode())
    with open(bad, "wb") as f:
        f.write(b'[Board "Standard"]\n[Event "caf\xe9"]\n1. e\xff3\n')
    # (command, exit status for the good file); the bad file is bad input for every command.
    commands = [(["status", None, "--json"], OK), (["moves", None, "--json"], OK),
                (["actions", None, "--json"], OK), (["count", None, "--json"], OK),
                (["perft", None, "1", "--json"], OK), (["fen", None, "--json"], OK),
                (["hash", None, "--json"], OK), (["check-notation", None, "--json"], OK),
                (["solve", None, "--quiet", "--json"], OK), (["verify", None, "--json"], NEGATIVE)]
    for cmd, expected in commands:
        for path, want in ((good, expected), (bad, BAD_INPUT)):
            args = [path if a is None else a.encode() for a in cmd]
            what = f"{cmd[0]} {path!r}"
            rc, out, err = run_bytes(args)
            check(rc == want, f"{what}: exit {rc}, expected {want}: {err[-300:]!r}")
            if rc == BAD_INPUT and cmd[0] != "check-notation":
                check(out == b"" and path in err, f"{what}: output {out!r}, stderr {err!r}")
                continue
            try:
                lines = [json.loads(l.decode("utf-8")) for l in out.splitlines()]
                check(lines and lines[-1].get("exit_code") == rc,
                      f"{what}: last JSON line {lines[-1:]}")
            except (UnicodeDecodeError, json.JSONDecodeError) as e:
                check(False, f"{what}: not JSON ({e}): {out[:200]!r}")
    # check-notation names both files and quotes the stray byte readably.
    rc, out, _ = run_bytes([b"check-notation", b"--json", good, bad])
    try:
        rep = json.loads(out)
        names = [f["file"] for f in rep["files"]]
        check(rc == BAD_INPUT and names == [os.fsdecode(good).replace("\udce9", "\\xE9"),
                                            os.fsdecode(bad).replace("\udcef", "\\xEF")],
              f"check-notation --json: exit {rc}, files {names}")
        check("found `\\xFF3`" in rep["files"][1]["errors"][0],
              f"check-notation --json: the stray byte: {rep['files'][1]['errors']}")
    except (UnicodeDecodeError, json.JSONDecodeError, KeyError, IndexError) as e:
        check(False, f"check-notation --json over both: {e}: {out[:300]!r}")
    # batch: a record for each file; --resume reads them back (nothing left to do);
    # batch-merge reads them back.
    records = os.path.join(os.fsencode(TMP), b"latin1.jsonl")
    rc, _, err = run_bytes([b"batch", folder, b"--jobs", b"1", b"-o", records])
    try:
        recs = [json.loads(l.decode("utf-8")) for l in open(records, "rb")]
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        recs = []
        check(False, f"batch records are not JSON lines: {e}")
    by_name = {os.path.basename(r["file"]): r for r in recs}
    check(rc == NEGATIVE and sorted(by_name) == ["caf\\xE9.5dpgn", "na\\xEFve-bad.5dpgn"],
          f"batch: exit {rc}, records {sorted(by_name)}: {err!r}")
    good_rec = by_name.get("caf\\xE9.5dpgn", {})
    bad_rec = by_name.get("na\\xEFve-bad.5dpgn", {})
    check(good_rec.get("result") == "mate", f"batch: the good file's record: {good_rec}")
    check(bad_rec.get("exit_code") == BAD_INPUT and "`\\xFF3`" in bad_rec.get("error", ""),
          f"batch: the bad file's record: {bad_rec}")
    rc, _, err = run_bytes([b"batch", folder, b"--jobs", b"1", b"-o", records, b"--resume"])
    check(rc == OK and b"0 of 2 inputs" in err and sum(1 for _ in open(records, "rb")) == 2,
          f"batch --resume over its own records: exit {rc}: {err!r}")
    rc, out, err = run_bytes([b"batch-merge", records])
    try:
        merged = [json.loads(l.decode("utf-8")) for l in out.splitlines()]
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        merged = []
        check(False, f"batch-merge output is not JSON lines: {e}")
    check(rc == OK and len(merged) == 2 and b"2 inputs" in err,
          f"batch-merge: exit {rc}, {len(merged)} records: {err!r}")
    # The byte E9 and the text \\xE9 in two names: two records that tell them apart (a backslash
    # before x is written \\x5C), and a resume that finds both done.
    twins = os.path.join(os.fsencode(TMP), b"twins")
    os.makedirs(twins)
    for name in (b"x\xe9.5dpgn", b"x\\xE9.5dpgn"):
        with open(os.path.join(twins, name), "wb") as f:
            f.write(corner_rook("").encode())
    twin_out = os.path.join(os.fsencode(TMP), b"twins.jsonl")
    rc, out, err = run_bytes([b"batch", twins, b"--jobs", b"1", b"-o", twin_out])
    names = sorted(os.path.basename(json.loads(line)["file"])
                   for line in open(twin_out, encoding="utf-8"))
    check(rc == OK and names == ["x\\x5CxE9.5dpgn", "x\\xE9.5dpgn"],
          f"batch over twin names: exit {rc}, names {names}, stderr {err!r}")
    rc, out, err = run_bytes([b"batch", twins, b"--jobs", b"1", b"-o", twin_out, b"--resume"])
    check(rc == OK and b"0 of 2 inputs" in err and len(open(twin_out, "rb").readlines()) == 2,
          f"batch --resume over twin names: exit {rc}, stderr {err!r}")
    # svg: the name in the caption, valid XML.
    picture = os.path.join(os.fsencode(TMP), b"latin1.svg")
    rc, _, err = run_bytes([b"svg", good, b"-o", picture])
    check(rc == OK and parses_as_xml(picture), f"svg of {good!r}: exit {rc}, not XML: {err!r}")
    check(b"caf\\xE9.5dpgn" in open(picture, "rb").read(), "svg: the name is not in the caption")


def fen_reads_back():
    """Issue 55: what `fen` writes, `status -` and `fen -` read back, for custom sizes and
    promotions too (`fived fen X | fived status -`), in text and in the JSON `fen` field."""
    cases = {
        "5x5": corner_rook(""),
        "6x6": "[Board \"custom\"]\n[Size \"6x6\"]\n[6/5k/6/6/1R4/KR4:0:1:w]\n\n1. Re2 / Kf4\n",
        "4x4-promotions": "[Board \"custom\"]\n[Size \"4x4\"]\n[Promotions \"Q,R,B,N\"]\n"
                          "[3k/1P2/4/K3:0:1:w]\n",
        "standard": STANDARD + "\n1. e3 / e6\n",
    }
    for name, text in cases.items():
        path = write(f"fen-{name}.5dpgn", text)
        rc, fen, err = run(["fen", path])
        check(rc == OK, f"fen {name}: exit {rc}: {err!r}")
        check(name == "standard" or fen.startswith("[Size "),
              f"fen {name}: no Size header: {fen!r}")
        check(("Promotions" in fen) == (name == "4x4-promotions"), f"fen {name}: {fen!r}")
        for cmd in (["status"], ["moves"], ["fen"], ["hash"]):
            rc1, back, err1 = run(cmd + ["-"], stdin=fen)
            rc2, direct, _ = run(cmd + [path])
            check(rc1 == OK and back == direct,
                  f"fen {name} | {cmd[0]} -: exit {rc1}, {back[:80]!r} vs {direct[:80]!r}: {err1!r}")
        rc, out, _ = run(["fen", path, "--json"])
        check(rc == OK and json.loads(out)["fen"] == fen, f"fen --json {name}: {out!r}")


def meaningless_options():
    """Issue 55: an invalid value or a combination of options that means nothing is a usage
    error (exit 2, a message naming it), never silently ignored or misread."""
    rt2 = os.path.join(DATA, "rook-tactics-2.5dpgn")
    usage = [
        (["solve", rt2, "--quiet", "--tries"], "--tries requires --problemist"),
        (["solve", rt2, "--quiet", "--problemist", "--json"], "--problemist"),
        (["solve", rt2, "--quiet", "--algo", "dfpn", "--threads", "2"], "--algo dfpn"),
        (["status", rt2, "--at", "1e3"], "not `1e3`"),
        (["status", rt2, "--at", "x"], "not `x`"),
        (["status", rt2, "--at", "99999999999"], "--at 99999999999: the main line has 2 actions"),
        (["status", rt2, "--at", "-99999999999999999999999"],
         "--at -99999999999999999999999: the main line has 2 actions"),
        (["batch", rt2, "--shard", "1/4/5"], "--shard 1/4/5: expected I/N"),
        (["batch", rt2, "--shard", "1/4x"], "--shard 1/4x: expected I/N"),
        (["batch", rt2, "--shard", "+1/4"], "--shard +1/4: expected I/N"),
    ]
    for args, message in usage:
        rc, out, err = run(args)
        check(rc == BAD_INPUT and out == "" and message in err,
              f"{' '.join(args[:1] + args[2:])}: exit {rc}, stdout {out[:60]!r}, stderr {err!r}")
    for env, name in (({"SLURM_ARRAY_TASK_ID": "abc", "SLURM_ARRAY_TASK_COUNT": "2"},
                       "SLURM_ARRAY_TASK_ID=abc"),
                      ({"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "2x"},
                       "SLURM_ARRAY_TASK_COUNT=2x")):
        p = subprocess.run([FIVED, "batch", rt2], env=dict(os.environ, **env),
                           capture_output=True, text=True, timeout=120)
        check(p.returncode == BAD_INPUT and p.stdout == "" and name in p.stderr,
              f"batch with {env}: exit {p.returncode}, {p.stderr!r}")
    # What stays allowed: the same options where they mean something.
    for args in (["solve", rt2, "--quiet", "--problemist", "--tries"],
                 ["solve", rt2, "--quiet", "--algo", "dfpn", "--threads", "1"]):
        rc, out, err = run(args)
        check(rc == OK and "1-0" in out, f"{' '.join(args)}: exit {rc}: {err!r}")
    # --at -0: zero actions before the end, the final position (not the start, as --at 0).
    rc1, end, _ = run(["fen", rt2, "--at", "-0"])
    rc2, final, _ = run(["fen", rt2])
    rc3, start, _ = run(["fen", rt2, "--at", "0"])
    check(rc1 == rc2 == rc3 == OK and end == final and end != start, f"--at -0: {end!r}")


def quiet_means_quiet():
    """Issue 55: --quiet leaves stderr empty, even with more --threads than the machine's
    (oneTBB's raw warning); a mate proven with its whole tree is never reported beside a limit
    (the time limit here passes while the large table is allocated)."""
    rt2 = os.path.join(DATA, "rook-tactics-2.5dpgn")
    for args in (["solve", rt2, "--quiet", "--threads", "256"],
                 ["solve", rt2, "--quiet", "--threads", "256", "--json"],
                 ["perft", rt2, "2", "--threads", "256"],
                 ["bench", "--threads", "256"]):
        rc, out, err = run(args)
        check(rc == OK and out and err == "", f"{' '.join(args)}: exit {rc}, stderr {err!r}")
    cr = os.path.join(DATA, "corner-rook.5dpgn")
    for _ in range(3):
        rc, out, _ = run(["solve", cr, "--quiet", "--json", "--hash", "256", "--time", "0.001"])
        j = json.loads(out)
        if j["result"] == "mate":
            check(rc == OK and "limit_hit" not in j and "limit" not in j and "error" not in j
                  and j.get("verified") is True, f"a proved mate beside a limit: {j}")
        else:
            check(rc == UNKNOWN and j["result"] == "unknown" and j.get("limit_hit") is True,
                  f"an unknown result without its limit: {j}")


# Every subcommand, as `fived --help` lists them.
COMMANDS = ["status", "moves", "actions", "count", "perft", "fmt", "fen", "hash",
            "check-notation", "solve", "verify", "bench", "svg", "html", "batch", "batch-merge"]


def command_line():
    """main() builds only the subcommand its first argument names (cli.h, Commands): the help,
    the version and usage errors still see every command, and each command its own options."""
    rc, out, _ = run(["--help"])
    listed = [c for c in COMMANDS if f"\n  {c} " in out]
    check(rc == OK and listed == COMMANDS, f"--help: exit {rc}, lists {listed}")
    rc, out, _ = run(["--version"])
    check(rc == OK and out.startswith("fived "), f"--version: exit {rc} {out!r}")
    for args in ([], ["bogus"], ["--json", "status"], ["status", "--bogus"]):
        rc, _, err = run(args)
        check(rc == BAD_INPUT and err, f"{args}: exit {rc} {err!r}")
    cr = os.path.join(DATA, "corner-rook.5dpgn")
    for c in COMMANDS:
        rc, out, _ = run([c, "--help"])
        check(rc == OK and f" {c} " in out, f"{c} --help: exit {rc}")
    # One command's options are not another's: --cap is count's.
    rc, out, _ = run(["count", cr, "--cap", "3"])
    check(rc == OK and out.strip().isdigit(), f"count --cap: exit {rc} {out!r}")
    rc, _, err = run(["status", cr, "--cap", "3"])
    check(rc == BAD_INPUT and "--cap" in err, f"status --cap: exit {rc} {err!r}")


CASES = {f.__name__: f for f in (read_errors, errors_not_results, exit_codes, claims,
                                 implicit_defences, wide_time_limit, perft_divide, count_engines,
                                 bench_report, at_everywhere, json_schema, problemist, batch,
                                 batch_failures, hostile_records, timeline_limit, read_back, invalid_utf8,
                                 fen_reads_back, meaningless_options, quiet_means_quiet,
                                 command_line,
                                   wrong_claim, verify_unknown, limits, verify_bounded,
                                   verify_game_file, many_headers, shared_verify_game_file,
                                   shared_actions_streams, shared_wide_node_limit,
                                   solve_keeps_head, memory_caps, verify_signal)}


def run_cases(module):
    """The command line of a case script (this one, shard_test.py): `--list` prints the names of
    module.CASES, one a line (tests/cli/CMakeLists.txt); `FIVED DATA_DIR CASE` runs one case with
    the module's FIVED, DATA and TMP set and exits 1 when it recorded failures."""
    if sys.argv[1:] == ["--list"]:
        print("\n".join(module.CASES))
        return 0
    if len(sys.argv) != 4 or sys.argv[3] not in module.CASES:
        print(module.__doc__, file=sys.stderr)
        return 2
    module.FIVED, module.DATA = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    with tempfile.TemporaryDirectory() as tmp:
        module.TMP = tmp
        module.CASES[sys.argv[3]]()
    print(f"{sys.argv[3]}: {len(module.failures)} failure(s)")
    return 1 if module.failures else 0


# --- report/: the output formats of solve and verify (issue 54) --------------------------------

def _masked_time(text):
    """solve --json's output with its wall time masked (the only field two runs differ in)."""
    j = json.loads(text)
    j["time_ms"] = 0
    return j


def format_aliases():
    """`--format NAME` picks one writer of report/; --json and --problemist are its aliases with
    the same output and exit status, and text is the default (5dpgn another name of it)."""
    rt2 = os.path.join(DATA, "rook-tactics-2.5dpgn")
    solve = ["solve", rt2, "--quiet", "--threads", "1"]
    rc1, a, _ = run(solve + ["--json"])
    rc2, b, _ = run(solve + ["--format", "json"])
    check(rc1 == rc2 == OK and _masked_time(a) == _masked_time(b), f"solve json: {a!r} vs {b!r}")
    for alias, name in ((["--problemist", "--tries"], ["--format", "problemist", "--tries"]),
                        (["--problemist"], ["--format", "problemist"]),
                        ([], ["--format", "text"]), ([], ["--format", "5dpgn"])):
        rc1, a, _ = run(solve + alias)
        rc2, b, _ = run(solve + name)
        check(rc1 == rc2 == OK and a == b and "(-1T2)Rb1f1#" in a,
              f"solve {alias} vs {name}: exit {rc1}/{rc2}, {a!r} vs {b!r}")
    rc, tree, _ = run(solve)
    tree_file = write("rt2-solution.5dpgn", tree)
    verify = ["verify", tree_file, "--threads", "1"]
    for alias, name in ((["--json"], ["--format", "json"]), ([], ["--format", "text"]),
                        (["--json", "--tries"], ["--format", "json", "--tries"])):
        rc1, a, _ = run(verify + alias)
        rc2, b, _ = run(verify + name)
        check(rc1 == rc2 == NEGATIVE and a == b and "cooked" in a,
              f"verify {alias} vs {name}: exit {rc1}/{rc2}, {a!r} vs {b!r}")
    # A format that does not exist, or one given twice, is a usage error.
    rt2_solve = ["solve", rt2, "--quiet"]
    usage = [
        (rt2_solve + ["--format", "xml"], "--format: xml not in {text,5dpgn,problemist,"),
        (rt2_solve + ["--format", "json", "--json"], "--format excludes --json"),
        (rt2_solve + ["--format", "text", "--problemist"], "--format excludes --problemist"),
        (rt2_solve + ["--format", "text", "--tries"], "--tries requires --problemist"),
        (rt2_solve + ["--format", "json", "--tries"], "--tries requires --problemist"),
        (rt2_solve + ["--format", "json", "--shard", "1/2"], "--format excludes --shard"),
        (verify + ["--format", "problemist"], "--format: problemist not in {text,json}"),
        (verify + ["--format", "json", "--json"], "excludes"),
    ]
    for args, message in usage:
        rc, out, err = run(args)
        check(rc == BAD_INPUT and out == "" and message in err,
              f"{' '.join(args[2:])}: exit {rc}, stdout {out[:60]!r}, stderr {err!r}")


CASES.update({f.__name__: f for f in (format_aliases,)})


def format_csv():
    """solve --format csv (report/csv_writer.cpp): the header, then a row per key and defence with
    the attacker's answer; a key that mates at once has one row without defence; no mate, the
    header alone (exit 1)."""
    cases = [
        ("rook-tactics-2.5dpgn", OK,
         "key,defence,answer\n"
         "(0T2)Rb1f1,(0T2)Kf4>>(0T1)f3,(-1T2)Rb1f1\n"
         "(0T2)Rb1f1,(0T2)Kf4>>(0T1)f4,(-1T2)Rb1f1\n"),
        ("corner-rook.5dpgn", OK, "key,defence,answer\n(0T1)Re1e5,,\n"),
        ("rook-tactics-2-incomplete.5dpgn", NEGATIVE, "key,defence,answer\n"),
    ]
    for name, status, want in cases:
        rc, out, _ = run(["solve", os.path.join(DATA, name), "--quiet", "--format", "csv"])
        check(rc == status and out == want, f"csv {name}: exit {rc}, {out!r}")
    # Every key (cooks) with --all-keys, each with its defences.
    rc, out, _ = run(["solve", os.path.join(DATA, "rook-tactics-2.5dpgn"), "--quiet", "--format",
                      "csv", "--all-keys"])
    keys = sorted({line.split(",")[0] for line in out.splitlines()[1:]})
    check(rc == OK and keys == ["(0T2)Rb1b5", "(0T2)Rb1f1"], f"csv --all-keys: {out!r}")


CASES.update({f.__name__: f for f in (format_csv,)})


if __name__ == "__main__":
    sys.exit(run_cases(sys.modules[__name__]))
