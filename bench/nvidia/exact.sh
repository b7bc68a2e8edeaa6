#!/usr/bin/env bash
# On the device (bash .devrun/exact.sh after bundle.sh): esframe run on the GPU (device platform) against the CPU reference backend for
# the e2e inputs, every output field but the timings compared.
set -uo pipefail
# shellcheck source=SCRIPTDIR/device_env.sh
. "$(dirname "$0")/device_env.sh"
run() { "$PWD/.devrun/lib/ld-linux-x86-64.so.2" --library-path "$libs" "$@"; }
export XDG_CACHE_HOME=/tmp/esf-cache
tmp=/tmp/exact; rm -rf $tmp; mkdir -p $tmp
run .devrun/esframe run --backend cpu --frames 12 --size 1920x1080 --format YU12 --dump-raw $tmp/r1 >/dev/null
{ printf 'YUV4MPEG2 W1920 H1080 F30:1 Ip A1:1 C420jpeg\n'; for f in $tmp/r1/*.raw; do printf 'FRAME\n'; cat "$f"; done; } > $tmp/c.y4m
run .devrun/esframe run --backend cpu --frames 6 --size 3840x2160 --format AB24 --dump-raw $tmp/r4 >/dev/null
cat $tmp/r4/*.raw > $tmp/c.rgba
run .devrun/esframe run --backend cpu --frames 5 --size 1282x722 --format NV12 --dump-raw $tmp/r5 >/dev/null
cat $tmp/r5/*.raw > $tmp/c.nv12
strip() { python3 -c '
import sys, json
for l in sys.stdin:
    d = json.loads(l); d.pop("timing_ms", None); d.pop("timing_clock", None); print(json.dumps(d, sort_keys=True))'; }
status=0
check() {
  local name=$1; shift
  run .devrun/esframe --egl device run "$@" 2>$tmp/$name.gpu.err | strip > $tmp/$name.gpu
  run .devrun/esframe run --backend cpu "$@" 2>/dev/null | strip > $tmp/$name.cpu
  if [ -s $tmp/$name.cpu ] && cmp -s $tmp/$name.gpu $tmp/$name.cpu; then echo "same: $name ($(wc -l < $tmp/$name.cpu) frames)"; else echo "DIFFERS: $name"; head -3 $tmp/$name.gpu.err; status=1; fi
}
check y4m --source $tmp/c.y4m
check y4m_luma --source $tmp/c.y4m --histogram channels=l --luma source
check y4m_blur --source $tmp/c.y4m --blur 15 --resize 960x540 --histogram bins=64
check rgba4k --source $tmp/c.rgba --size 3840x2160 --format AB24
check nv12_odd --source $tmp/c.nv12 --size 1282x722 --format NV12
check nv12_odd_blur --source $tmp/c.nv12 --size 1282x722 --format NV12 --blur 15 --histogram bins=64
# Frames imported straight into packed buffers (no sink reads an image): the blur packed ->
# packed, the source luma as a packed buffer.
check rgba4k_blur --source $tmp/c.rgba --size 3840x2160 --format AB24 --blur 15
check y4m_blur_packed --source $tmp/c.y4m --blur 15
check y4m_luma_blur --source $tmp/c.y4m --blur 15 --luma source --histogram channels=rgbl
# Camera health: every figure and event (the frame difference and Sobel sums behind them).
check y4m_health --source $tmp/c.y4m --health=freeze_duration=0.1,black_min_duration=0.1
check rgba4k_health --source $tmp/c.rgba --size 3840x2160 --format AB24 --health
check nv12_odd_health --source $tmp/c.nv12 --size 1282x722 --format NV12 --health
# Bayer frames: the GPU's demosaic against the executor's, with levels and gains, and the raw
# statistics (taken on the host for both, on its threads in vector lanes).
check bayer10_odd --source pattern --frames 6 --size 1282x722 --format SGRBG10 --raw black=64,white=1000,wb=300,200 --histogram bins=64
check bayer8_health --source pattern --frames 8 --size 1920x1080 --format SRGGB8 --health
# With regions: a 16x9 grid and rectangles, one past the frame's edge.
check rgba4k_regions --source $tmp/c.rgba --size 3840x2160 --format AB24 --health=grid=16x9,roi=0,0,1,1,1000,500,2000,900,3800,2100,100,100
# ffmpeg's detectors (blurdetect and blockdetect counted on the GPU, with their persistent
# state across planes and frames) and signalstats (chroma, TOUT and VREP on the GPU).
check y4m_detect --source $tmp/c.y4m --detect crop,blur,block
check y4m_detect_planes --source $tmp/c.y4m --detect blur,planes=7,block_width=64,block_height=48,block_pct=50,block,planes=7,period_min=2,period_max=64
check rgba4k_detect --source $tmp/c.rgba --size 3840x2160 --format AB24 --detect blur,planes=15,block,planes=15
check nv12_odd_detect --source $tmp/c.nv12 --size 1282x722 --format NV12 --detect blur,planes=7,radius=100,block,planes=7
check y4m_signalstats --source $tmp/c.y4m --signalstats-stat tout+vrep --scopes waveform,parade,vectorscope
exit $status
