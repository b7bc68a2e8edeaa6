#!/usr/bin/env bash
# vm-timeout: 600
# vm-seconds: 160
# vm-boot: vivid
# Multi-planar V4L2 (issue 14) against vivid multiplanar=2, whose capture node has only the
# V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE queue: NV12M (two memory planes) and YUV420M (three) in mmap
# and zero-copy dmabuf modes (one GBM dmabuf per plane), and YUYV, a single-buffer format, on the
# same queue. Every frame's GPU histograms equal CPU histograms of its --dump-raw bytes
# (tests/capture/vm/vivid_lib.sh); NV12M also through `esframe run`.
set -u
source "$VM_LIB"
source "$ESFRAME_SOURCE_DIR/tests/capture/vm/vivid_lib.sh"

modprobe -r vivid && modprobe vivid n_devs=1 multiplanar=2
v4l2-ctl -d /dev/video0 -c osd_text_mode=2 >/dev/null 2>&1 || true
check "vivid's capture node is multi-planar only" \
  sh -c "v4l2-ctl -d /dev/video0 -D | grep -q 'Video Capture Multiplanar'"
expect_ok info info --json
expect_json info '.capture_devices[0].multi_planar == true'
expect_json info '[.capture_devices[0].formats[] | select(.supported) | .fourcc] | (index("NM12") != null and index("YM12") != null)'
check "vgem has a card node" test -n "$vgem_card"

capture_check NV12M 320x180 0 mmap
capture_check YUV420M 320x180 0 dmabuf
capture_check YUYV 320x180 0 dmabuf
run_check NV12 320x180 0 dmabuf
# The format the run left set: NV12 was asked for as NV12M, which the queue lists.
check "run-NV12-dmabuf: streamed NM12 (two memory planes)" \
  sh -c "v4l2-ctl -d /dev/video0 -V | grep -q \"'NM12'\""
finish
