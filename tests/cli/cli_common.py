"""What the case scripts share (cli_test.py with its cases_*.py modules, shard_test.py): running
fived and checking, the temporary files, the exit statuses, generated inputs, the JSON Schema
and the command line of a case script (run_cases()).
"""
import json
import os
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


def solve_json(args):
    rc, out, err = run(["solve", "--quiet", "--json"] + args)
    j = json.loads(out) if out.strip() else {}
    check(j.get("exit_code") == rc, f"solve {args}: JSON exit_code {j.get('exit_code')} != {rc}")
    return rc, j, err


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


def puzzle(name):
    """A puzzle file copied into the repository (tests/data/puzzles, tests/data/NOTICE.md)."""
    return os.path.join(DATA, "..", "..", "data", "puzzles", name + ".5dpgn")


def shared_puzzle(name):
    """A GPL/AGPL puzzle file left in ../shared (tests/data/shared-files.txt). Only the cases
    named shared_* read one (ctest label `shared`); a missing file fails the case."""
    path = os.path.join(DATA, "..", "..", "..", "..", "shared", "puzzles", name + ".5dpgn")
    check(os.path.exists(path), f"{path} is missing (the case needs ../shared)")
    return path


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


def run_cases(module):
    """The command line of a case script (cli_test.py, shard_test.py): `--list` prints the names
    of module.CASES, one a line (tests/cli/CMakeLists.txt); `FIVED DATA_DIR CASE` runs one case
    with FIVED, DATA and TMP set in the script, in the module that defines the case and here, and
    exits 1 when it recorded failures."""
    if sys.argv[1:] == ["--list"]:
        print("\n".join(module.CASES))
        return 0
    if len(sys.argv) != 4 or sys.argv[3] not in module.CASES:
        print(module.__doc__, file=sys.stderr)
        return 2
    case = module.CASES[sys.argv[3]]
    with tempfile.TemporaryDirectory() as tmp:
        for m in {module, sys.modules[case.__module__], sys.modules[__name__]}:
            m.FIVED, m.DATA = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
            m.TMP = tmp
        case()
    print(f"{sys.argv[3]}: {len(module.failures)} failure(s)")
    return 1 if module.failures else 0
