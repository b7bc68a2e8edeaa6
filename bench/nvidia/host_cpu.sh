#!/usr/bin/env bash
# On the device (bash .devrun/host_cpu.sh after bundle.sh): bench/host_cpu.py, the host CPU time
# per frame of `esframe run` at 1080p, GPU path and CPU executor, from the looped pattern (RGBA32
# and NV12) and a Y4M file; the GPU rows again with __GL_YIELD=USLEEP (NVIDIA's driver otherwise
# spins on the CPU while it waits for the GPU: the driver's CPU time, not esframe's).
set -uo pipefail
# shellcheck source=SCRIPTDIR/device_env.sh
. "$(dirname "$0")/device_env.sh"
export XDG_CACHE_HOME=/tmp/esf-cache
esframe_cmd="$PWD/.devrun/lib/ld-linux-x86-64.so.2 --library-path $libs $PWD/.devrun/esframe"
tmp=/tmp/host-cpu; rm -rf $tmp; mkdir -p $tmp
$esframe_cmd run --backend cpu --frames 120 --size 1920x1080 --format YU12 --dump-raw $tmp/raw \
  >/dev/null
{ printf 'YUV4MPEG2 W1920 H1080 F30:1 Ip A1:1 C420jpeg\n'
  for f in $tmp/raw/*.raw; do printf 'FRAME\n'; cat "$f"; done; } >$tmp/clip.y4m
rm -rf $tmp/raw
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), load $(cut -d' ' -f1-3 /proc/loadavg)"
python3 .devrun/host_cpu.py --esframe "$esframe_cmd" --y4m $tmp/clip.y4m --frames 120 \
  --repeat "${HOST_CPU_REPEAT:-3}"
echo "== __GL_YIELD=USLEEP"
__GL_YIELD=USLEEP python3 .devrun/host_cpu.py --esframe "$esframe_cmd" --y4m $tmp/clip.y4m \
  --frames 120 --repeat "${HOST_CPU_REPEAT:-3}" --backends gles
