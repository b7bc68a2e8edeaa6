#!/usr/bin/env python3
"""libesframe's optional modules (base/shared_module.hpp), through the esframe binary.

  test_modules.py --esframe BIN --library LIBESFRAME_SO [--module MODULE_SO]...

libesframe.so names none of the modules' heavy libraries in DT_NEEDED (read with readelf, which
must see them in the modules themselves, so a reader that sees nothing fails); a run that uses
neither module does not load them (LD_DEBUG=files) and one that does, does; the modules are found
beside the code that loads them wherever it lies (libesframe.so, which esframe links: a copy of
both in a fresh folder); and a
missing, broken or foreign module, or ESFRAME_MODULE_DIR naming an empty folder, is one line on
stderr naming the module file, nothing on stdout, and the documented exit code (README: 2 for
--source libcamera, a command-line check; 1 for an mqtt:// output, a runtime error).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ARGS = None
# What each module pulls in, which libesframe itself must not.
HEAVY = {
    "libesframe-libcamera.so": re.compile(r"^libcamera"),
    "libesframe-mqtt.so": re.compile(r"^lib(mosquitto|ssl|crypto)\."),
    "libesframe-http.so": re.compile(r"^lib(microhttpd|turbojpeg)\."),
    "libesframe-network.so": re.compile(r"^libgst(reamer|app|video)-"),
}
ANY_HEAVY = re.compile(
    r"(^|/)lib(camera|camera-base|mosquitto|ssl|crypto|microhttpd|turbojpeg|gnutls|gstreamer)[.-]")
SMALL_RUN = ["run", "--backend", "cpu", "--frames", "1", "--size", "16x16"]
MQTT_RUN = SMALL_RUN + ["--output", "mqtt://127.0.0.1:1/esframe-module-test"]


def needed(path):
    out = subprocess.run(["readelf", "-dW", path], capture_output=True, text=True, check=True)
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out.stdout)


def run(args, env=None, libdir=None, esframe=None, cwd=None):
    full_env = dict(os.environ)
    full_env.pop("ESFRAME_MODULE_DIR", None)
    full_env.update(env or {})
    if libdir:  # before the binary's RUNPATH: the copy's libesframe, not the build tree's
        full_env["LD_LIBRARY_PATH"] = libdir
    return subprocess.run([esframe or ARGS.esframe] + args, capture_output=True, text=True,
                          env=full_env, timeout=60, cwd=cwd)


def loaded_objects(args, **kw):
    r = run(args, env={"LD_DEBUG": "files"}, **kw)
    return set(re.findall(r"file=(\S+)\s+\[\d+\];\s+(?:needed|dynamically loaded)", r.stderr))


def module(name):
    return next((m for m in ARGS.module if os.path.basename(m) == name), None)


class Modules(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.mkdtemp(prefix="esframe-modules-")

    def tearDown(self):
        shutil.rmtree(self.scratch)

    def copy_tree(self, with_modules):
        """esframe and the libesframe.so it links in a fresh folder (run()'s libdir names it),
        modules optionally."""
        sonames = [n for n in needed(ARGS.esframe) if n.startswith("libesframe")]
        self.assertEqual(len(sonames), 1, needed(ARGS.esframe))
        shutil.copy(ARGS.esframe, os.path.join(self.scratch, "esframe"))
        shutil.copy(ARGS.library, os.path.join(self.scratch, sonames[0]))
        if with_modules:
            for m in ARGS.module:
                shutil.copy(m, self.scratch)
        return os.path.join(self.scratch, "esframe")

    def assert_one_line_error(self, r, code, *parts):
        self.assertEqual(r.returncode, code, r.stderr)
        self.assertEqual(r.stdout, "", "nothing on stdout")
        lines = r.stderr.splitlines()
        errors = [l for l in lines if l.startswith("esframe: error:")]
        self.assertEqual(len(errors), 1, r.stderr)
        for part in parts:
            self.assertIn(part, errors[0])

    def test_libesframe_needs_none_of_the_modules_libraries(self):
        own = needed(ARGS.library)
        self.assertTrue(any(n.startswith("libEGL") for n in own), own)  # the reader works
        for n in own:
            self.assertIsNone(ANY_HEAVY.search(n), f"libesframe.so needs {n}")
        for m in ARGS.module:
            heavy = HEAVY[os.path.basename(m)]
            self.assertTrue(any(heavy.search(n) for n in needed(m)), f"{m}: {needed(m)}")
        # Nor through another library: ldd lists the whole closure.
        closure = subprocess.run(["ldd", ARGS.esframe], capture_output=True, text=True,
                                 check=True).stdout
        for line in closure.splitlines():
            self.assertIsNone(ANY_HEAVY.search(line.split()[0]), line)

    def test_a_plain_run_loads_no_module_and_a_using_run_loads_its_own(self):
        for args in (["--version"], SMALL_RUN):
            loaded = loaded_objects(args)
            self.assertTrue(any("libEGL" in f for f in loaded), loaded)  # the reader works
            self.assertEqual([f for f in loaded if ANY_HEAVY.search(f) or "libesframe-" in f],
                             [], args)
        if module("libesframe-mqtt.so"):
            loaded = loaded_objects(MQTT_RUN)
            self.assertTrue(any("libesframe-mqtt.so" in f for f in loaded), loaded)
            self.assertTrue(any("libmosquitto" in f for f in loaded), loaded)
            self.assertFalse(any("libcamera" in f for f in loaded), loaded)
        if module("libesframe-libcamera.so"):
            loaded = loaded_objects(["info", "--json"])
            self.assertTrue(any("libesframe-libcamera.so" in f for f in loaded), loaded)
            self.assertFalse(any("libmosquitto" in f for f in loaded), loaded)
        if module("libesframe-network.so"):  # a refused connection: the module, then exit 3
            loaded = loaded_objects(["run", "--backend", "cpu", "--source", "rtsp://127.0.0.1:1/x"])
            self.assertTrue(any("libesframe-network.so" in f for f in loaded), loaded)
            self.assertTrue(any("libgstreamer-1.0" in f for f in loaded), loaded)
            self.assertFalse(any("libmosquitto" in f for f in loaded), loaded)
        if module("libesframe-http.so"):
            loaded = loaded_objects(SMALL_RUN + ["--output", "http:0"])
            self.assertTrue(any("libesframe-http.so" in f for f in loaded), loaded)
            self.assertTrue(any("libmicrohttpd" in f for f in loaded), loaded)
            self.assertFalse(any("libmosquitto" in f for f in loaded), loaded)

    def test_modules_are_found_beside_a_copied_libesframe(self):
        esframe = self.copy_tree(with_modules=True)
        if module("libesframe-libcamera.so"):
            r = run(["info", "--json"], libdir=self.scratch, esframe=esframe)
            self.assertEqual(r.returncode, 0, r.stderr)
            cameras = json.loads(r.stdout)["libcamera_cameras"]
            self.assertIsInstance(cameras, list, cameras)  # not {"error": ...}
        if module("libesframe-mqtt.so"):  # no broker: a warning, the run goes on
            r = run(MQTT_RUN, libdir=self.scratch, esframe=esframe)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertNotIn("cannot load", r.stderr)

    def test_modules_are_found_from_an_esframe_started_through_path(self):
        # dladdr names the executable as it was started: `esframe`, without its folder.
        self.copy_tree(with_modules=True)
        elsewhere = tempfile.mkdtemp(prefix="esframe-modules-cwd-", dir=self.scratch)
        env = {"PATH": self.scratch + os.pathsep + os.environ.get("PATH", "")}
        if module("libesframe-mqtt.so"):
            r = run(MQTT_RUN, env=env, libdir=self.scratch, esframe="esframe", cwd=elsewhere)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertNotIn("cannot load", r.stderr)
        if module("libesframe-libcamera.so"):
            r = run(["info", "--json"], env=env, libdir=self.scratch, esframe="esframe",
                    cwd=elsewhere)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIsInstance(json.loads(r.stdout)["libcamera_cameras"], list, r.stdout)

    def check_missing(self, env, libdir, esframe, why):
        if module("libesframe-libcamera.so"):
            r = run(SMALL_RUN + ["--source", "libcamera"], env=env, libdir=libdir,
                    esframe=esframe)
            self.assert_one_line_error(r, 2, "--source libcamera: cannot load ",
                                       "libesframe-libcamera.so: ", why)
            r = run(["info", "--json"], env=env, libdir=libdir, esframe=esframe)
            self.assertEqual(r.returncode, 0, r.stderr)
            error = json.loads(r.stdout)["libcamera_cameras"]["error"]
            self.assertIn("libesframe-libcamera.so: " + why, error)
        if module("libesframe-mqtt.so"):
            r = run(MQTT_RUN, env=env, libdir=libdir, esframe=esframe)
            self.assert_one_line_error(r, 1, "mqtt://127.0.0.1/esframe-module-test: cannot load ",
                                       "libesframe-mqtt.so: ", why)

    def test_a_missing_module_beside_libesframe(self):
        esframe = self.copy_tree(with_modules=False)
        self.check_missing({}, self.scratch, esframe, "cannot open shared object file")

    def test_the_environment_override_naming_an_empty_folder(self):
        empty = os.path.join(self.scratch, "empty")
        os.mkdir(empty)
        self.check_missing({"ESFRAME_MODULE_DIR": empty}, None, None,
                           "cannot open shared object file")

    def test_a_broken_module(self):
        esframe = self.copy_tree(with_modules=False)
        for name in HEAVY:
            with open(os.path.join(self.scratch, name), "w") as f:
                f.write("not an ELF file\n" * 512)  # shorter: "file too short"
        self.check_missing({}, self.scratch, esframe, "invalid ELF header")

    def test_a_module_without_the_entry_point(self):
        if len(ARGS.module) < 2:
            self.skipTest("needs both modules: each stands in for the other")
        esframe = self.copy_tree(with_modules=False)
        camera, mqtt = module("libesframe-libcamera.so"), module("libesframe-mqtt.so")
        shutil.copy(mqtt, os.path.join(self.scratch, "libesframe-libcamera.so"))
        shutil.copy(camera, os.path.join(self.scratch, "libesframe-mqtt.so"))
        r = run(SMALL_RUN + ["--source", "libcamera"], libdir=self.scratch, esframe=esframe)
        self.assert_one_line_error(r, 2, "libesframe-libcamera.so: ",
                                   "undefined symbol: esf_libcamera_module_v3")
        r = run(MQTT_RUN, libdir=self.scratch, esframe=esframe)
        self.assert_one_line_error(r, 1, "libesframe-mqtt.so: ",
                                   "undefined symbol: esf_mqtt_module_v5")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--esframe", required=True)
    parser.add_argument("--library", required=True)
    parser.add_argument("--module", action="append", default=[])
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
