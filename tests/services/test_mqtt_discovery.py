#!/usr/bin/env python3
"""`esframe run --output mqtt://...,discovery=homeassistant` against a real mosquitto broker.

The retained discovery configs are held against Home Assistant's documented schema
(ha_discovery_reference.json, copied from its documentation with the links): topics, keys,
device and state classes, availability, device and origin. Every state topic a config names is
one esframe publishes, every value template reads a member that state has, and the figures are
those of a frame the same run printed as JSONL. Unique ids are stable across runs; a custom
prefix and device name are used; discovery=remove clears every config and the state; a source
that stops delivering frames turns the camera's connectivity off and back on.

usage: test_mqtt_discovery.py ESFRAME_BINARY
"""
import json
import os
import re
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from service_support import wait_for  # noqa: E402
from test_mqtt_output import BrokerTest  # noqa: E402

ESFRAME = None
HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "ha_discovery_reference.json")) as f:
    REFERENCE = json.load(f)
TEMPLATE = re.compile(r"^\{\{ value_json\.([A-Za-z0-9_]+) \}\}$")
ALL_OBJECTS = {"brightness", "ev_hint", "focus", "entropy", "fps", "black", "frozen", "covered",
               "camera"}


def y4m_frame(width, height, value):
    """One 4:2:0 frame: a luma ramp offset by `value`, flat chroma."""
    luma = bytes((x + y + value) % 256 for y in range(height) for x in range(width))
    return b"FRAME\n" + luma + bytes([128]) * (2 * (width // 2) * (height // 2))


class MqttDiscoveryTest(BrokerTest):
    def url(self, options):
        return f"mqtt://127.0.0.1:{self.port}/esf/cam,{options}"

    def run_esframe(self, *args, **kw):
        return subprocess.run([ESFRAME, "run", "--backend", "cpu", "--source", "pattern",
                               "--size", "33x17", "--histogram", "bins=16", *args],
                              capture_output=True, text=True, timeout=120, **kw)

    def retained(self, *topics):
        """{topic: payload} of every retained message under `topics` now. The broker sends a
        subscription's retained messages before anything published after it: a non-retained
        marker, published every 0.05 s until it arrives, ends mosquitto_sub (--retained-only
        exits on the first message without the retain flag) right after the last of them."""
        marker = f"esf-test/end-of-retained/{os.getpid()}"
        args = ["mosquitto_sub", "-h", "127.0.0.1", "-p", str(self.port), "--retained-only",
                "-W", "10", "-F", "%t\t%p", "-t", marker]
        for t in topics:
            args += ["-t", t]
        sub = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
        while True:
            try:
                out, _ = sub.communicate(timeout=0.05)
                break
            except subprocess.TimeoutExpired:
                subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(self.port), "-t",
                                marker, "-m", "end"], check=True)
        self.assertEqual(sub.returncode, 0, "mosquitto_sub saw no end marker in 10 s")
        messages = {}
        for line in out.splitlines():
            topic, _, payload = line.partition("\t")
            self.assertNotEqual(topic, marker)
            messages[topic] = payload
        return messages

    def configs(self, prefix="homeassistant"):
        return {t: json.loads(p) for t, p in self.retained(prefix + "/#").items()}

    def check_schema(self, topic, config, prefix):
        parts = topic.split("/")
        prefix_parts = prefix.split("/")
        self.assertEqual(parts[:len(prefix_parts)], prefix_parts, topic)
        component, node, obj, last = parts[len(prefix_parts):]
        self.assertEqual(last, "config", topic)
        self.assertIn(component, REFERENCE["components"], topic)
        for part in (node, obj):
            self.assertRegex(part, REFERENCE["id_pattern"], topic)
        spec = REFERENCE["components"][component]
        self.assertLessEqual(set(config), set(spec["keys"]), topic)
        self.assertLessEqual(set(spec["required"]), set(config), topic)
        if "device_class" in config:
            self.assertIn(config["device_class"], spec.get("device_class", []), topic)
        if "state_class" in config:
            self.assertIn(config["state_class"], spec["state_class"], topic)
        for item in config["availability"]:
            self.assertLessEqual(set(item), set(REFERENCE["availability_item"]["keys"]), topic)
            self.assertLessEqual(set(REFERENCE["availability_item"]["required"]), set(item))
        self.assertLessEqual(set(config["device"]), set(REFERENCE["device"]["keys"]), topic)
        self.assertLessEqual(set(config["origin"]), set(REFERENCE["origin"]["keys"]), topic)
        self.assertLessEqual(set(REFERENCE["origin"]["required"]), set(config["origin"]))
        self.assertRegex(config["value_template"], TEMPLATE, topic)
        return component, node, obj

    def test_configs_follow_the_schema_and_read_what_esframe_publishes(self):
        run = self.run_esframe("--fps", "20", "--frames", "40", "--health", "grid=4x3",
                               "--output", "jsonl", "--output",
                               self.url("discovery=homeassistant,state-every=1"))
        self.assertEqual(run.returncode, 0, run.stderr)
        frames = [json.loads(line) for line in run.stdout.splitlines()
                  if line.startswith('{"seq"')]
        self.assertEqual(len(frames), 40)
        configs = self.configs()
        objects = {}
        for topic, config in configs.items():
            component, node, obj = self.check_schema(topic, config, "homeassistant")
            self.assertEqual(node, "esframe_esf_cam")
            self.assertEqual(config["unique_id"], f"{node}_{obj}")
            objects[obj] = (component, config)
        self.assertEqual(set(objects), ALL_OBJECTS)
        self.assertEqual(len({c["unique_id"] for _, c in objects.values()}), len(objects))
        devices = {json.dumps(c["device"], sort_keys=True) for _, c in objects.values()}
        self.assertEqual(len(devices), 1, "one device for every entity")
        self.assertEqual(objects["black"][1]["device_class"], "problem")
        self.assertEqual(objects["covered"][1]["device_class"], "tamper")
        self.assertEqual(objects["camera"][1]["device_class"], "connectivity")

        # Every topic the configs name is one esframe publishes, and after the run its status
        # says what payload_not_available says.
        state_topics = {c["state_topic"] for _, c in objects.values()}
        self.assertEqual(state_topics, {"esf/cam/state"})
        published = self.retained("esf/cam/#")
        state = json.loads(published["esf/cam/state"])
        for component, config in objects.values():
            key = TEMPLATE.match(config["value_template"]).group(1)
            self.assertIn(key, state)
            if component == "binary_sensor":
                self.assertIn(state[key], (config["payload_on"], config["payload_off"]))
            for item in config["availability"]:
                self.assertEqual(published[item["topic"]], item["payload_not_available"])
        # The figures are one frame's, as the JSONL printed them.
        figures = (state["brightness"], state["ev_hint"], state["focus"], state["entropy"])
        printed = {(f["stats"]["l"]["mean"], f["ev_hint"], f["health"]["tenengrad"],
                    f["health"]["entropy"]) for f in frames}
        self.assertIn(figures, printed)
        # 20 frames a second in the stream's time (null only before a second state).
        self.assertIsNotNone(state["fps"])
        self.assertAlmostEqual(state["fps"], 20.0, places=6)
        self.assertEqual(state["camera"], "ON")

    def test_ids_are_stable_and_remove_clears_everything(self):
        spec = self.url("discovery=homeassistant")
        first = self.run_esframe("--frames", "2", "--health=", "--output", spec)
        self.assertEqual(first.returncode, 0, first.stderr)
        before = self.configs()
        self.assertEqual(len(before), 8, sorted(before))  # no regions: no "covered"
        second = self.run_esframe("--frames", "2", "--health=", "--output", spec)
        self.assertEqual(second.returncode, 0, second.stderr)
        self.assertEqual(self.configs(), before)
        gone = self.run_esframe("--frames", "1", "--output", self.url("discovery=remove"))
        self.assertEqual(gone.returncode, 0, gone.stderr)
        self.assertEqual(self.configs(), {})
        self.assertNotIn("esf/cam/state", self.retained("esf/cam/#"))

    def test_prefix_name_and_a_run_without_health(self):
        run = self.run_esframe("--frames", "2", "--output",
                               self.url("discovery=homeassistant,discovery-prefix=ha/test,"
                                        "name=Porch camera"))
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(self.configs(), {})
        configs = self.configs("ha/test")
        objects = set()
        for topic, config in configs.items():
            objects.add(self.check_schema(topic, config, "ha/test")[2])
            self.assertEqual(config["device"]["name"], "Porch camera")
        self.assertEqual(objects, {"brightness", "ev_hint", "fps", "camera"})

    def test_detector_entities(self):
        # --detect crop,blur,block on a clip made by ffmpeg (noise inside black borders): blur
        # and block sensors from the first frame, the borders binary sensor once cropdetect has
        # figures (after its 2 skipped frames); the state's figures are a printed frame's.
        clip = os.path.join(self.dir, "clip.y4m")
        subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i",
                        "testsrc2=s=48x32:r=10:d=1,noise=alls=20:allf=t,"
                        "pad=64:48:8:8:black,format=yuv420p", "-y", clip], check=True)
        run = subprocess.run([ESFRAME, "run", "--backend", "cpu", "--source", clip, "--detect",
                              "crop,blur,block", "--output", "jsonl", "--output",
                              self.url("discovery=homeassistant,state-every=1")],
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(run.returncode, 0, run.stderr)
        frames = [json.loads(line) for line in run.stdout.splitlines()]
        objects = {}
        for topic, config in self.configs().items():
            component, _, obj = self.check_schema(topic, config, "homeassistant")
            objects[obj] = (component, config)
        self.assertEqual(set(objects), {"brightness", "ev_hint", "blur", "block", "fps",
                                        "borders", "camera"})
        self.assertEqual(objects["blur"][0], "sensor")
        self.assertEqual(objects["block"][0], "sensor")
        self.assertEqual(objects["borders"][0], "binary_sensor")
        self.assertEqual(objects["borders"][1]["device_class"], "problem")
        state = json.loads(self.retained("esf/cam/#")["esf/cam/state"])
        self.assertIn((state["blur"], state["block"]),
                      {(f["blur"], f["block"]) for f in frames if "cropdetect" in f})
        self.assertEqual(state["borders"], "ON")  # 8 black lines on every side

    def test_camera_connectivity_follows_the_frames(self):
        width, height = 32, 16
        run = subprocess.Popen([ESFRAME, "run", "--backend", "cpu", "--source", "-",
                                "--histogram", "bins=16", "--output",
                                self.url("discovery=homeassistant,state-every=1")],
                               stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
        try:
            run.stdin.write(f"YUV4MPEG2 W{width} H{height} F20:1 Ip A1:1 C420jpeg\n".encode())
            # A frame reaches the outputs once the next one has come in (the pipeline keeps
            # one in flight): two at a time.
            run.stdin.write(y4m_frame(width, height, 0) + y4m_frame(width, height, 1))
            run.stdin.flush()

            def camera(value):
                payload = self.retained("esf/cam/state").get("esf/cam/state")
                return payload is not None and json.loads(payload)["camera"] == value
            wait_for(lambda: camera("ON"), 20, "the camera on")
            # No frame for three state intervals, at least 10 s: off.
            stalled = time.monotonic()
            wait_for(lambda: camera("OFF"), 30, "the camera off")
            self.assertGreaterEqual(time.monotonic() - stalled, 9.0)
            run.stdin.write(y4m_frame(width, height, 7) + y4m_frame(width, height, 8))
            run.stdin.flush()
            wait_for(lambda: camera("ON"), 20, "the camera back on")
        finally:
            run.stdin.close()
            run.wait(30)
        self.assertEqual(run.returncode, 0, run.stderr.read().decode())

    def test_bad_discovery_options_are_usage_errors(self):
        for options, text in [("discovery=yes", "discovery is homeassistant or remove"),
                              ("name=Porch", "need discovery=homeassistant"),
                              ("discovery=homeassistant,state-every=0", "state-every"),
                              ("discovery=homeassistant,discovery-prefix=ha/#", "wildcard")]:
            run = self.run_esframe("--frames", "1", "--output", self.url(options))
            self.assertEqual(run.returncode, 2, (options, run.stderr))
            lines = run.stderr.strip().splitlines()
            self.assertEqual(len(lines), 1, (options, run.stderr))
            self.assertIn(text, lines[0], options)


if __name__ == "__main__":
    ESFRAME = sys.argv.pop(1)
    unittest.main()
