#!/usr/bin/env python3
"""Checks a Bayer `esframe run --dump-raw DIR` against the raw bytes it kept.

usage: check_bayer_run.py RUN.jsonl DIR WIDTH HEIGHT FORMAT ORDER BITS REFERENCE.jsonl

For every output line, the per-site raw histograms (raw_r, raw_gr, raw_gb, raw_b) and clipped
fractions are recomputed here from the frame's dump (DIR/<seq>-WxH-FMT.raw: a byte per value at
8 bits, else a little-endian 16-bit word masked to BITS), with the line's black and white levels
and bins. The RGB histograms must equal REFERENCE.jsonl's: the same dumps, concatenated in
sequence order, run through esframe's plain reference backend (the demosaic's CPU oracle).
Exits 1 and names the frame on the first difference.
"""
import json
import sys


def main():
    out_path, raw_dir, w, h, fmt, order, bits, ref_path = sys.argv[1:9]
    w, h, bits = int(w), int(h), int(bits)
    lines = [json.loads(l) for l in open(out_path).read().split("\n") if l]
    refs = [json.loads(l) for l in open(ref_path).read().split("\n") if l]
    if not lines or len(lines) != len(refs):
        print(f"{len(lines)} run lines, {len(refs)} reference lines")
        return 1
    for rec, ref in zip(sorted(lines, key=lambda r: r["seq"]), refs):
        raw = open(f"{raw_dir}/{rec['seq']:06d}-{w}x{h}-{fmt}.raw", "rb").read()
        if bits == 8:
            values = list(raw[: w * h])
        else:
            mask = (1 << bits) - 1
            values = [(raw[2 * i] | raw[2 * i + 1] << 8) & mask for i in range(w * h)]
        black, white, bins = rec["raw_black"], rec["raw_white"], rec["bins"]
        hist = {s: [0] * bins for s in ("r", "gr", "gb", "b")}
        pixels = dict.fromkeys(hist, 0)
        clipped = dict.fromkeys(hist, 0)
        for y in range(h):
            for x in range(w):
                colour = order[(y & 1) * 2 + (x & 1)]
                other = order[(y & 1) * 2 + ((x + 1) & 1)]
                site = "r" if colour == "R" else "b" if colour == "B" else "gr" if other == "R" else "gb"
                v = values[y * w + x]
                s = min(max(v, black), white) - black
                hist[site][s * bins // (white - black + 1)] += 1
                pixels[site] += 1
                clipped[site] += v >= white
        for site in hist:
            if rec[f"raw_{site}"] != hist[site]:
                print(f"frame {rec['seq']}: raw_{site} differs from the dump's values")
                return 1
            if abs(rec["raw_clipped"][site] - clipped[site] / pixels[site]) > 1e-12:
                print(f"frame {rec['seq']}: raw_clipped.{site} differs")
                return 1
        if rec["hist"] != ref["hist"]:
            print(f"frame {rec['seq']}: RGB histograms differ from the reference backend's")
            return 1
    print(f"{len(lines)} frames: raw and RGB histograms equal the dumps'")
    return 0


if __name__ == "__main__":
    sys.exit(main())
