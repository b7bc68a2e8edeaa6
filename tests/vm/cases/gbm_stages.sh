#!/usr/bin/env bash
# vm-timeout: 400
# The compute stages against their CPU references, bit for bit, on EGL over GBM on vgem's render
# node (Mesa's kms_swrast): the same test binary as on the host, on a real DRM device.
set -u
source "$VM_LIB"

# The binary must exist wherever the stage suite is part of the source tree.
if [ -f "$ESFRAME_SOURCE_DIR/tests/stages/CMakeLists.txt" ]; then
  run_gtest "$ESFRAME_BUILD_DIR/tests/stages/test_stages"
else
  fail "no tests/stages in $ESFRAME_SOURCE_DIR"
fi
finish
