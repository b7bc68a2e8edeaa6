"""Fixtures of the esframe Python tests: the built module on PYTHONPATH, the CLI beside it
(ESFRAME_CLI), and the numpy oracle of the histogram (docs/output-formats.md)."""
import json
import os
import subprocess

import numpy as np
import pytest

import esframe

BACKENDS = ["reference", "cpu", "gles"]  # gles: Mesa llvmpipe here, a real GPU on boards


def luma(r, g, b):
    """The integer BT.709 luma docs/output-formats.md defines."""
    return (13933 * r.astype(np.int64) + 46871 * g.astype(np.int64) + 4732 * b.astype(np.int64)
            + 32768) >> 16


def counts(values, bins=256):
    """numpy.bincount of 8-bit values at `bins` bins: bin of v is (v * bins) >> 8."""
    v = np.asarray(values, dtype=np.int64).ravel()
    return np.bincount((v * bins) >> 8, minlength=bins).astype(np.uint32)


def expected_hist(r, g, b, channels="rgbl", bins=256):
    planes = {"r": r, "g": g, "b": b, "l": luma(r, g, b)}
    return np.stack([counts(planes[c], bins) for c in channels])


@pytest.fixture(scope="session")
def rng():
    return np.random.default_rng(20261126)


@pytest.fixture(scope="session", params=BACKENDS)
def backend(request):
    return request.param


_pipelines = {}


@pytest.fixture
def pipeline_of():
    """Pipelines by configuration, made once per test session (a gles one compiles shaders)."""
    def make(**config):
        key = tuple(sorted((k, repr(v)) for k, v in config.items()))
        if key not in _pipelines:
            _pipelines[key] = esframe.Pipeline(**config)
        return _pipelines[key]
    return make


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("ESFRAME_CLI")
    assert path and os.access(path, os.X_OK), "ESFRAME_CLI names the built esframe binary"
    return path


def run_cli(cli, *args):
    """`esframe run ARGS --output jsonl`: the frame records (lines with "hist")."""
    out = subprocess.run([cli, "run", *args, "--output", "jsonl"], check=True,
                         capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if '"hist"' in line]


def without_timing(record):
    return {k: v for k, v in record.items() if k not in ("timing_ms", "timing_clock")}
