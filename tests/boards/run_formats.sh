#!/usr/bin/env bash
# `esframe run --backend gles` on the fake V3D 4.2 (Raspberry Pi 4) device, every pixel format's
# import with health, regions, blur and resize: v3d reads every image unit a program declares
# at dispatch, and an import program that declared one it was not given crashed the driver
# (SIGSEGV in v3d_write_uniforms) on every YUV frame. The fake device computes nothing, so the
# figures are not checked: the run must end as a run does, exit 0.
#   run_formats.sh BUILD_DIR [TARGET]
set -uo pipefail
build=$1
target=${2:-v3d-4.2}
here="$(cd "$(dirname "$0")" && pwd)"
boards="$here/../../toolchain/board-compilers"
failed=0
for format in YUYV UYVY NV12 NV21 YU12 YUV422P YUV444P RGB24 GREY MJPEG RGBA32 SRGGB10; do
  for luma in rgb source; do
    err=$(mktemp)
    "$boards" --env "$target" -- "$build/esframe" --egl gbm --drm-device /dev/dri/renderD128 \
      run --backend gles --source pattern --format "$format" --size 320x240 --frames 2 \
      --luma "$luma" --health grid=4x3 --blur 15 --resize 160x120 >/dev/null 2>"$err"
    status=$?
    if [ "$status" -ne 0 ]; then
      echo "run_formats: $target $format --luma $luma: exit $status" >&2
      tail -3 "$err" >&2
      failed=1
    else
      echo "run_formats: $target $format --luma $luma: ok"
    fi
    rm -f "$err"
  done
done
exit $failed
