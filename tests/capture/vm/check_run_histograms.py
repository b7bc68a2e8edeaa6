#!/usr/bin/env python3
"""Checks `esframe run --dump-raw DIR` output against the raw bytes it kept.

usage: check_run_histograms.py RUN_OUTPUT.jsonl DIR WIDTH HEIGHT FORMAT

For every output line, the CPU histogram of the raw bytes of the same frame (DIR/<seq>-WxH-FMT.raw)
must equal what esframe computed: for YUV formats (run with --luma source) the L channel against
the raw Y bytes; for RGB24 the R, G and B channels against the raw bytes at offsets 0, 1, 2 (BGR24: 2, 1, 0).
Exits 1 and names the frame on the first difference; also fails on a partial last line.
"""
import json
import sys


def counts(values):
    out = [0] * 256
    for v in values:
        out[v] += 1
    return out


def main():
    out_path, raw_dir, w, h, fmt = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    text = open(out_path).read()
    if text and not text.endswith("\n"):
        print("partial last output line")
        return 1
    lines = [l for l in text.split("\n") if l]
    if not lines:
        print("no output lines")
        return 1
    # A dump is named by sequence number: where a driver repeats one, the file holds the last.
    last = {}
    for line in lines:
        rec = json.loads(line)
        last[rec["seq"]] = rec
    for rec in last.values():
        raw = open(f"{raw_dir}/{rec['seq']:06d}-{w}x{h}-{fmt}.raw", "rb").read()
        if fmt == "YUYV":
            want = {"l": counts(raw[0::2][: w * h])}
        elif fmt == "UYVY":
            want = {"l": counts(raw[1::2][: w * h])}
        elif fmt in ("NV12", "NV21", "YU12", "GREY"):
            want = {"l": counts(raw[: w * h])}
        elif fmt == "RGB24":
            want = {"r": counts(raw[0::3]), "g": counts(raw[1::3]), "b": counts(raw[2::3])}
        elif fmt == "BGR24":
            want = {"r": counts(raw[2::3]), "g": counts(raw[1::3]), "b": counts(raw[0::3])}
        else:
            print(f"format {fmt} not handled")
            return 1
        for channel, hist in want.items():
            if rec["hist"][channel] != hist:
                print(f"frame {rec['seq']}: channel {channel} differs from the raw bytes")
                return 1
    print(f"{len(lines)} frames: histograms equal the raw bytes' histograms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
