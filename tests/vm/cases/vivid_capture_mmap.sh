#!/usr/bin/env bash
# vm-timeout: 840
# vm-seconds: 70
# vm-boot: vivid
# V4L2 capture against vivid in mmap mode (issue 4): 10 frames each of YUYV 320x180, NV12
# 320x180 and RGB24 320x240; each frame's GPU histograms equal CPU histograms of the raw bytes
# --dump-raw kept (tests/capture/vm/vivid_lib.sh). RGB24 also through `esframe run`.
# vivid's webcam input has no 320x240, so RGB24 uses its HDMI input (scaler).
set -u
source "$VM_LIB"
source "$ESFRAME_SOURCE_DIR/tests/capture/vm/vivid_lib.sh"

capture_check YUYV 320x180 0 mmap
capture_check NV12 320x180 0 mmap
capture_check RGB24 320x240 3 mmap
run_check RGB24 320x240 3 mmap
finish
