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

# select_input <n>: 0 webcam (discrete sizes; the cases take its smallest, 320x180: under TCG a
# frame's check costs in proportion to its pixels, 640x480 four times as long), 3 HDMI (any size
# via the scaler).
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

# wait_until <seconds> <pid> <command...>: true once the command is, false after that long or
# once the process ended.
wait_until() {
  local seconds=$1 pid=$2
  shift 2
  for _ in $(seq $((seconds * 10))); do
    "$@" && return 0
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

# lines_at_least <file> <regex> <n>
lines_at_least() { [ "$(grep -c -E "$2" "$1")" -ge "$3" ]; }

# frames_after_online <file> <n>: that many frame lines after the camera_online line.
frames_after_online() {
  [ "$(sed -n '/camera_online/,$p' "$1" | grep -c '"hist"')" -ge "$2" ]
}

# reconnect_check <name> <device> <unplug> <plug> <esframe args...>: `esframe ARGS` (a camera
# with --reconnect and --histogram) in the background; after 3 frames the shell command `unplug`
# takes the camera away: a camera_offline line, esframe still running; `plug` brings it back:
# camera_online and 3 frames after it; SIGTERM: exit 0. Then the events' fields, seq increasing
# across the outage, and one warning naming `device`.
reconnect_check() {
  local name=$1 device=$2 unplug=$3 plug=$4
  shift 4
  local out="$VM_OUT/$name.out" err="$VM_OUT/$name.err"
  echo "run [$(vm_uptime) s]: $name: esframe $*"
  "$ESFRAME" "$@" >"$out" 2>"$err" &
  local pid=$!
  wait_until 120 $pid lines_at_least "$out" '"hist"' 3 || fail "$name: no 3 frames before the unplug"
  eval "$unplug"
  check "$name: camera_offline at the unplug" \
    wait_until 20 $pid lines_at_least "$out" '"event":"camera_offline"' 1
  check "$name: still running without the camera" kill -0 $pid
  eval "$plug" || fail "$name: the camera did not come back ($plug)"
  check "$name: camera_online once the camera is back" \
    wait_until 90 $pid lines_at_least "$out" '"event":"camera_online"' 1
  check "$name: 3 frames after camera_online" wait_until 60 $pid frames_after_online "$out" 3
  kill -TERM $pid
  wait $pid
  local status=$?
  check "$name: SIGTERM ends it with exit 0 (got $status)" test "$status" -eq 0
  check "$name: every output line is whole JSON" jq -e . "$out"
  check "$name: one camera_offline, then one camera_online" test \
    "$(jq -r 'select(.event) | .event' "$out" | tr '\n' ' ')" = "camera_offline camera_online "
  check "$name: camera_online carries the outage (start_ns as offline's, duration_ns)" \
    jq -s -e '[.[] | select(.event)] | .[0].start_ns == .[1].start_ns and
      .[1].duration_ns == .[1].end_ns - .[1].start_ns and .[1].duration_ns > 0' "$out"
  check "$name: frame seq increases across the outage" jq -s -e \
    '[.[] | select(.hist) | .seq] | length >= 6 and (. as $s | all(range(1; length);
      $s[.] > $s[. - 1]))' "$out"
  check "$name: camera_online comes with a frame after the last one before the unplug" \
    jq -s -e '[.[] | select(.event)] as $e | $e[1].seq > $e[0].seq' "$out"
  check "$name: the loss is one warning naming the camera" test \
    "$(grep -c '; reconnecting$' "$err")" -eq 1 -a \
    "$(grep '; reconnecting$' "$err" | grep -c -F "$device")" -eq 1
  jq -c 'select(.event)' "$out" | sed 's/^/  /'
}
