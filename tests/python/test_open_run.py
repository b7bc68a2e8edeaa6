"""esframe.open and esframe.run against the CLI on the same source."""
import json
import signal
import subprocess
import sys
import time

import numpy as np

import esframe
from conftest import run_cli, without_timing


def test_open_yields_the_cli_frames(cli):
    lines = run_cli(cli, "--source", "pattern", "--size", "64x48", "--frames", "4",
                    "--backend", "cpu")
    with esframe.open("pattern", width=64, height=48, max_frames=4, backend="cpu") as frames:
        assert (frames.name, frames.width, frames.height) == ("pattern", 64, 48)
        results = list(frames)
    assert [r.seq for r in results] == [line["seq"] for line in lines]
    for result, line in zip(results, lines):
        assert without_timing(result.to_dict()) == without_timing(line)
        assert result.hist.sum(axis=1).tolist() == [64 * 48] * 4
    assert frames.pipeline.backend == "cpu"


def test_open_reads_files_to_their_end(tmp_path, rng):
    frames = [rng.integers(0, 256, (3, 5), np.uint8) for _ in range(3)]
    path = tmp_path / "grey.raw"
    path.write_bytes(b"".join(f.tobytes() for f in frames))
    results = list(esframe.open(str(path), width=5, height=3, format="GREY", backend="cpu"))
    assert len(results) == 3
    for frame, result in zip(frames, results):
        assert result.hist[3].tolist() == np.bincount(frame.ravel(), minlength=256).tolist()


def test_pipeline_open_and_end_stream():
    p = esframe.Pipeline(backend="cpu", health=True)
    results = list(p.open("pattern", max_frames=2, width=16, height=8))
    assert len(results) == 2 and all(r.health is not None for r in results)
    assert p.end_stream() == []  # the pattern is neither black nor frozen


def test_run_writes_the_cli_records(cli, tmp_path):
    out = tmp_path / "frames.jsonl"
    report = esframe.run("pattern", jsonl=out, max_frames=3, width=32, height=16, backend="cpu")
    assert report["frames"] == 3 and report["end"] == "frame-limit"
    written = [json.loads(line) for line in out.read_text().splitlines()]
    lines = run_cli(cli, "--source", "pattern", "--size", "32x16", "--frames", "3",
                    "--backend", "cpu")
    assert [without_timing(r) for r in written] == [without_timing(line) for line in lines]


def test_run_png_writes_the_frames_and_the_graphs(tmp_path):
    report = esframe.run("pattern", png=tmp_path / "shots", max_frames=2, width=32, height=16,
                         backend="cpu")
    assert report["frames"] == 2
    assert sorted(p.name for p in (tmp_path / "shots").iterdir()) == [
        "frame-00000000.png", "frame-00000001.png", "graph-00000000.png",
        "graph-00000001.png"]


def test_sigint_stops_run_after_whole_records(tmp_path):
    out = tmp_path / "live.jsonl"
    script = ("import esframe, sys\n"
              "try:\n"
              f"    esframe.run('pattern', jsonl={str(out)!r}, fps=50, width=32, height=16,"
              " backend='cpu')\n"
              "except KeyboardInterrupt:\n"
              "    sys.exit(42)\n")
    child = subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 20
    while (not out.exists() or out.stat().st_size == 0) and time.monotonic() < deadline:
        time.sleep(0.05)  # the paced pattern delivers a frame every 20 ms once running
    try:
        child.send_signal(signal.SIGINT)
        _, stderr = child.communicate(timeout=20)
    finally:
        child.kill()  # only when it did not stop: the assertion below says so
    assert child.returncode == 42, stderr  # the run stopped and raised KeyboardInterrupt
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert records and [r["seq"] for r in records] == list(range(len(records)))
