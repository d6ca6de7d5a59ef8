"""The Python module against the fived program: the same files give the same answers (status,
actions, count, perft, fen, hash, solve, verify), errors carry their place, Ctrl-C stops a solve."""
import json
import os
import pathlib
import signal
import subprocess
import sys
import textwrap

import pytest

import fived

ROOT = os.environ["FIVED_SOURCE_DIR"]
FIVED = os.environ["FIVED_CLI"]
ROOK = os.path.join(ROOT, "examples", "rook-tactics-1.5dpgn")
DATA = os.path.join(ROOT, "tests", "solver", "data")
RT2 = os.path.join(DATA, "rook-tactics-2.5dpgn")
RT2_INCOMPLETE = os.path.join(DATA, "rook-tactics-2-incomplete.5dpgn")
CORNER = os.path.join(DATA, "corner-rook.5dpgn")
STANDARD = '[Board "Standard"]\n'
# Positions compared with the command line: (file or text, --at).
CASES = [(ROOK, None), (ROOK, "0"), (ROOK, "-1"), (RT2, None), (RT2, "-1"), (CORNER, None)]


def cli(*args, stdin=None):
    p = subprocess.run([FIVED, *args], input=stdin, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def cli_at(cmd, path, at, *more):
    return cli(cmd, path, *(["--at", at] if at is not None else []), *more)


def position_of(path, at):
    return fived.load(path).position(None if at is None else int(at))


def test_load_path_text_and_pathlike():
    game = fived.load(ROOK)
    assert len(game) == 4 and game.name == ROOK
    assert game.headers["Puzzle"] == "mate-in-1" and game.headers["Size"] == "5x5"
    with open(ROOK) as f:
        from_text = fived.load(f.read())
    assert from_text.name == "<string>" and len(from_text) == 4
    assert fived.load(pathlib.Path(ROOK)).position().hash() == game.position().hash()
    assert from_text.position().fen() == game.position().fen()


def test_positions_of_the_main_line():
    game = fived.load(ROOK)
    assert game.position().actions_played == 4
    assert game.position(4).hash() == game.position().hash()
    assert game.position(-1).actions_played == 3 and game.position(-4).actions_played == 0
    assert game.position(0).hash() == game.position(-4).hash()
    for k in (5, -5, 10**12):
        with pytest.raises(IndexError, match="the main line has 4 actions"):
            game.position(k)


@pytest.mark.parametrize("path,at", CASES)
def test_status_as_the_cli(path, at):
    rc, out, _ = cli_at("status", path, at, "--json")
    assert rc == 0
    want = json.loads(out)
    s = position_of(path, at).status()
    assert (s.side, s.present, s.in_check, s.verdict, s.timelines, s.actions_played) == (
        want["to_move"], want["present"], want["in_check"], want["verdict"], want["timelines"],
        want["actions_played"])


@pytest.mark.parametrize("path,at", CASES)
def test_actions_count_perft_fen_hash_as_the_cli(path, at):
    pos = position_of(path, at)
    rc, out, _ = cli_at("actions", path, at)
    assert rc == 0 and list(pos.legal_actions()) == out.splitlines()
    rc, out, _ = cli_at("count", path, at)
    assert rc == 0 and pos.count() == int(out)
    rc, out, _ = cli_at("perft", path, at, "2")
    assert rc == 0 and pos.perft(2) == int(out)
    rc, out, _ = cli_at("fen", path, at)
    assert rc == 0 and pos.fen() == out
    rc, out, _ = cli_at("hash", path, at)
    assert rc == 0 and pos.hash() == out.strip()


def test_legal_actions_is_a_lazy_iterator():
    pos = fived.load(STANDARD).position()
    rc, out, _ = cli("actions", "-", stdin=STANDARD)
    every = out.splitlines()
    assert rc == 0 and len(every) == 20 == pos.count()
    it = pos.legal_actions()
    assert iter(it) is it
    assert [next(it), next(it)] == every[:2]
    it.close()
    with pytest.raises(StopIteration):
        next(it)
    assert list(pos.legal_actions(limit=3)) == every[:3]
    assert list(pos.legal_actions(limit=0)) == []
    assert pos.count(cap=5) == 5
    assert pos.perft(0) == 1 and pos.perft(1) == 20 and pos.perft(2) == 400


def test_checkmate_and_stalemate_helpers():
    game = fived.load(RT2)
    assert not game.position().is_checkmate() and not game.position().is_stalemate()


def test_notation_error_carries_its_place():
    text = STANDARD + "\n1. (0T1)Pe2e5 / (0T1)Pe7e5\n"
    with pytest.raises(fived.NotationError) as e:
        fived.load(text)
    # The command line's diagnostic for the same text: <stdin>:LINE:COL: cause.
    rc, _, err = cli("status", "-", stdin=text)
    assert rc == 2
    where, cause = err.strip().split(": ", 1)
    _, line, col = where.split(":")
    assert (e.value.line, e.value.col, e.value.cause) == (int(line), int(col), cause)
    assert (e.value.line, e.value.col) == (3, 4)
    assert str(e.value) == f"<string>:3:4: {cause}" and e.value.file == "<string>"
    assert isinstance(e.value, ValueError) and isinstance(e.value, fived.Error)


@pytest.mark.parametrize("text,why", [
    ("", "empty file, not a game"), ("  {just a comment}\n", "only comments, not a game")])
def test_empty_text_is_no_game(text, why):
    with pytest.raises(fived.NotationError) as e:
        fived.load(text)
    assert e.value.line is None and e.value.col is None and e.value.cause.startswith(why)


def test_missing_file_is_an_os_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        fived.load(tmp_path / "missing.5dpgn")
    with pytest.raises(FileNotFoundError):
        fived.load(str(tmp_path / "missing.5dpgn"))
    with pytest.raises(IsADirectoryError):
        fived.load(str(tmp_path))


@pytest.mark.parametrize("path", [ROOK, RT2])
def test_solve_as_the_cli(path):
    rc, out, _ = cli("solve", path, "--json", "--quiet")
    want = json.loads(out)
    rc_text, tree, _ = cli("solve", path, "--quiet")
    assert rc == rc_text == 0
    r = fived.solve(fived.load(path).position())
    assert (r.result, r.mate_in, r.keys, r.max_mate) == (
        want["result"], want["mate_in"], want["keys"], want["max_mate"])
    assert r.tree == tree and r.nodes > 0 and r.time >= 0 and r.limit == ""


def test_solve_the_bundled_puzzle():
    r = fived.solve(fived.load(ROOK).position(), mate=3, threads=2)
    assert (r.result, r.mate_in, r.keys) == ("mate", 1, ["(0T3)Re1e5"])


def test_solve_limits_and_bad_values():
    start = fived.load(STANDARD).position()
    r = fived.solve(start, mate=2, nodes=400)
    assert (r.result, r.mate_in, r.nodes, r.limit) == (
        "unknown", None, 401, "node limit of 400 reached")
    for kw in ({"mate": 0}, {"mate": 61}, {"threads": 0}, {"time": 0}, {"time": -1.0}):
        with pytest.raises(ValueError):
            fived.solve(start, **kw)


@pytest.mark.parametrize("path", [RT2, RT2_INCOMPLETE, CORNER])
def test_verify_as_the_cli(path):
    rc, out, _ = cli("verify", path, "--json")
    want = json.loads(out)
    with open(path) as f:
        r = fived.verify(f.read())
    assert (r.verdict, r.exit_code, r.mate_in, r.keys, r.problems, r.prelude, r.side) == (
        want["verdict"], rc, want["mate_in"], want["keys"], want["problems"], want["prelude"],
        want["side"])
    assert r.sound == (rc == 0)


def test_verify_what_solve_wrote(tmp_path):
    tree = fived.solve(fived.load(ROOK).position()).tree
    r = fived.verify(tree)
    assert (r.verdict, r.sound, r.complete, r.mate_in, r.keys, r.cooks, r.exit_code) == (
        "sound", True, True, 1, ["(0T3)Re1e5"], [], 0)
    # Rook Tactics II has a second key: cooked, as the command line says of the same text.
    tree = fived.solve(fived.load(RT2).position()).tree
    (tmp_path / "rt2.5dpgn").write_text(tree)
    rc, out, _ = cli("verify", str(tmp_path / "rt2.5dpgn"), "--json")
    want = json.loads(out)
    r = fived.verify(tree)
    assert (r.verdict, r.cooks, r.exit_code) == ("cooked", want["cooks"], rc) == (
        want["verdict"], ["(0T2)Rb1b5"], 1)


def test_verify_bad_text_raises():
    with pytest.raises(fived.NotationError) as e:
        fived.verify(STANDARD + "\n1. (0T1)Pe2e5\n")
    assert (e.value.line, e.value.col) == (3, 4)


SIGINT_CHILD = textwrap.dedent("""
    import os, sys, threading
    sys.path.insert(0, {path!r})
    import fived
    start = fived.load('[Board "Standard"]')
    main = threading.main_thread().ident
    tasks = len(os.listdir('/proc/self/task'))
    def announce():  # once the main thread is in the solve's line
        while sys._current_frames()[main].f_lineno != SOLVE_LINE:
            pass
        print("started", flush=True)
    SOLVE_LINE = sys._getframe().f_lineno + 4
    threading.Thread(target=announce).start()
    try:
        # (the line below is SOLVE_LINE)
        fived.solve(start.position(), mate=6, time=10)
        print("finished")
    except KeyboardInterrupt as e:
        import traceback
        print("KeyboardInterrupt at line", traceback.extract_tb(e.__traceback__)[-1].lineno
              == SOLVE_LINE, flush=True)
    print("python threads", threading.active_count())
    print("tasks", len(os.listdir('/proc/self/task')) - tasks)
""")


def test_ctrl_c_stops_a_solve():
    child = subprocess.Popen([sys.executable, "-c", SIGINT_CHILD.format(path=os.path.dirname(fived.__file__))],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "started\n"
    child.send_signal(signal.SIGINT)
    # A hang guard only: without the signal the solve would print "finished" after 10 s.
    out, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    assert out.splitlines() == ["KeyboardInterrupt at line True", "python threads 1", "tasks 0"]
