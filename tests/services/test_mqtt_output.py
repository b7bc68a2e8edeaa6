#!/usr/bin/env python3
"""`esframe run --output mqtt://` against a real mosquitto broker on 127.0.0.1.

Every message is the JSONL object of the same frame (printed by the same run on stdout) plus
"mqtt_dropped"; a broker stopped mid-stream and restarted on the same port is reconnected to,
and the drop counter equals the frames the subscriber never saw; a wrong host gives one clear
line and the run goes on, or fails with --output-required.

usage: test_mqtt_output.py ESFRAME_BINARY
"""
import getpass
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest

from service_support import (SIGNALSTATS_AND_DETECTORS, black_interval_clip,
                             bordered_noise_clip, free_port, wait_for)

ESFRAME = None


class Broker:
    """mosquitto on 127.0.0.1:port; persistence keeps a durable subscriber's session and its
    queued messages across a restart."""

    def __init__(self, workdir, port):
        self.port = port
        self.conf = os.path.join(workdir, "mosquitto.conf")
        self.log = os.path.join(workdir, "mosquitto.log")
        with open(self.conf, "w") as f:
            # Run as root, mosquitto switches to `user` (default "mosquitto"), which could not
            # write its database into our scratch folder.
            f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\n"
                    f"persistence true\npersistence_location {workdir}/\n"
                    f"user {getpass.getuser()}\n")
        self.process = None

    def start(self):
        with open(self.log, "a") as log:
            self.process = subprocess.Popen(["mosquitto", "-c", self.conf], stdout=log,
                                            stderr=subprocess.STDOUT)

        def listening():
            with socket.socket() as s:
                return s.connect_ex(("127.0.0.1", self.port)) == 0
        wait_for(listening, 10, "mosquitto to listen")

    def stop(self):
        self.process.terminate()
        self.process.wait(10)


class Subscriber:
    """mosquitto_sub with a durable session (-c, QoS 1): it reconnects after a broker restart
    and gets what the broker queued for it meanwhile."""

    def __init__(self, workdir, port, topic):
        self.path = os.path.join(workdir, "sub.txt")
        with open(self.path, "w") as out:
            self.process = subprocess.Popen(
                ["mosquitto_sub", "-h", "127.0.0.1", "-p", str(port), "-t", topic, "-q", "1",
                 "-c", "-i", "esframe-test-sub", "-v"], stdout=out)

    def lines(self):
        with open(self.path) as f:
            return [line for line in f.read().split("\n") if line]

    def messages(self, topic):
        """{seq: parsed message} of `topic`, duplicates (QoS 1 redelivery) folded."""
        out = {}
        for line in self.lines():
            t, _, payload = line.partition(" ")
            if t == topic:
                m = json.loads(payload)
                out[m["seq"]] = m
        return out

    def close(self):
        self.process.terminate()
        self.process.wait(10)


def jsonl_by_seq(text):
    return {m["seq"]: m for m in (json.loads(line) for line in text.splitlines())}


class BrokerTest(unittest.TestCase):
    """A test with its own scratch folder and a broker on a free port of 127.0.0.1."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="esframe-mqtt-")
        self.port = free_port()
        self.broker = Broker(self.dir, self.port)
        self.broker.start()

    def tearDown(self):
        self.broker.stop()
        shutil.rmtree(self.dir)


class MqttOutputTest(BrokerTest):
    def setUp(self):
        super().setUp()
        self.sub = Subscriber(self.dir, self.port, "esf/#")
        # The subscription is in place once a probe comes back through it. mosquitto_sub
        # subscribes a moment after it starts, so a probe sent before that is lost: publish one
        # every 0.1 s until one comes back.
        probe = lambda: any(l.startswith("esf/probe") for l in self.sub.lines())
        deadline = time.monotonic() + 10
        while not probe() and time.monotonic() < deadline:
            subprocess.run(["mosquitto_pub", "-p", str(self.port), "-t", "esf/probe", "-m", "x"],
                           check=True)
            time.sleep(0.1)
        self.assertTrue(probe(), "the subscriber never saw a probe in 10 s")

    def tearDown(self):
        self.sub.close()
        super().tearDown()

    def esframe(self, *args, **kw):
        return subprocess.Popen([ESFRAME, "run", "--backend", "cpu", "--source", "pattern", "--size", "33x17",
                                 "--histogram", "bins=16", *args], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, **kw)

    def url(self, options=""):
        return f"mqtt://127.0.0.1:{self.port}/esf/cam" + options

    def test_every_message_is_the_jsonl_of_its_frame(self):
        run = self.esframe("--fps", "20", "--frames", "12", "--output", "jsonl",
                           "--output", self.url(",every=3"))
        out, err = run.communicate(timeout=60)
        self.assertEqual(run.returncode, 0, err)
        jsonl = jsonl_by_seq(out)
        self.assertEqual(sorted(jsonl), list(range(12)))
        wait_for(lambda: len(self.sub.messages("esf/cam")) == 4, 10, "4 messages")
        messages = self.sub.messages("esf/cam")
        self.assertEqual(sorted(messages), [0, 3, 6, 9])  # every=3
        for seq, m in messages.items():
            self.assertEqual(m.pop("mqtt_dropped"), 0)
            self.assertEqual(m, jsonl[seq], f"frame {seq}")
        # The retained status: "online" on connect, "offline" on a clean finish.
        status = [l.partition(" ")[2] for l in self.sub.lines() if l.startswith("esf/cam/status ")]
        self.assertEqual(status, ["online", "offline"])

    def test_signalstats_and_detectors_are_in_the_messages(self):
        # A 4:2:0 clip made by ffmpeg (noise inside black borders): each message carries the
        # --signalstats and --detect figures of its frame's JSONL line; cropdetect from the
        # third frame on (skip=2), as ffmpeg prints it.
        clip = bordered_noise_clip(self.dir, 0.6)
        run = subprocess.Popen([ESFRAME, "run", "--backend", "cpu", "--source", clip,
                                *SIGNALSTATS_AND_DETECTORS,
                                "--output", "jsonl", "--output", self.url()],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        out, err = run.communicate(timeout=60)
        self.assertEqual(run.returncode, 0, err)
        jsonl = jsonl_by_seq(out)
        self.assertEqual(sorted(jsonl), list(range(6)))
        wait_for(lambda: len(self.sub.messages("esf/cam")) == 6, 10, "6 messages")
        for seq, m in self.sub.messages("esf/cam").items():
            self.assertEqual(m.pop("mqtt_dropped"), 0)
            self.assertEqual(m, jsonl[seq], f"frame {seq}")
            for key in ["UMIN", "VMAX", "UDIF", "BRNG", "SATAVG", "HUEMED", "TOUT", "VREP",
                        "blur", "block"]:
                self.assertIn(key, m, f"frame {seq}")
            self.assertEqual("cropdetect" in m, seq >= 2, f"frame {seq}")
            if seq >= 2:
                self.assertEqual(m["cropdetect"]["crop"], "48:32:8:8")

    def test_broker_restart_reconnects_and_counts_drops(self):
        frames = 100
        run = self.esframe("--fps", "20", "--frames", str(frames), "--output", "jsonl",
                           "--output", self.url(",qos=1,queue=5"))
        wait_for(lambda: len(self.sub.messages("esf/cam")) >= 15, 30, "15 messages")
        self.broker.stop()
        down_at = time.monotonic()
        time.sleep(1.5)  # 30 frames at 20 fps: more than the queue of 5 holds
        self.broker.start()
        self.assertIsNone(run.poll(), "esframe stopped while the broker was away")
        out, err = run.communicate(timeout=60)
        self.assertEqual(run.returncode, 0, err)
        self.assertGreater(time.monotonic() - down_at, 1.5)
        jsonl = jsonl_by_seq(out)
        self.assertEqual(sorted(jsonl), list(range(frames)), "the run went on through the outage")
        self.assertIn("connection lost", err)

        wait_for(lambda: max(self.sub.messages("esf/cam"), default=-1) == frames - 1, 15,
                 "the last frame's message")
        messages = self.sub.messages("esf/cam")
        missing = sorted(set(range(frames)) - set(messages))
        self.assertGreater(len(missing), 0, "the outage dropped nothing: the test proves nothing")
        # The counter is cumulative: before the gap 0, after it the frames lost, and each message
        # is its frame's JSONL object.
        for seq, m in sorted(messages.items()):
            lost_before = sum(1 for s in missing if s < seq)
            self.assertEqual(m.pop("mqtt_dropped"), lost_before, f"frame {seq}")
            self.assertEqual(m, jsonl[seq], f"frame {seq}")
        # Oldest first: what was lost is one run of frames, the newest survive in the queue.
        self.assertEqual(missing, list(range(missing[0], missing[-1] + 1)))

    def test_wrong_host_warns_once_and_the_run_goes_on(self):
        run = self.esframe("--frames", "3", "--output", "jsonl", "--output",
                           "mqtt://no-such-host.invalid/esf/cam")
        out, err = run.communicate(timeout=60)
        self.assertEqual(run.returncode, 0, err)
        self.assertEqual(len(out.splitlines()), 3)
        lines = [l for l in err.splitlines() if "no-such-host.invalid" in l and "connect" in l]
        self.assertEqual(len(lines), 1, err)

    def test_silent_broker_is_one_line_at_the_end(self):
        # A listener that accepts and never answers (a stuck broker, a resolver that takes
        # seconds): the first attempt has no outcome when the run ends. One line names the
        # host and says so; the run is not held past the flush bound.
        with socket.socket() as silent:
            silent.bind(("127.0.0.1", 0))
            silent.listen(4)
            url = f"mqtt://127.0.0.1:{silent.getsockname()[1]}/esf/cam"
            started = time.monotonic()
            run = self.esframe("--frames", "3", "--output", "jsonl", "--output", url)
            out, err = run.communicate(timeout=60)
            elapsed = time.monotonic() - started
        self.assertEqual(run.returncode, 0, err)
        self.assertEqual(len(out.splitlines()), 3)
        lines = [l for l in err.splitlines() if "127.0.0.1" in l]
        self.assertEqual(len(lines), 1, err)
        self.assertIn("3 message(s) not delivered", lines[0])
        self.assertIn("still connecting", lines[0])
        self.assertLess(elapsed, 30, "the run waited on the broker past its bound")

    def test_wrong_host_with_output_required_fails(self):
        run = self.esframe("--frames", "3", "--output-required", "--output",
                           "mqtt://no-such-host.invalid/esf/cam")
        out, err = run.communicate(timeout=60)
        self.assertEqual(run.returncode, 1, err)
        self.assertEqual(out, "")
        self.assertEqual(len(err.splitlines()), 1, err)
        self.assertIn("no-such-host.invalid", err)
        # A closed port on a real host: the same, after the connect timeout.
        run = self.esframe("--frames", "3", "--output-required", "--output",
                           f"mqtt://127.0.0.1:{free_port()}/esf/cam")
        out, err = run.communicate(timeout=60)
        self.assertEqual(run.returncode, 1, err)
        self.assertIn("cannot connect", err)
        self.assertEqual(err.count("cannot connect"), 1, err)

    def test_bad_specs_are_usage_errors(self):
        for spec in ["mqtt://127.0.0.1", "mqtt://:1883/t", "mqtt://h/t,qos=2",
                     "mqtt://h:0/t", "mqtt://h/t/#", "mqtt://h/t,cert=a", "mqtt://h/t,color=1"]:
            run = self.esframe("--frames", "1", "--output", spec)
            out, err = run.communicate(timeout=60)
            self.assertEqual(run.returncode, 2, spec)
            self.assertEqual(len(err.splitlines()), 1, err)

    def test_health_events_and_the_retained_state(self):
        # A clip made by ffmpeg: noise (a picture that changes every frame), black for 1 s, one
        # noise frame held for 1 s, noise again. --health with half a
        # second as the minimum: black_start/end and freeze_start/end on TOPIC/events, each the
        # event's JSONL line, and TOPIC/health retained: ok, black, ok, frozen, ok.
        clip = black_interval_clip(self.dir, held_second=True)
        run = subprocess.Popen([ESFRAME, "run", "--backend", "cpu", "--source", clip, "--health="
                                "black_min_duration=0.5,freeze_duration=0.5,threshold=100",
                                "--output", "jsonl", "--output", self.url(",every=100")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        out, err = run.communicate(timeout=60)
        self.assertEqual(run.returncode, 0, err)
        printed = [line for line in out.splitlines() if '"event"' in line]
        self.assertEqual([json.loads(e)["event"] for e in printed],
                         ["black_start", "freeze_start", "black_end", "freeze_end",
                          "freeze_start", "freeze_end"])
        wait_for(lambda: sum(l.startswith("esf/cam/events ") for l in self.sub.lines()) == 6, 10,
                 "6 events")
        published = [l.partition(" ")[2] for l in self.sub.lines() if l.startswith("esf/cam/events ")]
        self.assertEqual(published, printed)
        wait_for(lambda: "esf/cam/status offline" in self.sub.lines(), 10, "the end of the run")
        states = [l.partition(" ")[2] for l in self.sub.lines() if l.startswith("esf/cam/health ")]
        self.assertEqual(states[0], "ok")
        self.assertEqual(states[-1], "ok")
        self.assertIn("black", states)
        self.assertIn("frozen", states)
        # What a dashboard that connects now is given: the retained state.
        retained = subprocess.run(["mosquitto_sub", "-p", str(self.port), "-t", "esf/cam/health",
                                   "-C", "1", "-W", "5"], capture_output=True, text=True)
        self.assertEqual(retained.stdout.strip(), "ok")


if __name__ == "__main__":
    ESFRAME = sys.argv.pop(1)
    unittest.main()
