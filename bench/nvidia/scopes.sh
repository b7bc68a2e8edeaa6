#!/usr/bin/env bash
# On the NVIDIA device (after bundle.sh, .gl and .devrun carried): the GPU scopes and a YUV
# frame's signalstats (counted beside its vectorscope from the import's planes) against the
# reference backend on every YUV layout, then what --scopes adds to a frame
# (bench/scopes_cost.py) on the GPU and the executor, and --scopes vectorscope to 1080p NV12.
set -uo pipefail
. bench/nvidia/device_env.sh
export XDG_CACHE_HOME=/tmp/esf-cache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
E="$PWD/.devrun/lib/ld-linux-x86-64.so.2 --library-path $libs $PWD/.devrun/esframe --egl device"
$E info | head -5
# The signalstats keys of 5 frames, as printed.
figures() {
  # shellcheck disable=SC2086  # $E is a command line
  $E run --backend "$1" --source pattern --size "$2" --format "$3" --frames 5 --signalstats \
    --output jsonl 2>/dev/null | python3 -c '
import json, sys
keys = ("U", "V", "SAT", "HUE", "BRNG")
for line in sys.stdin:
    r = json.loads(line)
    print(json.dumps({k: v for k, v in r.items() if k.startswith(keys)}, sort_keys=True))'
}
for size in 638x479 1920x1080; do  # YUYV and UYVY need an even width
  for format in RGBA32 NV12 NV21 YUYV UYVY YU12 422P YM24; do
    python3 bench/scopes_cost.py --esframe "$E" --backend gles --size $size --format $format \
      --frames 3 --repeat 0 --check reference || echo "CHECK FAILED"
    [ "$format" = RGBA32 ] && continue
    mine=$(figures gles $size $format)
    if [ "$(echo "$mine" | grep -c UMIN)" = 5 ] && [ "$mine" = "$(figures reference $size $format)" ]; then
      echo "signalstats $format $size: 5 frames equal to the reference"
    else
      echo "SIGNALSTATS CHECK FAILED $format $size"
    fi
  done
done
# What the scopes pass reads (the histogram's packed buffer where no blur or resize comes first).
for format in RGBA32 NV12; do
  # shellcheck disable=SC2086  # $E is a command line
  $E -v run --backend gles --source pattern --size 1920x1080 --format $format --frames 1 \
    --scopes waveform,parade,vectorscope --output jsonl 2>&1 >/dev/null | grep "frame plan"
done
for size in 1920x1080 3840x2160; do
  python3 bench/scopes_cost.py --esframe "$E" --backend gles --size $size --frames 60 --repeat 3
done
python3 bench/scopes_cost.py --esframe "$E" --backend gles --size 1920x1080 --format NV12 \
  --scopes vectorscope --frames 60 --repeat 3
python3 bench/scopes_cost.py --esframe "$E" --backend cpu --size 1920x1080 --frames 30 --repeat 2 --threads 16
