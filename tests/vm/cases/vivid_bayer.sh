#!/usr/bin/env bash
# vm-timeout: 400
# vm-seconds: 90
# vm-boot: vivid
# Bayer raw sensors (issue 14) on vivid: its Bayer formats at 8 bits (all four CFA orders), 10,
# 12 and 16 bits, a few 320x180 frames each through `esframe run --dump-raw`. For every frame,
# check_bayer_run.py recomputes the per-site raw histograms and clipped fractions from the dumped
# bytes, and compares the RGB histograms (after the GPU or CPU-executor demosaic) with the plain
# reference backend run on the same dumps.
set -u
source "$VM_LIB"
source "$ESFRAME_SOURCE_DIR/tests/capture/vm/vivid_lib.sh"
frames=3
bayer_check="$ESFRAME_SOURCE_DIR/tests/capture/vm/check_bayer_run.py"
select_input 0

# bayer_run <format> <order> <bits> <backend> [--raw ...]
bayer_run() {
  local fmt=$1 order=$2 bits=$3 backend=$4
  shift 4
  local name="run-$fmt" dump="/tmp/run-$fmt"
  # shellcheck disable=SC2046
  expect_ok "$name" $(egl_for mmap) run --source /dev/video0 --format "$fmt" --size 320x180 \
    --io mmap --frames "$frames" --backend "$backend" --dump-raw "$dump" \
    --histogram bins=256,channels=rgbl "$@"
  find "$dump" -name '*.raw' | sort | xargs cat >"/tmp/$fmt-all.raw"
  expect_ok "ref-$fmt" run --source "/tmp/$fmt-all.raw" --size 320x180 --format "$fmt" \
    --backend reference --histogram bins=256,channels=rgbl "$@"
  check "$name: raw and RGB histograms equal the dumps'" \
    python3 "$bayer_check" "$VM_OUT/$name.out" "$dump" 320 180 "$fmt" "$order" "$bits" \
    "$VM_OUT/ref-$fmt.out"
}

bayer_run SRGGB8 RGGB 8 gles
bayer_run SGRBG8 GRBG 8 cpu
bayer_run SGBRG8 GBRG 8 cpu
bayer_run SBGGR8 BGGR 8 cpu --raw black=16,wb=300,200
bayer_run SRGGB10 RGGB 10 gles --raw black=64,white=1000
bayer_run SGRBG12 GRBG 12 cpu --raw black=256
bayer_run SBGGR16 BGGR 16 gles
finish
