#!/usr/bin/env bash
# vm-timeout: 560
# V4L2 capture against vivid, the kernel's virtual camera (issue 4): 30 frames each of YUYV
# 640x480, NV12 640x480 and RGB24 320x240, in mmap and in zero-copy dmabuf mode. Each frame's
# GPU histogram must equal a CPU histogram of the raw bytes --dump-raw kept for the same frame:
# through tests/capture's vivid_capture_check (import + histogram stage; R, G, B and source
# luma) for every combination, and through `esframe run` for YUYV and RGB24.
#
# Zero-copy runs put EGL on vgem's card node: Mesa's software GBM allocates dumb buffers, which
# the render node refuses, and llvmpipe cannot import another node's buffers (field-facts 3).
# vivid's webcam input offers 640x480 but not 320x240, so RGB24 uses its HDMI input (scaler).
set -u
source "$VM_LIB"

check_bin="$ESFRAME_BUILD_DIR/tests/capture/vivid_capture_check"
hist_check="$ESFRAME_SOURCE_DIR/tests/capture/vm/check_run_histograms.py"
vgem_card=
for d in /sys/class/drm/card[0-9]*; do
  [ "$(basename "$(readlink -f "$d/device")")" = vgem ] && vgem_card=/dev/dri/$(basename "$d")
done
check "vgem has a card node" test -n "$vgem_card"

egl_for() { # egl_for <io>: the EGL device for that mode
  if [ "$1" = dmabuf ]; then echo "--egl gbm --drm-device $vgem_card"; else echo "--egl gbm --drm-device /dev/dri/renderD128"; fi
}
select_input() { # 0: webcam (640x480 discrete), 3: HDMI (any size through the scaler)
  v4l2-ctl -d /dev/video0 -i "$1" >/dev/null
  v4l2-ctl -d /dev/video0 -c test_pattern=0 -c osd_text_mode=2 >/dev/null 2>&1 || true
}
# Mesa prints loader notes (vgem has no DRI driver of its own) and, where esframe tries GBM
# allocation on a render node, KMS notes on stderr: not esframe's lines.
esframe_lines() { grep -v -E '^(MESA-LOADER:|failed to load driver:|KMS:)' "$VM_OUT/$1.err"; }

select_input 0
expect_ok info info --json
expect_json info '.capture_devices | map(select(.path == "/dev/video0")) | length == 1'
expect_json info '[.capture_devices[0].formats[].fourcc] | (index("YUYV") != null and index("NV12") != null and index("RGB3") != null)'
expect_json info '[.capture_devices[0].controls[].name] | index("test_pattern") != null'

for io in mmap dmabuf; do
  for spec in YUYV:640x480:0 NV12:640x480:0 RGB24:320x240:3; do
    IFS=: read -r fmt size input <<<"$spec"
    select_input "$input"
    name="check-$fmt-$io"
    dump="/tmp/$name"
    echo "run: vivid_capture_check $fmt $size $io (input $input)"
    # shellcheck disable=SC2046
    if "$check_bin" --device /dev/video0 --format "$fmt" --size "$size" --io "$io" --frames 30 \
      --dump-raw "$dump" $(egl_for "$io") >"$VM_OUT/$name.out" 2>"$VM_OUT/$name.err"; then
      pass "$name: 30 frames captured and checked"
    else
      fail "$name: vivid_capture_check failed"
      esframe_lines "$name" | head -10 | sed 's/^/  /'
    fi
    check "$name: 30 matching frames" test "$(grep -c '"match":true' "$VM_OUT/$name.out")" -eq 30
    if [ "$io" = dmabuf ]; then
      check "$name: every frame zero-copy" test "$(grep -c '"zero_copy":true' "$VM_OUT/$name.out")" -eq 30
    fi
    check "$name: one raw dump per frame" test "$(find "$dump" -name '*.raw' | wc -l)" -eq 30

    [ "$fmt" = NV12 ] && continue  # esframe run: YUYV (source luma) and RGB24 (R, G, B)
    w=${size%x*} h=${size#*x}
    run_dump="/tmp/run-$fmt-$io"
    # shellcheck disable=SC2046
    expect_ok "run-$fmt-$io" $(egl_for "$io") run --source /dev/video0 --format "$fmt" \
      --size "$size" --io "$io" --frames 30 --luma source --dump-raw "$run_dump" \
      --histogram bins=256,channels=rgbl,strategy=chunk-sum
    check "run-$fmt-$io: histograms equal the raw bytes'" \
      python3 "$hist_check" "$VM_OUT/run-$fmt-$io.out" "$run_dump" "$w" "$h" "$fmt"
  done
done

select_input 0
egl_render=(--egl gbm --drm-device /dev/dri/renderD128)
# Controls by v4l2-ctl name, through VIDIOC_S_EXT_CTRLS.
expect_exit 1 bad-ctrl "${egl_render[@]}" run --source /dev/video0 --frames 1 --ctrl no_such_control=1
check "bad-ctrl: one esframe line naming the control" \
  test "$(esframe_lines bad-ctrl | grep -c "/dev/video0: no control named 'no_such_control'")" -eq 1 -a \
  "$(esframe_lines bad-ctrl | wc -l)" -eq 1
expect_ok ctrl "${egl_render[@]}" run --source /dev/video0 --format YUYV --size 320x180 --frames 2 \
  --ctrl brightness=200 --io mmap --histogram bins=16,channels=l,strategy=chunk-sum
check "brightness was set" sh -c "v4l2-ctl -d /dev/video0 -C brightness | grep -q 200"
# A size the webcam input does not have: the driver adjusts it and esframe says so.
expect_ok adjusted "${egl_render[@]}" run --source /dev/video0 --format YUYV --size 641x479 \
  --frames 1 --io mmap --histogram bins=16,channels=l,strategy=chunk-sum
check "the adjustment is said on stderr" grep -q "driver adjusted 641x479 YUYV to 640x480 YUYV" "$VM_OUT/adjusted.err"
# Opening by card name; auto io on the render node falls back to mmap.
card=$(v4l2-ctl -d /dev/video0 -D | sed -n 's/^[[:space:]]*Card type[[:space:]]*: //p')
expect_ok by-card "${egl_render[@]}" run --source "$card" --frames 1 \
  --histogram bins=16,channels=l,strategy=chunk-sum
expect_grep by-card '"source":"/dev/video0"'
finish
