#!/usr/bin/env python3
"""esframe@.service as `cmake --install` puts it: `systemd-analyze verify` passes (when systemd
is here), the restart policy matches the README's exit codes, and the config file it names is
read by the installed `esframe --config FILE run`.

usage: test_systemd_unit.py BUILD_DIR SOURCE_DIR
"""
import configparser
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

BUILD = SOURCE = None


class SystemdUnitTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.prefix = tempfile.mkdtemp(prefix="esframe-unit-")
        subprocess.run(["cmake", "--install", BUILD, "--prefix", cls.prefix], check=True,
                       stdout=subprocess.DEVNULL)
        cls.unit_path = os.path.join(cls.prefix, "lib/systemd/system/esframe@.service")
        unit = configparser.ConfigParser(strict=False, interpolation=None)
        unit.optionxform = str
        unit.read(cls.unit_path)
        cls.service = unit["Service"]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.prefix)

    def test_restart_policy_follows_the_exit_codes(self):
        # README: 1 runtime error and 3 device lost are failures to restart; 2 (bad command
        # line or config) cannot be mended by a restart; 0 (also SIGTERM) is a clean stop.
        self.assertEqual(self.service["Restart"], "on-failure")
        self.assertEqual(self.service["RestartPreventExitStatus"].split(), ["2"])
        self.assertEqual(self.service["KillSignal"], "SIGTERM")
        self.assertEqual(self.service["ExecStart"],
                         f"{self.prefix}/bin/esframe --config /etc/esframe/%i.conf run")

    @unittest.skipUnless(shutil.which("systemd-analyze"), "no systemd-analyze here")
    def test_systemd_analyze_verify(self):
        # A template is verified through an instance of it.
        with tempfile.TemporaryDirectory() as d:
            instance = os.path.join(d, "esframe@camera1.service")
            shutil.copy(self.unit_path, instance)
            # Documentation=man:esframe(1): the page the install put beside it (the trailing
            # ':' keeps man's own path for systemd.service(5)).
            env = dict(os.environ, MANPATH=os.path.join(self.prefix, "share/man") + ":")
            r = subprocess.run(["systemd-analyze", "verify", instance], capture_output=True,
                               text=True, env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr.strip(), "", "verify warned")

    def run_installed(self, config_text, *run_args):
        with tempfile.TemporaryDirectory() as d:
            conf = os.path.join(d, "camera1.conf")
            with open(conf, "w") as f:
                f.write(config_text)
            # ExecStart with the instance's file in place of /etc/esframe/%i.conf.
            command = self.service["ExecStart"].replace("/etc/esframe/%i.conf", conf).split()
            return subprocess.run(command + list(run_args), capture_output=True, text=True,
                                  timeout=120)

    def test_config_file_options_reach_run(self):
        with tempfile.TemporaryDirectory() as d:
            prom = os.path.join(d, "esframe.prom")
            r = self.run_installed(
                "# a comment\n[run]\nsource = pattern\nsize = 33x17\nframes = 3\n"
                'histogram = "bins=16,channels=rl"\noutput = jsonl\n'
                f'output = "prom:{prom},every=0"\n')
            self.assertEqual(r.returncode, 0, r.stderr)
            lines = [json.loads(l) for l in r.stdout.splitlines()]
            self.assertEqual([l["seq"] for l in lines], [0, 1, 2])
            for l in lines:
                self.assertEqual((l["width"], l["height"], l["bins"]), (33, 17, 16))
                self.assertEqual(list(l["hist"]), ["r", "l"])
            self.assertIn('esframe_frames_total{source="pattern"} 3\n', open(prom).read())

    def test_the_shipped_example_parses(self):
        with open(os.path.join(SOURCE, "apps/esframe/systemd/example.conf")) as f:
            example = f.read()
        # The command line overrides the camera and the network outputs, so it runs anywhere.
        r = self.run_installed(example, "--source", "pattern", "--frames", "1", "--output",
                               "jsonl")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout)["bins"], 64)

    def test_bad_config_is_exit_2_which_is_not_restarted(self):
        for text in ["[run]\ncolour = red\n", "[run]\nframes = many\n"]:
            r = self.run_installed(text)
            self.assertEqual(r.returncode, 2, text)
            self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
        r = subprocess.run(self.service["ExecStart"].replace("%i", "no-such-camera").split(),
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 2)
        self.assertIn("/etc/esframe/no-such-camera.conf", r.stderr)


if __name__ == "__main__":
    BUILD, SOURCE = sys.argv.pop(1), sys.argv.pop(1)
    unittest.main()
