#!/usr/bin/python3
"""esframe.Pipeline.process on a numpy frame against numpy and OpenCV on the same frame.

  PYTHONPATH=build/default/python bench/python_histogram.py [--size WxH] [--repeat N]
                                                             [--backends cpu,gles,reference]

The frame: RGBA uint8, random with a fixed seed. Each row is the median of `repeat` timed calls
after 3 warm-up calls, wall clock (time.perf_counter), in one process, rows interleaved round by
round so that load changes hit them alike. The peers count the same 4 channels: numpy.bincount
and numpy.histogram of R, G, B and of the integer BT.709 luma computed with numpy (that
computation included, as esframe's L is); cv2.calcHist of R, G, B and of cv2.cvtColor's grey
(BT.601 weights: a peer's own luma) when python3-opencv is installed. esframe's counts are
checked equal to numpy.bincount's before timing.
"""
import argparse
import os
import statistics
import time

import numpy as np

import esframe

try:
    import cv2
except ImportError:  # python3-opencv is optional (setup-debian.sh bench)
    cv2 = None


def luma(frame):
    r, g, b = (frame[..., i].astype(np.uint32) for i in range(3))
    return ((13933 * r + 46871 * g + 4732 * b + 32768) >> 16).astype(np.uint8)


def numpy_bincount(frame):
    return [np.bincount(frame[..., c].ravel(), minlength=256) for c in range(3)] + \
        [np.bincount(luma(frame).ravel(), minlength=256)]


def numpy_histogram(frame):
    planes = [frame[..., c] for c in range(3)] + [luma(frame)]
    return [np.histogram(p, bins=256, range=(0, 256))[0] for p in planes]


def opencv_calchist(frame):
    hists = [cv2.calcHist([frame], [c], None, [256], [0, 256]) for c in range(3)]
    grey = cv2.cvtColor(frame, cv2.COLOR_RGBA2GRAY)
    return hists + [cv2.calcHist([grey], [0], None, [256], [0, 256])]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--size", default="1920x1080")
    p.add_argument("--repeat", type=int, default=30)
    p.add_argument("--backends", default="cpu,gles,reference")
    args = p.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    frame = np.random.default_rng(1).integers(0, 256, (height, width, 4), np.uint8)

    rows = {}
    expected = np.stack(numpy_bincount(frame)).astype(np.uint32)
    for backend in args.backends.split(","):
        pipeline = esframe.Pipeline(backend=backend)
        result = pipeline.process(frame)
        assert (result.hist == expected).all(), f"{backend}: counts differ from numpy.bincount"
        rows[f"esframe process, {backend} ({pipeline.device.split(',')[0]})"] = \
            lambda pipeline=pipeline: pipeline.process(frame).hist
    rows["numpy.bincount x4 (luma computed in numpy)"] = lambda: numpy_bincount(frame)
    rows["numpy.histogram x4 (luma computed in numpy)"] = lambda: numpy_histogram(frame)
    if cv2 is not None:
        rows[f"cv2.calcHist x3 + cvtColor grey + calcHist (OpenCV {cv2.__version__})"] = \
            lambda: opencv_calchist(frame)

    times = {name: [] for name in rows}
    for call in rows.values():
        for _ in range(3):
            call()
    for _ in range(args.repeat):
        for name, call in rows.items():
            t0 = time.perf_counter()
            call()
            times[name].append((time.perf_counter() - t0) * 1e3)

    medians = {name: statistics.median(t) for name, t in times.items()}
    base = medians["numpy.bincount x4 (luma computed in numpy)"]
    first = next(iter(medians.values()))  # the first backend's process
    print(f"{width}x{height} RGBA, {args.repeat} calls a row, medians; load {os.getloadavg()[0]:.2f}"
          f", {os.cpu_count()} cores, numpy {np.__version__}, esframe {esframe.__version__}")
    print(f"| row | ms | numpy.bincount / row | row / {next(iter(medians))} |")
    print("|---|---|---|---|")
    for name, m in medians.items():
        print(f"| {name} | {m:.2f} | {base / m:.2f} | {m / first:.2f} |")


if __name__ == "__main__":
    main()
