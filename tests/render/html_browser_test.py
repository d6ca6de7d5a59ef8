#!/usr/bin/env python3
"""The solution viewer in a real browser: headless Chromium (Debian's `chromium`) loads the page
`fived solve --problemist --tries --html` writes from a file:// URL, and this script, speaking the
Chrome DevTools Protocol over --remote-debugging-pipe (standard library only, nothing fetched),
clicks into a variation with real mouse events, presses the arrow keys, and checks each time which
node is shown: one frame visible, the one of the move chosen, its picture different from the one
before and with the moved piece's arrow. Screenshots (before and after the click) are kept in
OUTDIR as test artefacts.

Usage: html_browser_test.py FIVED PUZZLE OUTDIR
Chromium missing is a failure (scripts/install-deps.sh installs it), not a skip.
"""
import base64
import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile


class Failure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failure(what)


class Browser:
    """Chromium driven over the DevTools pipe: fd 3 carries our commands, fd 4 its answers and
    events, each message a JSON text ended by a NUL byte."""

    def __init__(self, exe, profile):
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()

        def child_fds():
            # Out of the way first (a pipe may already sit on fd 3 or 4), then onto 3 and 4.
            a = fcntl.fcntl(to_r, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(from_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        args = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                "--disable-dev-shm-usage",  # a container's small /dev/shm
                "--user-data-dir=" + profile, "--remote-debugging-pipe", "about:blank"]
        self.proc = subprocess.Popen(args, preexec_fn=child_fds, close_fds=False,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True)
        os.close(to_r)
        os.close(from_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def close(self):
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()
        os.close(self.to_w)
        os.close(self.from_r)

    def _read_message(self):
        while b"\0" not in self.buf:
            chunk = os.read(self.from_r, 1 << 16)
            if not chunk:
                raise Failure("chromium closed the DevTools pipe (exit status %s)"
                              % self.proc.poll())
            self.buf += chunk
        text, self.buf = self.buf.split(b"\0", 1)
        return json.loads(text)

    def send(self, method, session=None, **params):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params}
        if session:
            msg["sessionId"] = session
        data = json.dumps(msg).encode() + b"\0"
        while data:
            data = data[os.write(self.to_w, data):]
        while True:
            m = self._read_message()
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise Failure("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method):
        while True:
            for i, m in enumerate(self.events):
                if m.get("method") == method:
                    return self.events.pop(i)
            self.events.append(self._read_message())


class Page:
    def __init__(self, browser, url):
        self.b = browser
        target = browser.send("Target.createTarget", url="about:blank")["targetId"]
        self.s = browser.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.send("Page.enable")
        self.send("Emulation.setDeviceMetricsOverride", width=1400, height=900,
                  deviceScaleFactor=1, mobile=False)
        self.send("Page.navigate", url=url)
        self.b.wait_event("Page.loadEventFired")

    def send(self, method, **params):
        return self.b.send(method, session=self.s, **params)

    def js(self, expression):
        r = self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in r:
            raise Failure("script error in %r: %s" % (expression, r["exceptionDetails"]))
        return r["result"].get("value")

    def click(self, selector):
        """A real click: mouse pressed and released at the element's centre."""
        rect = self.js("(function(){var e=document.querySelector(%s);"
                       "e.scrollIntoView({block:'center'});var r=e.getBoundingClientRect();"
                       "return [r.left+r.width/2, r.top+r.height/2];})()" % json.dumps(selector))
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", type=kind, x=rect[0], y=rect[1],
                      button="left", clickCount=1)

    def key(self, name, code):
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", type=kind, key=name, code=name,
                      windowsVirtualKeyCode=code, nativeVirtualKeyCode=code)

    def screenshot(self, path):
        data = self.send("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
        check(os.path.getsize(path) > 1000, path + ": empty screenshot")

    def state(self):
        """The node shown: body's data-current, the visible frames, the current move's text."""
        return self.js("""(function(){
            var vis = Array.from(document.querySelectorAll('.frame')).filter(
                function(f){ return !f.hidden && f.getBoundingClientRect().height > 0; });
            var cur = document.querySelectorAll('a.mv.current');
            return {current: document.body.dataset.current,
                    visible: vis.map(function(f){ return f.dataset.node; }),
                    svg: vis.length ? vis[0].innerHTML : '',
                    move: cur.length === 1 ? cur[0].textContent : null,
                    moves: cur.length};
        })()""")


def expect_shown(page, node, move_text, before_svg):
    st = page.state()
    check(st["current"] == node, "shown node %s, expected %s" % (st["current"], node))
    check(st["visible"] == [node], "visible frames %s, expected [%s]" % (st["visible"], node))
    check(st["moves"] == 1, "%d moves marked current" % st["moves"])
    check(st["move"] == move_text, "current move %r, expected %r" % (st["move"], move_text))
    check(st["svg"] != before_svg, "the picture of node %s is the one shown before" % node)
    return st


def run(fived, puzzle, outdir):
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        raise Failure("chromium is not installed (Debian package `chromium`, installed by "
                      "scripts/install-deps.sh): the browser test cannot run")
    os.makedirs(outdir, exist_ok=True)
    html = os.path.join(outdir, "html_browser_test.html")
    subprocess.run([fived, "solve", puzzle, "--quiet", "--problemist", "--tries", "--html",
                    html], check=True, stdout=subprocess.DEVNULL)
    with tempfile.TemporaryDirectory() as profile:
        browser = Browser(exe, profile)
        try:
            page = Page(browser, "file://" + os.path.abspath(html))
            # Rook Tactics II (tests/solver/data/rook-tactics-2.5dpgn), mate in 2: the page opens
            # on the puzzle position, node 2 (after the file's two actions, the prelude).
            st = page.state()
            check(st["current"] == "2" and st["visible"] == ["2"],
                  "first shown: %s, frames %s; expected the puzzle position, node 2"
                  % (st["current"], st["visible"]))
            check(st["move"] == "1b. (0T1)Kf5f4", "puzzle position's move: %r" % st["move"])
            check(page.js("document.querySelectorAll('a.mv.key').length") == 1, "one key")
            check(page.js("document.querySelector('.note.threat').textContent")
                  == "{checking key: no threat}", "the key's threat note")
            check(page.js("document.querySelectorAll('li.try').length") == 2, "two tries")
            page.screenshot(os.path.join(outdir, "html_browser_start.png"))
            start_svg = st["svg"]

            # Into the variation: the black king's jump to (0T1)f3, a sibling of the main line.
            var = "a.mv[id='m%s']" % page.js(
                "Array.from(document.querySelectorAll('.var a.mv')).find(function(a){"
                "return a.textContent.indexOf('(0T2)Kf4>>(0T1)f3') >= 0;}).dataset.node")
            page.click(var)
            node = page.js("document.querySelector(%s).dataset.node" % json.dumps(var))
            st = expect_shown(page, node, "2b. (0T2)Kf4>>(0T1)f3", start_svg)
            # Its picture: the new timeline L-1 and the king's jump as the last action's arrow.
            check("L-1</text>" in st["svg"], "no timeline L-1 after the jump")
            check("url(#n%s-head-last)" % node in st["svg"], "no last-action arrow")
            check("after 2b. (0T2)Kf4&gt;&gt;(0T1)f3" in st["svg"], "caption of the variation")
            page.screenshot(os.path.join(outdir, "html_browser_variation.png"))
            var_svg = st["svg"]

            # → the answer that mates in that line, ← back, ↓ / ↑ the sibling defences.
            page.key("ArrowRight", 39)
            st = expect_shown(page, str(page.js("K[%s][0]" % node)), "3w. (-1T2)Rb1f1#", var_svg)
            check("checkmate" in st["svg"], "the mate is not drawn as checkmate")
            mate_svg = st["svg"]
            page.key("ArrowLeft", 37)
            st = expect_shown(page, node, "2b. (0T2)Kf4>>(0T1)f3", mate_svg)
            check(st["svg"] == var_svg, "← shows another picture of the variation")
            page.key("ArrowUp", 38)
            st = expect_shown(page, str(page.js("K[P[%s]][0]" % node)),
                              "2b. (0T2)Kf4>>(0T1)f4", var_svg)
            page.key("ArrowDown", 40)
            expect_shown(page, node, "2b. (0T2)Kf4>>(0T1)f3", st["svg"])
            page.screenshot(os.path.join(outdir, "html_browser_keys.png"))
        finally:
            browser.close()


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        run(*sys.argv[1:])
    except (Failure, subprocess.CalledProcessError) as e:
        print("html_browser_test: FAILED: %s" % e, file=sys.stderr)
        return 1
    print("html_browser_test: ok (screenshots in %s)" % sys.argv[3])
    return 0


if __name__ == "__main__":
    sys.exit(main())
