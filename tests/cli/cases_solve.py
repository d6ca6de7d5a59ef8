"""solve: claims, wrong claimed lengths, grouped defences, the problemist's tree, the input's
headers kept, trees that read back, --quiet (cases of cli_test.py).
"""
import json
import os

from cli_common import OK, NEGATIVE, BAD_INPUT, UNKNOWN, run, check, write, corner_rook, solve_json

DATA = None  # set by run_cases() (cli_common.py)


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


def quiet_means_quiet():
    """Issue 55: --quiet leaves stderr empty, even with more --threads than the machine's
    (oneTBB's raw warning); a mate proven with its whole tree is never reported beside a limit
    (the time limit here passes while the large table is allocated)."""
    rt2 = os.path.join(DATA, "rook-tactics-2.5dpgn")
    for args in (["solve", rt2, "--quiet", "--threads", "256"],
                 ["solve", rt2, "--quiet", "--threads", "256", "--json"],
                 ["solve", rt2, "--quiet", "--threads", "256", "--fixed-threads"],
                 ["perft", rt2, "2", "--threads", "256"],
                 ["bench", "--threads", "256"]):
        rc, out, err = run(args)
        check(rc == OK and out and err == "", f"{' '.join(args)}: exit {rc}, stderr {err!r}")
        if args[0] == "solve" and "--json" not in args:
            # The tree does not depend on the threads, nor on whether they all split.
            check(out == run(["solve", rt2, "--quiet"])[1], f"{' '.join(args)}: another tree")
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
