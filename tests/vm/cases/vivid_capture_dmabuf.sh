#!/usr/bin/env bash
# vm-timeout: 840
# vm-seconds: 90
# vm-boot: vivid
# V4L2 capture against vivid in zero-copy mode (issue 4): GBM buffers on vgem queued as
# V4L2_MEMORY_DMABUF and imported into EGL plane by plane. 10 frames each of YUYV 320x180, NV12
# 320x180 and RGB24 320x240; every frame zero-copy, and its GPU histograms equal CPU histograms
# of the raw bytes --dump-raw kept. YUYV also through `esframe run` (L from the Y plane).
set -u
source "$VM_LIB"
source "$ESFRAME_SOURCE_DIR/tests/capture/vm/vivid_lib.sh"

check "vgem has a card node" test -n "$vgem_card"
capture_check YUYV 320x180 0 dmabuf
capture_check NV12 320x180 0 dmabuf
capture_check RGB24 320x240 3 dmabuf
run_check YUYV 320x180 0 dmabuf
finish
