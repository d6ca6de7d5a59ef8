"""batch and batch-merge: records, resume, shards, failing children, signals and hostile records
(cases of cli_test.py).
"""
import json
import os
import signal
import subprocess

from cli_common import OK, NEGATIVE, BAD_INPUT, UNKNOWN, INTERNAL, STANDARD, run, check, write

FIVED = DATA = TMP = None  # set by run_cases() (cli_common.py)


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
