"""What the bench scripts share: running `esframe run --output jsonl` over one source and reading
each frame's stage times, and the CPU time of a running process and of some of its threads.

Imported by the scripts beside it (python puts a script's own folder first on its path).
"""
import json
import os
import shlex
import socket
import subprocess

WARMUP = 10  # a run's first frames: its warm-up, left out of every figure
TICK = os.sysconf("SC_CLK_TCK")


def add_run_options(parser, repeat):
    """The options of a script that runs `esframe run` over one source. --esframe takes a command
    line ("ld.so --library-path L esframe" on the NVIDIA device)."""
    parser.add_argument("--esframe", default="build/default/esframe")
    parser.add_argument("--backend", default="gles")
    parser.add_argument("--source", default="pattern")
    parser.add_argument("--size", default="1920x1080")
    parser.add_argument("--format", default="")
    parser.add_argument("--frames", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=repeat)


def run_frames(args, options, backend=None, frames=None):
    """The frame records (events left out) of `esframe run` over args' source with `options` added;
    backend and frames, where given, in place of args'."""
    argv = shlex.split(args.esframe) + ["run", "--backend", backend or args.backend,
                                        "--source", args.source,
                                        "--frames", str(frames or args.frames), "--output", "jsonl"]
    if args.size:
        argv += ["--size", args.size]
    if args.format:
        argv += ["--format", args.format]
    out = subprocess.run(argv + options, check=True, capture_output=True, text=True).stdout
    return [r for r in map(json.loads, out.splitlines()) if "event" not in r]


def frame_times(records, per_stage):
    """(each frame's time, the clocks they were taken on) after the warm-up; each stage's times are
    appended to per_stage[stage]. A frame's time is the sum of its stages' timing_ms: on the GPU
    with timer queries the GPU stages (timing_clock "gpu"), elsewhere every stage but "read" (the
    wait for the source)."""
    times, clocks = [], set()
    for j in records[WARMUP:]:
        gpu = [s for s, c in j["timing_clock"].items() if c == "gpu"]
        stages = gpu if gpu else [s for s in j["timing_ms"] if s != "read"]
        clocks.add("gpu" if gpu else "wall")
        times.append(sum(j["timing_ms"][s] for s in stages))
        for s in stages:
            per_stage.setdefault(s, []).append(j["timing_ms"][s])
    return times, clocks


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ticks(path):
    with open(path) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def cpu_ticks(pid, counted):
    """(the process's ticks, those of its threads whose name `counted` accepts), utime + stime."""
    total, threads = _ticks(f"/proc/{pid}/stat"), 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/comm") as f:
                if counted(f.read().strip()):
                    threads += _ticks(f"/proc/{pid}/task/{tid}/stat")
        except FileNotFoundError:
            pass  # a thread that ended: its ticks are in the process's
    return total, threads
