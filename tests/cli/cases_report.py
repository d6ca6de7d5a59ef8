"""The output formats of solve and verify, the writers of report/ (issue 54): --format and its
aliases, and the csv writer (cases of cli_test.py).
"""
import json
import os

from cli_common import OK, NEGATIVE, BAD_INPUT, run, check, write

FIVED = DATA = TMP = None  # set by run_cases() (cli_common.py)


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


if __name__ == "__main__":
    sys.exit(run_cases(sys.modules[__name__]))
