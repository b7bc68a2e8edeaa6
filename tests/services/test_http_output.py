#!/usr/bin/env python3
"""`esframe run --output http:PORT` from outside the process: curl and http.client against a
running `esframe run --fps 10`. Every endpoint and its content type; the SSE data lines equal the
JSONL lines the same run printed; /metrics passes `promtool check metrics`; /graph.png equals the
PNG output's graph of the same frame; /frame.jpg decodes at the frame's size. Faults: 100 clients
connecting and dropping, streams past clients= refused with 503 while scrapes are still answered,
a client that never reads, malformed and oversized requests, a port in use, wrong credentials,
SIGTERM with clients connected. TLS with a certificate openssl makes, and
the GPU backend's graph and read-back frame.

usage: test_http_output.py ESFRAME_BINARY
"""
import http.client
import io
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

from PIL import Image

from service_support import free_port

ESFRAME = None
SIZE = (67, 45)  # odd on purpose


def get(port, path, headers=None, method="GET"):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request(method, path, headers=headers or {})
    r = conn.getresponse()
    body = r.read()
    conn.close()
    return r, body


class Run:
    """An `esframe run` with --output http:PORT and the extra arguments; stdout is JSONL."""

    def __init__(self, *extra, fps=10, frames=None, http_options="", size=SIZE, port=None,
                 backend="cpu"):
        self.port = port or free_port()
        args = [ESFRAME, "run", "--backend", backend, "--source", "pattern", "--size",
                f"{size[0]}x{size[1]}", "--fps", str(fps), "--output", "jsonl", "--output",
                f"http:{self.port}{http_options}", *extra]
        if frames is not None:
            args += ["--frames", str(frames)]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        # Drained all along: a full stdout pipe would stall the pipeline, not the server.
        self.out, self.err = [], []
        self.readers = [threading.Thread(target=lambda f=f, into=into: into.append(f.read()))
                        for f, into in ((self.proc.stdout, self.out), (self.proc.stderr, self.err))]
        for t in self.readers:
            t.start()
        deadline = time.monotonic() + 30
        while True:  # the server answers 503 until the first frame
            try:
                r, _ = get(self.port, "/api/frame")
                if r.status in (200, 401):
                    break
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.proc.wait()
                self.join_readers()
                raise AssertionError("esframe did not serve: " + self.err[0].decode())
            time.sleep(0.05)

    def join_readers(self):
        for t in self.readers:
            t.join()
        self.proc.stdout.close()
        self.proc.stderr.close()

    def finish(self, timeout=60):
        self.proc.wait(timeout=timeout)
        self.join_readers()
        return self.proc.returncode, self.out[0].decode(), self.err[0].decode()

    def terminate(self):
        """SIGTERM, as systemd stops it: exit 0 after the current frame."""
        self.proc.send_signal(signal.SIGTERM)
        return self.finish()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        if not self.proc.stdout.closed:
            self.join_readers()


def jsonl_by_seq(out):
    return {json.loads(l)["seq"]: l for l in out.splitlines() if '"hist"' in l}


def read_sse(port, count, path="/api/events"):
    """The first `count` data lines of the event stream, read with http.client."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", path)
    r = conn.getresponse()
    assert r.status == 200, r.status
    assert r.getheader("Content-Type") == "text/event-stream", r.getheader("Content-Type")
    lines = []
    while len(lines) < count:
        line = r.readline().decode()
        assert line, "the stream ended"
        if line.startswith("data: "):
            lines.append(line[len("data: "):].rstrip("\n"))
    conn.close()
    return lines


class HttpOutputTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="esframe-http-")
        self.runs = []

    def tearDown(self):
        for run in self.runs:
            run.stop()
        shutil.rmtree(self.dir)

    def start(self, *args, **kwargs):
        run = Run(*args, **kwargs)
        self.runs.append(run)
        return run

    def test_endpoints_equal_the_run_s_own_outputs(self):
        png_dir = os.path.join(self.dir, "png")
        run = self.start("--output", f"png:{png_dir}")
        port = run.port
        sse = read_sse(port, 6)

        r, body = get(port, "/api/frame")
        self.assertEqual(r.status, 200)
        self.assertEqual(r.getheader("Content-Type"), "application/json")
        frame_line = body.decode().rstrip("\n")
        frame_seq = json.loads(frame_line)["seq"]
        self.assertEqual(int(r.getheader("X-Esframe-Seq")), frame_seq)

        # /metrics with curl, through promtool.
        metrics = subprocess.run(["curl", "-sSf", "-D", "-", f"http://127.0.0.1:{port}/metrics"],
                                 capture_output=True, text=True, check=True).stdout
        head, text = metrics.split("\n\n", 1)
        self.assertIn("Content-Type: text/plain; version=0.0.4; charset=utf-8", head)
        checked = subprocess.run(["promtool", "check", "metrics"], input=text,
                                 capture_output=True, text=True)
        self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)
        self.assertRegex(text, r'esframe_frames_total\{source="pattern"\} \d+\n')

        r, graph = get(port, "/graph.png")
        self.assertEqual((r.status, r.getheader("Content-Type")), (200, "image/png"))
        graph_seq = int(r.getheader("X-Esframe-Seq"))
        r, jpeg = get(port, "/frame.jpg")
        self.assertEqual((r.status, r.getheader("Content-Type")), (200, "image/jpeg"))
        picture = Image.open(io.BytesIO(jpeg))
        self.assertEqual((picture.format, picture.size), ("JPEG", SIZE))
        jpeg_seq = int(r.getheader("X-Esframe-Seq"))

        # /stream.mjpg with curl: the first part is a whole JPEG of the frame's size.
        mjpeg = subprocess.run(["curl", "-sS", "-i", "--max-time", "1.5",
                                f"http://127.0.0.1:{port}/stream.mjpg"], capture_output=True)
        head, stream = mjpeg.stdout.split(b"\r\n\r\n", 1)
        self.assertIn(b"Content-Type: multipart/x-mixed-replace; boundary=esframe-frame", head)
        part_head, rest = stream.split(b"\r\n\r\n", 1)
        self.assertTrue(part_head.startswith(b"--esframe-frame\r\nContent-Type: image/jpeg\r\n"),
                        part_head)
        length = int(part_head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
        self.assertEqual(Image.open(io.BytesIO(rest[:length])).size, SIZE)

        for path, kind in [("/", "text/html; charset=utf-8"),
                           ("/page.js", "text/javascript; charset=utf-8"),
                           ("/page.css", "text/css; charset=utf-8")]:
            r, body = get(port, path)
            self.assertEqual((r.status, r.getheader("Content-Type")), (200, kind), path)
            self.assertTrue(body)
        r, body = get(port, "/metrics", method="HEAD")
        self.assertEqual((r.status, body), (200, b""))

        code, out, err = run.terminate()
        self.assertEqual(code, 0, err)
        lines = jsonl_by_seq(out)
        self.assertEqual(sorted(lines), list(range(len(lines))))
        self.assertEqual(frame_line, lines[frame_seq])
        seqs = [json.loads(l)["seq"] for l in sse]
        self.assertEqual(seqs, list(range(seqs[0], seqs[0] + len(seqs))), "frames skipped")
        for line, seq in zip(sse, seqs):
            self.assertEqual(line, lines[seq])
        with Image.open(os.path.join(png_dir, f"graph-{graph_seq:08d}.png")) as expected:
            served = Image.open(io.BytesIO(graph))
            self.assertEqual(served.size, expected.size)
            self.assertEqual(served.convert("RGBA").tobytes(), expected.convert("RGBA").tobytes())
        self.assert_jpeg_shows(jpeg, os.path.join(png_dir, f"frame-{jpeg_seq:08d}.png"))

    def test_graph_and_frame_of_the_gpu_backend(self):
        # The GL renderer's graph and the texture read back, on the pipeline's thread.
        png_dir = os.path.join(self.dir, "png")
        run = self.start("--output", f"png:{png_dir}", backend="gles")
        r, graph = get(run.port, "/graph.png")
        self.assertEqual(r.status, 200)
        graph_seq = int(r.getheader("X-Esframe-Seq"))
        r, jpeg = get(run.port, "/frame.jpg")
        self.assertEqual(r.status, 200)
        frame_seq = int(r.getheader("X-Esframe-Seq"))
        code, _, err = run.terminate()
        self.assertEqual(code, 0, err)
        with Image.open(os.path.join(png_dir, f"graph-{graph_seq:08d}.png")) as expected:
            self.assertEqual(Image.open(io.BytesIO(graph)).convert("RGBA").tobytes(),
                             expected.convert("RGBA").tobytes())
        self.assert_jpeg_shows(jpeg, os.path.join(png_dir, f"frame-{frame_seq:08d}.png"))

    def test_snapshots_without_another_output_that_reads_the_image(self):
        # No PNG or DRM output: the http output alone must keep the processed image, which the
        # CPU executor skips for an L-only histogram of the Y bytes (and NVIDIA's GPU path for a
        # packed import). snapshot-every=0 turns the snapshots off: 404, and no image is kept.
        luma_only = ("--format", "NV12", "--histogram", "channels=l", "--luma", "source")
        run = self.start(*luma_only)
        r, jpeg = get(run.port, "/frame.jpg")
        self.assertEqual((r.status, r.getheader("Content-Type")), (200, "image/jpeg"), jpeg)
        self.assertEqual(Image.open(io.BytesIO(jpeg)).size, SIZE)
        self.assertEqual(run.terminate()[0], 0)
        run = self.start(*luma_only, http_options=",snapshot-every=0")
        for path in ("/frame.jpg", "/stream.mjpg"):
            r, body = get(run.port, path)
            self.assertEqual(r.status, 404, path)
            self.assertIn(b"snapshot-every=0", body, path)
        r, _ = get(run.port, "/graph.png")
        self.assertEqual(r.status, 200)
        self.assertEqual(run.terminate()[0], 0)

    def assert_jpeg_shows(self, jpeg, png_path):
        """The JPEG shows the PNG's picture: decoded, within 3 of 255 on average of what Pillow
        makes of the PNG at the same quality and 4:2:0 (the oracle; a small odd frame of noise
        loses much more to JPEG itself)."""
        served = Image.open(io.BytesIO(jpeg))
        self.assertEqual(served.format, "JPEG")
        with Image.open(png_path) as expected:
            encoded = io.BytesIO()
            expected.convert("RGB").save(encoded, "JPEG", quality=85, subsampling=2)
            oracle = Image.open(io.BytesIO(encoded.getvalue()))
            self.assertEqual(served.size, oracle.size)
            a, b = served.convert("RGB").tobytes(), oracle.convert("RGB").tobytes()
            error = sum(abs(x - y) for x, y in zip(a, b)) / len(a)
            self.assertLess(error, 3, png_path)

    def test_every_and_health_events_in_the_stream(self):
        run = self.start("--health", "", http_options=",every=3")
        sse = read_sse(run.port, 4)
        code, out, err = run.terminate()
        self.assertEqual(code, 0, err)
        lines = jsonl_by_seq(out)
        frames = [json.loads(l) for l in sse if '"hist"' in l]
        self.assertGreaterEqual(len(frames), 3)
        for f in frames:
            self.assertEqual(f["seq"] % 3, 0, "every=3 sends every third delivered frame")
            self.assertIn("health", f)
        for line in sse:
            record = json.loads(line)
            if "hist" in record:
                self.assertEqual(line, lines[record["seq"]])

    def test_bad_requests_get_4xx_and_the_server_lives(self):
        run = self.start(http_options=",timeout=1")
        port = run.port
        for path in ["/nope", "/metrics/../etc/passwd", "/graph.png/x", "//metrics", "/index.html2"]:
            r, _ = get(port, path)
            self.assertEqual(r.status, 404, path)
        r, _ = get(port, "/metrics", method="POST")
        self.assertEqual(r.status, 405)
        self.assertEqual(r.getheader("Allow"), "GET, HEAD")

        def raw(request):
            with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                s.sendall(request)
                data = b""
                while True:
                    chunk = s.recv(65536)
                    if not chunk:
                        return data
                    data += chunk

        # Not a request line at all: the connection is closed unanswered when it times out.
        self.assertEqual(raw(b"\x00\x01GARBAGE\r\n\r\n"), b"")
        self.assertRegex(raw(b"GET /metrics\r\n\r\n"), rb"^HTTP/1\.1 400 ")
        self.assertRegex(raw(b"GET /metrics HTTP/1.1\r\nHost x\r\n\r\n"), rb"^HTTP/1\.1 400 ")
        self.assertRegex(raw(b"GET /metrics HTTP/9.9\r\nHost: x\r\n\r\n"), rb"^HTTP/1\.1 505 ")
        oversized = b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 100000 + b"\r\n\r\n"
        self.assertRegex(raw(oversized), rb"^HTTP/1\.1 431 ")
        self.assertRegex(raw(b"GET /" + b"a" * 100000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"),
                         rb"^HTTP/1\.1 414 ")
        r, _ = get(port, "/metrics")
        self.assertEqual(r.status, 200)

    def test_hundred_clients_connecting_and_dropping(self):
        # A connection whose request was cut off is closed when it times out (timeout=).
        run = self.start(http_options=",timeout=2")
        port = run.port

        def hit(k):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                    if k % 3 == 1:
                        s.sendall(b"GET /api/events HTTP/1.1\r\nHost: x\r\n")  # half a request
                    elif k % 3 == 2:
                        s.sendall(b"GET /stream.mjpg HTTP/1.1\r\nHost: x\r\n\r\n")
            except OSError:
                pass  # past the connections taken and the listen queue: refused, as the limits mean

        threads = [threading.Thread(target=hit, args=(k,)) for k in range(100)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        deadline = time.monotonic() + 10
        while True:  # the dropped connections are closed, then new clients are served
            try:
                r, _ = get(port, "/api/frame")
                if r.status == 200:
                    break
            except OSError:
                pass
            self.assertLess(time.monotonic(), deadline, "not served after the clients dropped")
            time.sleep(0.1)
        # The dropped streams free their slots as the frames after them go out to them: until
        # then a new stream may get 503, never anything else.
        while True:
            r, _ = get(port, "/api/events", method="HEAD")
            if r.status == 200:
                break
            self.assertEqual(r.status, 503)
            self.assertLess(time.monotonic(), deadline, "no stream after the clients dropped")
            time.sleep(0.1)
        self.assertEqual(len(read_sse(port, 3)), 3)
        self.assertIsNone(run.proc.poll())

    def test_clients_limit(self):
        run = self.start(http_options=",clients=3")
        streams = []
        for path in ("/api/events", "/stream.mjpg", "/api/events"):  # both kinds count
            conn = http.client.HTTPConnection("127.0.0.1", run.port, timeout=10)
            conn.request("GET", path)
            response = conn.getresponse()  # holds the socket: keep it
            self.assertEqual(response.status, 200)
            streams.append((conn, response))
        # A fourth stream is refused at once, and says when to ask again.
        for path in ("/api/events", "/stream.mjpg"):
            r, body = get(run.port, path)
            self.assertEqual(r.status, 503, path)
            self.assertEqual(r.getheader("Retry-After"), "3")
            self.assertEqual(body, b"all 3 streams are taken; retry later\n")
        # Short requests are answered while every stream is taken: a scrape never waits on them.
        # Sixteen held connections beside the streams are still taken and answered.
        held = []
        try:
            for _ in range(16):
                conn = http.client.HTTPConnection("127.0.0.1", run.port, timeout=10)
                conn.request("GET", "/metrics")
                response = conn.getresponse()
                self.assertEqual(response.status, 200)
                response.read()
                held.append(conn)  # keep-alive: the connection stays open
        finally:
            for conn in held:
                conn.close()
        r, _ = get(run.port, "/api/frame")
        self.assertEqual(r.status, 200)
        conn, response = streams.pop()
        response.close()
        conn.close()
        # The slot is free once the server notices the stream has gone (at the next frame).
        deadline = time.monotonic() + 10
        while True:
            conn = http.client.HTTPConnection("127.0.0.1", run.port, timeout=10)
            conn.request("GET", "/api/events")
            response = conn.getresponse()
            if response.status == 200:
                streams.append((conn, response))
                break
            self.assertEqual(response.status, 503)
            conn.close()
            self.assertLess(time.monotonic(), deadline, "the closed stream's slot was not freed")
            time.sleep(0.1)
        for conn, response in streams:
            response.close()
            conn.close()

    def test_a_client_that_never_reads_holds_up_nothing(self):
        # Big frames fill the stalled client's socket in a few frames; its queue is bounded.
        run = self.start(size=(1280, 720), fps=20, frames=60, http_options=",queue=4,timeout=2")
        stalled = []
        for path in ["/stream.mjpg", "/api/events"]:
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.connect(("127.0.0.1", run.port))
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            stalled.append(s)
        # Another client still gets every frame, in order, while they stall.
        sse = read_sse(run.port, 20)
        seqs = [json.loads(l)["seq"] for l in sse if '"hist"' in l]
        self.assertEqual(seqs, list(range(seqs[0], seqs[0] + len(seqs))))
        code, out, err = run.finish(timeout=30)
        self.assertEqual(code, 0, err)
        self.assertEqual(len(jsonl_by_seq(out)), 60)
        for s in stalled:
            s.close()

    def test_port_in_use_is_one_line_and_exit_1(self):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            s.listen()
            port = s.getsockname()[1]
            r = subprocess.run([ESFRAME, "run", "--backend", "cpu", "--source", "pattern",
                                "--frames", "3", "--output", f"http:{port}"],
                               capture_output=True, text=True, timeout=30)
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout, "")
        self.assertEqual(r.stderr, f"esframe: error: HTTP sink: cannot listen on "
                                   f"127.0.0.1:{port}: Address already in use\n")

    def test_basic_auth(self):
        secret = os.path.join(self.dir, "password")
        with open(secret, "w") as f:
            f.write("s3cret-pass\n")
        run = self.start(http_options=f",user=viewer,password-file={secret}")
        import base64

        def auth(user, password):
            token = base64.b64encode(f"{user}:{password}".encode()).decode()
            return {"Authorization": "Basic " + token}

        for path in ["/metrics", "/api/frame", "/", "/graph.png", "/api/events"]:
            r, _ = get(run.port, path)
            self.assertEqual(r.status, 401, path)
            self.assertEqual(r.getheader("WWW-Authenticate"), 'Basic realm="esframe"')
        for user, password in [("viewer", "s3cret"), ("viewer", "s3cret-pass\n"),
                               ("other", "s3cret-pass"), ("viewer", "")]:
            r, _ = get(run.port, "/metrics", headers=auth(user, password))
            self.assertEqual(r.status, 401, (user, password))
        deadline = time.monotonic() + 30
        while True:  # 401 came before any frame; /metrics answers 503 until the first
            r, body = get(run.port, "/metrics", headers=auth("viewer", "s3cret-pass"))
            if r.status != 503 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        self.assertEqual(r.status, 200)
        self.assertIn(b"esframe_frames_total", body)

    def test_tls(self):
        cert, key = os.path.join(self.dir, "cert.pem"), os.path.join(self.dir, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                        "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                        "-keyout", key, "-out", cert], check=True, capture_output=True)
        port = free_port()
        run = subprocess.Popen([ESFRAME, "run", "--backend", "cpu", "--source", "pattern",
                                "--fps", "10", "--output", "jsonl", "--output",
                                f"http:{port},cert={cert},key={key}"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            deadline = time.monotonic() + 30
            while True:  # curl checks the certificate against the one made above
                r = subprocess.run(["curl", "-sS", "--cacert", cert, "-o", "/dev/null", "-w",
                                    "%{http_code}", f"https://127.0.0.1:{port}/api/frame"],
                                   capture_output=True, text=True)
                if r.stdout == "200" or time.monotonic() > deadline:
                    break
                time.sleep(0.1)
            self.assertEqual(r.stdout, "200", r.stderr)
            plain = subprocess.run(["curl", "-sS", f"http://127.0.0.1:{port}/api/frame"],
                                   capture_output=True)
            self.assertNotEqual(plain.returncode, 0, "plain HTTP answered on a TLS port")
        finally:
            run.send_signal(signal.SIGTERM)
            out, err = run.communicate(timeout=60)
        self.assertEqual(run.returncode, 0, err)

    def test_sigterm_with_clients_connected_exits_0_within_a_second(self):
        run = self.start()
        clients = []
        for path in ["/api/events", "/stream.mjpg", "/api/events"]:
            conn = http.client.HTTPConnection("127.0.0.1", run.port, timeout=10)
            conn.request("GET", path)
            self.assertEqual(conn.getresponse().status, 200)
            clients.append(conn)
        stalled = socket.create_connection(("127.0.0.1", run.port))
        stalled.sendall(b"GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
        half = socket.create_connection(("127.0.0.1", run.port))
        half.sendall(b"GET /metr")
        time.sleep(0.3)
        start = time.monotonic()
        run.proc.send_signal(signal.SIGTERM)
        code, _, err = run.finish(timeout=10)
        elapsed = time.monotonic() - start
        self.assertEqual(code, 0, err)
        self.assertLess(elapsed, 1.0)
        for c in clients:
            c.close()
        stalled.close()
        half.close()

    def test_bad_specs_are_usage_errors(self):
        for spec, message in [
            ("http:", "--output http needs a port"),
            ("http:70000", "--output http: port '70000': expected an integer in 0..65535"),
            ("http:::1:80", "--output http: '::1:80': an IPv6 address goes in brackets"),
            ("http:80,user=x", "--output http: user and password-file go together"),
            ("http:80,clients=0", "--output http: clients '0': expected an integer in 1..1024"),
        ]:
            r = subprocess.run([ESFRAME, "run", "--source", "pattern", "--frames", "1",
                                "--output", spec], capture_output=True, text=True, timeout=30)
            self.assertEqual(r.returncode, 2, spec)
            self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
            self.assertIn(message, r.stderr)


if __name__ == "__main__":
    ESFRAME = os.path.abspath(sys.argv.pop(1))
    unittest.main()
