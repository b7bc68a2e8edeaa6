#!/usr/bin/env bash
# vm-timeout: 480
# vm-seconds: 220
# vm-boot: vivid_faults
# Faults injected by vivid's own controls (issue 17), one boot: a buffer flagged as an error is
# counted and skipped; REQBUFS, QBUF and STREAMON errors and a fatal streaming error give one
# line and exit 1 and leave the device free for the next run; sequence and timestamp wrap give
# no false drops; a stream that stops delivering ends after --timeout; vivid's "Disconnect"
# mid-stream gives exit 3 with whole lines, mmap and dmabuf; PNG and --dump-raw output on a full
# filesystem fail cleanly; --io auto falls back to mmap when the driver refuses dmabuf buffers.
# v4l2-compliance runs against vivid first, so that a driver problem is told apart from esframe's.
set -u
source "$VM_LIB"
source "$ESFRAME_SOURCE_DIR/tests/capture/vm/vivid_lib.sh"

select_input 0
v4l2-ctl -d /dev/video0 -L >"$VM_OUT/controls.txt" 2>&1
echo "run: v4l2-compliance"
v4l2-compliance -d /dev/video0 >"$VM_OUT/v4l2-compliance.log" 2>&1
grep -E '^(Total|Grand Total)' "$VM_OUT/v4l2-compliance.log" >"$VM_OUT/v4l2-compliance-summary.txt"
check "v4l2-compliance has a summary" test -s "$VM_OUT/v4l2-compliance-summary.txt"

egl=(--egl gbm --drm-device /dev/dri/renderD128)
source_args=(run --source /dev/video0 --format YUYV --size 320x180)
cam=("${source_args[@]}" --histogram bins=16,channels=l,strategy=chunk-sum)
ctl() { v4l2-ctl -d /dev/video0 -c "$1" >/dev/null || fail "v4l2-ctl cannot set $1"; }
# esframe's own lines on stderr, without the device's info line.
# esframe's error lines on stderr: not its warnings (real drops happen under TCG), not the
# device's info line.
errors() { esframe_lines "$1" | grep -v -E '^esframe: warning: |^/dev/video0: [0-9]+x[0-9]+ |^/dev/video0 \('; }
# Every buffer is accounted for: each step in seq is 1 + the frames dropped + the buffers
# skipped as corrupted (TCG is slow enough for real drops: only their count must be right).
seq_accounted='[range(1; length) as $i | .[$i].seq - .[$i - 1].seq == 1 + .[$i].dropped + .[$i].corrupted] | all'

expect_whole_lines() {
  local out="$VM_OUT/$1.out"
  check "$1: no partial output line" test "$(tail -c1 "$out" | od -An -tx1 | tr -d ' ')" = 0a
  check "$1: every output line is whole JSON" jq -e . "$out"
}
expect_error_line() {  # <name> <regex>: exactly one esframe line, and it matches
  check "$1: one error line" test "$(errors "$1" | wc -l)" -eq 1
  check "$1: it says '$2'" grep -q -E "$2" "$VM_OUT/$1.err"
}
# background <name> <frames> <control> <esframe args...>: sets the control once that many lines
# are out; the exit status goes to $VM_OUT/<name>.status.
background() {
  local name=$1 frames=$2 control=$3
  shift 3
  after_lines "$name" "$frames" "ctl $control" "$ESFRAME" "$@"
}

# A flagged buffer: the next buffer the driver completes carries V4L2_BUF_FLAG_ERROR.
ctl inject_v4l2_buf_flag_error=1
expect_ok flagged "${egl[@]}" "${cam[@]}" --frames 12 --io mmap
check "flagged: 12 frames still delivered" test "$(grep -c '"seq"' "$VM_OUT/flagged.out")" -eq 12
check "flagged: one corrupted buffer counted" \
  test "$(jq -s 'map(.corrupted) | add' "$VM_OUT/flagged.out")" -eq 1
check "flagged: it is no drop, every seq step accounted for" jq -e -s "$seq_accounted" \
  "$VM_OUT/flagged.out"
check "flagged: one warning" test "$(grep -c 'flagged as corrupted' "$VM_OUT/flagged.err")" -eq 1

# Setup errors: one line, exit 1, and the very next run opens the device.
for inject in reqbufs qbuf streamon; do
  ctl "inject_vidioc_${inject}_error=1"
  expect_exit 1 "$inject-error" "${egl[@]}" "${cam[@]}" --frames 2 --io mmap
  expect_error_line "$inject-error" "/dev/video0: .*failed"
  expect_ok "$inject-after" "${egl[@]}" "${cam[@]}" --frames 2 --io mmap
done

# A fatal streaming error mid-stream (vb2_queue_error): exit 1, not a lost device.
background fatal 3 inject_fatal_streaming_error=1 "${egl[@]}" "${cam[@]}" --io mmap
check "fatal: exit code 1" test "$(cat "$VM_OUT/fatal.status")" -eq 1
expect_whole_lines fatal
expect_error_line fatal "/dev/video0: the driver stopped streaming"
expect_ok fatal-after "${egl[@]}" "${cam[@]}" --frames 2 --io mmap

# Sequence (from 2^32 - 128) and timestamp wrap: every gap in the 64-bit seq is what
# "dropped" says, so a wrap counts as no drop, and seq goes on past 2^32.
ctl wrap_sequence_number=1
ctl wrap_timestamp=1
expect_ok wrap "${egl[@]}" "${cam[@]}" --frames 150 --io mmap
ctl wrap_sequence_number=0
ctl wrap_timestamp=0
check "wrap: seq went past 2^32" jq -e -s 'map(.seq) | max >= 4294967296' "$VM_OUT/wrap.out"
check "wrap: every seq step is the dropped count" jq -e -s "$seq_accounted" "$VM_OUT/wrap.out"

# A stream that stops delivering (every buffer dropped by the driver): --timeout, exit 1.
ctl percentage_of_dropped_buffers=100
expect_exit 1 stall "${egl[@]}" "${cam[@]}" --frames 5 --io mmap --timeout 1
ctl percentage_of_dropped_buffers=0
expect_error_line stall "/dev/video0: no frame within 1000 ms"
expect_ok stall-after "${egl[@]}" "${cam[@]}" --frames 2 --io mmap

# A slow reader: the pipe fills, esframe blocks on the write, and the live camera drops frames,
# counted in "dropped", instead of esframe queueing them in memory. Its peak RSS stays that of
# a normal run (loosely: within 64 MB of it).
"$ESFRAME" "${egl[@]}" "${source_args[@]}" --frames 60 --io mmap --histogram bins=256,channels=rgbl \
  2>"$VM_OUT/slow.err" | { sleep 12; cat >"$VM_OUT/slow.out"; } &
# The pipe holds about 20 lines (64 KB) and vivid under TCG gives a frame every ~200 ms: esframe
# blocks after ~4 s, so a 12 s sleep keeps it blocked well past the driver's queued buffers.
sleep 8
slow_pid=$(pgrep -n -f -- "--frames 60 --io mmap --histogram bins=256")
grep VmHWM "/proc/$slow_pid/status" >"$VM_OUT/slow-rss-blocked.txt" 2>/dev/null
wait
check "slow: 60 whole lines" test "$(jq -c . "$VM_OUT/slow.out" | wc -l)" -eq 60
check "slow: the camera's drops are counted" \
  test "$(jq -s 'map(.dropped) | add' "$VM_OUT/slow.out")" -gt 0
check "slow: bounded memory while blocked (VmHWM < 512 MB)" \
  test "$(awk '{print $2}' "$VM_OUT/slow-rss-blocked.txt")" -lt 524288

# A full filesystem (a 64 KiB tmpfs) under PNG and --dump-raw output, the pattern source on the
# CPU backend (the output path is the same for every source): one line naming the file and the
# cause, exit 1, the JSON lines printed before it whole, every file there whole, no temporary
# (.name.XXXXXX) left behind.
full=/tmp/full
mkdir -p "$full" && mount -t tmpfs -o size=64k tmpfs "$full" || fail "cannot mount a tmpfs on $full"
pattern=(run --backend cpu --size 96x64 --frames 40 --histogram bins=16,channels=l)
expect_full_disk() {  # <name> <folder> <test that a file is whole, given its path>
  local name=$1 dir=$2 whole=$3
  expect_error_line "$name" "cannot write $dir/.*: No space left on device"
  check "$name: JSON lines before it" test "$(grep -c '"seq"' "$VM_OUT/$name.out")" -ge 1
  expect_whole_lines "$name"
  check "$name: no temporary file left" test -z "$(find "$dir" -name '.*' -type f)"
  check "$name: some files written" test -n "$(find "$dir" -type f)"
  for f in "$dir"/*; do check "$name: $(basename "$f") is whole" "$whole" "$f"; done
}
png_whole() { test "$(tail -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 49454e44ae426082; }  # IEND
raw_whole() { test "$(stat -c %s "$1")" -eq $((96 * 64 * 4)); }                         # RGBA32
mkdir "$full/png"
expect_exit 1 full-png "${pattern[@]}" --output jsonl --output "png:$full/png"
expect_full_disk full-png "$full/png" png_whole
rm -rf "${full:?}/png"
mkdir "$full/raw"
expect_exit 1 full-raw "${pattern[@]}" --dump-raw "$full/raw"
expect_full_disk full-raw "$full/raw" raw_whole
umount "$full"

# vivid's "Disconnect" mid-stream, mmap then zero-copy dmabuf (vivid is loaded again between:
# a disconnected vivid stays gone).
for io in mmap dmabuf; do
  read -r -a io_egl <<<"$(egl_for "$io")"
  background "disconnect-$io" 3 disconnect=1 "${io_egl[@]}" "${cam[@]}" --io "$io"
  check "disconnect-$io: exit code 3" test "$(cat "$VM_OUT/disconnect-$io.status")" -eq 3
  check "disconnect-$io: frames before it" test "$(grep -c '"seq"' "$VM_OUT/disconnect-$io.out")" -ge 3
  expect_whole_lines "disconnect-$io"
  expect_error_line "disconnect-$io" "/dev/video0: device lost"
  modprobe -r vivid && modprobe vivid n_devs=1 || fail "cannot load vivid again"
  for _ in $(seq 50); do [ -e /dev/video0 ] && break; sleep 0.1; done
  select_input 0
done

# --io auto where the driver refuses dmabuf buffers at REQBUFS, QBUF or STREAMON (vivid's
# one-shot injected errors): the dmabuf queue is released and the run streams through mmap,
# with one warning naming the device and the refusal. Without a refusal auto is zero-copy (so
# the fallback is what the refusal made); --io dmabuf still fails with one line.
auto_io_falls_back_to_mmap() {
  local dmabuf_egl name inject
  read -r -a dmabuf_egl <<<"$(egl_for dmabuf)"
  expect_ok auto-dmabuf -v "${dmabuf_egl[@]}" "${cam[@]}" --backend gles --frames 2 --io auto
  check "auto-dmabuf: zero-copy when nothing refuses" \
    grep -q -E '^esframe: source /dev/video0: .*\(dmabuf\)$' "$VM_OUT/auto-dmabuf.err"
  for inject in reqbufs qbuf streamon; do
    name="auto-$inject-refused"
    ctl "inject_vidioc_${inject}_error=1"
    expect_ok "$name" -v "${dmabuf_egl[@]}" "${cam[@]}" --backend gles --frames 2 --io auto
    check "$name: 2 frames" test "$(grep -c '"seq"' "$VM_OUT/$name.out")" -eq 2
    check "$name: one warning of it" test "$(grep -c 'refused dmabuf' "$VM_OUT/$name.err")" -eq 1
    check "$name: it names the device and the refusal" grep -q -E \
      "^esframe: warning: /dev/video0: the driver refused dmabuf buffers \(VIDIOC_${inject^^}( \(dmabuf\))? failed: .+\), using mmap$" \
      "$VM_OUT/$name.err"
    check "$name: streamed through mmap" \
      grep -q -E '^esframe: source /dev/video0: .*\(mmap\)$' "$VM_OUT/$name.err"
  done
  ctl inject_vidioc_streamon_error=1
  expect_exit 1 dmabuf-streamon-refused "${dmabuf_egl[@]}" "${cam[@]}" --frames 2 --io dmabuf
  expect_error_line dmabuf-streamon-refused "/dev/video0: VIDIOC_STREAMON failed"
}
auto_io_falls_back_to_mmap
finish
