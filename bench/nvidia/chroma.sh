#!/usr/bin/env bash
# On the NVIDIA device (after bundle.sh, .gl and .devrun carried): a YUV frame's vectorscope and
# signalstats counted on the GPU from the import's planes (glsl_es/scopes.comp, CHROMA_PLANES)
# against the reference backend, on every YUV layout at an odd and a 1080p size, then what
# --scopes vectorscope and --signalstats add to a 1080p NV12 frame on the GPU.
set -uo pipefail
. bench/nvidia/device_env.sh
export XDG_CACHE_HOME=/tmp/esf-cache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
E="$PWD/.devrun/lib/ld-linux-x86-64.so.2 --library-path $libs $PWD/.devrun/esframe --egl device"
$E info | head -3
# The signalstats keys of each frame, as printed.
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
for size in 637x479 1920x1080; do
  for format in NV12 NV21 YUYV UYVY YU12 422P YM24; do
    python3 bench/scopes_cost.py --esframe "$E" --backend gles --size "$size" --format "$format" \
      --scopes vectorscope --frames 3 --repeat 0 --check reference ||
      echo "VECTORSCOPE CHECK FAILED $format $size"
    if [ "$(figures gles "$size" "$format")" = "$(figures reference "$size" "$format")" ]; then
      echo "signalstats $format $size: 5 frames equal to the reference"
    else
      echo "SIGNALSTATS CHECK FAILED $format $size"
    fi
  done
done
python3 bench/scopes_cost.py --esframe "$E" --backend gles --size 1920x1080 --format NV12 \
  --scopes vectorscope --frames 60 --repeat 3
