#!/usr/bin/env python3
"""The structure of the page `fived html` and `fived solve --html` write (render/html.h): every
node of the tree one move element and one frame (ids unique, each frame's SVG ids its own), the
move list in document order, the first frame shown the puzzle position's, the problemist markup
(key, threat, tries, duals), and every text from the input escaped: a hostile header or comment
adds no element, bytes that are not UTF-8 become the text \\xHH. Also: --max-nodes refuses a
larger tree with exit 2, an output that cannot be written is exit 2, and solve --html without a
mate writes the prelude's page.

Usage: html_cli_test.py FIVED DATA_DIR (DATA_DIR: tests/solver/data). Exit 0 = pass, 1 = fail.
"""
import html.parser
import os
import subprocess
import sys
import tempfile

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def equal(got, want, what):
    check(got == want, "%s: got %r, expected %r" % (what, got, want))


class Page(html.parser.HTMLParser):
    """What the tests look at: the elements by tag, the move elements, the frames and the ids."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.tags = {}
        self.ids = []
        self.moves = []   # [node, text] in document order
        self.frames = []  # [node, hidden, ids inside, svg count]
        self.cells = []   # header table cells' text
        self.notes = []   # (class, text)
        self.tries = []
        self.body = None
        self.stack = []   # open elements: (tag, attrs)
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if "id" in a:
            self.ids.append(a["id"])
            if self.frames and self.inside("div", "frame"):
                self.frames[-1][2].append(a["id"])
        if tag == "body":
            self.body = a.get("data-current")
        if tag == "a" and "mv" in a.get("class", "").split():
            equal(a.get("id"), "m" + a.get("data-node", "?"), "a move element's id")
            self.moves.append([a["data-node"], ""])
        if tag == "div" and a.get("class") == "frame":
            equal(a.get("id"), "f" + a.get("data-node", "?"), "a frame's id")
            self.frames.append([a["data-node"], "hidden" in a, [], 0])
        if tag == "svg" and self.frames:
            self.frames[-1][3] += 1
        if tag in ("td", "li") or (tag == "span" and a.get("class", "").startswith("note")):
            self.notes.append((tag if tag != "span" else a["class"], ""))
        if tag not in ("meta", "br", "path", "use", "rect", "circle", "line"):
            self.stack.append((tag, a))

    def handle_endtag(self, tag):
        while self.stack:
            t, a = self.stack.pop()
            if t == tag:
                break

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if self.stack and self.stack[-1][0] == tag:
            self.stack.pop()

    def inside(self, tag, cls):
        return any(t == tag and a.get("class") == cls for t, a in self.stack)

    def handle_data(self, data):
        if self.inside("a", None) or any(t == "a" for t, _ in self.stack):
            if self.moves:
                self.moves[-1][1] += data
        if self.notes and any(t in ("td", "li") or (t == "span" and a.get("class", "")
                                                      .startswith("note"))
                              for t, a in self.stack):
            c, text = self.notes[-1]
            self.notes[-1] = (c, text + data)


def fived(args, **kw):
    return subprocess.run([FIVED] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def read_page(path):
    with open(path, "rb") as f:
        data = f.read()
    try:
        text = data.decode("utf-8")  # strictly: the page is valid UTF-8 whatever the input
    except UnicodeDecodeError as e:
        check(False, "%s is not UTF-8: %s" % (path, e))
        text = data.decode("utf-8", "replace")
    return text, Page(text)


def structure(tmp):
    """A problemist solution with hostile headers and comments, read back by `fived html`."""
    sol = fived(["solve", os.path.join(DATA, "rook-tactics-2.5dpgn"), "--quiet", "--problemist",
                 "--tries"]).stdout
    hostile = (b'[Event "<script>alert(1)</script>"]\n[Site "caf\xe9 & \x01"]\n'
               + sol.replace(b"{dual}", b"{dual; </script><img src=x onerror=alert(1)>}", 1))
    src = os.path.join(tmp, "hostile<b>.5dpgn")
    with open(src, "wb") as f:
        f.write(hostile)
    out = os.path.join(tmp, "hostile.html")
    p = fived(["html", src, "-o", out])
    equal(p.returncode, 0, "fived html's exit status (%s)" % p.stderr)
    equal(p.stdout, b"", "fived html -o: standard output")
    text, page = read_page(out)
    # One script (the page's own), no element from the input.
    equal(page.tags.get("script"), 1, "script elements")
    equal(page.tags.get("img"), None, "img elements")
    equal(page.tags.get("b", 0), 4, "b elements (the tries' actions only)")
    equal(text.count("&lt;script&gt;alert(1)&lt;/script&gt;"), 1, "the escaped Event header")
    cells = [t for c, t in page.notes if c == "td"]
    equal(cells[:4], ["Event", "<script>alert(1)</script>", "Site", "caf\\xE9 & \\x01"],
          "header cells")
    equal(text.count("hostile&lt;b&gt;.5dpgn"), 1 + 8 + 1, "the file name: title, h1, captions")
    # Every node once, in the written order; its frame, one SVG each, ids its own.
    equal([t for _, t in page.moves],
          ["start", "1w. (0T1)Rb2e2", "1b. (0T1)Kf5f4", "2w. (0T2)Rb1f1!key",
           "2b. (0T2)Kf4>>(0T1)f4", "2b. (0T2)Kf4>>(0T1)f3", "3w. (-1T2)Rb1f1#",
           "3w. (-1T2)Rb1f1#"], "the move list")
    nodes = [n for n, _ in page.moves]
    equal(sorted(nodes, key=int), [str(i) for i in range(8)], "move elements: each node once")
    equal([f[0] for f in page.frames], [str(i) for i in range(8)], "frames: each node once")
    equal([f[3] for f in page.frames], [1] * 8, "one SVG per frame")
    equal([f[0] for f in page.frames if not f[1]], ["2"], "the frame shown: the puzzle position")
    equal(page.body, "2", "body's data-current")
    equal(len(page.ids), len(set(page.ids)), "ids unique")
    for n, _, ids, _ in page.frames:
        bad = [i for i in ids if i != "f" + n and not i.startswith("n%s-" % n)]
        equal(bad, [], "ids of frame %s without its prefix" % n)
    # The problemist markup.
    notes = [(c, t) for c, t in page.notes if c != "td"]
    # The input's own comment (solve keeps it), cut in the list with the whole as a tooltip.
    equal(notes, [("li", "try (0T2)Rb1b3? refuted by (0T2)Kf4f5!"),
                  ("li", "try (0T2)Re2e5? refuted by (0T2)Kf4xe5!"),
                  ("note", "{Rook Tactics II (official puzzle) as transcribed in adri326/"
                           "5dchess-tools\ntests/games/puzzles/rook-tactics-2.5dpgn, MIT ...}"),
                  ("note threat", "{checking key: no threat}"),
                  ("note dual", "{dual}"),
                  ("note dual", "{dual}"),
                  ("note", "{</script><img src=x onerror=alert(1)>}")], "tries and notes")
    equal(text.count("#2, white to play. Cooked: 2 keys, 2 defences, 2 mates, 2 duals, 2 tries"),
          1, "the problemist summary")
    # The key's frame draws the key as key arrows, the others the last action.
    key = page.moves[3][0]
    check('url(#n%s-head-key)' % key in text, "the key's frame has no key arrow")
    check('url(#n7-head-last)' in text, "a mate's frame has no last-action arrow")

    # A larger tree than --max-nodes: refused, nothing written.
    capped = os.path.join(tmp, "capped.html")
    p = fived(["html", src, "--max-nodes", "7", "-o", capped])
    equal(p.returncode, 2, "--max-nodes 7 on 8 nodes: exit status")
    equal(p.stderr.decode(), src + ": the tree has 8 nodes; the page holds one picture per node,"
          " at most --max-nodes 7\n", "--max-nodes 7: the message")
    check(not os.path.exists(capped), "--max-nodes 7: a page was written")
    # Far larger: the reader stops at the cap (a huge file is not read whole).
    p = fived(["html", src, "--max-nodes", "3", "-o", capped])
    equal(p.returncode, 2, "--max-nodes 3: exit status")
    equal(p.stderr.decode().splitlines()[-1],
          "fived html: the page holds one picture per node, at most --max-nodes 3",
          "--max-nodes 3: the message")
    check(not os.path.exists(capped), "--max-nodes 3: a page was written")
    equal(fived(["html", src, "--max-nodes", "8", "-o", capped]).returncode, 0,
          "--max-nodes 8 on 8 nodes")
    # Standard output by default, the same bytes.
    with open(out, "rb") as f:
        equal(fived(["html", src]).stdout, f.read(), "fived html to standard output")
    p = fived(["html", src, "-o", os.path.join(tmp, "no-such-dir", "x.html")])
    equal((p.returncode, p.stderr.decode().endswith("x.html: cannot write file\n")), (2, True),
          "an output that cannot be written")


def threat(tmp):
    """A key's threat (`threat: ACTION (mate in M)`) is drawn on the key's picture as threat
    arrows, read in the position after the key and a pass; a threat that does not read there is
    only text."""
    head = ('[Board "custom"]\n[Size "5x5"]\n[Puzzle "mate-in-2"]\n[Prelude "0"]\n'
            '[k4/5/1K3/5/4R:0:1:w]\n\n1w. (0T1)Re1d1 {%s} / (0T1)Ka5b5\n')
    for note, arrows in (("threat: (0T2)Rd1d5 (mate in 1)", 1),
                         ("threat: (0T2)Rd1d4 (0T2)Kb3b4 (mate in 1)", 0)):
        src = os.path.join(tmp, "threat.5dpgn")
        with open(src, "w") as f:
            f.write(head % note)
        p = fived(["html", src])
        equal(p.returncode, 0, "html of a key with a threat: exit status")
        text = p.stdout.decode()
        equal([text.count("url(#n%d-head-%s)" % nk) for nk in
               ((1, "key"), (1, "threat"), (2, "last"), (2, "threat"))], [1, arrows, 1, 0],
              "arrows of %r" % note)
        equal(text.count('<span class="note threat">{%s}</span>' % note), 1, "threat note")
        equal(text.count('fill="#222">%s</text>' % note), arrows, "threat in the caption")


def solve_html(tmp):
    """solve --html: the same page as html of the written tree; without a mate, the prelude."""
    puzzle = os.path.join(DATA, "rook-tactics-2.5dpgn")
    out = os.path.join(tmp, "solve.html")
    p = fived(["solve", puzzle, "--quiet", "--problemist", "--html", out])
    equal(p.returncode, 0, "solve --html: exit status")
    text, page = read_page(out)
    equal(len(page.frames), 8, "solve --html: frames")
    equal([t for _, t in page.moves][3], "2w. (0T2)Rb1f1!key", "solve --html: the key")
    check("rook-tactics-2.5dpgn: mate in 2" in text, "solve --html: the answer")
    # No mate within 1: the prelude's page, the answer above it.
    p = fived(["solve", puzzle, "--quiet", "--mate", "1", "--html", out])
    equal(p.returncode, 1, "solve --mate 1 --html: exit status")
    text, page = read_page(out)
    equal([t for _, t in page.moves], ["start", "1w. (0T1)Rb2e2", "1b. (0T1)Kf5f4"],
          "solve --mate 1 --html: the prelude")
    equal([f[0] for f in page.frames if not f[1]], ["2"], "solve --mate 1 --html: shown")
    check("rook-tactics-2.5dpgn: no mate in 1 or fewer" in text, "solve --mate 1 --html: answer")
    p = fived(["solve", puzzle, "--quiet", "--html", os.path.join(tmp, "no-such-dir", "x.html")])
    equal(p.returncode, 2, "solve --html to a path that cannot be written")


def main():
    global FIVED, DATA
    FIVED, DATA = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        structure(tmp)
        threat(tmp)
        solve_html(tmp)
    print("html_cli_test: %s" % ("%d failure(s)" % len(failures) if failures else "ok"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
