#!/usr/bin/env bash
# The whole test suite, as README and CI run it: installs what it needs, then builds and tests
# the default preset (unit, GPU-on-llvmpipe, CLI and the real-driver VM cases), and the
# asan preset (ASan + UBSan), then the aarch64 and armhf cross builds' tests under qemu-user.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

# "vm": QEMU, a kernel's headers and sources for the real-driver cases (tests/vm, ctest label vm).
bash toolchain/setup-debian.sh vm

step() { printf '\n== %s ==\n' "$*"; }

step "default preset: build"
cmake --preset default >/dev/null
cmake --build --preset default -j"$jobs"
step "default preset: ctest"
ctest --preset default -j"$jobs"

step "asan preset: build"
cmake --preset asan >/dev/null
cmake --build --preset asan -j"$jobs"
step "asan preset: ctest"
ctest --preset asan -j"$jobs"

# Cross builds for the boards, unit and GPU tests under qemu-user (toolchain/cross-test).
# ESFRAME_CROSS_TARGETS="" skips them on a developer's machine.
for target in ${ESFRAME_CROSS_TARGETS-aarch64 armhf}; do
  step "cross $target: setup, build, ctest under qemu-user"
  bash toolchain/cross-test "$target"
done
