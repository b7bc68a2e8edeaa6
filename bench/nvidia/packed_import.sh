#!/usr/bin/env bash
# On the device (bash .devrun/packed_import.sh after bundle.sh): the product path, binaries side
# by side. For each binary in ESFRAME_BINS (default .devrun/esframe; e.g. ".devrun/before
# .devrun/esframe"), alternating, ROUNDS times: the GPU time per stage of `esframe run` as a user
# runs it (timing_ms medians over the frames after the first, timer queries), JSONL to a pipe:
#   4K RGBA from a raw file (host memory), with and without --blur 15;
#   1080p 4:2:0 Y4M, with and without --blur 15, and with --health;
#   1080p RGBA32 from memory (pattern:loop=16) with --health (health_cost.py's source);
# then the host CPU per frame of the GPU path (host_cpu.py: pattern RGBA32 and NV12, Y4M).
# Writes stages.txt and host_cpu.txt under $OUT.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
# shellcheck source=SCRIPTDIR/device_env.sh
. "$(dirname "$0")/device_env.sh"
export XDG_CACHE_HOME=/tmp/esf-cache
ld="$PWD/.devrun/lib/ld-linux-x86-64.so.2 --library-path $libs"
bins=${ESFRAME_BINS:-.devrun/esframe}
first=${bins%% *}
tmp=/tmp/packed
rm -rf $tmp && mkdir -p $tmp
$ld "$first" run --backend cpu --frames 60 --size 1920x1080 --format YU12 --dump-raw $tmp/r1 >/dev/null
{
  printf 'YUV4MPEG2 W1920 H1080 F30:1 Ip A1:1 C420jpeg\n'
  for f in $tmp/r1/*.raw; do printf 'FRAME\n'; cat "$f"; done
} >$tmp/c1080.y4m
$ld "$first" run --backend cpu --frames 30 --size 3840x2160 --format AB24 --dump-raw $tmp/r4 >/dev/null
cat $tmp/r4/*.raw >$tmp/c4k.rgba
rm -rf $tmp/r1 $tmp/r4

{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
  echo "load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
} >"$OUT/stages.txt"
# stages BIN LABEL ARGS...: one run, the per-stage medians of its frames after the first.
stages() {
  local bin=$1 label=$2
  shift 2
  $ld "$PWD/$bin" --egl device run "$@" 2>$tmp/err >$tmp/one.jsonl || {
    echo "$bin $label: FAILED: $(tail -1 $tmp/err)"
    return
  }
  python3 - "$tmp/one.jsonl" "$bin" "$label" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if '"timing_ms"' in l]
stages = {}
for r in rows[1:]:
    for k, v in r["timing_ms"].items():
        stages.setdefault(k, []).append(v)
clock = rows[-1]["timing_clock"]
gpu = sum(statistics.median(v) for k, v in stages.items() if clock.get(k) == "gpu")
print(f"{sys.argv[2]} | {sys.argv[3]} | GPU {gpu:.4f} ms | " + ", ".join(
    f"{k} {statistics.median(v):.4f}" + ("" if clock[k] == "gpu" else " (cpu)")
    for k, v in stages.items()))
PY
}
for round in $(seq "${ROUNDS:-2}"); do
  for bin in $bins; do
    stages "$bin" "4K RGBA file" --source $tmp/c4k.rgba --size 3840x2160 --format AB24 --frames 30
    stages "$bin" "4K RGBA file, --blur 15" --source $tmp/c4k.rgba --size 3840x2160 --format AB24 \
      --frames 30 --blur 15
    stages "$bin" "1080p Y4M" --source $tmp/c1080.y4m --frames 60
    stages "$bin" "1080p Y4M, --blur 15" --source $tmp/c1080.y4m --frames 60 --blur 15
    stages "$bin" "1080p Y4M, --health" --source $tmp/c1080.y4m --frames 60 --health
    stages "$bin" "1080p pattern RGBA32" --source pattern:loop=16 --size 1920x1080 --frames 100
    stages "$bin" "1080p pattern RGBA32, --health" --source pattern:loop=16 --size 1920x1080 \
      --frames 100 --health
  done
done >>"$OUT/stages.txt" 2>&1
for bin in $bins; do
  echo "== $bin"
  python3 .devrun/host_cpu.py --esframe "$ld $PWD/$bin" --y4m $tmp/c1080.y4m --frames 120 \
    --repeat "${HOST_CPU_REPEAT:-3}" --backends gles
done >"$OUT/host_cpu.txt" 2>&1
