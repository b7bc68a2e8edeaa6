#!/usr/bin/env bash
# On the NVIDIA device (after bundle.sh, .gl and .devrun carried): what one camera costs with
# --health beside the GPU (bench/camera_cost.py: the host's CPU % of one core, paced at the
# camera's rate; the device has no RTSP server, so YUV frames only), the executor on the same
# host for comparison, and the frame's GPU time with and without --health (bench/health_cost.py).
set -uo pipefail
. bench/nvidia/device_env.sh
export XDG_CACHE_HOME=/tmp/esf-cache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
E="$PWD/.devrun/lib/ld-linux-x86-64.so.2 --library-path $libs $PWD/.devrun/esframe"
python3 bench/camera_cost.py --esframe "$E" --egl device --backend gles --no-rtsp --seconds 10 \
  --repeat 2
python3 bench/camera_cost.py --esframe "$E" --backend cpu --no-rtsp --seconds 10 --repeat 2
for size in 640x480 1920x1080; do
  python3 bench/health_cost.py --esframe "$E --egl device" --backend gles --size $size \
    --format NV12 --source pattern:loop=8 --frames 110 --repeat 3
done
