#!/usr/bin/env python3
"""What --health adds, builds against each other: interleaved.py ROUNDS ESFRAME... -- RUN_ARGS

Each round runs the first build without --health, every build with it, and the last build
without it, 150 1080p frames a run on the CPU executor; a run's figure is the median frame time
(every stage but the source's read) over its frames after the first 10. Prints, per build, the
median of its runs with --health against the median of all runs without it. The builds share
the code without --health, so the runs without it are one pool.
"""
import json
import statistics
import subprocess
import sys

rounds = int(sys.argv[1])
split = sys.argv.index("--")
builds, run_args = sys.argv[2:split], sys.argv[split + 1:]


def median_frame(build, health):
    argv = [build, "run", "--backend", "cpu", "--size", "1920x1080", "--frames", "150",
            "--output", "jsonl"] + run_args + (["--health"] if health else [])
    out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
    times = []
    for line in out.splitlines():
        j = json.loads(line)
        if "event" in j or j["seq"] < 10:
            continue
        times.append(sum(v for s, v in j["timing_ms"].items() if s != "read"))
    return statistics.median(times)


with_health = {b: [] for b in builds}
without = []
for _ in range(rounds):
    without.append(median_frame(builds[0], False))
    for b in builds:
        with_health[b].append(median_frame(b, True))
    without.append(median_frame(builds[-1], False))
m0 = statistics.median(without)
print(f"without health: median {m0:.4f} ms  runs {' '.join(f'{x:.3f}' for x in without)}")
for b in builds:
    m = statistics.median(with_health[b])
    print(f"{b:>8}: with health median {m:.4f} ms  ratio {m / m0:.3f}  health {m - m0:.4f} ms  "
          f"runs {' '.join(f'{x:.3f}' for x in with_health[b])}")
