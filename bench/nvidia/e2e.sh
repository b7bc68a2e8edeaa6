#!/usr/bin/env bash
# The whole `esframe run`, end to end, on the NVIDIA device (issue 12's "bench row a user can
# reproduce"): read, upload, convert, R+G+B+L histogram, stats, JSONL to a pipe.
#   1. a 60-frame 1920x1080 4:2:0 Y4M (esframe's own pattern, dumped raw as YU12, wrapped in a
#      Y4M header: no ffmpeg on the device), default options and `--histogram channels=l
#      --luma source`;
#   2. 20 frames of 3840x2160 RGBA from a raw file (host memory).
# Each variant runs REPEAT times; fps = frames / wall time of the whole process, and the frame
# loop's own rate as `esframe -v run` reports it (start-up: EGL, shader builds, excluded; binaries
# older than that report print 0 there).
# Per-stage medians come from timing_ms of one run. Binaries: ESFRAME_BINS (default
# ".devrun/esframe"), e.g. ".devrun/esframe-before .devrun/esframe" to compare in one run.
# Runs from the repository root after run.sh's setup (or sources its environment here).
set -uo pipefail
OUT=${OUT:-/tmp/out}
REPEAT=${REPEAT:-5}
mkdir -p "$OUT"
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
libs=$PWD/.devrun/lib:/usr/local/nvidia/lib64:/usr/local/nvidia/lib:/usr/lib/x86_64-linux-gnu
run() { "$PWD/.devrun/lib/ld-linux-x86-64.so.2" --library-path "$libs" "$@"; }
# A binary's own libesframe, where it has one (BIN.lib/: an older build to compare with).
runbin() {
  local bin=$1
  shift
  "$PWD/.devrun/lib/ld-linux-x86-64.so.2" --library-path "$PWD/$bin.lib:$libs" "$bin" "$@"
}
export XDG_CACHE_HOME=/tmp/esf-cache
tmp=/tmp/e2e
rm -rf "$tmp" && mkdir -p "$tmp"
first=${ESFRAME_BINS:-.devrun/esframe}
first=${first%% *}

# The inputs, written with the pattern source on the CPU.
runbin "$first" run --backend reference --frames 60 --size 1920x1080 --format YU12 \
  --dump-raw "$tmp/raw1080" >/dev/null 2>&1 ||
  runbin "$first" run --backend cpu --frames 60 --size 1920x1080 --format YU12 \
    --dump-raw "$tmp/raw1080" >/dev/null
{
  printf 'YUV4MPEG2 W1920 H1080 F30:1 Ip A1:1 C420jpeg\n'
  for f in "$tmp"/raw1080/*.raw; do printf 'FRAME\n'; cat "$f"; done
} >"$tmp/clip1080.y4m"
runbin "$first" run --backend reference --frames 20 --size 3840x2160 --format AB24 \
  --dump-raw "$tmp/raw4k" >/dev/null 2>&1 ||
  runbin "$first" run --backend cpu --frames 20 --size 3840x2160 --format AB24 \
    --dump-raw "$tmp/raw4k" >/dev/null
cat "$tmp"/raw4k/*.raw >"$tmp/clip4k.rgba"
ls -l "$tmp"/clip*

now() { date +%s.%N; }
# wall BIN FRAMES ARGS...: "SECONDS LOOP_FPS" of one whole run, JSONL into a pipe; LOOP_FPS is
# what `esframe -v run` reports for its frame loop (start-up excluded).
wall() {
  local bin=$1 frames=$2
  shift 2
  local t0 t1
  t0=$(now)
  runbin "$bin" -v --egl device run --frames "$frames" "$@" 2>"$tmp/run.err" | cat >/dev/null
  t1=$(now)
  cat "$tmp/run.err" >>"$tmp/stderr.txt"
  local loop
  loop=$(sed -n 's/.*frames in [0-9.]* s; \([0-9]*\) frames per second after the first.*/\1/p' "$tmp/run.err")
  awk -v a="$t0" -v b="$t1" -v l="${loop:-0}" 'BEGIN { printf "%.6f %s\n", b - a, l }'
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

row() {  # row BIN LABEL FRAMES ARGS...
  local bin=$1 label=$2 frames=$3
  shift 3
  local runs=()
  for _ in $(seq "$REPEAT"); do runs+=("$(wall "$bin" "$frames" "$@")"); done
  local tf loop fps
  tf=$(printf '%s\n' "${runs[@]}" | awk '{print $1}' | median)
  loop=$(printf '%s\n' "${runs[@]}" | awk '{print $2}' | median)
  fps=$(awk -v n="$frames" -v t="$tf" 'BEGIN { print n / t }')
  printf '| %s | %s | %d | %.3f s | %.0f | %s |\n' "$bin" "$label" "$frames" "$tf" "$fps" "$loop"
  # Per-stage medians of one run (python3 where the image has it).
  runbin "$bin" --egl device run --frames "$frames" "$@" 2>/dev/null >"$tmp/one.jsonl"
  if command -v python3 >/dev/null; then
    python3 - "$tmp/one.jsonl" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
stages = {}
for r in rows[1:]:  # frame 0 pays for first-use allocations
    for k, v in r["timing_ms"].items():
        stages.setdefault(k, []).append(v)
clock = rows[-1]["timing_clock"]
print("    stages (median ms): " + ", ".join(
    f"{k} {statistics.median(v):.3f} ({clock[k]})" for k, v in stages.items()))
PY
  fi
}

# Start-up: the whole `esframe run --frames 1` on the 1080p clip (everything but 59 frames),
# REPEAT times with the program cache off (every program compiled) and warm (loaded: binaries
# older than the cache compile in both), then one warm run's -vv timeline (milliseconds since
# start: EGL, GL context, each program, first frame, teardown).
startup() {
  local bin=$1 mode t0 t1
  for mode in 0 1; do
    local ts=()
    ESFRAME_PROGRAM_CACHE=$mode runbin "$bin" --egl device run --frames 1 \
      --source "$tmp/clip1080.y4m" >/dev/null 2>&1  # fills the cache (mode 1)
    for _ in $(seq "$REPEAT"); do
      t0=$(now)
      ESFRAME_PROGRAM_CACHE=$mode runbin "$bin" --egl device run --frames 1 \
        --source "$tmp/clip1080.y4m" >/dev/null 2>&1
      t1=$(now)
      ts+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')")
    done
    printf 'start-up %s, program cache %s: --frames 1 in %s s (median of %d: %s)\n' "$bin" \
      "$([ "$mode" = 1 ] && echo warm || echo off)" \
      "$(printf '%s\n' "${ts[@]}" | median)" "$REPEAT" "${ts[*]}"
  done
  t0=$(now)
  runbin "$bin" -vv --egl device run --frames 1 --source "$tmp/clip1080.y4m" 2>"$tmp/vv.err" \
    >/dev/null
  t1=$(now)
  grep -E '\] (EGL|GL context|program|run:|source )' "$tmp/vv.err" | sed 's/^/    /'
  # The timeline counts from libesframe's load: the rest is exec, dynamic linking and exit.
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "    that run: %.1f ms from exec to exit\n", (b - a) * 1e3 }'
}
for bin in ${ESFRAME_BINS:-.devrun/esframe}; do startup "$bin"; done

# The driver alone: esframe-startup-probe (bench/startup_probe.cpp) makes the same kind of
# context, runs 61 dispatches and exits, timing each EGL step from main; the wall clock around
# it adds exec, loading and exit. Variants: the context's attributes, and whether EGL is
# terminated before main returns.
probe() {
  local variant t0 t1
  for variant in "plain terminate" "robust terminate" "lose terminate" "lose leave"; do
    local ts=()
    for _ in $(seq "$REPEAT"); do
      t0=$(now)
      # shellcheck disable=SC2086
      run .devrun/esframe-startup-probe $variant 2>"$tmp/probe.err"
      t1=$(now)
      ts+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) * 1e3 }')")
    done
    printf 'probe %s: exec to exit %s ms (median of %d: %s); the last run from main:\n' \
      "$variant" "$(printf '%s\n' "${ts[@]}" | median)" "$REPEAT" "${ts[*]}"
    sed 's/^/    /' "$tmp/probe.err"
  done
}
[ -x .devrun/esframe-startup-probe ] && probe
# One whole 60-frame run under strace (-f: every thread; -tt: wall clock): where the time
# between the last write and the process's end goes (exit_group to "exited" is the kernel's
# teardown of the driver's objects).
if [ -x .devrun/strace ] && [ "${STRACE:-1}" = 1 ]; then
  last_bin=${ESFRAME_BINS:-.devrun/esframe}
  last_bin=${last_bin##* }  # the newest build of the ones compared
  run .devrun/strace -f -tt -T -o "$OUT/strace-1080p.txt" "$PWD/.devrun/lib/ld-linux-x86-64.so.2" \
    --library-path "$PWD/$last_bin.lib:$libs" "$last_bin" -vv --egl device run --frames 60 \
    --source "$tmp/clip1080.y4m" >/dev/null 2>"$OUT/strace-1080p-vv.txt" ||
    echo "strace run failed: $?"
  grep -E 'exit_group|exited with' "$OUT/strace-1080p.txt" | tail -4
fi

echo "| binary | input | frames | wall (median of $REPEAT) | fps whole run | fps after the first frame (esframe -v) |"
echo "|---|---|---|---|---|---|"
for bin in ${ESFRAME_BINS:-.devrun/esframe}; do
  row "$bin" "1080p Y4M, default (rgbl)" 60 --source "$tmp/clip1080.y4m"
  row "$bin" "1080p Y4M, channels=l --luma source" 60 --source "$tmp/clip1080.y4m" \
    --histogram channels=l --luma source
  row "$bin" "4K RGBA raw, default" 20 --source "$tmp/clip4k.rgba" --size 3840x2160 --format AB24
done
tail -5 "$tmp/stderr.txt"
