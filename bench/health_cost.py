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
import statistics
import sys

from esframe_runs import WARMUP, add_run_options, frame_times, run_frames


def health_option(args):
    return "--health" + ("=" + args.health_options if args.health_options else "")


def main():
    p = argparse.ArgumentParser()
    add_run_options(p, repeat=5)
    p.add_argument("--health-options", default="", help="--health's keys, e.g. grid=8x6")
    a = p.parse_args()
    without, with_health, clocks, per_stage = [], [], set(), {}
    for _ in range(a.repeat):
        t, c = frame_times(run_frames(a, []), {})
        without += t
        clocks |= c
        t, c = frame_times(run_frames(a, [health_option(a)]), per_stage)
        with_health += t
        clocks |= c
    health = {s: v for s, v in per_stage.items() if s.startswith("health")}
    times_health = [sum(frame) for frame in zip(*health.values())]
    m0, m1 = statistics.median(without), statistics.median(with_health)
    print(f"health cost, backend {a.backend}, source {a.source} {a.size} {a.format or ''}, "
          f"{health_option(a)}, "
          f"{a.repeat} x {a.frames - WARMUP} frames per variant, clock {'/'.join(sorted(clocks))}")
    print(f"  frame without --health: median {m0:.4f} ms")
    print(f"  frame with --health:    median {m1:.4f} ms (the health stage alone: "
          f"{statistics.median(times_health):.4f} ms)")
    for name, values in health.items():
        print(f"    {name}: median {statistics.median(values):.4f} ms")
    print(f"  ratio {m1 / m0:.3f} (+{100 * (m1 / m0 - 1):.1f}%)")


if __name__ == "__main__":
    sys.exit(main())
