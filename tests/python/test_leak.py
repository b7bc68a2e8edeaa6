"""No reference or memory leak over 10,000 frames: the resident set stays flat."""
import numpy as np

import esframe

PAGE = 4096


def rss_bytes():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * PAGE


def test_rss_flat_over_10000_frames(rng):
    p = esframe.Pipeline(backend="cpu", health=True)
    frames = [rng.integers(0, 256, (4, 6, 4), np.uint8), rng.integers(0, 256, (5, 3, 3), np.uint8)]

    def work(n):
        for i in range(n):
            result = p.process(frames[i % 2] if i % 3 else frames[i % 2][:, ::-1])
            result.hist.sum()
            result.stats, result.health, result.events
            if i % 10 == 0:
                result.to_dict()

    work(1000)  # allocator pools and caches settle
    before = rss_bytes()
    work(10000)
    growth = rss_bytes() - before
    # A leaked Result (a FrameResult of 1 KiB counts and more) or array view per frame would
    # add over 10 MB.
    assert growth < 1 << 20, f"RSS grew {growth} bytes over 10,000 frames"
