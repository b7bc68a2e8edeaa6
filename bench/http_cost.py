#!/usr/bin/env python3
"""What --output http costs the pipeline: the frame rate of `esframe run --fps F` and the CPU
time per frame, without the output, with it and no client, and with clients.

  bench/http_cost.py [--esframe PATH] [--backend cpu|gles] [--size WxH] [--fps F]
                     [--seconds S] [--repeat R] [--variants none,idle,sse8+stalled,mjpeg]

Variants, alternating, each `repeat` times: none (no http output), idle (http, no client),
sse8+stalled (8 clients reading /api/events and one that never reads), mjpeg (one client
reading /stream.mjpg, a JPEG a frame). Each run is measured over S seconds after 10 frames of
warm-up: frames / seconds from the JSONL lines' arrival, the process's CPU time per frame, and
that of the server's threads (libmicrohttpd's "MHD-single" and the sink's "esf-http-encode",
from /proc/PID/task). The clients run in this process: their CPU is not counted.
"""
import argparse
import http.client
import os
import signal
import socket
import statistics
import subprocess
import threading
import time

from esframe_runs import TICK, cpu_ticks, free_port

SERVER_THREADS = ("MHD-single", "esf-http-encode")


def is_server(thread):
    return thread in SERVER_THREADS


def reader(port, path, stop):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path)
    r = conn.getresponse()
    try:
        while not stop.is_set():
            if not r.read1(65536):
                break
    except (http.client.HTTPException, OSError):
        pass  # the run ended under it
    conn.close()


def measure(args, variant):
    port = free_port()
    argv = [args.esframe, "run", "--backend", args.backend, "--source", "pattern", "--size",
            args.size, "--fps", str(args.fps), "--output", "jsonl"]
    if variant != "none":
        argv += ["--output", f"http:{port},clients=12"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    arrivals = []

    def drain():
        for _ in proc.stdout:
            arrivals.append(time.monotonic())
    t = threading.Thread(target=drain)
    t.start()
    stop = threading.Event()
    clients, stalled = [], []
    while len(arrivals) < 2:
        time.sleep(0.01)
    if variant == "sse8+stalled":
        clients = [threading.Thread(target=reader, args=(port, "/api/events", stop))
                   for _ in range(8)]
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect(("127.0.0.1", port))
        s.sendall(b"GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
        stalled.append(s)
    elif variant == "mjpeg":
        clients = [threading.Thread(target=reader, args=(port, "/stream.mjpg", stop))]
    for c in clients:
        c.start()
    while len(arrivals) < 10:
        time.sleep(0.01)
    n0, t0, (cpu0, srv0) = len(arrivals), time.monotonic(), cpu_ticks(proc.pid, is_server)
    time.sleep(args.seconds)
    n1, t1, (cpu1, srv1) = len(arrivals), time.monotonic(), cpu_ticks(proc.pid, is_server)
    proc.send_signal(signal.SIGTERM)
    stop.set()
    proc.wait()
    t.join()
    for c in clients:
        c.join()
    for s in stalled:
        s.close()
    frames = n1 - n0
    return {"fps": frames / (t1 - t0), "cpu_ms": (cpu1 - cpu0) / TICK * 1000 / frames,
            "server_ms": (srv1 - srv0) / TICK * 1000 / frames}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--esframe", default="build/default/esframe")
    p.add_argument("--backend", default="cpu")
    p.add_argument("--size", default="1920x1080")
    p.add_argument("--fps", type=int, default=30)
    p.add_argument("--seconds", type=float, default=8)
    p.add_argument("--repeat", type=int, default=2)
    p.add_argument("--variants", default="none,idle,sse8+stalled,mjpeg")
    args = p.parse_args()
    variants = args.variants.split(",")
    results = {v: [] for v in variants}
    for _ in range(args.repeat):
        for v in variants:
            results[v].append(measure(args, v))
    print(f"{args.backend} {args.size} --fps {args.fps}, {args.seconds} s x {args.repeat}, "
          f"load {os.getloadavg()[0]:.2f}")
    print("| variant | frames/s | process CPU ms/frame (runs) | server threads CPU ms/frame |")
    print("|---|---|---|---|")
    for v in variants:
        rows = results[v]
        runs = " ".join(f"{r['cpu_ms']:.1f}" for r in rows)
        print(f"| {v} | {statistics.median(r['fps'] for r in rows):.2f} | "
              f"{statistics.median(r['cpu_ms'] for r in rows):.2f} ({runs}) | "
              f"{statistics.median(r['server_ms'] for r in rows):.3f} |")


if __name__ == "__main__":
    main()
