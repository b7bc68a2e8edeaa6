# Helpers for the vivid guest cases (tests/vm/cases/vivid_*.sh), sourced after "$VM_LIB".
# shellcheck shell=bash

check_bin="$ESFRAME_BUILD_DIR/tests/capture/vivid_capture_check"
hist_check="$ESFRAME_SOURCE_DIR/tests/capture/vm/check_run_histograms.py"
# Frames per check: 10 bring each of the 4 V4L2 buffers back at least twice (a requeued buffer is
# what a first frame cannot test); under TCG every frame costs about a second.
frames=${VIVID_FRAMES:-10}

# vgem's card node. Zero-copy runs put EGL there: Mesa's software GBM allocates dumb buffers,
# which the render node refuses, and llvmpipe cannot import another node's buffers.
vgem_card=
for d in /sys/class/drm/card[0-9]*; do
  [ "$(basename "$(readlink -f "$d/device")")" = vgem ] && vgem_card=/dev/dri/$(basename "$d")
done

# egl_for <io>: esframe's EGL options for that mode.
egl_for() {
  if [ "$1" = dmabuf ]; then
    echo "--egl gbm --drm-device $vgem_card"
  else
    echo "--egl gbm --drm-device /dev/dri/renderD128"
  fi
}

# select_input <n>: 0 webcam (640x480 among discrete sizes), 3 HDMI (any size via the scaler).
# Fixed picture: the colour bars, no OSD text.
select_input() {
  v4l2-ctl -d /dev/video0 -i "$1" >/dev/null
  v4l2-ctl -d /dev/video0 -c test_pattern=0 -c osd_text_mode=2 >/dev/null 2>&1 || true
}

# Mesa prints loader notes (vgem has no DRI driver of its own) and, where GBM allocation is
# tried on a render node, KMS notes on stderr: those are not esframe's lines.
esframe_lines() { grep -v -E '^(MESA-LOADER:|failed to load driver:|KMS:)' "$VM_OUT/$1.err"; }

# after_lines <name> <lines> <action> <command...>: runs the command in the background (stdout
# to $VM_OUT/<name>.out, stderr to .err), runs the shell command `action` once that many frame
# lines are out (or the command has ended; EGL and shader start-up take seconds under TCG),
# waits for the command and keeps its exit status in $VM_OUT/<name>.status.
after_lines() {
  local name=$1 lines=$2 action=$3
  shift 3
  "$@" >"$VM_OUT/$name.out" 2>"$VM_OUT/$name.err" &
  local pid=$!
  for _ in $(seq 600); do
    [ "$(grep -c '"seq"' "$VM_OUT/$name.out")" -ge "$lines" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  eval "$action"
  wait "$pid"
  echo $? >"$VM_OUT/$name.status"
}

# capture_check <format> <WxH> <input> <io>: $frames frames through vivid_capture_check; every frame's
# GPU histograms (R, G, B; source luma for YUV) equal the CPU histograms of its raw dump.
capture_check() {
  local fmt=$1 size=$2 input=$3 io=$4
  local name="check-$fmt-$io" dump="/tmp/check-$fmt-$io"
  select_input "$input"
  echo "run: vivid_capture_check $fmt $size $io (input $input)"
  # shellcheck disable=SC2046
  if "$check_bin" --device /dev/video0 --format "$fmt" --size "$size" --io "$io" --frames "$frames" \
    --dump-raw "$dump" $(egl_for "$io") >"$VM_OUT/$name.out" 2>"$VM_OUT/$name.err"; then
    pass "$name: $frames frames captured and checked"
  else
    fail "$name: vivid_capture_check failed"
    esframe_lines "$name" | head -10 | sed 's/^/  /'
  fi
  check "$name: $frames matching frames" \
    test "$(grep -c '"match":true' "$VM_OUT/$name.out")" -eq "$frames"
  if [ "$io" = dmabuf ]; then
    check "$name: every frame zero-copy" \
      test "$(grep -c '"zero_copy":true' "$VM_OUT/$name.out")" -eq "$frames"
  fi
  # Dumps are named by sequence number; vivid's HDMI input has been seen to repeat one.
  check "$name: one raw dump per sequence number" test "$(find "$dump" -name '*.raw' | wc -l)" -eq \
    "$(grep -o '"seq":[0-9]*' "$VM_OUT/$name.out" | sort -u | wc -l)"
}

# run_check <format> <WxH> <input> <io>: the same through `esframe run --dump-raw`, checked by
# check_run_histograms.py (L = raw Y bytes with --luma source; R, G, B = raw bytes for RGB24).
run_check() {
  local fmt=$1 size=$2 input=$3 io=$4
  local name="run-$fmt-$io" dump="/tmp/run-$fmt-$io"
  select_input "$input"
  # shellcheck disable=SC2046
  expect_ok "$name" $(egl_for "$io") run --source /dev/video0 --format "$fmt" --size "$size" \
    --io "$io" --frames "$frames" --luma source --dump-raw "$dump" \
    --histogram bins=256,channels=rgbl,strategy=chunk-sum
  check "$name: histograms equal the raw bytes'" \
    python3 "$hist_check" "$VM_OUT/$name.out" "$dump" "${size%x*}" "${size#*x}" "$fmt"
}
