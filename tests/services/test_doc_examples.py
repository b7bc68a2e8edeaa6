#!/usr/bin/env python3
"""The shell examples of README.md and docs/*.md run as written: each ```sh block is a bash script
run in a scratch folder with the build's esframe first on PATH (and build/default linked to the
build), one command a line (backslash continuations joined). A command that needs what CI has not
(a camera, a display, a broker, root, the network, the toolchain's own scripts) is left out and
named; the rest must exit 0 within EXAMPLE_TIMEOUT_S: an example that streams forever fails here.
`clip.y4m`, which the docs use as "your video", is made first (ffmpeg's testsrc2, 640x360).

usage: test_doc_examples.py ESFRAME_BINARY SOURCE_DIR
"""
import os
import re
import subprocess
import sys
import tempfile
import unittest

ESFRAME = SOURCE_DIR = None
# The README's selftest takes 20 s of CPU on llvmpipe, some times that under ASan.
EXAMPLE_TIMEOUT_S = 400 if "ASAN_OPTIONS" in os.environ else 120
# What CI cannot give an example, and why it is left out.
NEEDS = [
    (re.compile(r"/dev/video|libcamera|--output drm|--drm-device"), "a camera or a display"),
    (re.compile(r"mqtt://|mosquitto_|broker\.local|board:|board\.local|scp "), "another machine"),
    (re.compile(r"\bsudo\b|systemctl|apt "), "root"),
    (re.compile(r"rtsp://|/api/stream"), "a recorder's restream"),
    (re.compile(r"toolchain/|cmake |c\+\+ |\./histogram|PKG_CONFIG_PATH"), "a build or install"),
    (re.compile(r"^\s*(esframe:|#)"), None),  # an error message shown, a comment: not a command
]


def shell_blocks():
    """(file, line, commands) of every ```sh block that runs esframe."""
    for name in ["README.md"] + sorted(
            os.path.join("docs", f) for f in os.listdir(os.path.join(SOURCE_DIR, "docs"))
            if f.endswith(".md")):
        with open(os.path.join(SOURCE_DIR, name)) as f:
            text = f.read()
        for m in re.finditer(r"```sh\n(.*?)```", text, re.S):
            if "esframe" not in m.group(1):
                continue
            commands = re.sub(r"\\\n\s*", "", m.group(1)).splitlines()
            yield name, text[:m.start()].count("\n") + 1, [c for c in commands if c.strip()]


class DocExamplesTest(unittest.TestCase):
    def test_examples_run_as_written(self):
        ran, left_out = [], []
        with tempfile.TemporaryDirectory(prefix="esframe-docs-") as scratch:
            build = os.path.dirname(os.path.abspath(ESFRAME))
            os.makedirs(os.path.join(scratch, "build"))
            os.symlink(build, os.path.join(scratch, "build", "default"))
            subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i",
                            "testsrc2=s=640x360:r=10:d=0.5", "-pix_fmt", "yuv420p",
                            os.path.join(scratch, "clip.y4m")], check=True)
            env = dict(os.environ, PATH=build + os.pathsep + os.environ["PATH"])
            for name, line, commands in shell_blocks():
                script = []
                for command in commands:
                    why = next((w for pattern, w in NEEDS if pattern.search(command)), "")
                    if why is None:
                        continue
                    if why:
                        left_out.append(f"{name}:{line}: {command.strip()[:70]} (needs {why})")
                    else:
                        script.append(command)
                if not script:
                    continue
                where = f"{name}:{line}"
                with self.subTest(where):
                    try:
                        r = subprocess.run(["bash", "-e", "-o", "pipefail", "-c",
                                            "\n".join(script)], cwd=scratch, env=env,
                                           capture_output=True, text=True,
                                           timeout=EXAMPLE_TIMEOUT_S)
                    except subprocess.TimeoutExpired:
                        self.fail(f"{where}: still running after {EXAMPLE_TIMEOUT_S} s: "
                                  + " && ".join(script))
                    self.assertEqual(r.returncode, 0, f"{where}: {r.stderr[-800:]}")
                    ran.append(where)
        print(f"\nran {len(ran)} example blocks; left out {len(left_out)} commands:\n  "
              + "\n  ".join(left_out), file=sys.stderr)
        self.assertGreaterEqual(len(ran), 4)


if __name__ == "__main__":
    SOURCE_DIR = os.path.abspath(sys.argv.pop(2))
    ESFRAME = os.path.abspath(sys.argv.pop(1))
    unittest.main()
