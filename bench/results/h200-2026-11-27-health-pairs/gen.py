#!/usr/bin/env python3
"""gen.py N: N frames of Y4M on stdout, the two frames of camera2.y4m (beside this script) in turn."""
import os, sys
n = int(sys.argv[1])
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "camera2.y4m"), "rb") as f:
    header = f.readline()
    frames = [f.readline() + f.read(1920 * 1080 * 3 // 2) for _ in range(2)]
out = sys.stdout.buffer
out.write(header)
try:
    for i in range(n):
        out.write(frames[i % 2])
except BrokenPipeError:
    pass
