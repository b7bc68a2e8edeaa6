#!/usr/bin/env bash
# vm-timeout: 420
# vm-seconds: 113
# vm-boot: libcamera
# libcamera on vimc (issue 14): `esframe run --source libcamera` through libcamera's vimc pipeline
# handler (vimc built out of tree by prepare.sh). Every frame's GPU histograms equal CPU histograms
# of its --dump-raw bytes (check_run_histograms.py), with libcamera's own buffers mapped (mmap) and
# with GBM buffers on vgem handed to the camera (dmabuf, zero-copy into EGL). expbuf, importing
# libcamera's V4L2-exported dmabufs, is refused on llvmpipe (it crashes sampling foreign dmabufs).
# Also: `esframe info` lists the camera, and SIGTERM mid-run exits 0 and releases the camera.
set -u
source "$VM_LIB"
source "$ESFRAME_SOURCE_DIR/tests/capture/vm/vivid_lib.sh"  # vgem_card, esframe_lines
frames=6
# vimc's scaler triples the sensor's size: a width of a multiple of 3 (even), or the camera
# adjusts it; 384 x 3 bytes is also a row GBM allocates without padding (dmabuf mode).
size=384x240

modprobe vimc || fail "modprobe vimc failed"
# libcamera enumerates only devices udev has initialised; udev refuses to run in a chroot unless told.
export SYSTEMD_IGNORE_CHROOT=1
/lib/systemd/systemd-udevd --daemon >/dev/null 2>&1 || fail "systemd-udevd did not start"
udevadm trigger --subsystem-match=media --subsystem-match=video4linux && udevadm settle -t 30 ||
  fail "udevadm trigger/settle failed"

echo "run [$(vm_uptime) s]: esframe info"
expect_ok info --egl gbm --drm-device /dev/dri/renderD128 info --json
expect_json info 'has("libcamera_cameras")' || fail "this esframe was built without libcamera"
expect_json info '[.libcamera_cameras[] | select(.id | test("vimc"))] | length == 1'
expect_json info '[.libcamera_cameras[0].streams[0].formats[].esframe] | index("RGB24") != null'
id=$(jq -r '.libcamera_cameras[0].id' "$VM_OUT/info.out")

# run_libcamera <name> <io> <egl options> <args...>: frames through `esframe run`, checked frame by
# frame against the raw bytes.
run_libcamera() {
  local name=$1 io=$2 fmt=$3 egl=$4
  shift 4
  local dump="/tmp/$name"
  echo "run [$(vm_uptime) s]: $name"
  # shellcheck disable=SC2086
  expect_ok "$name" $egl -v run --source "$@" --size "$size" --io "$io" --frames "$frames" \
    --backend gles --dump-raw "$dump" --histogram bins=256,channels=rgbl,strategy=chunk-sum
  check "$name: $frames frames" test "$(grep -c . "$VM_OUT/$name.out")" -eq "$frames"
  check "$name: histograms equal the raw bytes'" \
    python3 "$hist_check" "$VM_OUT/$name.out" "$dump" "${size%x*}" "${size#*x}" "$fmt"
  check "$name: the source says $io" grep -q "source libcamera:.*: $size $fmt ($io)" "$VM_OUT/$name.err"
  check "$name: nothing adjusted" test "$(grep -c adjusted "$VM_OUT/$name.err")" -eq 0
}

run_libcamera mmap mmap RGB24 "--egl gbm --drm-device /dev/dri/renderD128" libcamera --format RGB24
# The other format vimc offers (libcamera's RGB888: B, G, R bytes), the camera named by its id.
run_libcamera dmabuf dmabuf BGR24 "--egl gbm --drm-device $vgem_card" "libcamera:$id" \
  --format BGR24

expect_exit 1 expbuf --egl gbm --drm-device "$vgem_card" run --source libcamera --io expbuf \
  --frames 1
# Mesa's loader notes about vgem come first; esframe's own stderr is the one line.
check "expbuf: one line names the refusal" test "$(esframe_lines expbuf | grep -c .)" -eq 1
check "expbuf: refused on llvmpipe" grep -q 'expbuf I/O is refused: this GPU cannot import foreign' \
  "$VM_OUT/expbuf.err"
expect_exit 1 nocamera run --backend cpu --source "libcamera:no such camera" --frames 1
expect_one_line_error nocamera "libcamera:no such camera: no such camera \(there are '.*vimc"
expect_exit 1 badctrl run --backend cpu --source libcamera --ctrl NoSuchControl=1 --frames 1
expect_one_line_error badctrl 'libcamera:.*: no control .NoSuchControl.'

# SIGTERM while streaming: exit 0, and the camera is free again at once.
echo "run [$(vm_uptime) s]: sigterm"
"$ESFRAME" --egl gbm --drm-device /dev/dri/renderD128 run --backend cpu --source libcamera \
  --size "$size" >"$VM_OUT/sigterm.out" 2>"$VM_OUT/sigterm.err" &
pid=$!
for _ in $(seq 300); do
  [ -s "$VM_OUT/sigterm.out" ] && break
  sleep 0.2
done
check "sigterm: frames before the signal" test -s "$VM_OUT/sigterm.out"
kill -TERM "$pid"
wait "$pid"
status=$?
check "sigterm: exit status 0 (got $status)" test "$status" -eq 0
# (with a control of the camera's own set through --ctrl)
expect_ok again --egl gbm --drm-device /dev/dri/renderD128 run --source libcamera --size "$size" \
  --frames 2 --ctrl Contrast=1.5
finish
