"""esframe.open and esframe.run against the CLI on the same source."""
import json

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
