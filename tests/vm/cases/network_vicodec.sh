#!/usr/bin/env bash
# vm-timeout: 300
# vm-seconds: 60
# vm-boot: gbm_libcamera
# A network stream whose decoder is a V4L2 stateful decoder, as a Pi's H.264 decoder is: vicodec
# (the kernel's FWHT codec, built by prepare.sh) behind GStreamer's v4l2fwhtdec. An RTSP server
# (gst-rtsp-server) encodes a moving test pattern with v4l2fwhtenc and sends it with rtpgstpay;
# uridecodebin plugs rtpgstdepay and v4l2fwhtdec. With --io dmabuf the decoder decodes into the
# GPU's own buffers (GBM on vgem's card) and every frame is imported from them without a copy;
# with --io mmap the same stream comes in system memory. The histograms of the two runs, frame by
# frame, are equal.
set -u
source "$VM_LIB"

frames=12
size_w=640 size_h=360 # vicodec codes 640x360 and larger
port=8654

ip link set lo up || fail "cannot bring the loopback interface up"
check "vicodec loads" modprobe vicodec
vgem_card=
for d in /sys/class/drm/card*; do
  [ "$(basename "$(readlink -f "$d/device")")" = vgem ] && vgem_card=/dev/dri/$(basename "$d")
done
check "vgem has a card node" test -n "$vgem_card"
check "GStreamer has vicodec's decoder" gst-inspect-1.0 --exists v4l2fwhtdec
check "GStreamer has vicodec's encoder" gst-inspect-1.0 --exists v4l2fwhtenc

# Each client gets the stream from its start: both runs see the same frames. More frames than a
# run takes, so no run reaches the stream's end.
launch="( videotestsrc num-buffers=$((frames * 3)) pattern=smpte horizontal-speed=6 !"
launch+=" video/x-raw,format=I420,width=$size_w,height=$size_h,framerate=4/1 ! v4l2fwhtenc !"
launch+=" rtpgstpay name=pay0 pt=96 )"
/usr/bin/python3 "$ESFRAME_SOURCE_DIR/tests/services/rtsp_test_server.py" "$port" /clip "$launch" \
  >/tmp/rtsp_server.out 2>"$VM_OUT/rtsp_server.err" &
server=$!
for _ in $(seq 300); do
  grep -q ready /tmp/rtsp_server.out 2>/dev/null && break
  sleep 0.1
done
check "the RTSP server is ready" grep -q ready /tmp/rtsp_server.out

uri=rtsp://127.0.0.1:$port/clip
for io in dmabuf mmap; do
  expect_ok "run-$io" --egl gbm --drm-device "$vgem_card" -v run --source "$uri" \
    --transport tcp --io "$io" --backend gles --frames "$frames" \
    --histogram bins=256,channels=rgbl
done
kill "$server" 2>/dev/null
wait "$server" 2>/dev/null

# The path each run took, as -v says it, with its counts.
check "dmabuf: every frame from the decoder's dmabufs" \
  grep -q "$uri: $frames frames imported from the decoder's dmabufs without a copy, 0 from system memory" \
  "$VM_OUT/run-dmabuf.err"
check "dmabuf: the source says dmabuf" grep -q "(dmabuf, GStreamer)" "$VM_OUT/run-dmabuf.err"
check "mmap: every frame from system memory" \
  grep -q "$uri: 0 frames imported from the decoder's dmabufs without a copy, $frames from system memory" \
  "$VM_OUT/run-mmap.err"

# Frame by frame: the histograms of the frames both runs have by sequence number (a frame dropped
# by the queue leaves its number out), at least most of them, equal.
for io in dmabuf mmap; do
  jq -c 'select(.hist) | {seq, width, height, hist}' "$VM_OUT/run-$io.out" >"$VM_OUT/hist-$io.jsonl"
done
common=$(jq -r '.seq' "$VM_OUT/hist-dmabuf.jsonl" |
  grep -Fxf <(jq -r '.seq' "$VM_OUT/hist-mmap.jsonl") | wc -l)
echo "frames both runs have: $common of $frames"
check "at least $((frames - 2)) frames in both runs" test "$common" -ge $((frames - 2))
other_size=$(jq -c "select(.width != $size_w or .height != $size_h)" "$VM_OUT"/hist-*.jsonl | wc -l)
check "every frame is ${size_w}x${size_h} (others: $other_size)" test "$other_size" = 0
differing=$(jq -n -r --slurpfile a "$VM_OUT/hist-dmabuf.jsonl" --slurpfile b "$VM_OUT/hist-mmap.jsonl" \
  '[$a[] as $x | $b[] | select(.seq == $x.seq and .hist != $x.hist) | .seq] | length')
check "zero-copy histograms equal system memory's, frame by frame (differing: $differing)" \
  test "$differing" = 0
distinct=$(jq -r '.hist | tostring' "$VM_OUT/hist-mmap.jsonl" | sort -u | wc -l)
check "the pattern moves (distinct frames: $distinct)" test "$distinct" -ge $((frames / 2))

modprobe -r vicodec v4l2-mem2mem || fail "vicodec does not unload"
finish
