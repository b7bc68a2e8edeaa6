#!/usr/bin/env python3
"""`esframe run --source URI`: network streams through GStreamer against real servers on
127.0.0.1, each compared frame by frame with the same frames read from files.

- RTSP: gst-rtsp-server (rtsp_test_server.py) serves an H.264 encoding of a clip made here; its
  histograms, over TCP and over UDP, equal those of the same file decoded to Y4M by ffmpeg and
  read as a file (over UDP, each frame that comes equals the file's at its seq).
- A packet lost in transit (the server drops one): the frames decoded from it until the next
  keyframe are skipped and counted in "corrupted", and each frame delivered is the file's.
- HTTP: MJPEG multipart and Y4M (as go2rtc's /api/stream.y4m) from http.server; equal to the JPEG
  files decoded to Y4M by GStreamer's jpegdec in another process, and to the Y4M file itself.
- An outage: the RTSP server stopped and started again gives one camera_offline (and
  esframe_camera_up 0 in the Prometheus file), then one camera_online with the outage's length
  (esframe_camera_up 1), and the run goes on; with mosquitto installed, both events on MQTT's
  TOPIC/events and TOPIC/health "offline" then "ok".
- The same outage on the HTTP output's event stream (/api/events, read by curl -N): both events
  as the JSONL has them.
- Bad input: a refused connection with --timeout, a URL that serves HTML, a missing module, a
  missing GStreamer plugin, credentials in the URI and in a file (never printed).

usage: test_network_source.py ESFRAME_BINARY
"""
import http.server
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

from service_support import free_port

ESFRAME = None
HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = "/usr/bin/python3"  # Debian's, with python3-gi and GstRtspServer
W, H, FRAMES, FPS = 320, 240, 40, 10
# Outages of the RTSP server in a row: 1 in CI; ESF_NETWORK_OUTAGES=20 for the leak figures.
OUTAGES = int(os.environ.get("ESF_NETWORK_OUTAGES", "1"))


def run(args, **kw):
    try:
        return subprocess.run([ESFRAME] + args, capture_output=True, text=True, timeout=120, **kw)
    except subprocess.TimeoutExpired as e:
        # What the run said before it was killed is the only trace of where it stood.
        def tail(out):
            text = out.decode(errors="replace") if isinstance(out, bytes) else (out or "")
            return "\n".join(text.splitlines()[-15:])
        raise AssertionError(f"esframe {' '.join(args)}: no exit within {e.timeout} s\n"
                             f"stderr:\n{tail(e.stderr)}\nstdout:\n{tail(e.stdout)}") from None


def histograms(jsonl):
    """The frame lines' histograms, in order."""
    return [json.loads(line)["hist"] for line in jsonl.splitlines() if '"hist"' in line]


def y4m_frames(path):
    with open(path, "rb") as f:
        data = f.read()
    header_end = data.index(b"\n") + 1
    frames, at = [], header_end
    while at < len(data):
        end = data.index(b"\n", at) + 1
        frames.append(data[at:end] + data[end:end + W * H * 3 // 2])
        at = end + W * H * 3 // 2
    return data[:header_end], frames


# A live H.264 stream for the outage tests: each client gets its own, from its start.
LIVE = ("( videotestsrc is-live=true pattern=ball ! video/x-raw,width=160,height=120,"
        "framerate=10/1 ! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=10 "
        "! rtph264pay name=pay0 pt=96 config-interval=1 )")


def read_json_until(proc, lines, predicate, seconds):
    """Reads proc's JSONL into `lines` until a line satisfies `predicate`; that line."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(json.loads(line))
        if predicate(lines[-1]):
            return lines[-1]
    raise AssertionError(f"not seen within {seconds} s; last: {lines[-1:]}")


class RtspServer:
    """rtsp_test_server.py in its own process, on `port`."""

    def __init__(self, port, mount, launch, auth=None, damage=None):
        args = [PYTHON, os.path.join(HERE, "rtsp_test_server.py")]
        if damage:
            args += ["--damage", str(damage)]
        args += [str(port), mount, launch]
        if auth:
            args.append(auth)
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline().strip()
        assert line == "ready", f"rtsp_test_server.py: {line!r}"

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)
        self.proc.stdout.close()


class HttpStreams(http.server.ThreadingHTTPServer):
    """/stream.mjpg: multipart JPEG; /stream.y4m: a Y4M file; /page.html: HTML. Paced at FPS."""

    def __init__(self, jpegs, y4m_path):
        self.jpegs = jpegs
        self.y4m_header, self.y4m_frames = y4m_frames(y4m_path)
        self.once_served = False
        super().__init__(("127.0.0.1", 0), HttpHandler)
        self.daemon_threads = True
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def base(self):
        return f"http://127.0.0.1:{self.server_address[1]}"


class HttpHandler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        try:
            if self.path == "/stream.mjpg":
                self.send_response(200)
                self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
                self.end_headers()
                for jpeg in self.server.jpegs:
                    self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: " +
                                     str(len(jpeg)).encode() + b"\r\n\r\n" + jpeg + b"\r\n")
                    self.wfile.flush()
                    time.sleep(1 / FPS)
            elif self.path == "/stream.y4m":
                self.send_response(200)
                self.send_header("Content-Type", "application/octet-stream")
                self.end_headers()
                self.wfile.write(self.server.y4m_header)
                for frame in self.server.y4m_frames:
                    self.wfile.write(frame)
                    self.wfile.flush()
                    time.sleep(1 / FPS)
            elif self.path == "/once.y4m" and not self.server.once_served:
                # As fast as the socket takes it, once: more than the source's queue holds.
                self.server.once_served = True
                self.send_response(200)
                self.end_headers()
                self.wfile.write(self.server.y4m_header + b"".join(self.server.y4m_frames))
            elif self.path != "/page.html":
                self.send_error(404)
            else:
                body = b"<html><body>not a stream</body></html>"
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # esframe stopped reading after its frames


class NetworkSourceTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="esframe-network-")
        d = cls.dir
        ff = ["ffmpeg", "-v", "error", "-y"]
        src = ["-f", "lavfi", "-i", f"testsrc2=size={W}x{H}:rate={FPS}", "-frames:v", str(FRAMES)]
        # The clip as H.264 (no B-frames: RTP carries it in decode order) and ffmpeg's decode.
        subprocess.run(ff + src + ["-pix_fmt", "yuv420p", "-c:v", "libx264", "-g", "10", "-bf",
                                   "0", f"{d}/clip.mkv"], check=True)
        subprocess.run(ff + ["-i", f"{d}/clip.mkv", "-f", "yuv4mpegpipe", "-pix_fmt", "yuv420p",
                             f"{d}/clip.y4m"], check=True)
        # The same clip as JPEG files, and those decoded by GStreamer's jpegdec (JPEG is full range:
        # y4menc does not say so, XCOLORRANGE=FULL does).
        subprocess.run(ff + src + ["-pix_fmt", "yuvj420p", "-q:v", "3", f"{d}/f%03d.jpg"],
                       check=True)
        subprocess.run(["gst-launch-1.0", "-q", "multifilesrc", f"location={d}/f%03d.jpg",
                        "index=1", f"stop-index={FRAMES}", "caps=image/jpeg,framerate=10/1", "!",
                        "jpegdec", "!", "y4menc", "!", "filesink", f"location={d}/jpeg.y4m"],
                       check=True)
        with open(f"{d}/jpeg.y4m", "rb") as f:
            data = f.read()
        nl = data.index(b"\n")
        with open(f"{d}/jpeg.y4m", "wb") as f:
            f.write(data[:nl] + b" XCOLORRANGE=FULL" + data[nl:])
        cls.jpegs = []
        for i in range(1, FRAMES + 1):
            with open(f"{d}/f{i:03d}.jpg", "rb") as f:
                cls.jpegs.append(f.read())
        cls.http = HttpStreams(cls.jpegs, f"{d}/clip.y4m")

    @classmethod
    def tearDownClass(cls):
        cls.http.shutdown()
        shutil.rmtree(cls.dir, ignore_errors=True)

    def file_histograms(self, path):
        r = run(["run", "--source", path, "--backend", "cpu", "--histogram", "channels=rgbl"])
        self.assertEqual(r.returncode, 0, r.stderr)
        hists = histograms(r.stdout)
        self.assertEqual(len(hists), FRAMES)
        return hists

    def frames_at_their_seq(self, uri, reference, extra=(), frames=FRAMES):
        """esframe's frame lines for `frames` frames of `uri`; each must equal the reference
        file's frame at its seq. Prints how many did."""
        r = run(["run", "--source", uri, "--backend", "cpu", "--histogram", "channels=rgbl",
                 "--frames", str(frames), *extra])
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = [json.loads(line) for line in r.stdout.splitlines() if '"hist"' in line]
        self.assertEqual(len(lines), frames)
        want = self.file_histograms(reference)
        equal = sum(line["hist"] == want[line["seq"] - 1] for line in lines)
        shown = uri.split("@")[-1]  # the test's own line names no password either
        skipped = sum(line["corrupted"] for line in lines)
        print(f"{' '.join([shown, *extra])}: {equal} of {frames} frames equal to "
              f"{os.path.basename(reference)}'s at their seq; {skipped} lost in transit")
        self.assertEqual(equal, frames)
        return r, lines

    def assert_same_frames(self, uri, reference, extra=()):
        """All of the reference's frames, in order, none dropped or lost."""
        r, lines = self.frames_at_their_seq(uri, reference, extra)
        self.assertEqual([line["seq"] for line in lines], list(range(1, FRAMES + 1)))
        self.assertEqual([line["dropped"] + line["corrupted"] for line in lines], [0] * FRAMES)
        return r

    def test_rtsp_h264_equals_ffmpeg_decode(self):
        port = free_port()
        server = RtspServer(port, "/clip", f"( filesrc location={self.dir}/clip.mkv ! "
                            "matroskademux ! h264parse ! rtph264pay name=pay0 pt=96 "
                            "config-interval=1 )")
        try:
            with self.subTest(transport="tcp"):
                self.assert_same_frames(f"rtsp://127.0.0.1:{port}/clip", f"{self.dir}/clip.y4m",
                                        ["--transport", "tcp"])
            # UDP on a loaded machine can lose a packet (a receiver held off the CPU past the
            # jitter buffer's 200 ms): the frames decoded from it are skipped and counted, so
            # 30 of the 40 are asked for, and each that comes is the file's at its seq.
            with self.subTest(transport="udp"):
                self.frames_at_their_seq(f"rtsp://127.0.0.1:{port}/clip", f"{self.dir}/clip.y4m",
                                         ["--transport", "udp"], frames=30)
        finally:
            server.stop()

    def test_rtsp_packet_lost_in_transit(self):
        # The server loses one packet of a frame from the 15th on (a frame of several packets):
        # that frame and the rest of its group of 10 (a keyframe every 10) are never delivered,
        # the next keyframe's line counts them in "corrupted", one warning says so, and every
        # frame delivered is the file's at its seq. Over TCP, so no other packet is lost; 24
        # frames reach past the next keyframe wherever the frame of several packets falls.
        port, frames = free_port(), 24
        prom = f"{self.dir}/lost.prom"
        server = RtspServer(port, "/clip", f"( filesrc location={self.dir}/clip.mkv ! "
                            "matroskademux ! h264parse ! rtph264pay name=pay0 pt=96 "
                            "config-interval=1 )", damage=15)
        try:
            r = run(["run", "--source", f"rtsp://127.0.0.1:{port}/clip", "--transport", "tcp",
                     "--backend", "cpu", "--histogram", "channels=rgbl", "--frames", str(frames),
                     "--output", f"prom:{prom},every=0", "--output", "jsonl"])
        finally:
            server.stop()
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = [json.loads(line) for line in r.stdout.splitlines() if '"hist"' in line]
        seqs = [line["seq"] for line in lines]
        self.assertEqual(len(seqs), frames)
        first_lost = next((i + 1 for i, seq in enumerate(seqs) if seq != i + 1), None)
        self.assertIsNotNone(first_lost, f"no frame skipped: {seqs}")
        self.assertGreaterEqual(first_lost, 15)
        resumed = (first_lost - 1) // 10 * 10 + 11  # the next keyframe
        self.assertEqual(seqs, list(range(1, first_lost)) +
                         list(range(resumed, resumed + frames - first_lost + 1)))
        self.assertEqual([line["corrupted"] for line in lines],
                         [resumed - first_lost if line["seq"] == resumed else 0 for line in lines])
        self.assertEqual(sum(line["dropped"] for line in lines), 0)
        want = self.file_histograms(f"{self.dir}/clip.y4m")
        for line in lines:
            self.assertEqual(line["hist"], want[line["seq"] - 1], f"seq {line['seq']}")
        self.assertEqual(r.stderr.count("data lost in transit"), 1, r.stderr)
        # And for a Prometheus scrape, the sum.
        with open(prom) as f:
            metrics = f.read()
        self.assertRegex(metrics, rf"\nesframe_source_corrupted_frames_total{{[^}}]*}} "
                                  rf"{resumed - first_lost}\n")
        print(f"one packet lost in frame {first_lost}: frames {first_lost} to {resumed - 1} "
              f"skipped, {resumed - first_lost} counted in seq {resumed}'s \"corrupted\", "
              f"{len(lines)} delivered, each the file's at its seq")

    def test_rtsp_credentials_never_printed(self):
        port = free_port()
        secret = "s3cret-pw"
        server = RtspServer(port, "/clip", f"( filesrc location={self.dir}/clip.mkv ! "
                            "matroskademux ! h264parse ! rtph264pay name=pay0 pt=96 "
                            "config-interval=1 )", f"viewer:{secret}")
        try:
            # In the URI: the frames come, and no line names the password.
            r = self.assert_same_frames(f"rtsp://viewer:{secret}@127.0.0.1:{port}/clip",
                                        f"{self.dir}/clip.y4m", ["--transport", "tcp"])
            self.assertNotIn(secret, r.stdout + r.stderr)
            self.assertIn(f"rtsp://viewer:***@127.0.0.1:{port}/clip", r.stdout)
            # From a file.
            creds = f"{self.dir}/creds"
            with open(creds, "w") as f:
                f.write(f"viewer:{secret}\n")
            r = run(["-v", "run", "--source", f"rtsp://127.0.0.1:{port}/clip", "--transport",
                     "tcp", "--credentials", creds, "--frames", "3", "--backend", "cpu"])
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertNotIn(secret, r.stdout + r.stderr)
            # The CPU executor takes frames in system memory; -v says so and counts them.
            self.assertIn(f"rtsp://127.0.0.1:{port}/clip: frames come in system memory", r.stderr)
            counts = re.search(r"(\d+) frames imported from dmabufs without a copy, (\d+) from "
                               r"system memory", r.stderr)
            self.assertIsNotNone(counts, r.stderr)
            self.assertEqual(int(counts[1]), 0)
            self.assertGreaterEqual(int(counts[2]), 3)  # the run loop may have read one ahead
            # A wrong password: one line, exit 1, the password not in it.
            r = run(["run", "--source", f"rtsp://viewer:wrong-{secret}@127.0.0.1:{port}/clip",
                     "--transport", "tcp", "--frames", "3", "--backend", "cpu"])
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
            self.assertIn("credentials", r.stderr)
            self.assertNotIn(secret, r.stderr)
        finally:
            server.stop()

    def test_http_mjpeg_equals_jpeg_files(self):
        self.assert_same_frames(f"{self.http.base}/stream.mjpg", f"{self.dir}/jpeg.y4m")

    def test_http_y4m_equals_file(self):
        self.assert_same_frames(f"{self.http.base}/stream.y4m", f"{self.dir}/clip.y4m")

    def test_dropped_frames_are_counted(self):
        # The whole clip at once to a slow pipeline (the plain references, a wide blur): the
        # frames it cannot keep up with are dropped and counted; each frame delivered is the
        # file's frame at its seq. Then the stream ends, the server serves no more and --timeout
        # ends the run (3 s: a loaded machine may hold the first frame back for a second).
        slow = ["--backend", "reference", "--blur", "31:4", "--histogram", "channels=rgbl"]
        r = run(["run", "--source", f"{self.http.base}/once.y4m", "--timeout", "3", *slow])
        self.assertEqual(r.returncode, 3, r.stderr)
        lines = [json.loads(line) for line in r.stdout.splitlines() if '"hist"' in line]
        ref = run(["run", "--source", f"{self.dir}/clip.y4m", *slow])
        self.assertEqual(ref.returncode, 0, ref.stderr)
        want = histograms(ref.stdout)
        self.assertEqual(lines[-1]["seq"], FRAMES)
        self.assertEqual(sum(line["dropped"] for line in lines), FRAMES - len(lines))
        self.assertLess(len(lines), FRAMES, "nothing dropped: the pipeline kept up")
        for line in lines:
            self.assertEqual(line["hist"], want[line["seq"] - 1], f"seq {line['seq']}")
        print(f"once.y4m: {len(lines)} of {FRAMES} frames delivered, "
              f"{FRAMES - len(lines)} counted dropped, each delivered one the file's at its seq")

    def test_outage_offline_then_online(self):
        port = free_port()
        live = LIVE
        server = RtspServer(port, "/live", live)
        # The Prometheus file first: each sink gets an event in the order of the outputs, so the
        # file says it before the JSONL line does. MQTT where mosquitto is installed.
        prom = f"{self.dir}/outage.prom"
        outputs = ["--output", f"prom:{prom},every=0", "--output", "jsonl"]
        broker = sub = None
        if shutil.which("mosquitto") and shutil.which("mosquitto_sub"):
            sys.path.insert(0, HERE)
            from test_mqtt_output import Broker, Subscriber, wait_for
            mqtt_dir = tempfile.mkdtemp(prefix="mqtt-", dir=self.dir)
            mqtt_port = free_port()
            broker = Broker(mqtt_dir, mqtt_port)
            broker.start()
            sub = Subscriber(mqtt_dir, mqtt_port, "esf/#")
            # The subscription is in place once a retained probe comes back through it.
            subprocess.run(["mosquitto_pub", "-p", str(mqtt_port), "-t", "esf/probe", "-r", "-m",
                            "x"], check=True)
            wait_for(lambda: any(line.startswith("esf/probe") for line in sub.lines()), 10,
                     "the subscriber")
            outputs += ["--output", f"mqtt://127.0.0.1:{mqtt_port}/esf/cam"]
        proc = subprocess.Popen([ESFRAME, "run", "--source", f"rtsp://127.0.0.1:{port}/live",
                                 "--transport", "tcp", "--backend", "cpu", "--histogram",
                                 "bins=16", *outputs], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

        def camera_up():
            with open(prom) as f:
                return [line.split()[-1] for line in f if line.startswith("esframe_camera_up{")]
        lines = []

        def read_until(predicate, seconds):
            return read_json_until(proc, lines, predicate, seconds)

        def resources():
            with open(f"/proc/{proc.pid}/status") as f:
                rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
            return len(os.listdir(f"/proc/{proc.pid}/fd")), rss

        try:
            read_until(lambda j: j.get("seq") == 10, 20)
            figures = []
            for outage in range(OUTAGES):
                down_s = 3 if outage == 0 else 1
                seen = len(lines)
                server.stop()
                stopped = time.monotonic()
                offline = read_until(lambda j: j.get("event") == "camera_offline", 15)
                self.assertEqual(camera_up(), ["0"])
                time.sleep(max(0, down_s - (time.monotonic() - stopped)))
                server = RtspServer(port, "/live", live)
                online = read_until(lambda j: j.get("event") == "camera_online", 40)
                after = read_until(lambda j: "hist" in j and j["seq"] > online["seq"] + 5, 20)
                self.assertIsNone(proc.poll(), "esframe ended during the outage")
                self.assertEqual(camera_up(), ["1"])
                events = [j["event"] for j in lines[seen:] if "event" in j]
                self.assertEqual(events, ["camera_offline", "camera_online"])
                self.assertEqual(online["start_ns"], offline["start_ns"])
                self.assertEqual(online["duration_ns"], online["end_ns"] - online["start_ns"])
                self.assertGreater(online["duration_ns"], (down_s - 0.5) * 1e9)
                self.assertLess(online["duration_ns"], 30e9)
                figures.append((online["duration_ns"] / 1e9, *resources()))
                print(f"outage {outage + 1}: server down {down_s} s, camera_online after "
                      f"{figures[-1][0]:.2f} s; frames go on to seq {after['seq']}; "
                      f"{figures[-1][1]} fds, VmRSS {figures[-1][2]} kB")
            # Nothing a connection owns outlives it: the descriptors after the last outage are
            # those after the first.
            self.assertEqual(figures[-1][1], figures[0][1])
        finally:
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=20)
            server.stop()
            if sub:
                sub.close()
            if broker:
                broker.stop()
        self.assertEqual(proc.returncode, 0, err)
        if sub:
            # MQTT: every event on TOPIC/events, and TOPIC/health offline for each outage.
            events = [json.loads(line.partition(" ")[2])["event"] for line in sub.lines()
                      if line.startswith("esf/cam/events ")]
            states = [line.partition(" ")[2] for line in sub.lines()
                      if line.startswith("esf/cam/health ")]
            self.assertEqual(events, ["camera_offline", "camera_online"] * OUTAGES)
            self.assertEqual(states, ["offline", "ok"] * OUTAGES)

    def test_outage_on_the_http_event_stream(self):
        # --output http's /api/events, read by curl -N: the RTSP server stopped and started again
        # gives camera_offline and camera_online there, each the same line as the JSONL's.
        port, http_port = free_port(), free_port()
        server = RtspServer(port, "/live", LIVE)
        proc = subprocess.Popen([ESFRAME, "run", "--source", f"rtsp://127.0.0.1:{port}/live",
                                 "--transport", "tcp", "--backend", "cpu", "--histogram",
                                 "bins=16", "--output", "jsonl", "--output", f"http:{http_port}"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        lines, sse = [], []
        curl = None
        try:
            read_json_until(proc, lines, lambda j: j.get("seq") == 5, 20)  # serving by then
            # -s without -S: the run's end closes the stream inside its chunked body (curl's 18).
            curl = subprocess.Popen(["curl", "-s", "-N", f"http://127.0.0.1:{http_port}"
                                     "/api/events"], stdout=subprocess.PIPE, text=True)
            reader = threading.Thread(target=lambda: sse.extend(curl.stdout), daemon=True)
            reader.start()
            read_json_until(proc, lines, lambda j: j.get("seq") == 10, 20)
            server.stop()
            read_json_until(proc, lines, lambda j: j.get("event") == "camera_offline", 15)
            server = RtspServer(port, "/live", LIVE)
            online = read_json_until(proc, lines, lambda j: j.get("event") == "camera_online", 40)
            read_json_until(proc, lines, lambda j: j.get("seq", 0) > online["seq"] + 3, 20)
        finally:
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=20)
            server.stop()
            if curl:  # the server closes the stream at the end of the run
                curl.wait(timeout=10)
                reader.join(timeout=10)
                curl.stdout.close()
        self.assertEqual(proc.returncode, 0, err)
        data = [line[len("data: "):].rstrip("\n") for line in sse if line.startswith("data: ")]
        sse_events = [json.loads(d) for d in data if '"event"' in d]
        jsonl_events = [j for j in lines if "event" in j]
        self.assertEqual([e["event"] for e in sse_events], ["camera_offline", "camera_online"])
        self.assertEqual(sse_events, jsonl_events)
        online_at = next(i for i, d in enumerate(data) if '"camera_online"' in d)
        frames_after = [json.loads(d)["seq"] for d in data[online_at:] if '"hist"' in d]
        self.assertGreaterEqual(len(frames_after), 3, "no frames on /api/events after the outage")
        print(f"/api/events: {len(data)} data lines, {sse_events[0]['event']} at seq "
              f"{sse_events[0]['seq']}, {sse_events[1]['event']} at seq {sse_events[1]['seq']} "
              f"after {sse_events[1]['duration_ns'] / 1e9:.2f} s, then frames to seq "
              f"{frames_after[-1]}")

    def test_refused_with_timeout_exits_3(self):
        port = free_port()  # nothing listens there
        start = time.monotonic()
        r = run(["run", "--source", f"rtsp://127.0.0.1:{port}/x", "--timeout", "1", "--backend",
                 "cpu"])
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertIn(f"rtsp://127.0.0.1:{port}/x", r.stderr)
        self.assertLess(time.monotonic() - start, 10)

    def test_html_is_not_a_stream(self):
        r = run(["run", "--source", f"{self.http.base}/page.html", "--timeout", "2", "--backend",
                 "cpu"])
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertIn("page.html: the server sent text/html, not video", r.stderr)
        r = run(["run", "--source", f"{self.http.base}/missing.mjpg", "--backend", "cpu"])
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertIn("404", r.stderr)

    @unittest.skipUnless(
        os.path.exists(os.path.join(os.path.dirname(sys.argv[1] if len(sys.argv) > 1 else "."),
                                    "libesframe-network.so")),
        "the network module is linked into this esframe (a static build)")
    def test_missing_module(self):
        r = run(["run", "--source", f"{self.http.base}/stream.y4m", "--backend", "cpu"],
                env=dict(os.environ, ESFRAME_MODULE_DIR=f"{self.dir}/no-modules"))
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertIn("libesframe-network.so", r.stderr)

    def test_missing_plugin(self):
        # GStreamer with its core plugins but none that speaks RTSP.
        plugins = f"{self.dir}/plugins"
        os.makedirs(plugins, exist_ok=True)
        system = subprocess.run(["pkg-config", "--variable=pluginsdir", "gstreamer-1.0"],
                                capture_output=True, text=True, check=True).stdout.strip()
        for name in ("libgstcoreelements.so", "libgstplayback.so", "libgstapp.so",
                     "libgsttypefindfunctions.so", "libgstvideoconvertscale.so"):
            if not os.path.exists(f"{plugins}/{name}"):
                os.symlink(f"{system}/{name}", f"{plugins}/{name}")
        env = dict(os.environ, GST_PLUGIN_SYSTEM_PATH_1_0=plugins, GST_PLUGIN_PATH_1_0="",
                   GST_REGISTRY_1_0=f"{self.dir}/registry.bin")
        r = run(["run", "--source", "rtsp://127.0.0.1:1/x", "--backend", "cpu"], env=env)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertIn("RTSP", r.stderr)
        self.assertIn("gstreamer1.0-plugins-good", r.stderr)


if __name__ == "__main__":
    ESFRAME = sys.argv.pop(1)
    unittest.main(verbosity=2)
