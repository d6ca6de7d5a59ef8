"""The rules engine's commands: perft --divide, count --engine, bench's reports, --at on every
command and what fen writes read back (cases of cli_test.py).
"""
import json
import os
import subprocess

from cli_common import OK, BAD_INPUT, STANDARD, run, check, write, corner_rook

FIVED = DATA = TMP = None  # set by run_cases() (cli_common.py)


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
