#!/usr/bin/python3
"""esframe's histogram of a numpy frame beside numpy.histogram's, plotted with matplotlib.

  examples/python/histogram_plot.py [--picamera2 | --image PHOTO.png] [--plot out.png]
  examples/python/histogram_plot.py --source /dev/video0 --frames 100    # camera, stats only

A picamera2 user's frame is the array capture_array() returns: with the "RGB888" format that is
an (H, W, 3) array whose bytes are B, G, R (format="BGR24"); "XRGB8888" gives (H, W, 4) bytes
B, G, R, X (format="XBGR32"). Without a camera the frame is --image, or a synthetic scene.
Exits 1 when esframe's counts differ from numpy.histogram's.
"""
import argparse
import sys

import numpy as np

import esframe


def synthetic_frame(height=480, width=640):
    """A lit scene: a diagonal gradient with a bright window and sensor noise."""
    y, x = np.mgrid[0:height, 0:width]
    base = (x / width * 150 + y / height * 60).astype(np.int32)
    base[height // 4:height // 2, width // 2:width * 3 // 4] += 90
    noise = np.random.default_rng(0).normal(0, 6, (height, width, 3)).astype(np.int32)
    rgb = base[..., None] * np.array([1.0, 0.9, 0.7]) + noise
    return np.clip(rgb, 0, 255).astype(np.uint8), "RGB24"


def picamera2_frame():
    from picamera2 import Picamera2  # Raspberry Pi OS: python3-picamera2
    camera = Picamera2()
    camera.configure(camera.create_still_configuration(main={"format": "RGB888"}))
    camera.start()
    try:
        return camera.capture_array(), "BGR24"
    finally:
        camera.stop()


def image_frame(path):
    import matplotlib.image  # PNG as floats 0..1, JPEG as uint8
    pixels = matplotlib.image.imread(path)
    if pixels.dtype != np.uint8:
        pixels = np.round(pixels * 255).astype(np.uint8)
    return pixels, {2: "GREY", 3: "RGB24" if pixels.ndim == 3 and pixels.shape[2] == 3
                    else "RGBA32"}[pixels.ndim]


def rgb_of(frame, fmt):
    """R, G, B planes of the frame, for numpy.histogram."""
    if fmt == "GREY":
        return frame, frame, frame
    order = {"RGB24": (0, 1, 2), "RGBA32": (0, 1, 2), "BGR24": (2, 1, 0)}[fmt]
    return tuple(frame[..., i] for i in order)


def compare(frame, fmt, plot):
    pipeline = esframe.Pipeline(channels="rgbl")  # backend="auto": the GPU, else the CPU executor
    result = pipeline.process(frame, format=fmt)
    r, g, b = rgb_of(frame, fmt)
    # esframe's L is the integer BT.709 luma (docs/output-formats.md).
    luma = (13933 * r.astype(np.int64) + 46871 * g.astype(np.int64) + 4732 * b.astype(np.int64)
            + 32768) >> 16
    reference = [np.histogram(p, bins=256, range=(0, 256))[0] for p in (r, g, b, luma)]
    same = all((result.hist[c] == reference[c]).all() for c in range(4))
    stats = result.stats["l"]
    print(f"{result.width}x{result.height} {result.format} on {pipeline.device}")
    print(f"luma mean {stats['mean']:.2f}, p10/p50/p90 {stats['p10']}/{stats['p50']}/"
          f"{stats['p90']}, clipped {stats['clip_high']:.4f}, ev_hint {result.ev_hint}")
    print(f"esframe and numpy.histogram counts equal: {'yes' if same else 'NO'}")
    if plot:
        plot_histograms(result, reference, plot)
    return same


def plot_histograms(result, reference, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed (python3-matplotlib): no plot")
        return
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.5), sharey=True)
    colours = {"r": "tab:red", "g": "tab:green", "b": "tab:blue", "l": "black"}
    for c, letter in enumerate(result.channels):
        axes[0].plot(result.hist[c], color=colours[letter], label=letter)
        axes[1].plot(reference[c], color=colours[letter], label=letter)
    axes[0].set_title("esframe (result.hist)")
    axes[1].set_title("numpy.histogram")
    for ax in axes:
        ax.set_xlabel("value")
        ax.legend()
    axes[0].set_ylabel("pixels")
    fig.tight_layout()
    fig.savefig(path)
    print(f"plot: {path}")


def camera_stats(source, frames):
    with esframe.open(source, max_frames=frames) as results:
        for result in results:
            s = result.stats["l"]
            print(f"{result.seq}: luma mean {s['mean']:.1f} p50 {s['p50']} ev_hint {result.ev_hint}")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--picamera2", action="store_true", help="capture with picamera2")
    p.add_argument("--image", help="a photo (PNG, or JPEG with Pillow)")
    p.add_argument("--plot", help="save the two histograms side by side to this PNG")
    p.add_argument("--source", help="iterate a source instead (pattern, /dev/video0, a file)")
    p.add_argument("--frames", type=int, default=30)
    args = p.parse_args()
    if args.source:
        camera_stats(args.source, args.frames)
        return 0
    frame, fmt = (picamera2_frame() if args.picamera2 else
                  image_frame(args.image) if args.image else synthetic_frame())
    return 0 if compare(frame, fmt, args.plot) else 1


if __name__ == "__main__":
    sys.exit(main())
