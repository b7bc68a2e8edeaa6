#!/usr/bin/env bash
# vm-timeout: 900
# vm-seconds: 315
# vm-boot: display
# --output drm on vkms (enable_overlay=1): kms_check (tests/vm/tools) shows a scene (gradient on
# the primary plane, an opaque occluder on the overlay at position 5), hands DRM master to
# `esframe run`, and then proves from the kernel's side that
#   - the graph was on an overlay plane at the requested zpos and rect,
#   - the screen equalled a reference commit of the expected graph (CPU references of the scale
#     and the graph, from esframe's JSONL histogram): the CRTC CRC, and writeback pixel for pixel,
#   - on exit the plane was free again and the screen back to the scene (also after SIGTERM),
#   - from a non-preferred mode esframe modesets, and on exit restores mode and primary plane,
#   - the default (frame on): the processed frame on the primary plane, scaled with the aspect
#     kept, and the graph in the top right corner over it with a translucent background; each
#     screen equals a reference composed on the CPU (one XRGB16161616 buffer on the primary plane
#     alone), the screen changes with the frames, and SIGTERM releases both planes.
# The graph-only scenes run with frame=off (today's screen); one of them with scope=waveform, whose
# screen is the waveform's CPU reference and whose CRC differs from the histogram's.
# Also: a busy card (another DRM master) and an impossible zpos give one-line errors.
set -u
source "$VM_LIB"

KMS_CHECK=$ESFRAME_BUILD_DIR/tests/vm/tools/kms_check
check "kms_check is built" test -x "$KMS_CHECK"

# Six identical frames (copies of one seeded 257x131 PPM): every frame has the same
# histogram, so every frame shows the same graph.
frames=/tmp/drm_frames
python3 - "$frames" <<'PY'
import os, random, sys
d = sys.argv[1]
os.makedirs(d, exist_ok=True)
rng = random.Random(20261122)
w, h = 257, 131
px = bytearray()
for _ in range(w * h):
    a, b = rng.randrange(256), rng.randrange(256)
    px += bytes((min(a, b), max(a, b), (a + b) // 2))
for i in range(6):
    with open(os.path.join(d, "f%02d.ppm" % i), "wb") as f:
        f.write(b"P6\n%d %d\n255\n" % (w, h) + px)
# A moving picture for the frame on the primary plane: three 157x91 images (a white square
# moving right over seeded noise), each shown twice: m00 m01 = image 0, m02 m03 = image 1, ...
w, h = 157, 91
for k in range(3):
    img = bytearray(rng.randrange(200) for _ in range(w * h * 3))
    for y in range(30, 60):
        for x in range(10 + 50 * k, 40 + 50 * k):
            img[(y * w + x) * 3:(y * w + x) * 3 + 3] = b"\xff\xff\xff"
    for r in range(2):
        with open(os.path.join(d, "m%02d.ppm" % (2 * k + r)), "wb") as f:
            f.write(b"P6\n%d %d\n255\n" % (w, h) + img)
PY
source_glob="$frames/f*.ppm"

# Mesa's loaders print their own probing lines on these virtual drivers (there is no
# vkms_dri.so or vgem_dri.so; they fall back to kms_swrast/llvmpipe). Those lines are Mesa's, not
# esframe's: the one-line error checks below look at the rest.
own_stderr() {
  grep -Ev '^(libEGL warning: )?MESA-LOADER: |^failed to load driver: |^kmsro: driver missing$|^$' \
    "$VM_OUT/$1.err"
}
expect_own_one_line_error() {
  local name=$1 pattern=$2 lines
  lines=$(own_stderr "$name" | grep -c '')
  if [ "$lines" -ne 1 ]; then
    fail "$name: expected one line of esframe's own on stderr, got $lines"
    show_stderr "$name"
  elif ! own_stderr "$name" | grep -Eq -- "$pattern"; then
    fail "$name: stderr '$(own_stderr "$name")' does not match /$pattern/"
  else
    pass "$name: error '$(own_stderr "$name")'"
  fi
}
run=("$ESFRAME" --egl gbm --drm-device vkms run --source "$source_glob" --output jsonl)

# scene <name> <zpos> <rect>: esframe under kms_check; its exit status is the verdict.
scene() {
  local name=$1 zpos=$2 rect=$3
  local size
  size=$(echo "$rect" | awk -F, '{print $3 "x" $4}')
  echo "run: kms_check scene: esframe --output drm:zpos=$zpos,rect=$rect"
  if "$KMS_CHECK" scene --out "$VM_OUT/$name" --occluder-zpos 5 --occluder 300,200,200,100 \
    --expect-zpos "$zpos" --expect-rect "$rect" --png-graph "$VM_OUT/${name}_png/graph-00000000.png" -- "${run[0]}" -v "${run[@]:1}" --output "drm:zpos=$zpos,rect=$rect,frame=off" \
    --output "png:$VM_OUT/${name}_png,every=100,graph=$size,decor=off" \
    >"$VM_OUT/$name.check" 2>&1; then
    pass "$name: every kms_check check passed"
  else
    fail "$name: kms_check failed"
  fi
  sed 's/^/  /' "$VM_OUT/$name.check"
  grep 'KMS' "$VM_OUT/$name.err" | sed 's/^/  esframe: /'
}

# Under the occluder (zpos 3 < 5), then above it (zpos 7), an odd-sized rect.
scene drm_zpos3 3 64,96,320,160
scene drm_zpos7 7 250,150,257,99

# The scope mode: the same rect as drm_zpos3, scope=waveform on the plane and in the PNG; the
# screen equals the CPU reference of the waveform from the JSONL's counts, and its reference CRC
# is not the histogram's.
echo "run: kms_check scene --scope waveform: esframe --output drm:zpos=3,rect=64,96,320,160,scope=waveform"
if "$KMS_CHECK" scene --out "$VM_OUT/drm_waveform" --occluder-zpos 5 --occluder 300,200,200,100 \
  --expect-zpos 3 --expect-rect 64,96,320,160 --scope waveform \
  --png-graph "$VM_OUT/drm_waveform_png/graph-00000000.png" -- "${run[0]}" -v "${run[@]:1}" \
  --output "drm:zpos=3,rect=64,96,320,160,frame=off,scope=waveform" \
  --output "png:$VM_OUT/drm_waveform_png,every=100,graph=320x160,decor=off,scope=waveform" \
  >"$VM_OUT/drm_waveform.check" 2>&1; then
  pass "drm_waveform: every kms_check check passed"
else
  fail "drm_waveform: kms_check failed"
fi
sed 's/^/  /' "$VM_OUT/drm_waveform.check"
histogram_crc=$(sed -n 's/^reference CRC \(0x[0-9a-f]*\).*/\1/p' "$VM_OUT/drm_zpos3.check")
waveform_crc=$(sed -n 's/^reference CRC \(0x[0-9a-f]*\).*/\1/p' "$VM_OUT/drm_waveform.check")
check "drm_waveform: the plane's CRC ($waveform_crc) differs from the histogram's ($histogram_crc)" \
  test -n "$waveform_crc" -a -n "$histogram_crc" -a "$waveform_crc" != "$histogram_crc"

# The kiosk default: the frame on the primary plane, the graph (256x128, a quarter of 1024) at
# 752,16 over it, background alpha 160 on vkms's ARGB8888 overlay. Three images, two frames each.
echo "run: kms_check scene --frame: esframe --output drm (frame on)"
if "$KMS_CHECK" scene --out "$VM_OUT/drm_frame" --occluder-zpos 0 --expect-rect 752,16,256,128 \
  --frame --frame-images "$frames/m00.ppm,$frames/m02.ppm,$frames/m04.ppm" --frame-repeat 2 \
  --graph-alpha 160 -- "${run[0]}" -v --egl gbm --drm-device vkms run --source "$frames/m*.ppm" \
  --output jsonl --output drm >"$VM_OUT/drm_frame.check" 2>&1; then
  pass "drm_frame: every kms_check check passed"
else
  fail "drm_frame: kms_check failed"
fi
sed 's/^/  /' "$VM_OUT/drm_frame.check"
grep 'KMS' "$VM_OUT/drm_frame.err" | sed 's/^/  esframe: /'
# vkms cannot scale: esframe asked the kernel for the plane's scaler first and says it was refused.
check "drm_frame: the plane scaler was tried with TEST_ONLY and refused, so the GPU scaled" \
  grep -q 'scaling the 157x91 frame to 1024x594 at 0,87 refused in a TEST_ONLY commit' \
  "$VM_OUT/drm_frame.err"

# SIGTERM mid-stream, frame on, on the CPU backend (the sink uploads the frame and histogram to
# its own GL context): 2000 identical frames (hard links), stopped 1 s after the graph shows;
# esframe exits 0, frees both planes and puts the scene back; what it showed is exact.
# One process for the links: 2000 `ln` execs take minutes in a TCG guest.
python3 -c 'import os, sys
d = sys.argv[1]
for i in range(2000): os.link(d + "/f00.ppm", d + "/long%04d.ppm" % i)' "$frames"
echo "run: kms_check scene --frame --term-after-ms 1000: esframe --backend cpu --output drm:zpos=2"
if "$KMS_CHECK" scene --out "$VM_OUT/drm_sigterm" --occluder-zpos 0 --expect-zpos 2 \
  --expect-rect 752,16,256,128 --frame --frame-images "$frames/f00.ppm" --graph-alpha 160 \
  --term-after-ms 1000 -- "$ESFRAME" -v --egl gbm --drm-device vkms run --backend cpu \
  --source "$frames/long*.ppm" --output jsonl --output drm:zpos=2 >"$VM_OUT/drm_sigterm.check" 2>&1; then
  pass "drm_sigterm: every kms_check check passed"
else
  fail "drm_sigterm: kms_check failed"
fi
sed 's/^/  /' "$VM_OUT/drm_sigterm.check"
grep 'KMS' "$VM_OUT/drm_sigterm.err" | sed 's/^/  esframe: /'

# Modeset and restore: the scene runs 800x600, so esframe must modeset to the preferred
# 1024x768 (a black primary under its overlay) and on exit put back the mode, the scene's primary
# framebuffer and the routing (checked through the properties: a modeset restarts the CRC).
echo "run: kms_check modeset --scene-mode 800x600: esframe --output drm:rect=0,0,200,100"
if "$KMS_CHECK" modeset --out "$VM_OUT/drm_modeset" --scene-mode 800x600 -- \
  "$ESFRAME" -v --egl gbm --drm-device vkms run --frames 4 --size 64x48 --output jsonl \
  --output drm:rect=0,0,200,100 >"$VM_OUT/drm_modeset.check" 2>&1; then
  pass "drm_modeset: every kms_check check passed"
else
  fail "drm_modeset: kms_check failed"
fi
sed 's/^/  /' "$VM_OUT/drm_modeset.check"
grep 'KMS' "$VM_OUT/drm_modeset.err" | sed 's/^/  esframe: /'

# Busy: kms_check keeps DRM master while esframe starts. With the GL context on surfaceless
# esframe opens the card itself; with it on the card (gbm) the context's fd is the one refused.
# (Mesa's GBM prints its own loader lines on vkms before falling back to kms_swrast.)
busy_error="/dev/dri/card0 \\(vkms\\) is held by another DRM master"
"$KMS_CHECK" hold --out "$VM_OUT/drm_busy" -- "$ESFRAME" --egl surfaceless run \
  --source "$source_glob" --output jsonl --output drm:device=vkms >"$VM_OUT/drm_busy.check" 2>&1
check "busy card (surfaceless GL): esframe exits 1" test "$?" -eq 1
expect_own_one_line_error drm_busy "$busy_error"
"$KMS_CHECK" hold --out "$VM_OUT/drm_busy_gbm" -- "${run[@]}" --output drm >"$VM_OUT/drm_busy_gbm.check" 2>&1
check "busy card (GL on the card): esframe exits 1" test "$?" -eq 1
expect_own_one_line_error drm_busy_gbm "$busy_error"

# No plane can honour zpos=12 (vkms has no zpos property; positions run 0..9): every plane's
# reason in one line.
expect_exit 1 drm_no_plane --egl surfaceless run --source "$source_glob" --frames 1 \
  --output jsonl --output drm:device=vkms,zpos=12
expect_own_one_line_error drm_no_plane "no plane can show the graph: .*fixed position is 1, requested zpos=12.*cursor plane"
finish
