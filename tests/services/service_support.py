"""What the service tests share: a free port on 127.0.0.1, waiting for a condition, and the
signalstats/detector clip made by ffmpeg.

Imported by the tests beside it (python puts a script's own folder first on its path).
"""
import os
import socket
import subprocess
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, timeout_s, what):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


# What the signalstats and detector figures are run with: every signalstats stat, and the
# crop, blur and block detectors.
SIGNALSTATS_AND_DETECTORS = ["--signalstats-stat", "tout+vrep", "--detect", "crop,blur,block"]


def bordered_noise_clip(directory, seconds):
    """A 4:2:0 Y4M clip at 10 frames/s made by ffmpeg: a 48x32 noisy test picture inside 8 black
    columns and rows on each side (64x48), for the signalstats and the detectors."""
    clip = os.path.join(directory, "clip.y4m")
    subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i",
                    f"testsrc2=s=48x32:r=10:d={seconds},noise=alls=20:allf=t,"
                    "pad=64:48:8:8:black,format=yuv420p", "-y", clip], check=True)
    return clip


def black_interval_clip(directory, held_second=False):
    """A 4:2:0 Y4M clip at 10 frames/s made by ffmpeg, 64x48: noise (a picture that changes every
    frame) for 1 s, black for 1 s, then, with held_second, one noise frame held for 1 s, then
    noise for 1 s: the health tests' black interval and freeze."""
    clip = os.path.join(directory, "clip.y4m")
    s = "s=64x48:r=10"
    noise = f"color=gray:{s}:d=1,noise=alls=30:allf=t"
    parts = [noise, f"color=black:{s}:d=1"]
    if held_second:
        parts.append(f"color=gray:{s}:d=0.1,noise=alls=30:allf=t,loop=loop=9:size=1")
    parts.append(noise)
    labels = "".join(f"[p{i}]" for i in range(len(parts)))
    graph = ";".join(f"{p}[p{i}]" for i, p in enumerate(parts))
    subprocess.run(["ffmpeg", "-v", "error", "-filter_complex",
                    f"{graph};{labels}concat=n={len(parts)}:v=1:a=0,format=yuv420p", "-y", clip],
                   check=True)
    return clip
