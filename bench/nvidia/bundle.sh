#!/usr/bin/env bash
# Packs what the NVIDIA device run needs into .devrun/ (git-ignored through .git/info/exclude):
# esframe and esframe-bench built here, every shared library they load except the GPU driver's
# own (so the device image needs no Debian packages), Debian's glibc loader, and the photo.
# Usage: bash bench/nvidia/bundle.sh [BUILD_DIR]     (default build/default)
set -euo pipefail
root=$(git rev-parse --show-toplevel)
build=${1:-$root/build/default}
out=$root/.devrun
# --git-common-dir: in a linked worktree .git is a file; the exclude file is the main one's.
exclude=$(git rev-parse --path-format=absolute --git-common-dir)/info/exclude
mkdir -p "$(dirname "$exclude")"
grep -qx '/.devrun/' "$exclude" 2>/dev/null || echo '/.devrun/' >>"$exclude"
rm -rf "$out"
mkdir -p "$out/lib"
for bin in esframe esframe-bench esframe-startup-probe; do
  strip -o "$out/$bin" "$build/$bin"
  ldd "$build/$bin" | awk '$3 ~ /^\// {print $3}' | while read -r lib; do
    cp -Lu "$lib" "$out/lib/"
  done
done
# strace, where this machine has it: e2e.sh traces one whole run with it (where exit's time goes).
if command -v strace >/dev/null; then
  cp -L "$(command -v strace)" "$out/"
  ldd "$out/strace" | awk '$3 ~ /^\// {print $3}' | while read -r lib; do cp -Lu "$lib" "$out/lib/"; done
fi
# The optional modules libesframe loads on first use (libcamera, MQTT), with what they load.
for module in "$build"/libesframe-*.so; do
  [ -f "$module" ] || continue
  cp -L "$module" "$out/lib/"
  ldd "$module" | awk '$3 ~ /^\// {print $3}' | while read -r lib; do cp -Lu "$lib" "$out/lib/"; done
done
cp -L /lib64/ld-linux-x86-64.so.2 "$out/lib/"
# The project's own library comes with debug info from a default build: 45 MB of the 64 MiB
# that the device tool carries.
for lib in "$out"/lib/libesframe*.so*; do strip --strip-unneeded "$lib"; done
for script in run.sh e2e.sh exact.sh selftest.sh health.sh host_cpu.sh packed_import.sh \
  http_snapshot.sh; do cp "$root/bench/nvidia/$script" "$out/"; done
cp "$root/bench/health_cost.py" "$root/bench/host_cpu.py" "$out/"
# health.sh: the ffmpeg parity test and its oracle, recorded here (the device has no ffmpeg); the
# recording run checks the reference backend against it on the way.
strip -o "$out/test_run_health" "$build/tests/apps/esframe/test_run_health"
ldd "$out/test_run_health" | awk '$3 ~ /^\// {print $3}' | while read -r lib; do cp -Lu "$lib" "$out/lib/"; done
ESFRAME_BIN="$build/esframe" ESFRAME_HEALTH_ORACLE="$out/health" ESFRAME_HEALTH_BACKENDS=reference \
  "$out/test_run_health" --gtest_filter='Ranges/*' >/dev/null
photo=/usr/share/backgrounds/mate/abstract/Elephants_3840x2160.jpg
[ -f "$photo" ] && cp "$photo" "$out/photo.jpg"
du -sh "$out"
