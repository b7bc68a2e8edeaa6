"""A short pass over the module's C++ side for valgrind and ASan (tests/python/CMakeLists.txt):
every input path (packed, strided, copied, planar tuple and one array), results, to_dict, the
iterator, errors. Exits nonzero when a count differs from numpy.bincount."""
import sys

import numpy as np

import esframe

rng = np.random.default_rng(7)
for backend in ("reference", "cpu"):
    p = esframe.Pipeline(backend=backend, health=True, luma="source")
    rgba = rng.integers(0, 256, (9, 13, 4), np.uint8)
    for frame, fmt in ((rgba, None), (rgba[1:-1, 2:], None), (rgba[:, ::-1], None),
                       (rgba[..., :3], "BGR24"), (rgba[..., 0], "GREY")):
        result = p.process(frame, format=fmt)
        result.to_dict(), result.stats, result.health, result.signalstats, result.events
        if fmt == "GREY":
            expected = np.bincount(frame.ravel(), minlength=256)
            if result.hist[3].tolist() != expected.tolist():
                sys.exit(f"{backend}: GREY counts differ from numpy.bincount")
    y = rng.integers(0, 256, (5, 7), np.uint8)
    uv = rng.integers(0, 256, (3, 4, 2), np.uint8)
    p.process((y, uv), format="NV12").to_dict()
    p.process(rng.integers(0, 256, (6, 8), np.uint8), format="YU12").to_dict()
    p.process(rng.integers(0, 1024, (4, 6), np.uint16), format="SGRBG10").to_dict()
    for bad in (np.zeros((2, 2, 5), np.uint8), np.zeros((3, 3), np.float64)):
        try:
            p.process(bad)
            sys.exit("a bad array was taken")
        except esframe.Error:
            pass
    p.end_stream()
    for result in esframe.open("pattern", width=16, height=8, max_frames=2, backend=backend):
        result.to_dict()
print("memcheck script: ok")
