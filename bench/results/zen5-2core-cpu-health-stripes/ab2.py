#!/usr/bin/env python3
"""ab2.py ROUNDS BUILD... -- ARGS: per round and build, a run without --health and one with, back to back;
prints per build the median of the rounds' ratios (and the medians of the frame times)."""
import json, statistics, subprocess, sys
rounds = int(sys.argv[1]); split = sys.argv.index("--")
builds, run_args = sys.argv[2:split], sys.argv[split + 1:]
def median_frame(build, health):
    argv = [build, "run", "--backend", "cpu", "--size", "1920x1080", "--frames", "150", "--output", "jsonl"] + run_args + (["--health"] if health else [])
    out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
    t = []
    for line in out.splitlines():
        j = json.loads(line)
        if "event" in j or j["seq"] < 10: continue
        t.append(sum(v for s, v in j["timing_ms"].items() if s != "read"))
    return statistics.median(t)
res = {b: [] for b in builds}
for r in range(rounds):
    for b in (builds if r % 2 == 0 else builds[::-1]):
        w0 = median_frame(b, False); w1 = median_frame(b, True)
        res[b].append((w0, w1, w1 / w0))
for b in builds:
    rs = sorted(x[2] for x in res[b])
    q = len(rs) // 4
    print(f"{b:>22}: ratio median {statistics.median(rs):.3f} (quartiles {rs[q]:.3f}-{rs[-1-q]:.3f})  without {statistics.median(x[0] for x in res[b]):.3f}  with {statistics.median(x[1] for x in res[b]):.3f} ms")
