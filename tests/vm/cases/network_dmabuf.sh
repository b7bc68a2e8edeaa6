#!/usr/bin/env bash
# vm-timeout: 120
# vm-seconds: 20
# vm-boot: libcamera
# A network stream's decoder dmabufs on a GPU that cannot import foreign dmabufs: Mesa's llvmpipe
# on vgem's card, through a real GBM allocator. expbuf I/O (the decoder's own dmabufs) is refused
# before any connection, one error line and exit 1, as a V4L2 camera's is; dmabuf I/O (the
# GPU's buffers queued to a camera) has no meaning for a decoder and is refused too. Auto takes
# such a stream in system memory (tests/services/test_network_source.py counts it on the host).
set -u
source "$VM_LIB"

vgem_card=
for d in /sys/class/drm/card*; do
  [ "$(basename "$(readlink -f "$d/device")")" = vgem ] && vgem_card=/dev/dri/$(basename "$d")
done
check "vgem has a card node" test -n "$vgem_card"
# Nothing listens there: a refusal that connected first would fail on the connection instead.
uri=rtsp://127.0.0.1:9/clip
for io in expbuf dmabuf; do
  expect_exit 1 "$io" --egl gbm --drm-device "$vgem_card" run --source "$uri" --io "$io" \
    --frames 1
  # One error line (Mesa's loader adds its own about vgem, not esframe's).
  check "$io: one error line, the refusal" \
    test "$(grep -c "^esframe: error: $uri: $io I/O .*" "$VM_OUT/$io.err")" = 1
done
check "expbuf: says why" grep -q "cannot import foreign dmabufs" "$VM_OUT/expbuf.err"
finish
