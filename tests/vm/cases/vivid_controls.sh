#!/usr/bin/env bash
# vm-timeout: 240
# vm-seconds: 30
# vm-boot: vivid
# vivid through esframe's CLI (issue 4): `esframe info` lists the capture device with formats
# and controls; --ctrl sets a control by its v4l2-ctl name and refuses an unknown one with one
# line; a size the driver adjusts is said on stderr; a device opens by card name; --io auto on
# a render node (where software GBM cannot allocate) falls back to mmap.
set -u
source "$VM_LIB"
source "$ESFRAME_SOURCE_DIR/tests/capture/vm/vivid_lib.sh"

select_input 0
egl=(--egl gbm --drm-device /dev/dri/renderD128)
hist=(--histogram bins=16,channels=l,strategy=chunk-sum)
expect_ok info info --json
expect_json info '.capture_devices | map(select(.path == "/dev/video0")) | length == 1'
expect_json info '[.capture_devices[0].formats[].fourcc] | (index("YUYV") != null and index("NV12") != null and index("RGB3") != null)'
expect_json info '[.capture_devices[0].controls[].name] | (index("test_pattern") != null and index("brightness") != null)'
expect_json info '[.capture_devices[0].formats[] | select(.fourcc == "YUYV") | .sizes[].size] | index("640x480") != null'

# --backend gles: the one line is the control's, without backend auto's line about llvmpipe.
expect_exit 1 bad-ctrl "${egl[@]}" run --backend gles --source /dev/video0 --frames 1 \
  --ctrl no_such_control=1
check "bad-ctrl: one esframe line naming the control" \
  test "$(esframe_lines bad-ctrl | grep -c "/dev/video0: no control named 'no_such_control'")" -eq 1 -a \
  "$(esframe_lines bad-ctrl | wc -l)" -eq 1
expect_ok ctrl "${egl[@]}" run --source /dev/video0 --format YUYV --size 320x180 --frames 2 \
  --ctrl brightness=200 --io mmap "${hist[@]}"
check "brightness was set" sh -c "v4l2-ctl -d /dev/video0 -C brightness | grep -q 200"
expect_ok adjusted "${egl[@]}" run --source /dev/video0 --format YUYV --size 641x479 --frames 1 \
  --io mmap "${hist[@]}"
check "the adjustment is said on stderr" \
  grep -q "driver adjusted 641x479 YUYV to 640x480 YUYV" "$VM_OUT/adjusted.err"
card=$(v4l2-ctl -d /dev/video0 -D | sed -n 's/^[[:space:]]*Card type[[:space:]]*: //p')
expect_ok by-card "${egl[@]}" run --source "$card" --format YUYV --size 320x180 --frames 1 "${hist[@]}"
expect_grep by-card '"source":"/dev/video0"'
finish
