#!/usr/bin/env python3
"""What --scopes adds to a frame: `esframe run` with and without it, alternating, and whether the
backends' counts agree.

  bench/scopes_cost.py [--esframe CMD] [--backend gles|cpu] [--source SPEC] [--size WxH] [--format F]
                       [--frames N] [--repeat R] [--threads N] [--scopes LIST] [--check BACKEND]

Per frame, the time of the frame's stages from its own timing_ms: on the GPU with timer queries
the GPU stages (timing_clock "gpu"), elsewhere every stage but "read"; the first 10 frames of a
run are its warm-up and left out. The row is the median over every kept frame of the variant,
and the ratio with/without. --check BACKEND: first, the first 3 frames' "scopes" objects of
--backend and BACKEND must be equal (exit 1 if not). --esframe takes a command line.
"""
import argparse
import json
import shlex
import statistics
import subprocess
import sys

WARMUP = 10


def run(args, backend, frames, scopes):
    argv = shlex.split(args.esframe) + ["run", "--backend", backend, "--source", args.source,
                                        "--size", args.size, "--frames", str(frames),
                                        "--output", "jsonl"]
    if args.format:
        argv += ["--format", args.format]
    if args.threads:
        argv += ["--threads", str(args.threads)]
    if scopes:
        argv += ["--scopes", args.scopes]
    out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if '"hist"' in line]


def frame_times(records, stage_times):
    times, clocks = [], set()
    for j in records[WARMUP:]:
        gpu = [s for s, c in j["timing_clock"].items() if c == "gpu"]
        stages = gpu if gpu else [s for s in j["timing_ms"] if s != "read"]
        clocks.add("gpu" if gpu else "wall")
        times.append(sum(j["timing_ms"][s] for s in stages))
        for s in stages:
            stage_times.setdefault(s, []).append(j["timing_ms"][s])
    return times, clocks


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--esframe", default="build/default/esframe")
    p.add_argument("--backend", default="gles")
    p.add_argument("--source", default="pattern")
    p.add_argument("--size", default="1920x1080")
    p.add_argument("--format", default="")
    p.add_argument("--frames", type=int, default=60)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--scopes", default="waveform,parade,vectorscope")
    p.add_argument("--check", default="")
    a = p.parse_args()
    if a.check:
        mine = [r["scopes"] for r in run(a, a.backend, 3, True)]
        theirs = [r["scopes"] for r in run(a, a.check, 3, True)]
        equal = mine == theirs
        print(f"scopes {a.size} {a.format}: {a.backend} and {a.check} {'equal' if equal else 'DIFFER'} "
              f"on {len(mine)} frames")
        if not equal:
            return 1
    if a.repeat == 0:
        return 0
    without, with_scopes, clocks = [], [], set()
    stages_without, stages_with = {}, {}
    for _ in range(a.repeat):
        t, c = frame_times(run(a, a.backend, a.frames, False), stages_without)
        without += t
        clocks |= c
        t, c = frame_times(run(a, a.backend, a.frames, True), stages_with)
        with_scopes += t
        clocks |= c
    m0, m1 = statistics.median(without), statistics.median(with_scopes)
    print(f"scopes cost, backend {a.backend}, source {a.source} {a.size}, --scopes {a.scopes}, "
          f"{a.repeat} x {a.frames - WARMUP} frames per variant, clock {'/'.join(sorted(clocks))}")
    for name, stages, m in (("without", stages_without, m0), ("with", stages_with, m1)):
        per = ", ".join(f"{s} {statistics.median(v):.4f}" for s, v in stages.items())
        print(f"  frame {name} --scopes: median {m:.4f} ms ({per})")
    print(f"  ratio {m1 / m0:.3f} (+{100 * (m1 / m0 - 1):.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
