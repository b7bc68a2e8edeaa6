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
import statistics
import sys

from esframe_runs import WARMUP, add_run_options, frame_times, run_frames


def main():
    p = argparse.ArgumentParser()
    add_run_options(p, repeat=3)
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--scopes", default="waveform,parade,vectorscope")
    p.add_argument("--check", default="")
    a = p.parse_args()
    threads = ["--threads", str(a.threads)] if a.threads else []
    scopes = threads + ["--scopes", a.scopes]
    if a.check:
        mine = [r["scopes"] for r in run_frames(a, scopes, frames=3)]
        theirs = [r["scopes"] for r in run_frames(a, scopes, backend=a.check, frames=3)]
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
        t, c = frame_times(run_frames(a, threads), stages_without)
        without += t
        clocks |= c
        t, c = frame_times(run_frames(a, scopes), stages_with)
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
