#!/usr/bin/env bash
# vm-timeout: 300
# vm-seconds: 150
# vm-boot: vivid
# EGL over GBM on real DRM nodes: esframe info lists vkms and vgem with their drivers, auto picks
# GBM on vgem's render node, devices are chosen by path and by driver name, bad devices give a
# one-line error, the platform suite's GL tests (a compute shader checked against expected
# values) pass on vgem's render node and on vkms's card, and compute stages match their CPU
# references on vgem's render node.
set -u
source "$VM_LIB"

# What the guest has, independent of esframe: the driver behind each DRM minor, from debugfs.
driver_of_minor() { cut -d' ' -f1 "/sys/kernel/debug/dri/$1/name"; }
check "card0 is vkms" test "$(driver_of_minor 0)" = vkms
check "card1 is vgem" test "$(driver_of_minor 1)" = vgem
check "renderD128 is vgem" test "$(driver_of_minor 128)" = vgem

expect_ok info_auto info --json
expect_json info_auto '.drm_devices | any(.path == "/dev/dri/card0" and .driver == "vkms" and .type == "card")'
expect_json info_auto '.drm_devices | any(.path == "/dev/dri/renderD128" and .driver == "vgem" and .type == "render")'
expect_json info_auto '.drm_devices | any(.path == "/dev/dri/card1" and .driver == "vgem" and .type == "card")'
expect_json info_auto '.gpu.platform == "gbm" and .gpu.drm_node == "/dev/dri/renderD128"'
expect_json info_auto '.gpu.gl_version | test("OpenGL ES 3\\.[12]")'
# The V4L2 listing belongs to the capture work; when info has it, vivid must be in it.
if jq -e 'keys | any(test("camera|v4l2|video"))' "$VM_OUT/info_auto.out" >/dev/null; then
  check "info lists the vivid camera" grep -q vivid "$VM_OUT/info_auto.out"
fi

expect_ok info_text info
expect_grep info_text '^EGL platform: gbm$'
expect_grep info_text '/dev/dri/renderD128 +driver=vgem +render'
expect_grep info_text '/dev/dri/card0 +driver=vkms +card'

# By driver name and by path, on the render node and on the KMS card.
expect_ok by_name_vgem --egl gbm --drm-device vgem info --json
expect_json by_name_vgem '.gpu.platform == "gbm" and .gpu.drm_node == "/dev/dri/renderD128"'
expect_ok by_path_render --egl gbm --drm-device /dev/dri/renderD128 info --json
expect_json by_path_render '.gpu.platform == "gbm" and .gpu.drm_node == "/dev/dri/renderD128"'
expect_ok by_name_vkms --egl gbm --drm-device vkms info --json
expect_json by_name_vkms '.gpu.platform == "gbm" and .gpu.drm_node == "/dev/dri/card0"'
expect_ok by_path_card --egl gbm --drm-device /dev/dri/card0 info --json
expect_json by_path_card '.gpu.platform == "gbm" and .gpu.drm_node == "/dev/dri/card0"'

# Bad devices: exit 1 and one line naming the device, also next to real DRM nodes.
expect_exit 1 missing_node --egl gbm --drm-device /dev/dri/card7 info
expect_one_line_error missing_node "/dev/dri/card7.*No such file or directory"
expect_exit 1 video_node --egl gbm --drm-device /dev/video0 info
expect_one_line_error video_node "'/dev/video0' is not a DRM device"
expect_exit 1 dev_null --egl gbm --drm-device /dev/null info
expect_one_line_error dev_null "'/dev/null' is not a DRM device"
expect_exit 1 unknown_driver --egl gbm --drm-device v3d info
expect_one_line_error unknown_driver "no DRM device with driver 'v3d' \\(found: .*vgem.*\\)"

# The platform suite on GBM: its shared test context, compute dispatches and readbacks.
run_gtest "$ESFRAME_BUILD_DIR/tests/platform/test_platform"
ESFRAME_TEST_DRM_DEVICE=/dev/dri/card0 run_gtest "$ESFRAME_BUILD_DIR/tests/platform/test_platform" \
  --gtest_filter='ShaderLibrary.*'

# Compute stages against their CPU references on GBM over vgem, where the stage suite is part of
# the tree. Only the cheap GPU tests: under TCG a test runs about 50 times slower than on the
# host, and the sweeps exercise the same llvmpipe code that the host's run already covers.
if [ -f "$ESFRAME_SOURCE_DIR/tests/core/stages/CMakeLists.txt" ]; then
  run_gtest "$ESFRAME_BUILD_DIR/tests/core/stages/test_stages" --gtest_filter="$(
    printf '%s:' ChunkReduce.GpuMatchesPlainSumForNonPowerOfTwoCounts \
      Scale.GpuMatchesReferenceOnRandomAndRealHistograms Histogram.ChunkTilesOfOtherShapes)"
fi
finish
