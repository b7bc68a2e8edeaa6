#!/usr/bin/env python3
"""What --health adds to a frame: `esframe run` with and without it, in the same run, alternating.

  bench/health_cost.py [--esframe CMD] [--backend gles|cpu] [--source SPEC] [--size WxH]
                       [--frames N] [--repeat R] [--format FMT] [--health-options KEYS]

Per frame, the time of the frame's stages from its own timing_ms: on the GPU with timer queries
the GPU stages (timing_clock "gpu"), elsewhere every stage but "read" (the wait for the source);
the first 10 frames of a run are its warm-up and left out. Each variant runs `repeat` times,
alternating; the row is the median over all kept frames, and the ratio with/without. On the CPU
executor without blur or resize the health sums are taken inside `import`, row by row (the
"health" stage is then only the totals): there the ratio is the measure.
--esframe takes a command line ("ld.so --library-path L esframe" on the NVIDIA device).
On the CPU executor the source decides where the frame is when it is processed: "pattern" draws
it just before (in cache), a file's frame was just read (in cache), while "pattern:loop=8" hands
out frames made before the run (64 MB at 1080p RGBA, out of cache), as a camera's DMA buffers are.
"""
import argparse
import json
import shlex
import statistics
import subprocess
import sys

WARMUP = 10


def frame_times(cmd, args, health):
    argv = shlex.split(cmd) + ["run", "--backend", args.backend, "--source", args.source,
                               "--frames", str(args.frames), "--output", "jsonl"]
    if args.size:
        argv += ["--size", args.size]
    if args.format:
        argv += ["--format", args.format]
    if health:
        argv.append("--health" + ("=" + args.health_options if args.health_options else ""))
    out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
    times, clocks = [], set()
    for line in out.splitlines():
        j = json.loads(line)
        if "event" in j or j["seq"] < WARMUP:
            continue
        gpu = [s for s, c in j["timing_clock"].items() if c == "gpu"]
        stages = gpu if gpu else [s for s in j["timing_ms"] if s != "read"]
        clocks.add("gpu" if gpu else "wall")
        times.append(sum(j["timing_ms"][s] for s in stages))
        if health:
            for s in stages:
                if s.startswith("health"):
                    per_stage.setdefault(s, []).append(j["timing_ms"][s])
            times_health.append(sum(j["timing_ms"][s] for s in stages if s.startswith("health")))
    return times, clocks


times_health = []
per_stage = {}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--esframe", default="build/default/esframe")
    p.add_argument("--backend", default="gles")
    p.add_argument("--source", default="pattern")
    p.add_argument("--size", default="1920x1080")
    p.add_argument("--format", default="")
    p.add_argument("--frames", type=int, default=60)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--health-options", default="", help="--health's keys, e.g. grid=8x6")
    a = p.parse_args()
    without, with_health, clocks = [], [], set()
    for _ in range(a.repeat):
        t, c = frame_times(a.esframe, a, False)
        without += t
        clocks |= c
        t, c = frame_times(a.esframe, a, True)
        with_health += t
        clocks |= c
    m0, m1 = statistics.median(without), statistics.median(with_health)
    print(f"health cost, backend {a.backend}, source {a.source} {a.size} {a.format or ''}, "
          f"--health{'=' + a.health_options if a.health_options else ''}, "
          f"{a.repeat} x {a.frames - WARMUP} frames per variant, clock {'/'.join(sorted(clocks))}")
    print(f"  frame without --health: median {m0:.4f} ms")
    print(f"  frame with --health:    median {m1:.4f} ms (the health stage alone: "
          f"{statistics.median(times_health):.4f} ms)")
    for name, values in per_stage.items():
        print(f"    {name}: median {statistics.median(values):.4f} ms")
    print(f"  ratio {m1 / m0:.3f} (+{100 * (m1 / m0 - 1):.1f}%)")


if __name__ == "__main__":
    sys.exit(main())
