#!/usr/bin/env python3
"""What a run costs the host CPU: user + system milliseconds per frame of the whole process.

  bench/host_cpu.py [--esframe CMD] [--size WxH] [--frames N] [--repeat R] [--y4m PATH]
                    [--backends gles,cpu] [--formats RGBA32,NV12] [--health]

Each variant is `esframe -v run ... --output jsonl` with its stdout thrown away; the figure is
the closing line's "ms of CPU per frame" (CLOCK_PROCESS_CPUTIME_ID from the first frame's
delivery to the last's, divided by the frames after the first: every thread, the GPU driver's
and the sinks' included, start-up and the first frame's setup left out), the median over `repeat` runs, beside the frame rate of the
same runs. Sources: `pattern:loop=16` (frames rendered before the run: memory a camera hands
over, no rendering in the loop) in each format, and a Y4M file when --y4m names one (read from
the file each frame: the page cache's copy counts).
--esframe takes a command line ("ld.so --library-path L esframe" on the NVIDIA device).
"""
import argparse
import re
import shlex
import statistics
import subprocess
import sys

CLOSING = re.compile(r"frames per second and ([0-9.]+) ms of CPU per frame")
RATE = re.compile(r"; ([0-9]+) frames per second")


def one_run(cmd, backend, source, args, fmt, health):
    argv = shlex.split(cmd) + ["-v", "run", "--backend", backend, "--source", source,
                               "--frames", str(args.frames), "--output", "jsonl"]
    if source.startswith("pattern"):
        argv += ["--size", args.size]
        if fmt:
            argv += ["--format", fmt]
    if health:
        argv.append("--health")
    done = subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    cpu, rate = CLOSING.search(done.stderr), RATE.search(done.stderr)
    if not cpu or not rate:
        sys.exit(f"no closing line with the CPU time in: {done.stderr[-400:]}")
    return float(cpu.group(1)), int(rate.group(1))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--esframe", default="build/default/esframe")
    p.add_argument("--size", default="1920x1080")
    p.add_argument("--frames", type=int, default=200)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--y4m", default="")
    p.add_argument("--backends", default="gles,cpu")
    p.add_argument("--formats", default="RGBA32,NV12")
    p.add_argument("--health", action="store_true")
    a = p.parse_args()
    sources = [("pattern:loop=16", f) for f in a.formats.split(",")]
    if a.y4m:
        sources.append((a.y4m, ""))
    print(f"host CPU per frame, {a.size}, {a.frames} frames a run, median of {a.repeat} runs"
          f"{', --health' if a.health else ''}")
    print("| backend | source | format | CPU ms per frame (min-max) | frames per second |")
    print("|---|---|---|---|---|")
    for backend in a.backends.split(","):
        for source, fmt in sources:
            runs = [one_run(a.esframe, backend, source, a, fmt, a.health)
                    for _ in range(a.repeat)]
            cpu = [c for c, _ in runs]
            fps = statistics.median(r for _, r in runs)
            name = "pattern, looped" if source.startswith("pattern") else "Y4M file"
            print(f"| {backend} | {name} | {fmt or 'file'} | {statistics.median(cpu):.3f} "
                  f"({min(cpu):.3f}-{max(cpu):.3f}) | {fps:.0f} |")


if __name__ == "__main__":
    sys.exit(main())
