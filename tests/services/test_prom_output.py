#!/usr/bin/env python3
"""`esframe run --output prom:PATH`: the textfile passes `promtool check metrics` while the run
writes it, and its values equal the JSONL the same run printed for the latest frame.

usage: test_prom_output.py ESFRAME_BINARY
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

from service_support import SIGNALSTATS_AND_DETECTORS, black_interval_clip, bordered_noise_clip

ESFRAME = None
SAMPLE = re.compile(r'^([a-z0-9_]+)\{(.*)\} (\S+)$')
LABEL = re.compile(r'([a-z_]+)="((?:[^"\\]|\\.)*)"')


def parse_metrics(text):
    """{(name, frozenset(labels)): value text}; every sample's family has HELP and TYPE."""
    samples, typed = {}, set()
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            typed.add(line.split()[2])
            continue
        if line.startswith("#"):
            continue
        m = SAMPLE.match(line)
        assert m, f"not a sample line: {line!r}"
        assert m.group(1) in typed, f"{m.group(1)} has no # TYPE line before it"
        labels = frozenset(LABEL.findall(m.group(2)))
        samples[(m.group(1), labels)] = m.group(3)
    return samples


def promtool_check(path):
    with open(path) as f:
        return subprocess.run(["promtool", "check", "metrics"], stdin=f, capture_output=True,
                              text=True)


class PromOutputTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="esframe-prom-")
        self.path = os.path.join(self.dir, "esframe.prom")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def run_to_textfile(self, clip, *options):
        """(the finished run over `clip` with `options`, the textfile's samples), the textfile
        written after every frame and passing promtool."""
        run = subprocess.run([ESFRAME, "run", "--backend", "cpu", "--source", clip, *options,
                              "--output", "jsonl", "--output", f"prom:{self.path},every=0"],
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(run.returncode, 0, run.stderr)
        checked = promtool_check(self.path)
        self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)
        return run, parse_metrics(open(self.path).read())

    def test_promtool_during_the_run_and_values_equal_jsonl(self):
        frames = 40
        run = subprocess.Popen(
            [ESFRAME, "run", "--backend", "cpu", "--source", "pattern", "--size", "45x23", "--fps", "20", "--frames",
             str(frames), "--histogram", "bins=32", "--output", "jsonl", "--output",
             f"prom:{self.path},every=0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True)
        deadline = time.monotonic() + 30
        while not os.path.exists(self.path) and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertTrue(os.path.exists(self.path), "no textfile while running")
        self.assertIsNone(run.poll(), "the run ended before the file could be checked")
        checked = promtool_check(self.path)
        self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)
        middle = parse_metrics(open(self.path).read())
        out, err = run.communicate(timeout=60)
        self.assertEqual(run.returncode, 0, err)
        # Read during the run: a whole file of an earlier frame.
        src = ("source", "pattern")
        seen = int(middle[("esframe_frames_total", frozenset({src}))])
        self.assertTrue(1 <= seen < frames, seen)
        self.assertEqual(middle[("esframe_last_frame_sequence", frozenset({src}))], str(seen - 1))

        checked = promtool_check(self.path)
        self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)
        self.assertEqual(os.listdir(self.dir), ["esframe.prom"], "a temporary file was left")
        metrics = parse_metrics(open(self.path).read())
        lines = [json.loads(l) for l in out.splitlines()]
        self.assertEqual(len(lines), frames)
        last = lines[-1]

        def value(name, **labels):
            return metrics[(name, frozenset({src, *labels.items()}))]

        self.assertEqual(value("esframe_frames_total"), str(frames))
        self.assertEqual(value("esframe_source_dropped_frames_total"),
                         str(sum(l["dropped"] for l in lines)))
        self.assertEqual(value("esframe_source_corrupted_frames_total"),
                         str(sum(l["corrupted"] for l in lines)))
        self.assertEqual(value("esframe_last_frame_sequence"), str(last["seq"]))
        self.assertEqual(value("esframe_camera_up"), "1")  # the pattern has no outages
        self.assertEqual(value("esframe_frame_width_pixels"), str(last["width"]))
        self.assertEqual(value("esframe_frame_height_pixels"), str(last["height"]))
        for channel, stats in last["stats"].items():
            for metric, key in [("mean", "mean"), ("min", "min"), ("max", "max"),
                                ("clip_low_ratio", "clip_low"), ("clip_high_ratio", "clip_high"),
                                ("msv", "msv")]:
                self.assertEqual(float(value("esframe_channel_" + metric, channel=channel)),
                                 float(stats[key]), f"{metric} {channel}")
            for percentile in ["1", "10", "50", "90", "99"]:
                self.assertEqual(value("esframe_channel_percentile", channel=channel,
                                       percentile=percentile), str(stats["p" + percentile]))
        for stage, ms in last["timing_ms"].items():
            self.assertEqual(float(value("esframe_stage_duration_seconds", stage=stage,
                                         clock=last["timing_clock"][stage])), ms / 1000)
        expected = 7 + 6 * len(last["stats"]) + 5 * len(last["stats"]) + len(last["timing_ms"])
        self.assertEqual(len(metrics), expected, "samples besides the ones checked")

    def test_health_gauges_and_event_counters(self):
        # A clip made by ffmpeg: noise, black for 1 s, noise. The gauges equal the last frame's
        # JSONL health figures; the counters count the event lines the run printed.
        clip = black_interval_clip(self.dir)
        run, metrics = self.run_to_textfile(
            clip, "--health=black_min_duration=0.5,freeze_duration=0.5")
        os.remove(clip)
        lines = [json.loads(l) for l in run.stdout.splitlines()]
        events = [l["event"] for l in lines if "event" in l]
        health = [l for l in lines if "event" not in l][-1]["health"]
        src = ("source", clip)
        for event in ["black_start", "black_end", "freeze_start", "freeze_end", "scene_change"]:
            self.assertEqual(metrics[("esframe_health_events_total",
                                      frozenset({src, ("event", event)}))],
                             str(events.count(event)), event)
        self.assertEqual(events.count("black_start"), 1)
        for metric, key in [("black_ratio", "black"), ("ydif", "ydif"), ("si", "si"),
                            ("ti", "ti"), ("scene_score", "scene_score"),
                            ("freeze_mafd", "freeze_mafd"), ("tenengrad", "tenengrad"),
                            ("entropy", "entropy"), ("frozen", "frozen"),
                            ("black_picture", "black_picture")]:
            self.assertEqual(float(metrics[("esframe_health_" + metric, frozenset({src}))]),
                             float(health[key]), metric)

    def test_signalstats_and_detector_gauges(self):
        # A clip made by ffmpeg: noise inside black borders (pad), 4:2:0, blurred on its last
        # frames. Each gauge equals the last frame's JSONL figure (which the signalstats and
        # detector tests hold equal to ffmpeg's own), named after ffmpeg's key.
        clip = bordered_noise_clip(self.dir, 0.8)
        run, metrics = self.run_to_textfile(clip, *SIGNALSTATS_AND_DETECTORS)
        last = json.loads(run.stdout.splitlines()[-1])
        src = frozenset({("source", clip)})
        names = ["UMIN", "ULOW", "UAVG", "UHIGH", "UMAX", "VMIN", "VLOW", "VAVG", "VHIGH", "VMAX",
                 "UDIF", "VDIF", "BRNG", "SATMIN", "SATLOW", "SATAVG", "SATHIGH", "SATMAX",
                 "HUEMED", "HUEAVG", "TOUT", "VREP"]
        for name in names:
            self.assertEqual(float(metrics[("esframe_signalstats_" + name.lower(), src)]),
                             last[name], name)
        self.assertGreater(last["UDIF"], 0)  # noise changes every frame
        crop = last["cropdetect"]
        for key, metric in [("x1", "x1"), ("x2", "x2"), ("y1", "y1"), ("y2", "y2"),
                            ("w", "width"), ("h", "height"), ("x", "x"), ("y", "y")]:
            self.assertEqual(metrics[(f"esframe_cropdetect_{metric}_pixels", src)],
                             str(crop[key]), key)
        # The borders: 8 black columns and rows on each side of the 48x32 picture.
        self.assertEqual((crop["x1"], crop["x2"], crop["y1"], crop["y2"]), (8, 55, 8, 39))
        for key in ["blur", "block"]:
            self.assertIsNotNone(last[key], key)
            self.assertEqual(float(metrics[("esframe_" + key, src)]), last[key], key)
        # Nothing of these without the options.
        plain = subprocess.run([ESFRAME, "run", "--backend", "cpu", "--source", clip, "--output",
                                f"prom:{self.path},every=0"], capture_output=True, text=True,
                               timeout=60)
        self.assertEqual(plain.returncode, 0, plain.stderr)
        text = open(self.path).read()
        for prefix in ["esframe_signalstats_", "esframe_cropdetect_", "esframe_blur",
                       "esframe_block"]:
            self.assertNotIn(prefix, text)

    def test_a_missing_folder_is_made_as_png_makes_its_own(self):
        with tempfile.TemporaryDirectory() as top:
            path = os.path.join(top, "made", "x.prom")
            run = subprocess.run([ESFRAME, "run", "--backend", "cpu", "--frames", "2", "--output",
                                  f"prom:{path}"], capture_output=True, text=True, timeout=60)
            self.assertEqual(run.returncode, 0, run.stderr)
            with open(path) as f:
                self.assertIn("esframe_frames_total", f.read())

    def test_unwritable_folder_is_one_line_before_any_frame(self):
        run = subprocess.run([ESFRAME, "run", "--backend", "cpu", "--frames", "2", "--output",
                              "prom:/nonexistent-esframe-dir/sub/x.prom"], capture_output=True,
                             text=True, timeout=60)
        self.assertEqual(run.returncode, 1)
        self.assertEqual(run.stdout, "")
        self.assertEqual(len(run.stderr.splitlines()), 1, run.stderr)
        self.assertIn("/nonexistent-esframe-dir", run.stderr)
        for spec in ["prom:", "prom:x.prom,every=-1", "prom:x.prom,often=2"]:
            run = subprocess.run([ESFRAME, "run", "--backend", "cpu", "--frames", "1", "--output", spec],
                                 capture_output=True, text=True, timeout=60)
            self.assertEqual(run.returncode, 2, spec)


if __name__ == "__main__":
    ESFRAME = sys.argv.pop(1)
    unittest.main()
