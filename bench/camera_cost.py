#!/usr/bin/env python3
"""What one camera costs: `esframe run --backend cpu --health` paced at a camera's frame rate,
as CPU % of one core, for a raw YUV camera and for an H.264 network source.

  bench/camera_cost.py [--esframe CMD] [--sizes 640x480,1920x1080] [--rates 15,25]
                       [--format NV12] [--seconds S] [--repeat R] [--no-rtsp]

Variants, alternating, each `repeat` times:
- yuv: `--source pattern:loop=8 --format FMT --fps F`: frames made before the run and handed out
  at F frames/s, as a camera's buffers arrive (the pattern renders nothing in the frame loop).
- rtsp: the same size and rate as H.264 (libx264, made here by ffmpeg, no B-frames) served by
  tests/services/rtsp_test_server.py on 127.0.0.1 (paced by the server), `--source rtsp://...
  --transport tcp`; the server's CPU is not counted. Its threads other than esframe's own
  (GStreamer's: RTSP, depayload, avdec_h264 and its ffmpeg threads, the conversion into the
  appsink) are the decode's share.
Each run: 10 frames of warm-up, then S seconds; the process's CPU time (utime + stime, every
thread) over wall time is "% of one core", and the frames that came in that span its frame
rate. The row is the median of the runs.
"""
import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import tempfile
import threading
import time

from esframe_runs import TICK, WARMUP, cpu_ticks, free_port

HERE = os.path.dirname(os.path.abspath(__file__))
RTSP_SERVER = os.path.join(HERE, "..", "tests", "services", "rtsp_test_server.py")
# esframe's own threads keep the command's name (the run loop, the CPU executor's row pool);
# the HTTP output's encoder is named, and is not run here.
OWN_THREADS = ("esframe",)


def not_own(thread):
    return thread not in OWN_THREADS


def measure(argv, seconds):
    """(% of one core, % in threads not esframe's own, frames/s) over `seconds` after warm-up."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    frames = [0]
    started = threading.Event()

    def read():
        for line in proc.stdout:
            if '"event"' not in line:
                frames[0] += 1
                if frames[0] == WARMUP:
                    started.set()
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        if not started.wait(60):
            raise RuntimeError(f"no {WARMUP} frames from {' '.join(argv)}: "
                               f"{proc.stderr.read() if proc.poll() is not None else ''}")
        t0, (c0, o0), f0 = time.monotonic(), cpu_ticks(proc.pid, not_own), frames[0]
        time.sleep(seconds)
        t1, (c1, o1), f1 = time.monotonic(), cpu_ticks(proc.pid, not_own), frames[0]
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    wall = t1 - t0
    return (100 * (c1 - c0) / TICK / wall, 100 * (o1 - o0) / TICK / wall, (f1 - f0) / wall)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--esframe", default="build/default/esframe")
    p.add_argument("--sizes", default="640x480,1920x1080")
    p.add_argument("--rates", default="15,25")
    p.add_argument("--format", default="NV12")
    p.add_argument("--seconds", type=float, default=10)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--no-rtsp", action="store_true")
    p.add_argument("--backend", default="cpu", help="cpu, or gles: the host's share beside a GPU")
    p.add_argument("--egl", default="", help="esframe's --egl (device on the NVIDIA machine)")
    a = p.parse_args()
    esframe = shlex.split(a.esframe)
    common = (["--egl", a.egl] if a.egl else []) + ["run", "--backend", a.backend, "--health",
                                                    "--output", "jsonl"]
    work = tempfile.mkdtemp(prefix="camera-cost-")
    servers = []
    try:
        variants = []
        for size in a.sizes.split(","):
            for rate in a.rates.split(","):
                variants.append((f"yuv {a.format}", size, rate,
                                 esframe + common + ["--source", "pattern:loop=8", "--size", size,
                                                     "--format", a.format, "--fps", rate]))
                if a.no_rtsp:
                    continue
                clip = f"{work}/{size}-{rate}.mkv"
                span = a.seconds + 20  # each client is served the clip from its start
                subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                                f"testsrc2=size={size}:rate={rate}", "-t", str(span), "-pix_fmt",
                                "yuv420p", "-c:v", "libx264", "-preset", "veryfast", "-g",
                                str(2 * int(rate)), "-bf", "0", clip], check=True)
                port = free_port()
                server = subprocess.Popen(
                    ["/usr/bin/python3", RTSP_SERVER, str(port), "/cam",
                     f"( filesrc location={clip} ! matroskademux ! h264parse ! rtph264pay "
                     "name=pay0 pt=96 config-interval=1 )"], stdout=subprocess.PIPE, text=True)
                servers.append(server)
                assert server.stdout.readline().strip() == "ready"
                variants.append(("rtsp H.264", size, rate, esframe + common + [
                    "--source", f"rtsp://127.0.0.1:{port}/cam", "--transport", "tcp"]))
        results = {v[:3]: [] for v in variants}
        for _ in range(a.repeat):
            for v in variants:
                results[v[:3]].append(measure(v[3], a.seconds))
        print(f"one camera, --backend {a.backend} --health, {a.seconds:g} s after {WARMUP} frames, "
              f"median of {a.repeat}; load average {os.getloadavg()[0]:.2f}")
        print("| source | size | fps asked | frames/s | % of one core (runs) | "
              "GStreamer's threads, % of one core |")
        print("|---|---|---|---|---|---|")
        for (kind, size, rate), runs in results.items():
            total = statistics.median(r[0] for r in runs)
            other = statistics.median(r[1] for r in runs)
            fps = statistics.median(r[2] for r in runs)
            shown = " ".join(f"{r[0]:.1f}" for r in runs)
            share = f"{other:.1f} ({100 * other / total:.0f}%)" if kind.startswith("rtsp") else ""
            print(f"| {kind} | {size} | {rate} | {fps:.2f} | {total:.1f} ({shown}) | {share} |")
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
