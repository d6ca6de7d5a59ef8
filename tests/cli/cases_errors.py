"""Errors, exit statuses and outputs across the commands: read errors, errors that must not pass
as results, the exit-status table, the JSON Schema, bytes that are not UTF-8, meaningless
options and the command line itself (cases of cli_test.py).
"""
import json
import os
import subprocess

from cli_common import (OK, NEGATIVE, BAD_INPUT, UNKNOWN, STANDARD, FILE_COMMANDS, run, check,
                        write, corner_rook, with_file, solve_json, knights_game, schema_validator)

FIVED = DATA = TMP = None  # set by run_cases() (cli_common.py)


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
    a --json output (they are written as the text \\xHH); batch records of such names are read
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
    # Two names one record cannot tell apart (the byte E9, the text \\xE9): a usage error.
    twins = os.path.join(os.fsencode(TMP), b"twins")
    os.makedirs(twins)
    for name in (b"x\xe9.5dpgn", b"x\\xE9.5dpgn"):
        with open(os.path.join(twins, name), "wb") as f:
            f.write(corner_rook("").encode())
    rc, out, err = run_bytes([b"batch", twins, b"--jobs", b"1"])
    check(rc == BAD_INPUT and out == b"" and b"cannot tell apart" in err,
          f"batch over twin names: exit {rc}, stderr {err!r}")
    # svg: the name in the caption, valid XML.
    picture = os.path.join(os.fsencode(TMP), b"latin1.svg")
    rc, _, err = run_bytes([b"svg", good, b"-o", picture])
    check(rc == OK and parses_as_xml(picture), f"svg of {good!r}: exit {rc}, not XML: {err!r}")
    check(b"caf\\xE9.5dpgn" in open(picture, "rb").read(), "svg: the name is not in the caption")


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
