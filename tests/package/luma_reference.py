#!/usr/bin/env python3
"""Independent expectations for examples/histogram.cpp, in the example's output format.

  luma_reference.py write-ppm FILE   a non-flat RGB test image at an odd size (binary PPM)
  luma_reference.py image FILE       luma counts and mean of a binary PPM, computed here with the
                                     BT.709 integer luma of docs/output-formats.md
  luma_reference.py jsonl            the same from one `esframe run --histogram channels=l` JSONL
                                     line on stdin (the CPU reference backend's counts)
"""
import json
import sys

WIDTH, HEIGHT = 37, 23  # odd, so no row or workgroup size divides it


def luma(r, g, b):
    return (13933 * r + 46871 * g + 4732 * b + 32768) >> 16


def write_ppm(path):
    pixels = bytearray()
    for y in range(HEIGHT):
        for x in range(WIDTH):
            # Ramps, a product term and saturated corners: many distinct luma values, 0 and 255.
            r = (x * 7 + y * 13) % 256
            g = (x * x + 3 * y * y) % 256
            b = (x * y * 5 + 11) % 256
            if x < 2 and y < 2:
                r = g = b = 0
            if x >= WIDTH - 2 and y >= HEIGHT - 2:
                r = g = b = 255
            pixels += bytes((r, g, b))
    with open(path, "wb") as f:
        f.write(b"P6\n%d %d\n255\n" % (WIDTH, HEIGHT) + bytes(pixels))


def read_ppm(path):
    data = open(path, "rb").read()
    fields, pos = [], 0
    while len(fields) < 4:  # magic, width, height, maxval; no comments in the files we write
        while data[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    pos += 1  # the one whitespace byte before the raster
    if fields[0] != b"P6" or fields[3] != b"255":
        sys.exit(f"luma_reference: {path}: not an 8-bit binary PPM")
    width, height = int(fields[1]), int(fields[2])
    raster = data[pos:pos + width * height * 3]
    if len(raster) != width * height * 3:
        sys.exit(f"luma_reference: {path}: short raster")
    return width, height, raster


def show(width, height, counts):
    pixels = width * height
    if sum(counts) != pixels:
        sys.exit(f"luma_reference: counts sum to {sum(counts)}, not {pixels} pixels")
    mean = sum(value * count for value, count in enumerate(counts)) / pixels
    print(f"size {width}x{height}")
    print(f"mean {mean:.6f}")
    print("counts " + " ".join(str(c) for c in counts))


def main():
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "write-ppm" and len(sys.argv) == 3:
        write_ppm(sys.argv[2])
    elif command == "image" and len(sys.argv) == 3:
        width, height, raster = read_ppm(sys.argv[2])
        counts = [0] * 256
        for i in range(0, len(raster), 3):
            counts[luma(raster[i], raster[i + 1], raster[i + 2])] += 1
        show(width, height, counts)
    elif command == "jsonl" and len(sys.argv) == 2:
        record = json.loads(sys.stdin.readline())
        if record["bins"] != 256 or list(record["hist"]) != ["l"]:
            sys.exit("luma_reference: expected one 256-bin L histogram")
        show(record["width"], record["height"], record["hist"]["l"])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
