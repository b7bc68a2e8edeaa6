#!/usr/bin/env python3
"""The page at / of `esframe run --output http:PORT` in headless Chromium (Debian's chromium),
driven over the DevTools protocol on a pipe (--remote-debugging-pipe). The test reads the canvas'
pixels and checks every column's bar against the histogram of the same frame in the run's own
JSONL (luma mode, linear and log scale), shows that the drawing changes between two frames, reads
the health state, and restarts esframe on the same port to see the page reconnect.

usage: test_http_page.py ESFRAME_BINARY [--screenshot PNG]
"""
import base64
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_http_output  # noqa: E402  (the Run helper)

SCREENSHOT = None
CANVAS_W, CANVAS_H = 512, 256


class Browser:
    """Headless Chromium, one page, commands over the DevTools pipe (fd 3 in, fd 4 out)."""

    def __init__(self, profile):
        chromium = shutil.which("chromium")
        assert chromium, "chromium is not installed (toolchain/setup-debian.sh browser)"
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()

        def fds():
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        self.proc = subprocess.Popen(
            [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--remote-debugging-pipe", f"--user-data-dir={profile}",
             f"--window-size=1200,700", "about:blank"],
            preexec_fn=fds, pass_fds=(3, 4), stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buffer = b""
        self.next_id = 0
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"],
                                 flatten=True)["sessionId"]

    def call(self, method, session=None, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" not in self.buffer:
                chunk = os.read(self.from_browser, 1 << 20)
                assert chunk, "chromium closed the DevTools pipe"
                self.buffer += chunk
            text, self.buffer = self.buffer.split(b"\0", 1)
            reply = json.loads(text)
            if reply.get("id") == self.next_id:
                assert "error" not in reply, reply["error"]
                return reply["result"]

    def page(self, method, **params):
        return self.call(method, session=self.session, **params)

    def evaluate(self, expression):
        result = self.page("Runtime.evaluate", expression=expression, returnByValue=True,
                           awaitPromise=True)
        assert "exceptionDetails" not in result, result["exceptionDetails"]
        return result["result"].get("value")

    def wait_for(self, expression, timeout=15):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {expression}")

    def close(self):
        try:
            self.call("Browser.close")
        except (AssertionError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_browser)
        os.close(self.from_browser)


# The drawn frame's sequence number and the canvas' RGBA pixels, read in one turn of the page's
# event loop (no frame can arrive in between).
SNAPSHOT = """(() => {
  const c = document.getElementById('graph');
  const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let bin = '';
  for (let i = 0; i < data.length; ++i) bin += String.fromCharCode(data[i]);
  return {seq: window.esframeView.lastSeq, pixels: btoa(bin),
          figures: document.getElementById('figures').textContent};
})()"""


def lit_rows(pixels, x):
    """Rows of column x, counted from the bottom, that are not the black background."""
    count = 0
    for y in range(CANVAS_H - 1, -1, -1):
        i = (y * CANVAS_W + x) * 4
        if pixels[i:i + 3] == b"\0\0\0":
            break
        count += 1
    return count


def expected_heights(counts, log):
    top = max(1, max(counts))
    if log:
        return [round(math.log2(c + 1) / math.log2(top + 1) * CANVAS_H) for c in counts]
    return [math.floor(c / top * CANVAS_H + 0.5) for c in counts]


class HttpPageTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="esframe-page-")
        self.runs = []
        self.browser = None

    def tearDown(self):
        if self.browser:
            self.browser.close()
        for run in self.runs:
            run.stop()
        shutil.rmtree(self.dir)

    def check_bars(self, snapshot, lines, log):
        frame = json.loads(lines[snapshot["seq"]])
        counts = frame["hist"]["l"]
        self.assertEqual(len(counts), 256)
        pixels = base64.b64decode(snapshot["pixels"])
        heights = expected_heights(counts, log)
        drawn = [lit_rows(pixels, x) for x in range(CANVAS_W)]
        for x in range(CANVAS_W):  # two columns a bin
            want = heights[x // 2]
            if log:  # JavaScript's and Python's log2 may round a half differently
                self.assertLessEqual(abs(drawn[x] - want), 1, (x, drawn[x], want))
            else:
                self.assertEqual(drawn[x], want, f"column {x} of frame {snapshot['seq']}")
        self.assertGreater(sum(drawn), 0)
        return drawn

    def test_live_histogram_health_and_reconnect(self):
        run = test_http_output.Run("--health", "", size=(97, 61), frames=None)
        self.runs.append(run)
        self.browser = Browser(os.path.join(self.dir, "profile"))
        b = self.browser
        b.page("Page.enable")
        b.page("Page.navigate", url=f"http://127.0.0.1:{run.port}/")
        b.wait_for("window.esframeView && window.esframeView.frames >= 1")
        b.evaluate("document.querySelector('input[value=luma]').click()")
        first = b.evaluate(SNAPSHOT)
        b.wait_for(f"window.esframeView.lastSeq > {first['seq']}")
        second = b.evaluate(SNAPSHOT)
        b.evaluate("document.getElementById('log').click()")
        logged = b.evaluate(SNAPSHOT)
        self.assertEqual(b.evaluate("document.getElementById('health').textContent"), "OK")
        self.assertEqual(b.evaluate("document.getElementById('link').textContent"), "live")
        if SCREENSHOT:  # overlay mode, log scale: the README's picture
            b.evaluate("document.querySelector('input[value=overlay]').click()")
            b.wait_for("document.getElementById('frame').complete && "
                       "document.getElementById('frame').naturalWidth > 0")
            time.sleep(0.5)
            shot = b.page("Page.captureScreenshot", format="png")["data"]
            with open(SCREENSHOT, "wb") as f:
                f.write(base64.b64decode(shot))

        # The server goes away and comes back on the same port: the page follows the new run.
        run.proc.send_signal(signal.SIGTERM)
        code, out, err = run.finish()
        self.assertEqual(code, 0, err)
        b.wait_for("document.getElementById('link').textContent === 'reconnecting'")
        lines = test_http_output.jsonl_by_seq(out)
        again = test_http_output.Run("--health", "", size=(97, 61), frames=None, port=run.port)
        self.runs.append(again)
        frames = b.evaluate("window.esframeView.frames")
        b.wait_for("window.esframeView.connections === 2", timeout=20)
        b.wait_for(f"window.esframeView.frames > {frames}")
        self.assertEqual(b.evaluate("document.getElementById('link').textContent"), "live")

        drawn_first = self.check_bars(first, lines, log=False)
        drawn_second = self.check_bars(second, lines, log=False)
        self.check_bars(logged, lines, log=True)
        self.assertNotEqual(drawn_first, drawn_second, "the histogram did not change")
        frame = json.loads(lines[logged["seq"]])
        self.assertTrue(logged["figures"].startswith(f"frame {frame['seq']}  97x61 RGBA32"),
                        logged["figures"])


if __name__ == "__main__":
    test_http_output.ESFRAME = os.path.abspath(sys.argv.pop(1))
    if "--screenshot" in sys.argv:
        i = sys.argv.index("--screenshot")
        SCREENSHOT = os.path.abspath(sys.argv[i + 1])
        del sys.argv[i:i + 2]
    unittest.main()
