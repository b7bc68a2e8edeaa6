#!/usr/bin/env python3
"""The page at / of `esframe run --output http:PORT` in headless Chromium (Debian's chromium),
driven over the DevTools protocol on a pipe (--remote-debugging-pipe). The test reads the canvas'
pixels and checks every column's bar against the histogram of the same frame in the run's own
JSONL (luma, overlay and parade; linear and log scale), shows that the drawing changes between two
frames, reads the health state (OK from the pattern; BLACK, FROZEN and COVERED from Y4M frames
on stdin), restarts esframe on the same port to see the page reconnect, and sees the page wait
for a stream while the server has all it takes. The scope views (waveform, RGB parade,
vectorscope) of a frame of two flat grey halves: the canvas against the picture worked out here
from the counts of the run's own JSONL, and two bright levels in the right columns.

usage: test_http_page.py ESFRAME_BINARY [--screenshot PNG]
"""
import base64
import http.client
import itertools
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
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
             "--disable-dev-shm-usage",  # containers often have a small /dev/shm
             "--remote-debugging-pipe", f"--user-data-dir={profile}",
             "--window-size=1200,700", "about:blank"],
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


# Switches the page to `mode` and `log`, then reads the drawn frame's sequence number, the
# canvas' RGBA pixels and the figures, all in one turn of the page's event loop (click() redraws
# at once; no frame can arrive in between).
SNAPSHOT = """(() => {
  document.querySelector('input[value=%s]').click();
  const log = document.getElementById('log');
  if (log.checked !== %s) log.click();
  const c = document.getElementById('graph');
  const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let bin = '';
  for (let i = 0; i < data.length; ++i) bin += String.fromCharCode(data[i]);
  return {seq: window.esframeView.lastSeq, pixels: btoa(bin),
          figures: document.getElementById('figures').textContent};
})()"""


def snapshot(browser, mode, log):
    shot = browser.evaluate(SNAPSHOT % (mode, "true" if log else "false"))
    shot.update(mode=mode, log=log)
    return shot


def lit_rows(pixels, x):
    """Rows of column x, counted from the bottom, that are not the black background."""
    count = 0
    for y in range(CANVAS_H - 1, -1, -1):
        i = (y * CANVAS_W + x) * 4
        if pixels[i:i + 3] == b"\0\0\0":
            break
        count += 1
    return count


def column_bars(counts, width, log):
    """The page's rule, from the histogram: each of `width` columns as high as the highest of the
    bins that fall in it, in whole pixels."""
    top = max(1, max(counts))
    if log:
        h = [math.log2(c + 1) / math.log2(top + 1) for c in counts]
    else:
        h = [c / top for c in counts]
    n, bars = len(counts), []
    for x in range(width):
        first = x * n // width
        end = max(first + 1, (x + 1) * n // width)
        bars.append(math.floor(max(h[first:end]) * CANVAS_H + 0.5))
    return bars


def expected_columns(frame, mode, log):
    hist = frame["hist"]  # in the JSONL's channel order, as the page iterates it
    if mode == "luma":
        return column_bars(hist["l"], CANVAS_W, log)
    if mode == "parade":
        w = CANVAS_W // len(hist)
        bars = [b for c in hist for b in column_bars(hist[c], w, log)]
        return bars + [0] * (CANVAS_W - len(bars))
    # overlay: a pixel is lit where any channel's bar reaches
    per_channel = [column_bars(hist[c], CANVAS_W, log) for c in hist]
    return [max(col) for col in zip(*per_channel)]


def cell_span(i, n, cells):
    first = i * cells // n
    return first, max(first + 1, (i + 1) * cells // n)


def scope_picture(scopes, name):
    """RGB bytes of the page's canvas for scope `name` (docs/output-formats.md, "Scope graphs",
    linear, without decorations), written here from the documentation: each pixel the sum of the
    cells it covers, brightness max(48, min(255, floor(1020 c / peak))), 0 where c is 0."""
    w, h = CANVAS_W, CANVAS_H
    counts = base64.b64decode(scopes[name]["data"])
    cells = [int.from_bytes(counts[i:i + 4], "little") for i in range(0, len(counts), 4)]
    columns = 256 if name == "vectorscope" else scopes["columns"]
    side = min(w, h)
    sums = {}  # (x, row from the bottom) -> (count, channel or None)
    for x in range(w):
        if name == "vectorscope":
            u = x - (w - side) // 2
            if not 0 <= u < side:
                continue
            for v in range(side):
                cr0, cr1 = cell_span(v, side, 256)
                cb0, cb1 = cell_span(u, side, 256)
                sums[x, v] = (sum(cells[cr * 256 + cb] for cr in range(cr0, cr1)
                                  for cb in range(cb0, cb1)), None)
            continue
        panel, left, right = 0, 0, w
        if name == "parade":
            panel = max(k for k in range(3) if k * w // 3 <= x)
            left, right = panel * w // 3, (panel + 1) * w // 3
        c0, c1 = cell_span(x - left, right - left, columns)
        for row in range(h):
            l0, l1 = cell_span(row, h, 256)
            sums[x, row] = (sum(cells[(panel * columns + c) * 256 + level]
                                for c in range(c0, c1) for level in range(l0, l1)),
                            panel if name == "parade" else None)
    peak = max(c for c, _ in sums.values())
    out = bytearray(w * h * 3)
    for (x, row), (c, channel) in sums.items():
        b = 0 if c == 0 else max(48, min(255, c * 1020 // peak))
        i = ((h - 1 - row) * w + x) * 3
        for k in range(3):
            out[i + k] = b if channel is None or channel == k else 0
    return bytes(out)


def rgb_of(rgba):
    return bytes(b for i, b in enumerate(rgba) if i % 4 != 3)


def lit_rows_of(rgb, x):
    """Rows (from the bottom) of canvas column x that are not black."""
    return [CANVAS_H - 1 - y for y in range(CANVAS_H)
            if rgb[(y * CANVAS_W + x) * 3:(y * CANVAS_W + x) * 3 + 3] != b"\0\0\0"]


# Switches the page to scope view `view` (linear) and, once it has drawn a frame's scopes, reads
# the frame's sequence number, the counts it drew and the canvas, in one turn of the event loop.
SCOPE_SNAPSHOT = """(() => {
  const c = document.getElementById('graph');
  const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let bin = '';
  for (let i = 0; i < data.length; ++i) bin += String.fromCharCode(data[i]);
  return {seq: window.esframeView.scopeSeq, pixels: btoa(bin),
          scopes: window.esframeView.scopeFrame.scopes};
})()"""


class Y4mCamera:
    """`esframe run --backend cpu --source - ARGS --output jsonl --output http:PORT` fed 32x16
    Y4M `frames` (each a Y plane then 4:2:0 chroma) in turn again and again, paced like a camera
    at 10 fps; stdout to `stdout`. `with` it: up once the server answers /api/frame; on leaving,
    the feeding stops and esframe ends (`returncode`, `err`)."""

    WIDTH, HEIGHT = 32, 16

    def __init__(self, frames, args, stdout=subprocess.DEVNULL):
        self.port = test_http_output.free_port()
        self.proc = subprocess.Popen(
            [test_http_output.ESFRAME, "run", "--backend", "cpu", "--source", "-", *args,
             "--output", "jsonl", "--output", f"http:{self.port}"],
            stdin=subprocess.PIPE, stdout=stdout, stderr=subprocess.PIPE)
        self.stop = threading.Event()
        self.feeder = threading.Thread(target=self.feed, args=(frames,))
        self.returncode, self.err = None, ""

    def feed(self, frames):
        try:
            self.proc.stdin.write(
                f"YUV4MPEG2 W{self.WIDTH} H{self.HEIGHT} F10:1 Ip A1:1 C420jpeg\n".encode())
            for i in itertools.count():
                if self.stop.is_set():
                    break
                self.proc.stdin.write(b"FRAME\n" + frames[i % len(frames)])
                self.proc.stdin.flush()
                time.sleep(0.1)
        except BrokenPipeError:
            pass
        finally:
            self.proc.stdin.close()

    def __enter__(self):
        self.feeder.start()
        deadline = time.monotonic() + 30
        while True:  # the server is up once esframe has a frame
            try:
                r, _ = test_http_output.get(self.port, "/api/frame")
                if r.status == 200:
                    return self
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.__exit__()
                raise AssertionError("esframe did not serve")
            time.sleep(0.05)

    def __exit__(self, *exc):
        self.stop.set()
        self.feeder.join()
        self.proc.wait(timeout=30)
        self.err = self.proc.stderr.read().decode()
        self.proc.stderr.close()
        self.returncode = self.proc.returncode
        return False


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

    def check_bars(self, shot, lines):
        frame = json.loads(lines[shot["seq"]])
        pixels = base64.b64decode(shot["pixels"])
        want = expected_columns(frame, shot["mode"], shot["log"])
        drawn = [lit_rows(pixels, x) for x in range(CANVAS_W)]
        for x in range(CANVAS_W):
            if shot["log"]:  # JavaScript's and Python's log2 may round a half differently
                self.assertLessEqual(abs(drawn[x] - want[x]), 1, (shot["mode"], x))
            else:
                self.assertEqual(drawn[x], want[x],
                                 f"{shot['mode']}: column {x} of frame {shot['seq']}")
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
        first = snapshot(b, "luma", False)
        b.wait_for(f"window.esframeView.lastSeq > {first['seq']}")
        shots = [snapshot(b, mode, log) for mode in ("luma", "overlay", "parade")
                 for log in (False, True)]
        second = shots[0]
        self.assertEqual(b.evaluate("document.getElementById('health').textContent"), "OK")
        self.assertEqual(b.evaluate("document.getElementById('link').textContent"), "live")
        if SCREENSHOT:  # overlay mode, log scale: the README's picture
            snapshot(b, "overlay", True)
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

        drawn_first = self.check_bars(first, lines)
        drawn_second = self.check_bars(second, lines)
        self.assertNotEqual(first["seq"], second["seq"])
        self.assertNotEqual(drawn_first, drawn_second, "the histogram did not change")
        for shot in shots[1:]:
            self.check_bars(shot, lines)
        frame = json.loads(lines[second["seq"]])
        self.assertTrue(second["figures"].startswith(f"frame {frame['seq']}  97x61 RGBA32"),
                        second["figures"])

    def test_a_busy_server_is_asked_again(self):
        # Every stream taken (clients=1, held here): the server answers 503, which EventSource
        # does not retry by itself; the page says so and asks again until the stream is free.
        run = test_http_output.Run(size=(97, 61), frames=None, http_options=",clients=1")
        self.runs.append(run)
        conn = http.client.HTTPConnection("127.0.0.1", run.port, timeout=10)
        conn.request("GET", "/api/events")
        held = conn.getresponse()
        self.assertEqual(held.status, 200)
        self.browser = Browser(os.path.join(self.dir, "profile"))
        b = self.browser
        b.page("Page.navigate", url=f"http://127.0.0.1:{run.port}/")
        b.wait_for("window.esframeView && "
                   "document.getElementById('link').textContent === 'busy, retrying'")
        time.sleep(4)  # past one retry: still busy, nothing drawn
        self.assertEqual(b.evaluate("document.getElementById('link').textContent"),
                         "busy, retrying")
        self.assertEqual(b.evaluate("window.esframeView.frames"), 0)
        held.close()
        conn.close()
        b.wait_for("document.getElementById('link').textContent === 'live'", timeout=20)
        b.wait_for("window.esframeView.frames >= 1")

    def camera_state(self, frames, keys, want, want_class):
        """Y4M frames (Y4mCamera) through --health=`keys`: waits for the page's health state
        (the last frame's) to read `want`, then checks its class."""
        with Y4mCamera(frames, ["--health", keys]) as camera:
            if not self.browser:
                self.browser = Browser(os.path.join(self.dir, "profile"))
            b = self.browser
            b.page("Page.navigate", url=f"http://127.0.0.1:{camera.port}/")
            b.wait_for("window.esframeView && window.esframeView.frames >= 1")
            b.wait_for(f"document.getElementById('health').textContent === '{want}'")
            self.assertEqual(b.evaluate("document.getElementById('health').className"),
                             want_class)
        self.assertEqual(camera.returncode, 0, camera.err)

    def test_scopes_of_two_flat_halves(self):
        # A 32x16 frame, left half Y 60, right half Y 190, chroma 128 (grey), again and again.
        width, height = Y4mCamera.WIDTH, Y4mCamera.HEIGHT
        luma = bytes(60 if x < width // 2 else 190 for y in range(height) for x in range(width))
        frame = luma + bytes([128]) * (width * height // 2)
        out_path = os.path.join(self.dir, "run.jsonl")
        shots = {}
        with open(out_path, "wb") as out, \
                Y4mCamera([frame], ["--scopes", "waveform,parade,vectorscope"], out) as camera:
            # A plain /api/frame leaves the counts out; ?scopes=1 has them.
            _, body = test_http_output.get(camera.port, "/api/frame")
            self.assertNotIn("scopes", json.loads(body))
            _, body = test_http_output.get(camera.port, "/api/frame?scopes=1")
            self.assertEqual(sorted(json.loads(body)["scopes"]),
                             ["columns", "parade", "vectorscope", "vectorscope_samples",
                              "waveform"])
            self.browser = Browser(os.path.join(self.dir, "profile"))
            b = self.browser
            b.page("Page.navigate", url=f"http://127.0.0.1:{camera.port}/")
            b.wait_for("window.esframeView && window.esframeView.frames >= 1")
            for view in ("waveform", "rgbparade", "vectorscope"):
                b.evaluate(f"document.querySelector('input[name=view][value={view}]').click()")
                b.wait_for("window.esframeView.scopeSeq !== null")
                shots[view] = b.evaluate(SCOPE_SNAPSHOT)
        self.assertEqual(camera.returncode, 0, camera.err)
        with open(out_path, "rb") as f:
            lines = test_http_output.jsonl_by_seq(f.read().decode())

        names = {"waveform": "waveform", "rgbparade": "parade", "vectorscope": "vectorscope"}
        rows = {}
        for view, shot in shots.items():
            name = names[view]
            # The counts the page drew are the frame's in the run's own JSONL.
            record = json.loads(lines[shot["seq"]])
            self.assertEqual(shot["scopes"][name], record["scopes"][name], view)
            rgb = rgb_of(base64.b64decode(shot["pixels"]))
            want = scope_picture(record["scopes"], name)
            diffs = sum(1 for i in range(0, len(want), 3) if want[i:i + 3] != rgb[i:i + 3])
            self.assertEqual(diffs, 0, f"{view}: canvas pixels unlike the documented picture")
            rows[view] = [lit_rows_of(rgb, x) for x in range(CANVAS_W)]

        # Two bright levels: each waveform column lit on one row (256 rows: one level each), the
        # same row across each half, the right half (Y 190) above the left (Y 60).
        wave = rows["waveform"]
        self.assertTrue(all(len(r) == 1 for r in wave), wave)
        left, right = wave[0][0], wave[CANVAS_W - 1][0]
        self.assertTrue(all(r == [left] for r in wave[:CANVAS_W // 2]))
        self.assertTrue(all(r == [right] for r in wave[CANVAS_W // 2:]))
        self.assertGreater(right, left + 100)
        # Grey: each parade panel shows R, G, B at the waveform's two levels, each half of it.
        parade = rows["rgbparade"]
        for k in range(3):
            x0, x1 = k * CANVAS_W // 3, (k + 1) * CANVAS_W // 3
            half = x0 + (x1 - x0 + 1) // 2  # the first pixel showing column 16 of 32
            self.assertTrue(all(parade[x] == [left] for x in range(x0, half)), k)
            self.assertTrue(all(parade[x] == [right] for x in range(half, x1)), k)
        # Every chroma sample is (128, 128): one pixel lit, the square's centre.
        lit = [(x, r) for x in range(CANVAS_W) for r in rows["vectorscope"][x]]
        self.assertEqual(lit, [(CANVAS_W // 2, 128)])

    def test_black_frozen_and_covered_cameras(self):
        width, height = 32, 16
        chroma = bytes([128]) * (width * height // 2)
        # Limited-range black: blackdetect's rule says BLACK on the first frame.
        self.camera_state([bytes([16]) * (width * height) + chroma], "", "BLACK", "state bad")
        # A held picture with detail: freezedetect's MAFD is 0 from the second frame.
        detail = bytes((37 * x + 91 * y) % 200 + 20 for y in range(height) for x in range(width))
        self.camera_state([detail + chroma], "", "FROZEN", "state bad")
        # A flat picture whose level moves (a lens sprayed over, the exposure hunting): every
        # cell of a 2x2 grid flat, not frozen (MAFD 4/256 > noise).
        self.camera_state([bytes([v]) * (width * height) + chroma for v in (128, 132)],
                          "grid=2x2", "COVERED", "state bad")


if __name__ == "__main__":
    test_http_output.ESFRAME = os.path.abspath(sys.argv.pop(1))
    if "--screenshot" in sys.argv:
        i = sys.argv.index("--screenshot")
        SCREENSHOT = os.path.abspath(sys.argv[i + 1])
        del sys.argv[i:i + 2]
    unittest.main()
