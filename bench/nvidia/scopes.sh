#!/usr/bin/env bash
# On the NVIDIA device (after bundle.sh, .gl and .devrun carried): the GPU scopes against the
# reference backend, then what --scopes adds to a frame (bench/scopes_cost.py) on the GPU and
# the executor.
set -uo pipefail
. bench/nvidia/device_env.sh
export XDG_CACHE_HOME=/tmp/esf-cache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
E="$PWD/.devrun/lib/ld-linux-x86-64.so.2 --library-path $libs $PWD/.devrun/esframe --egl device"
$E info | head -5
for size in 637x479 1920x1080; do
  for format in RGBA32 NV12 YUYV; do
    python3 bench/scopes_cost.py --esframe "$E" --backend gles --size $size --format $format \
      --frames 3 --repeat 0 --check reference || echo "CHECK FAILED"
  done
done
for size in 1920x1080 3840x2160; do
  python3 bench/scopes_cost.py --esframe "$E" --backend gles --size $size --frames 60 --repeat 3
done
python3 bench/scopes_cost.py --esframe "$E" --backend cpu --size 1920x1080 --frames 30 --repeat 2 --threads 16
