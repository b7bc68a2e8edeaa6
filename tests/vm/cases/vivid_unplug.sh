#!/usr/bin/env bash
# vm-timeout: 300
# vm-seconds: 86
# vm-boot: vivid_faults
# Device loss mid-stream (issue 4): vivid is unbound through sysfs while frames stream. The
# capture ends cleanly: every line printed is complete, one error line names the device, and
# the exit code is 3 (README "Exit codes"). With vivid_capture_check in mmap and in zero-copy
# dmabuf mode, and with `esframe run`; vivid is bound again between runs. Then `esframe run
# --reconnect`: the unbind is an outage (camera_offline), vivid is bound again, the camera comes
# back (camera_online with the outage's length) and its frames go on with increasing seq; SIGTERM
# ends the run with exit 0.
set -u
source "$VM_LIB"

source "$ESFRAME_SOURCE_DIR/tests/capture/vm/vivid_lib.sh"
driver=/sys/bus/platform/drivers/vivid

wait_for_video0() {
  for _ in $(seq 50); do [ -e /dev/video0 ] && return 0; sleep 0.1; done
  return 1
}

# unplug_after <frames> <name> <command...>: runs the command, unbinds vivid once that many
# frames were printed, keeps the exit status in $VM_OUT/<name>.status, binds vivid again.
unplug_after() {
  local frames=$1 name=$2
  shift 2
  after_lines "$name" "$frames" "echo vivid.0 >$driver/unbind" "$@"
  echo vivid.0 >"$driver/bind"
  wait_for_video0 || fail "vivid did not come back after binding it again"
  v4l2-ctl -d /dev/video0 -c osd_text_mode=2 >/dev/null 2>&1 || true
}

expect_lost() {
  local name=$1 out="$VM_OUT/$1.out"
  check "$name: exit code 3" test "$(cat "$VM_OUT/$name.status")" -eq 3
  check "$name: frames before the unplug" test "$(grep -c '"seq"' "$out")" -ge 1
  check "$name: no partial output line" test "$(tail -c1 "$out" | od -An -tx1 | tr -d ' ')" = 0a
  check "$name: every output line is whole JSON" jq -e . "$out"
  check "$name: one esframe error line naming the device" \
    test "$(esframe_lines "$name" | grep -v -E 'warning|^/dev/video0: [0-9]+x' | wc -l)" -eq 1
  check "$name: it says the device was lost" grep -q "/dev/video0: device lost" "$VM_OUT/$name.err"
}

unplug_after 3 check-mmap "$check_bin" --device /dev/video0 --format YUYV --size 320x180 \
  --io mmap --frames 100000 --dump-raw /tmp/unplug-mmap --egl gbm --drm-device /dev/dri/renderD128
expect_lost check-mmap
unplug_after 3 check-dmabuf "$check_bin" --device /dev/video0 --format YUYV --size 320x180 \
  --io dmabuf --frames 100000 --dump-raw /tmp/unplug-dmabuf --egl gbm --drm-device "$vgem_card"
expect_lost check-dmabuf
unplug_after 3 run-unplug "$ESFRAME" --egl gbm --drm-device /dev/dri/renderD128 run \
  --source /dev/video0 --format NV12 --size 320x180 --histogram bins=16,channels=l,strategy=chunk-sum
expect_lost run-unplug

# The same unplug with --reconnect: an outage, and the camera back once vivid is bound again.
reconnect_check run-reconnect /dev/video0 "echo vivid.0 >$driver/unbind" \
  "echo vivid.0 >$driver/bind; wait_for_video0" \
  run --reconnect --source /dev/video0 --format NV12 --size 320x180 --backend cpu \
  --histogram bins=16,channels=l
finish
