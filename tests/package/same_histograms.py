#!/usr/bin/env python3
"""Checks two `esframe run --size 257x3 --frames 3 --histogram channels=rgbl` JSONL outputs of
the same frames, one from the CPU executor and one from the CPU references: three frames each,
in order, every histogram equal and the luma counts summing to the frame's pixels.

  same_histograms.py CPU.jsonl REFERENCE.jsonl
"""
import json
import sys


def main(cpu_path, reference_path):
    cpu, ref = ([json.loads(line) for line in open(path)] for path in (cpu_path, reference_path))
    if len(cpu) != 3 or len(ref) != 3:
        sys.exit(f"same_histograms: expected 3 frames each, got {len(cpu)} and {len(ref)}")
    for a, b in zip(cpu, ref):
        if a["seq"] != b["seq"] or (a["width"], a["height"]) != (257, 3):
            sys.exit(f"same_histograms: frame {a['seq']} against {b['seq']}, {a['width']}x{a['height']}")
        if a["hist"] != b["hist"]:
            sys.exit(f"same_histograms: frame {a['seq']}: the CPU executor's histograms differ from the references'")
        if sum(a["hist"]["l"]) != 257 * 3:
            sys.exit(f"same_histograms: frame {a['seq']}: luma counts sum to {sum(a['hist']['l'])}")
    print("same_histograms: 3 frames, the CPU executor's histograms equal the references'")


if __name__ == "__main__":
    main(*sys.argv[1:3])
