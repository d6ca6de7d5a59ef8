#!/usr/bin/env python3
"""End-to-end checks of one puzzle split over parts (issue 56; README "One puzzle on many
machines"): `fived solve FILE --shard I/N` and `fived shard-merge RECORD...`.

Usage: shard_test.py FIVED DATA_DIR CASE   (CASE: one of the functions named in CASES)
Exit 0 = pass, 1 = fail (the reasons are printed), 77 = skipped (a module is missing).
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_test import run_cases, schema_validator  # noqa: E402 (the case scripts' shared parts)

FIVED = DATA = TMP = None
failures = []
OK, NEGATIVE, BAD_INPUT, UNKNOWN, INTERNAL = 0, 1, 2, 3, 4

# Mates in 2 with at least 20 root actions: rook-tactics-2 (23, DATA_DIR), queen-mate-2 (24, a
# position of our own beside this script: not in DATA_DIR, which batch's tests count).
POSITIONS = ["rook-tactics-2.5dpgn",
             os.path.join(os.path.dirname(os.path.abspath(__file__)), "shard-data",
                          "queen-mate-2.5dpgn")]


def run(args, env=None):
    p = subprocess.run([FIVED] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=300, env=env)
    return p.returncode, p.stdout, p.stderr


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


FRONTIER = "frontier-round-robin"
RT2 = "rook-tactics-2.5dpgn"  # 23 root actions; --at -2: 14


def parts(path, n, extra=(), name=None, within=None):
    """Runs the n parts (with within = (I, N): the n sub-parts of part I of N, --shard-sub);
    returns the record files and their records. Each part is one thread: its wall time (time_ms)
    is at least its CPU time (cpu_ms), within rounding."""
    files, recs = [], []
    for i in range(1, n + 1):
        shard = (["--shard", f"{i}/{n}"] if within is None else
                 ["--shard", f"{within[0]}/{within[1]}", "--shard-sub", f"{i}/{n}"])
        rc, out, err = run(["solve", path, "--quiet"] + shard + list(extra))
        check(rc in (OK, NEGATIVE, UNKNOWN) and err == "",
              f"{path} {' '.join(shard)}: exit {rc} {err!r}")
        rec = json.loads(out)
        check(rec["time_ms"] * 1.05 + 5 >= rec["cpu_ms"],
              f"{path} {' '.join(shard)}: time_ms {rec['time_ms']} < cpu_ms {rec['cpu_ms']}")
        of = "" if within is None else f"{within[0]}-of-{within[1]}-"
        f = os.path.join(TMP, f"{name or os.path.basename(path)}-{of}{i}-of-{n}.json")
        with open(f, "w") as fh:
            fh.write(out)
        files.append(f)
        recs.append(json.loads(out))
    return files, recs


def split_merge():
    """Must-show 1 in CI: on two mates in 2 with >= 20 root actions, the merge of --shard I/4
    (and of 1, 3 and 64 parts) equals the single-process answer, tree and all, and the merged
    tree passes `fived verify`; each root action is owned by exactly one part."""
    for path in POSITIONS:
        path = os.path.join(DATA, path)
        name = os.path.basename(path)
        rc, single, _ = run(["solve", path, "--quiet"])
        check(rc == OK, f"{name}: single solve exit {rc}")
        _, sj, _ = run(["solve", path, "--quiet", "--json"])
        sj = json.loads(sj)
        check(sj["result"] == "mate" and sj["mate_in"] == 2, f"{name}: single {sj['result']}")
        _, count, _ = run(["count", path])
        single_tree = os.path.join(TMP, f"{name}-single.5dpgn")
        with open(single_tree, "w") as fh:
            fh.write(single)
        single_verdict = json.loads(run(["verify", single_tree, "--json"])[1])["verdict"]
        for n in (1, 3, 4, 64):
            files, recs = parts(path, n)
            # More parts than root actions: the frontier split, whose items are owned once; else
            # blocks of the root's actions (the default).
            split = "root-block" if n <= int(count) else FRONTIER
            owned = int(count) if n <= int(count) else recs[0]["frontier"]
            check(sum(r["owned"] for r in recs) == owned and
                  all(r["root_actions"] == int(count) and r["split"] == split for r in recs),
                  f"{name} {n} parts: owned {[r['owned'] for r in recs]} of {owned}")
            check([r["part"] for r in recs] == list(range(1, n + 1)), f"{name}: part numbers")
            rc, merged, err = run(["shard-merge"] + files)
            check(rc == OK and err == "", f"{name} {n} parts: merge exit {rc} {err!r}")
            check(merged == single, f"{name} {n} parts: merged tree differs from solve's")
            rc, mj, _ = run(["shard-merge", "--json"] + files)
            mj = json.loads(mj)
            check(rc == OK and (mj["result"], mj["mate_in"], mj["keys"]) ==
                  (sj["result"], sj["mate_in"], sj["keys"]) and mj["verified"] and
                  mj["unfinished"] == [] and mj["nodes"] == sum(r["nodes"] for r in recs),
                  f"{name} {n} parts: merged JSON {mj['result']} {mj['mate_in']} {mj['keys']}")
            tree = os.path.join(TMP, f"{name}-{n}.5dpgn")
            with open(tree, "w") as fh:
                fh.write(merged)
            # The proof is complete (verify exits 1 only for the cooks: these have several keys).
            rc, out, _ = run(["verify", tree, "--json"])
            vj = json.loads(out)
            check(rc in (OK, NEGATIVE) and vj["complete"] is True and vj["mate_in"] == 2 and
                  vj["problems"] == [] and vj["verdict"] == single_verdict,
                  f"{name} {n} parts: verify of the merged tree exit {rc} {out!r}")
        # No mate within the bound: every part proves it, and only then the merge says so.
        files, recs = parts(path, 4, ["--mate", "1"], name + "-m1")
        check(all(r["result"] == "no-mate" and r["exit_code"] == NEGATIVE for r in recs),
              f"{name} --mate 1: parts {[r['result'] for r in recs]}")
        rc, out, _ = run(["shard-merge"] + files)
        check(rc == NEGATIVE and out == "no mate in 1 or fewer\n", f"{name} --mate 1: {rc} {out!r}")
    # The part that holds the key: its record names the key's root index, in its share (its
    # block, the default, or i mod 4 with --shard-split root).
    for extra, mine in (((), lambda i, p, a: a * (p - 1) // 4 <= i < a * p // 4),
                        (("--shard-split", "root"), lambda i, p, a: i % 4 == p - 1)):
        files, recs = parts(os.path.join(DATA, POSITIONS[0]), 4, extra, "rt2-key")
        mates = [r for r in recs if r["result"] == "mate"]
        check(len(mates) == 1 and
              mine(mates[0]["key_index"], mates[0]["part"], mates[0]["root_actions"]) and
              mates[0]["verified"] and mates[0]["tree"], f"key records {extra}: {mates}")


def unfinished_and_resume():
    """A part stopped by a limit makes the merge unknown (exit 3), naming the part and the
    command that re-runs it; with the part re-run, the merge is the whole answer."""
    path = os.path.join(DATA, POSITIONS[0])
    files, recs = parts(path, 4)
    key_part = next(r["part"] for r in recs if r["result"] == "mate")
    other = 1 if key_part != 1 else 2
    # The key's part stopped: no mate is known; another part stopped: the mate in 2 of the key's
    # part is the answer only if the stopped part excluded a mate in 1 (it did not: stopped at 1).
    for stopped, text in ((key_part, None), (other, "mate in 2 proven with key")):
        rc, out, err = run(["solve", path, "--quiet", "--shard", f"{stopped}/4", "--nodes", "1"])
        check(rc == UNKNOWN and json.loads(out)["result"] == "unknown",
              f"--nodes 1 part {stopped}: exit {rc}")
        with open(files[stopped - 1], "w") as fh:
            fh.write(out)
        rc, out, err = run(["shard-merge"] + files)
        check(rc == UNKNOWN and out.startswith(f"unknown (part {stopped} of 4 unfinished") and
              (text is None or text in out) and ("mate in" not in out or text),
              f"merge with part {stopped} stopped: exit {rc} {out!r}")
        check(err == f"fived shard-merge: part {stopped} of 4 unfinished; re-run with more time "
              f"or nodes: fived solve {path} --mate 2 --shard I/4 for I in {stopped} (with the "
              "parts' other options)\n",
              f"merge with part {stopped} stopped: stderr {err!r}")
        rc, out, _ = run(["shard-merge", "--json"] + files)
        j = json.loads(out)
        check(rc == UNKNOWN and j["unfinished"] == [stopped] and j["mate_in"] is None and
              j["tree"] is None, f"merge --json with part {stopped} stopped: {j}")
        # The resume: the part run again, its record replaced.
        rc, out, _ = run(["solve", path, "--quiet", "--shard", f"{stopped}/4"])
        with open(files[stopped - 1], "w") as fh:
            fh.write(out)
        rc, out, _ = run(["shard-merge", "--json"] + files)
        check(rc == OK and json.loads(out)["mate_in"] == 2, f"resumed part {stopped}: exit {rc}")


def merge_errors():
    """Must-show 4: a missing part, a part twice, a truncated line, a record of another puzzle,
    bound or split, a line that is no record and an empty file: exit 2 with the message, and
    nothing on stdout."""
    path = os.path.join(DATA, POSITIONS[0])
    files, recs = parts(path, 4)
    f1, f2, f3, f4 = files

    def bad(args, message, what):
        rc, out, err = run(["shard-merge"] + args)
        check(rc == BAD_INPUT and out == "" and err == message,
              f"{what}: exit {rc}, stdout {out!r}, stderr {err!r}, expected {message!r}")

    bad([f1, f2, f4], f"fived shard-merge: part 3 of 4 missing (no record given): run `fived "
        f"solve {path} --mate 2 --shard I/4` for it\n", "missing part")
    bad([f1, f4], f"fived shard-merge: parts 2, 3 of 4 missing (no record given): run `fived "
        f"solve {path} --mate 2 --shard I/4` for them\n", "missing parts")
    bad([f1, f2, f3, f4, f2], f"{f2}:1:1: part 2 of 4 given twice (also {f2}:1:1)\n", "duplicate")
    # Two records in one file (cat of the parts) are read as lines: FILE:LINE.
    both = os.path.join(TMP, "both.jsonl")
    with open(both, "w") as fh:
        fh.write(open(f1).read() + open(f1).read())
    bad([both, f2, f3, f4], f"{both}:2:1: part 1 of 4 given twice (also {both}:1:1)\n",
        "duplicate in one file")
    trunc = os.path.join(TMP, "trunc.json")
    with open(trunc, "w") as fh:
        fh.write(open(f4).read()[:200])
    bad([f1, f2, f3, trunc], f"{trunc}:1:1: a last record cut short (not a JSON object (a "
        "truncated or damaged record); a part killed while writing it?)\n", "truncated")
    # Foreign records: another puzzle, another bound, another split.
    other = os.path.join(DATA, POSITIONS[1])
    rc, out, _ = run(["solve", other, "--quiet", "--shard", "4/4"])
    fp = os.path.join(TMP, "other-puzzle.json")
    with open(fp, "w") as fh:
        fh.write(out)
    bad([f1, f2, f3, fp], f'{fp}:1:1: another puzzle: position_hash "{json.loads(out)["position_hash"]}"'
        f', not "{recs[0]["position_hash"]}" as in {f1}:1:1\n', "another puzzle")
    rc, out, _ = run(["solve", path, "--quiet", "--shard", "4/4", "--mate", "3"])
    fb = os.path.join(TMP, "other-bound.json")
    with open(fb, "w") as fh:
        fh.write(out)
    bad([f1, f2, f3, fb], f"{fb}:1:1: another bound: max_mate 3, not 2 as in {f1}:1:1\n",
        "another bound")
    rc, out, _ = run(["solve", path, "--quiet", "--shard", "3/5"])
    fs = os.path.join(TMP, "other-split.json")
    with open(fs, "w") as fh:
        fh.write(out)
    bad([f1, f2, fs, f4], f"{fs}:1:1: another split: parts 5, not 4 as in {f1}:1:1\n",
        "another split")
    # A record whose part does not own its key (edited): not of this split.
    j = dict(recs[0])
    # The last root action: in part 4's block.
    j["key_index"], j["result"], j["mate_in"], j["no_mate_up_to"], j["keys"] = (
        j["root_actions"] - 1, "mate", 2, 1, ["x"])
    fk = os.path.join(TMP, "wrong-key.json")
    with open(fk, "w") as fh:
        fh.write(json.dumps(j) + "\n")
    bad([fk, f2, f3, f4], f"{fk}:1:1: its actions are not part 1 of 4 of the split "
        "root-block\n", "key outside the part")
    nr = os.path.join(TMP, "batch.json")
    with open(nr, "w") as fh:
        fh.write('{"file": "x.5dpgn", "mode": "solve", "exit_code": 0}\n')
    bad([nr], f"{nr}:1:1: not a record of `fived solve --shard`\n", "not a record")
    empty = os.path.join(TMP, "empty.json")
    open(empty, "w").close()
    bad([f1, empty], f"{empty}: no record (an empty file)\n", "empty file")
    missing = os.path.join(TMP, "missing.json")
    bad([missing], f"{missing}: cannot be read\n", "missing file")


def shard_options():
    """--shard is parsed strictly, reads Slurm's variables only when asked (`slurm`), and
    options that mean nothing with it are usage errors."""
    path = os.path.join(DATA, POSITIONS[0])
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLURM_")}
    for spec in ("0/4", "5/4", "4", "a/b", "1/0", "-1/4"):
        rc, out, err = run(["solve", path, "--quiet", "--shard", spec], env)
        check(rc == BAD_INPUT and out == "" and
              err == f"fived solve: --shard {spec}: expected I/N with 1 <= I <= N\n",
              f"--shard {spec}: exit {rc} {err!r}")
    rc, out, err = run(["solve", path, "--quiet", "--shard", "slurm"], env)
    check(rc == BAD_INPUT and out == "" and err.startswith("fived solve: --shard slurm: "
          "SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT"), f"--shard slurm outside: {rc} {err!r}")
    # Inside an array (task ids 5..8): task 7 is part 3 of 4, from COUNT or from MIN and MAX.
    for extra in ({"SLURM_ARRAY_TASK_COUNT": "4"}, {"SLURM_ARRAY_TASK_MAX": "8"}):
        e = dict(env, SLURM_ARRAY_TASK_ID="7", SLURM_ARRAY_TASK_MIN="5", **extra)
        rc, out, err = run(["solve", path, "--quiet", "--shard", "slurm"], e)
        check(rc in (OK, NEGATIVE) and (json.loads(out)["part"], json.loads(out)["parts"]) ==
              (3, 4), f"--shard slurm with {extra}: {rc} {out!r} {err!r}")
    # Without --shard, the variables are not read: a whole solve.
    e = dict(env, SLURM_ARRAY_TASK_ID="7", SLURM_ARRAY_TASK_COUNT="4")
    rc, out, _ = run(["solve", path, "--quiet", "--json"], e)
    check(rc == OK and "part" not in json.loads(out), f"solve in an array task: {rc}")
    e = dict(env, SLURM_ARRAY_TASK_ID="9", SLURM_ARRAY_TASK_COUNT="4")
    rc, out, err = run(["solve", path, "--quiet", "--shard", "slurm"], e)
    check(rc == BAD_INPUT and err == "fived solve: SLURM_ARRAY_TASK_ID 9 is not within the 4 "
          "tasks of the array\n", f"task 9 of 4: {rc} {err!r}")
    for extra, name in ((["--all-keys"], "--all-keys"), (["--problemist"], "--problemist"),
                        (["--svg", os.path.join(TMP, "k.svg")], "--svg"),
                        (["--html", os.path.join(TMP, "k.html")], "--html")):
        rc, out, err = run(["solve", path, "--quiet", "--shard", "1/2"] + extra)
        check(rc == BAD_INPUT and out == "" and f"{name} excludes --shard" in err,
              f"--shard with {name}: exit {rc} {err!r}")
    rc, out, err = run(["solve", path, "--quiet", "--shard", "1/2", "--algo", "dfpn"])
    check(rc == BAD_INPUT and err == "fived solve: --shard needs --algo reference\n",
          f"--shard --algo dfpn: {rc} {err!r}")
    # Threads do not change a part's answer.
    _, a, _ = run(["solve", path, "--quiet", "--shard", "3/4"])
    _, b, _ = run(["solve", path, "--quiet", "--shard", "3/4", "--threads", "2"])
    fields = ("result", "mate_in", "keys", "key_index", "tree")
    check([json.loads(a)[k] for k in fields] == [json.loads(b)[k] for k in fields],
          "a part with 1 and 2 threads differs")


def shard_schema():
    """The record and the merge's --json validate against docs/fived.schema.json."""
    _, valid = schema_validator(DATA, check)
    path = os.path.join(DATA, POSITIONS[0])
    files, recs = parts(path, 4)
    for r in recs:
        valid(r, "shard_record", f"part {r['part']}")
    _, out, _ = run(["shard-merge", "--json"] + files)
    valid(json.loads(out), "shard_merge", "merge")
    rc, out, _ = run(["solve", path, "--quiet", "--shard", "2/4", "--nodes", "1"])
    valid(json.loads(out), "shard_record", "a stopped part")
    with open(files[1], "w") as fh:
        fh.write(out)
    _, out, _ = run(["shard-merge", "--json"] + files)
    valid(json.loads(out), "shard_merge", "an unknown merge")


def verify_merged(text, name, mate_in, what):
    """The merged tree `text`, written to TMP/name, is a complete proof of a mate in mate_in
    for `fived verify`."""
    tree = os.path.join(TMP, name)
    with open(tree, "w") as fh:
        fh.write(text)
    rc, out, _ = run(["verify", tree, "--json"])
    vj = json.loads(out)
    check(vj["complete"] is True and vj["mate_in"] == mate_in and vj["problems"] == [],
          f"{what}: verify of the merged tree exit {rc} {out!r}")


def refused(recs, name, message, what):
    """The records `recs`, written to TMP/name (one a line), are refused by the merge: exit 2,
    nothing on stdout, `message` on stderr."""
    forged = os.path.join(TMP, name)
    with open(forged, "w") as fh:
        fh.write("".join(json.dumps(r) + "\n" for r in recs))
    rc, out, err = run(["shard-merge", forged])
    check(rc == BAD_INPUT and out == "" and message in err, f"{what}: {rc} {err!r}")


def block_split_merge():
    """--shard-split block deals the root's actions in runs of consecutive actions (root-block:
    action i of A to part floor(i N / A) + 1): each part owns its run, the key's record names an
    index in its run, the merge equals the single solve (tree and all) and verifies; a part of
    another split, or a key outside its run, is refused."""
    valid = schema_validator(DATA, check)[1]
    for path in POSITIONS:
        path = os.path.join(DATA, path)
        name = os.path.basename(path)
        rc, single, _ = run(["solve", path, "--quiet"])
        a = int(run(["count", path])[1])
        for n in (1, 4, 64):
            files, recs = parts(path, n, ["--shard-split", "block"], f"block-{n}-{name}")
            runs = [(a * i // n, a * (i + 1) // n) for i in range(n)]
            check(all(r["split"] == "root-block" and r["root_actions"] == a and
                      r["owned"] == e - b for r, (b, e) in zip(recs, runs)),
                  f"{name} {n} parts: {[(r['split'], r['owned']) for r in recs]}")
            check(all(b <= r["key_index"] < e for r, (b, e) in zip(recs, runs)
                      if r["result"] == "mate"), f"{name} {n} parts: a key outside its run")
            for r in recs:
                valid(r, "shard_record", f"{name} {n} parts: part {r['part']}")
            rc, merged, err = run(["shard-merge"] + files)
            check(rc == OK and err == "" and merged == single,
                  f"{name} {n} parts: merge exit {rc} {err!r}, same as solve: {merged == single}")
            verify_merged(merged, f"block-{n}-{name}.5dpgn", 2, f"{name} {n} parts")
    path = os.path.join(DATA, POSITIONS[0])
    blocks, recs = parts(path, 4, ["--shard-split", "block"], "block-mixed")
    robin, _ = parts(path, 4, ["--shard-split", "root"], "robin-mixed")
    rc, out, err = run(["shard-merge", robin[0]] + blocks[1:])
    check(rc == BAD_INPUT and out == "" and "another split: split" in err,
          f"mixed splits: {rc} {err!r}")
    key = [r for r in recs if r["result"] == "mate"][0]
    # Half the root away: outside its run of about a quarter.
    key["key_index"] = (key["key_index"] + key["root_actions"] // 2) % key["root_actions"]
    refused(recs, "block-forged.json", "of the split root-block", "a key outside its run")


def hash_split_merge():
    """A root too wide to list within --max-actions is split by a hash of each action
    (root-hash): no part lists it, every part says so (no root_actions, owned or key_index), and
    the merge gives the single solve's answer with a tree that verifies. Here a small root made
    "wide" by --max-actions 5, the search streaming every node above 4 actions (so only the root
    listing meets the limit); mixed with a record of the listed split, the merge refuses."""
    path = os.path.join(DATA, RT2)
    wide = ["--at", "-2", "--mate", "3", "--max-actions", "5", "--stream-above", "4"]
    _, sj, _ = run(["solve", path, "--quiet", "--json"] + wide)
    sj = json.loads(sj)
    check(sj["result"] == "mate" and sj["mate_in"] == 3, f"single: {sj['result']}")
    valid = schema_validator(DATA, check)[1]
    for n in (1, 4, 7):
        files, recs = parts(path, n, wide, f"hash-{n}")
        check(all(r["split"] == "root-hash" and r["root_actions"] is None and r["owned"] is None
                  and r["key_index"] is None for r in recs),
              f"{n} parts: {[(r['split'], r['owned'], r['key_index']) for r in recs]}")
        check(any(r["result"] == "mate" for r in recs) and
              all(r["result"] in ("mate", "no-mate") for r in recs),
              f"{n} parts: {[r['result'] for r in recs]}")
        for r in recs:
            valid(r, "shard_record", f"{n} parts: part {r['part']}")
        rc, out, err = run(["shard-merge", "--json"] + files)
        mj = json.loads(out)
        check(rc == OK and err == "" and (mj["result"], mj["mate_in"]) == ("mate", 3) and
              mj["verified"] and mj["keys"] == [r for r in recs if r["result"] == "mate"][0]["keys"],
              f"{n} parts: merge exit {rc} {mj['result']} {mj['mate_in']} {err!r}")
        verify_merged(run(["shard-merge"] + files)[1], f"hash-{n}.5dpgn", 3, f"{n} parts")
    # Parts of two splits do not merge: part 1 of the listed split (--max-actions 5000; its
    # record then says 5, as a part of another fived might), parts 2-4 by hash.
    files, _ = parts(path, 4, wide, "hash-mixed")
    listed, recs = parts(path, 4, ["--at", "-2", "--mate", "3", "--max-actions", "5000",
                                   "--stream-above", "4"], "hash-listed")
    recs[0]["max_actions"] = 5
    with open(listed[0], "w") as fh:
        fh.write(json.dumps(recs[0]) + "\n")
    for order in ([listed[0]] + files[1:], files[1:] + [listed[0]]):
        rc, out, err = run(["shard-merge"] + order)
        check(rc == BAD_INPUT and out == "" and "another split: split" in err,
              f"mixed splits: {rc} {err!r}")
    # A root-hash record that names root actions is not fived's.
    _, recs = parts(path, 4, wide, "hash-forged")
    recs[1]["owned"] = 3
    refused(recs, "hash-forged.json", "with root_actions, owned or key_index",
            "a root-hash record with owned")
    # owned is null only in a root-hash record: a round-robin or frontier one without it is not
    # fived's (and is refused, not a crash).
    for extra, name in (([], "robin"), (["--at", "-2", "--mate", "3", "--shard-split",
                                         "frontier"], "frontier")):
        _, recs = parts(path, 4, extra, f"null-owned-{name}")
        recs[0]["owned"] = None
        refused(recs, f"null-owned-{name}.json", "field owned missing or not a count",
                f"a {name} record without owned")


def frontier_reference(recs, max_mate):
    """The frontier merge's arithmetic written again from the README: (result, mate_in,
    no_mate_up_to, keys) of the whole root from the items of all records."""
    items = sorted((it for r in recs for it in r["items"]), key=lambda it: it["index"])
    by_key = {}
    for it in items:
        by_key.setdefault(it["key_index"], []).append(it)
    best, excluded, all_out = None, max_mate, True
    for k in sorted(by_key):
        its = by_key[k]
        if its[0]["defence_index"] is None:  # the key alone: mate in mate_in, or no mate at all
            it = its[0]
            length = it["mate_in"]
            e = (length - 1 if it["result"] == "mate" else
                 max_mate if it["result"] == "no-mate" else it["no_mate_up_to"])
        else:  # mate in 1 + the longest defence's mate; one surviving defence refutes the rest
            length = (1 + max(i["mate_in"] for i in its)
                      if all(i["result"] == "mate" for i in its) else None)
            e = min(max_mate, 1 + max(i["mate_in"] - 1 if i["result"] == "mate" else
                                      max_mate - 1 if i["result"] == "no-mate" else
                                      i["no_mate_up_to"] for i in its))
        if length and (best is None or length < best[0]):
            best = (length, its[0]["key"])
        excluded, all_out = min(excluded, e), all_out and e >= max_mate
    if best and excluded >= best[0] - 1:
        return "mate", best[0], best[0] - 1, [best[1]]
    if not best and all_out:
        return "no-mate", None, max_mate, []
    return "unknown", None, excluded, [best[1]] if best else []


def frontier_split_merge():
    """Issue 56's deeper split: with more parts than root actions (or --shard-split frontier)
    the parts own (key, defence) pairs; the merge equals the single-process solve (its text,
    result, length and key) and its tree passes `fived verify` as the single solve's does; a
    mate in 3, a mate in 1 (a key the defender has no answer to) and "no mate" included."""
    rt2, q2 = os.path.join(DATA, RT2), os.path.join(DATA, POSITIONS[1])
    corner = os.path.join(DATA, "corner-rook.5dpgn")
    runs = [(rt2, 30, []), (rt2, 20, ["--at", "-2", "--mate", "3"]),
            (q2, 3, ["--shard-split", "frontier"]),
            (corner, 5, ["--mate", "2", "--shard-split", "frontier"]),
            (rt2, 20, ["--at", "-2", "--mate", "2"])]
    for path, n, extra in runs:
        what = f"{os.path.basename(path)} {n} parts {' '.join(extra)}"
        plain = [a for a in extra if a not in ("--shard-split", "frontier")]
        src, single, _ = run(["solve", path, "--quiet"] + plain)
        _, sj, _ = run(["solve", path, "--quiet", "--json"] + plain)
        sj = json.loads(sj)
        files, recs = parts(path, n, extra, what.replace(" ", "_"))
        frontier = recs[0]["frontier"]
        indices = sorted(it["index"] for r in recs for it in r["items"])
        check(all(r["split"] == FRONTIER and r["frontier"] == frontier for r in recs) and
              indices == list(range(frontier)) and
              sum(r["owned"] for r in recs) == frontier and frontier > 0,
              f"{what}: items {indices} of {frontier}")
        rc, merged, err = run(["shard-merge"] + files)
        check(rc == src and err == "" and merged == single,
              f"{what}: merge exit {rc} (solve {src}) {err!r}, differs: {merged != single}")
        rc, mj, _ = run(["shard-merge", "--json"] + files)
        mj = json.loads(mj)
        check((mj["result"], mj["mate_in"], mj["keys"], mj["unfinished"]) ==
              (sj["result"], sj["mate_in"], sj["keys"], []) and
              mj["verified"] == (sj["result"] == "mate") and
              mj["nodes"] == sum(r["nodes"] for r in recs),
              f"{what}: merged JSON {mj['result']} {mj['mate_in']} {mj['keys']}")
        ref = frontier_reference(recs, recs[0]["max_mate"])
        check((mj["result"], mj["mate_in"], mj["no_mate_up_to"], mj["keys"]) == ref,
              f"{what}: merge {mj['result']} {mj['mate_in']} {mj['keys']}, reference {ref}")
        if sj["result"] != "mate":
            continue
        trees = []
        for text, tag in ((single, "single"), (merged, "merged")):
            f = os.path.join(TMP, f"{what.replace(' ', '_')}-{tag}.5dpgn")
            with open(f, "w") as fh:
                fh.write(text)
            vrc, out, _ = run(["verify", f, "--json"])
            trees.append((vrc, json.loads(out)))
        (src_v, sv), (mrc_v, mv) = trees
        check(mrc_v == src_v and mv["complete"] is True and mv["problems"] == [] and
              mv["mate_in"] == sj["mate_in"] and mv["verdict"] == sv["verdict"],
              f"{what}: verify of the merged tree exit {mrc_v} {mv}")


def stop_parts(path, files, recs, stopped, nodes, extra=()):
    """Re-runs the parts `stopped` with --nodes `nodes`, their records replaced."""
    for i in stopped:
        rc, out, _ = run(["solve", path, "--quiet", "--shard", f"{i}/{len(files)}", "--nodes",
                          str(nodes)] + list(extra))
        rec = json.loads(out)
        check(rc == UNKNOWN and rec["result"] == "unknown" and rec["exit_code"] == UNKNOWN and
              rec["limit"] == f"node limit of {nodes} reached",
              f"part {i} --nodes {nodes}: exit {rc} {rec['result']} {rec.get('limit')}")
        with open(files[i - 1], "w") as fh:
            fh.write(out)
        recs[i - 1] = rec


def frontier_unfinished():
    """Frontier parts stopped by a limit: the merge names them (stderr, exit 3 when the answer
    is open) and stays exact: a part stopped before its frontier was listed leaves the root
    unknown; a mate in 2 stays the answer when pairs are unknown (a key the defender can answer
    never mates in 1), with another key of that length; a mate in 3 is only "proven" while every
    defence of some key is unknown at bound 1; re-run, the merge is the single solve's."""
    path = os.path.join(DATA, RT2)
    files, recs = parts(path, 30, (), "fr-unfinished")
    single = run(["solve", path, "--quiet"])[1]
    key = json.loads(run(["solve", path, "--quiet", "--json"])[1])["keys"][0]
    holder = next(r["part"] for r in recs for it in r["items"]
                  if it["key"] == key and it["result"] == "mate")
    listing = recs[0]["root_actions"] + recs[0]["frontier"]  # a node per action listed

    def merge_says(stopped, n):
        rc, out, err = run(["shard-merge"] + files)
        names = ", ".join(str(i) for i in stopped)
        plural = "parts" if len(stopped) > 1 else "part"
        check(err == f"fived shard-merge: {plural} {names} of {n} unfinished; re-run with more "
              f"time or nodes: fived solve {path} --mate {recs[0]['max_mate']} --shard I/{n} "
              f"for I in {names} (with the parts' other options)\n", f"{names}: stderr {err!r}")
        mj = json.loads(run(["shard-merge", "--json"] + files)[1])
        check(mj["unfinished"] == stopped, f"unfinished {mj['unfinished']}, not {stopped}")
        return rc, out, mj

    stop_parts(path, files, recs, [holder], 1)
    check(recs[holder - 1].get("frontier") is None, "--nodes 1: a frontier listed")
    rc, out, mj = merge_says([holder], 30)
    expect = f"unknown (part {holder} of 30 unfinished; {sum(r['nodes'] for r in recs)} nodes)\n"
    check(rc == UNKNOWN and out == expect and (mj["result"], mj["keys"]) == ("unknown", []),
          f"--nodes 1: merge exit {rc} {out!r}, expected {expect!r}")
    stop_parts(path, files, recs, [holder], listing)
    check(all(it["result"] == "unknown" and it["no_mate_up_to"] == 0
              for it in recs[holder - 1]["items"]), "--nodes listing: an item searched")
    rc, out, mj = merge_says([holder], 30)
    ref = frontier_reference(recs, 2)
    check(rc == OK and ref[0] == "mate" and ref[3] != [key] and
          (mj["result"], mj["mate_in"], mj["no_mate_up_to"], mj["keys"]) == ref,
          f"part {holder} unfinished: merge exit {rc} {mj['result']} {mj['keys']}, ref {ref}")
    tree = os.path.join(TMP, "fr-unfinished.5dpgn")
    with open(tree, "w") as fh:
        fh.write(out)
    vj = json.loads(run(["verify", tree, "--json"])[1])
    check(vj["complete"] is True and vj["mate_in"] == 2 and vj["keys"] == ref[3],
          f"part {holder} unfinished: verify {vj}")
    with open(files[holder - 1], "w") as fh:  # the resume: the part run again
        fh.write(run(["solve", path, "--quiet", "--shard", f"{holder}/30"])[1])
    rc, out, err = run(["shard-merge"] + files)
    check(rc == OK and err == "" and out == single, f"resumed part {holder}: exit {rc} {err!r}")
    # A frontier too wide to list within --max-actions: every part unknown, and the merge.
    files, recs = parts(path, 24, ["--max-actions", "23"], "fr-wide")
    check(all((r["split"], r["frontier"], r["items"], r["result"], r["limit"]) ==
              (FRONTIER, None, [], "unknown", "the position after the root's (0T2)Ka1>>(0T1)a2 "
               "has more than 23 legal actions (--max-actions)") for r in recs),
          f"--max-actions 23: {recs[0]}")
    rc, out, err = run(["shard-merge"] + files)
    check(rc == UNKNOWN and out == f"unknown (parts {', '.join(str(i) for i in range(1, 25))} of "
          f"24 unfinished; {sum(r['nodes'] for r in recs)} nodes)\n",
          f"--max-actions 23: merge exit {rc} {out!r}")
    # A mate in 3 (14 root actions, 20 parts): every defence of the last refuted key unknown.
    extra = ["--at", "-2", "--mate", "3"]
    files, recs = parts(path, 20, extra, "fr-unfinished-m3")
    last = max(it["key_index"] for r in recs for it in r["items"] if it["result"] == "no-mate")
    stopped = sorted({r["part"] for r in recs for it in r["items"] if it["key_index"] == last})
    stop_parts(path, files, recs, stopped, recs[0]["root_actions"] + recs[0]["frontier"], extra)
    rc, out, mj = merge_says(stopped, 20)
    ref = frontier_reference(recs, 3)
    single = json.loads(run(["solve", path, "--quiet", "--json"] + extra)[1])
    expect = (f"unknown (parts {', '.join(str(i) for i in stopped)} of 20 unfinished; mate in 3 "
              f"proven with key {single['keys'][0]}; no mate in 1 or fewer; "
              f"{sum(r['nodes'] for r in recs)} nodes)\n")
    check(rc == UNKNOWN and out == expect and len(stopped) > 1 and
          ref == ("unknown", None, 1, single["keys"]) and
          (mj["result"], mj["mate_in"], mj["mate_proven"], mj["no_mate_up_to"], mj["keys"]) ==
          ("unknown", None, 3, 1, single["keys"]),
          f"mate in 3, parts {stopped} stopped: exit {rc} {out!r}, expected {expect!r}; {ref}")


def frontier_rounds():
    """A frontier part searches its items in rounds of growing node budgets (--shard-budget):
    with a budget of 1 node every item is stopped and resumed many times, and ends as with the
    default budget (result, mate_in, no_mate_up_to, tree: only the nodes differ); the merge is
    the same."""
    path = os.path.join(DATA, RT2)
    extra = ["--at", "-2", "--mate", "3"]
    files, recs = parts(path, 20, extra, "fr-rounds")
    tiny, trecs = parts(path, 20, extra + ["--shard-budget", "1"], "fr-rounds-1")

    def strip(r):
        return [{k: v for k, v in it.items() if k != "nodes"} for it in r["items"]]
    check(all(strip(a) == strip(b) for a, b in zip(recs, trecs)), "budget 1: other items")
    check(all(b["nodes"] > a["nodes"] for a, b in zip(recs, trecs)),
          f"budget 1: nodes {[b['nodes'] for b in trecs]} not above {[a['nodes'] for a in recs]}")
    check(run(["shard-merge"] + tiny)[1] == run(["shard-merge"] + files)[1] and
          run(["shard-merge"] + files)[0] == OK, "budget 1: another merge")
    rc, out, err = run(["solve", path, "--quiet", "--shard", "1/2", "--shard-budget", "0"])
    check(rc == BAD_INPUT and out == "" and "--shard-budget: Value 0 not in range" in err,
          f"--shard-budget 0: exit {rc} {err!r}")


def frontier_refused():
    """Records that do not make one frontier are refused (exit 2, nothing on stdout): a mixed
    split, a part whose items were edited; and --shard-split's usage errors."""
    path = os.path.join(DATA, RT2)
    files, recs = parts(path, 4, (), "fr-mixed")
    rc, out, _ = run(["solve", path, "--quiet", "--shard", "4/4", "--shard-split", "frontier"])
    check(rc == OK and json.loads(out)["split"] == FRONTIER, f"forced frontier 4/4: exit {rc}")
    mixed = os.path.join(TMP, "fr-mixed-4.json")
    with open(mixed, "w") as fh:
        fh.write(out)

    def bad(args, message, what):
        rc, out, err = run(["shard-merge"] + args)
        check(rc == BAD_INPUT and out == "" and err == message,
              f"{what}: exit {rc}, stdout {out!r}, stderr {err!r}, expected {message!r}")

    bad(files[:3] + [mixed], f'{mixed}:1:1: another split: split "{FRONTIER}", not '
        f'"root-block" as in {files[0]}:1:1\n', "mixed splits")
    bad([mixed] + files[1:], f'{files[1]}:1:1: another split: split "root-block", not '
        f'"{FRONTIER}" as in {mixed}:1:1\n', "mixed splits, the frontier first")
    ffiles, frecs = parts(path, 30, (), "fr-edit")
    edited = os.path.join(TMP, "fr-edited.json")

    def edit(change, message, what):
        j = json.loads(json.dumps(frecs[1]))
        change(j)
        with open(edited, "w") as fh:
            fh.write(json.dumps(j) + "\n")
        bad([ffiles[0], edited] + ffiles[2:], f"{edited}:1:1: {message}\n", what)

    def drop(j):
        j["items"].pop()
    edit(drop, f"its items are not part 2 of 30 of the split {FRONTIER}", "an item missing")

    def move(j):
        j["items"][0]["index"] += 1
    edit(move, f"item 0: not an item of part 2 of 30 of the split {FRONTIER}", "an item moved")

    def claim(j):
        it = next(i for i in j["items"] if i["result"] == "no-mate")
        it["result"], it["mate_in"] = "mate", 1
    edit(claim, f"item {next(t for t, i in enumerate(frecs[1]['items']) if i['result'] == 'no-mate')}"
         ": result mate does not agree with mate_in, no_mate_up_to and tree", "a forged mate")

    def renumber(j):
        j["items"][0]["defence_index"] += 5
    bad_items = (f"{edited}:1:1: item 0: the items of the records do not make the frontier of "
                 "the root's 23 actions (each key's defences in order)\n")
    j = json.loads(json.dumps(frecs[1]))
    renumber(j)
    with open(edited, "w") as fh:
        fh.write(json.dumps(j) + "\n")
    bad([ffiles[0], edited] + ffiles[2:], bad_items, "a defence renumbered")
    # The key's pair trees: one replaced by its sibling's (a defence twice, one never answered),
    # or by text that does not read.
    key = "(0T2)Rb1f1"
    holders = [(t, i) for t, r in enumerate(frecs) for i, it in enumerate(r["items"])
               if it["key"] == key]
    check(len(holders) == 2, f"{key}: items {holders}")
    (ta, ia), (tb, ib) = holders
    for tree, message in ((frecs[ta]["items"][ia]["tree"], "fived shard-merge: the tree joined "
                           f"from the pairs of {key}: its tree is not a complete proof: defence "
                           "neither written nor declared by a group\n"),
                          ("garbage", f"{edited}:1:1: item {ib}: its tree does not read: <tree>:1:1:"
                           " expected a turn serial before move `garbage`\n")):
        j = json.loads(json.dumps(frecs[tb]))
        j["items"][ib]["tree"] = tree
        with open(edited, "w") as fh:
            fh.write(json.dumps(j) + "\n")
        bad(ffiles[:tb] + [edited] + ffiles[tb + 1:], message, f"a forged tree {tree[:20]!r}")
    rc, out, err = run(["solve", path, "--quiet", "--shard", "1/2", "--shard-split", "frontier",
                        "--mate", "1"])
    check(rc == BAD_INPUT and out == "" and err == "fived solve: --shard-split frontier needs a "
          "bound of 2 or more (--mate 1)\n", f"frontier with --mate 1: exit {rc} {err!r}")
    rc, out, err = run(["solve", path, "--quiet", "--shard-split", "frontier"])
    check(rc == BAD_INPUT and out == "" and "--shard-split requires --shard" in err,
          f"--shard-split without --shard: exit {rc} {err!r}")
    # --shard-split root keeps the root's split with more parts than actions (the extra own none).
    rc, out, _ = run(["solve", path, "--quiet", "--shard", "30/30", "--shard-split", "root"])
    j = json.loads(out)
    check(rc == NEGATIVE and (j["split"], j["owned"]) == ("root-round-robin", 0),
          f"--shard-split root 30/30: exit {rc} {j['split']} {j['owned']}")


def sub_parts(path, part, n, m, extra=(), name=None):
    """Part `part` of n split into m sub-parts (--shard-sub): their record files and records."""
    return parts(path, m, extra, name, (part, n))


def sub_split_merge():
    """--shard-sub J/M splits one part of the root's split further: the frontier of its own root
    actions' (key, defence) pairs dealt over M sub-parts (records `within` the part). The merge
    takes the M records in place of the part's: the same answer and tree as the single solve,
    verified, whatever part is split (the key's or another), for the round-robin and block
    splits. A sub-part missing or twice, a part given both whole and in sub-parts, sub-parts of
    two counts, and sub-parts of another part are refused; unfinished sub-parts are named for a
    re-run."""
    valid = schema_validator(DATA, check)[1]
    for path in POSITIONS:
        path = os.path.join(DATA, path)
        name = os.path.basename(path)
        _, single, _ = run(["solve", path, "--quiet"])
        for split in ("root", "block"):
            files, recs = parts(path, 4, ["--shard-split", split], f"sub-{split}-{name}")
            key = [r["part"] for r in recs if r["result"] == "mate"][0]
            for part, m in ((key, 3), (1 if key != 1 else 2, 5)):
                mine = set(range(part - 1, recs[0]["root_actions"], 4)) if split == "root" else set(
                    range(recs[0]["root_actions"] * (part - 1) // 4,
                          recs[0]["root_actions"] * part // 4))
                subs, srecs = sub_parts(path, part, 4, m, ["--shard-split", split],
                                        f"sub-{split}-{name}")
                what = f"{name} {split}: part {part} in {m} sub-parts"
                for r in srecs:
                    valid(r, "shard_record", f"{what}: sub-part {r['part']}")
                check(all(r["split"] == "frontier-round-robin" and r["parts"] == m and
                          r["within"] == {"part": part, "parts": 4,
                                          "split": "root-" + ("round-robin" if split == "root"
                                                              else "block")}
                          for r in srecs), f"{what}: {[r.get('within') for r in srecs]}")
                keys = {i["key_index"] for r in srecs for i in r["items"]}
                check(keys == mine, f"{what}: the items' keys {sorted(keys)}, not {sorted(mine)}")
                whole = files[:part - 1] + subs + files[part:]
                rc, merged, err = run(["shard-merge"] + whole)
                check(rc == OK and err == "" and merged == single,
                      f"{what}: merge exit {rc} {err!r}, same as solve: {merged == single}")
                verify_merged(merged, f"sub-{split}-{part}-{name}.5dpgn", 2, what)
                rc, out, _ = run(["shard-merge", "--json"] + whole)
                valid(json.loads(out), "shard_merge", f"{what}: merge")
    path = os.path.join(DATA, POSITIONS[0])
    files, recs = parts(path, 4, [], "sub-bad")
    subs, srecs = sub_parts(path, 2, 4, 3, (), "sub-bad")
    subs5, _ = sub_parts(path, 2, 4, 5, (), "sub-bad")

    def bad(names, message, what):
        rc, out, err = run(["shard-merge"] + names)
        check(rc == BAD_INPUT and out == "" and message in err, f"{what}: {rc} {err!r}")
    others = [files[0]] + files[2:]
    bad(others + subs[:1] + subs[2:], "sub-part 2 missing", "a sub-part missing")
    bad(others + subs + subs[1:2], "sub-part 2 of 3 of part 2 of 4 given twice",
        "a sub-part twice")
    bad(files + subs, "part 2 of 4 given twice", "a part whole and in sub-parts")
    bad(others + subs[:2] + subs5[2:3], "in 5 sub-parts, not 3", "sub-parts of two counts")
    # A sub-part whose frontier is larger (edited, its items shifted past the others'): refused
    # before its items are placed.
    grown = json.loads(json.dumps(srecs))
    grown[2]["frontier"] += 3
    grown[2]["owned"] += 1
    grown[2]["items"].append(dict(grown[2]["items"][-1], index=grown[2]["items"][-1]["index"] + 3))
    refused([json.loads(open(f).read()) for f in others] + grown, "sub-grown.json",
            "another puzzle: frontier", "a sub-part of another frontier")
    for r in srecs:
        r["within"]["part"] = 3
    refused([json.loads(open(f).read()) for f in files[:2] + files[3:]] + srecs, "sub-moved.json",
            "do not make the frontier of part 3's", "sub-parts of another part")
    # Unfinished sub-parts: the merge is unknown and names them for a re-run.
    stopped, _ = sub_parts(path, 2, 4, 3, ["--nodes", "1"], "sub-stop")
    rc, out, err = run(["shard-merge"] + others + stopped)
    check(rc == UNKNOWN and out.startswith("unknown (part 2 of 4 unfinished") and
          "--shard 2/4 --shard-sub J/3 for J in 1, 2, 3" in err,
          f"unfinished sub-parts: {rc} {out!r} {err!r}")
    for args, message in ((["--shard-split", "frontier"], "not of the frontier"),
                          (["--mate", "1"], "--shard-sub needs a bound of 2 or more"),
                          (["--shard-sub", "4/3"], "--shard-sub 4/3: expected I/N")):
        extra = [] if "--shard-sub" in args else ["--shard-sub", "1/3"]
        rc, out, err = run(["solve", path, "--quiet", "--shard", "2/4"] + extra + args)
        check(rc == BAD_INPUT and out == "" and message in err, f"{args}: {rc} {err!r}")
    rc, _, err = run(["solve", path, "--quiet", "--shard-sub", "1/3"])
    check(rc == BAD_INPUT and "--shard" in err, f"--shard-sub without --shard: {rc} {err!r}")
    env = dict(os.environ, SLURM_ARRAY_TASK_ID="2", SLURM_ARRAY_TASK_COUNT="3",
               SLURM_ARRAY_TASK_MIN="1")
    rc, out, err = run(["solve", path, "--quiet", "--shard", "slurm", "--shard-sub", "slurm"],
                       env=env)
    check(rc == BAD_INPUT and out == "" and "one job array cannot be both" in err,
          f"--shard slurm --shard-sub slurm: {rc} {err!r}")
    rc, out, _ = run(["solve", path, "--quiet", "--shard", "2/4", "--shard-sub", "slurm"], env=env)
    check(rc in (OK, NEGATIVE) and (json.loads(out)["part"], json.loads(out)["parts"],
                                     json.loads(out)["within"]["part"]) == (2, 3, 2),
          f"--shard 2/4 --shard-sub slurm (task 2 of 3): {rc} {out[:200]!r}")


def frontier_refuted_keys():
    """A frontier part stops searching a key's other defences once one of its defences refutes
    the key (no mate within the bound after it): they stay unknown, say so, and cost nothing
    more; the part is not unknown for them, and the merge is the single solve's."""
    path = os.path.join(DATA, RT2)
    extra = ["--at", "-2", "--mate", "3"]
    _, single, _ = run(["solve", path, "--quiet"] + extra)
    skipped = 0
    for within, m in (((2, 4), 3), ((1, 4), 2), (None, 20)):
        if within:
            files, recs = sub_parts(path, within[0], within[1], m, extra + ["--shard-split", "root"],
                                    "refuted")
            others, _ = parts(path, 4, extra + ["--shard-split", "root"], "refuted-whole")
            whole = [f for i, f in enumerate(others, 1) if i != within[0]] + files
        else:
            files, recs = parts(path, m, extra, "refuted-frontier")
            whole = files
        for r in recs:
            refuted = {i["key_index"] for i in r["items"]
                       if i["result"] == "no-mate" and i["defence_index"] is not None}
            for i in r["items"]:
                if i["key_index"] in refuted and i["result"] == "unknown":
                    skipped += 1
                    check(i["limit"] == "not searched further: another defence refutes its key",
                          f"{within} part {r['part']}: item {i['index']} {i.get('limit')!r}")
            opened = [i for i in r["items"] if i["result"] == "unknown" and
                      i["key_index"] not in refuted]
            check(r["result"] == ("unknown" if opened else r["result"]) and
                  (r["result"] != "unknown" or opened),
                  f"{within} part {r['part']}: result {r['result']} with open items {opened}")
        rc, merged, err = run(["shard-merge"] + whole)
        check(rc == OK and merged == single, f"{within}: merge exit {rc} {err!r}")
    check(skipped > 0, "no defence was left unsearched for a refuted key")


def frontier_schema():
    """Frontier records and their merges validate against docs/fived.schema.json."""
    _, valid = schema_validator(DATA, check)
    path = os.path.join(DATA, RT2)
    files, recs = parts(path, 30, (), "fr-schema")
    for r in recs:
        valid(r, "shard_record", f"frontier part {r['part']}")
    _, out, _ = run(["shard-merge", "--json"] + files)
    valid(json.loads(out), "shard_merge", "frontier merge")
    for nodes in ("1", "300"):
        _, out, _ = run(["solve", path, "--quiet", "--shard", "1/30", "--nodes", nodes])
        valid(json.loads(out), "shard_record", f"a stopped frontier part (--nodes {nodes})")
        with open(files[0], "w") as fh:
            fh.write(out)
        _, out, _ = run(["shard-merge", "--json"] + files)
        valid(json.loads(out), "shard_merge", f"an unknown frontier merge (--nodes {nodes})")


CASES = {f.__name__: f for f in (split_merge, unfinished_and_resume, merge_errors, shard_options,
                                 shard_schema, frontier_split_merge, frontier_unfinished,
                                 frontier_refused, frontier_schema, frontier_rounds,
                                 hash_split_merge, block_split_merge, sub_split_merge,
                                 frontier_refuted_keys)}


if __name__ == "__main__":
    sys.exit(run_cases(sys.modules[__name__]))
