# 32-bit ARM boards with hard float: Raspberry Pi 2/3/4/5 on 32-bit Raspberry Pi OS, older
# Rockchip boards. Debian 12's cross compiler (crossbuild-essential-armhf) targets ARMv7-A: the
# binaries do not run on ARMv6 boards (Pi 1, Zero). The target's libraries come from a sysroot:
# -DESFRAME_SYSROOT=<dir> (toolchain/cross-setup armhf builds one) or multiarch :armhf packages.
# See toolchain/cross-common.cmake.
#   cmake -S . -B build/cross-armhf -G Ninja -DCMAKE_TOOLCHAIN_FILE=toolchain/arm-linux-gnueabihf.cmake \
#         -DESFRAME_SYSROOT=/opt/esframe/sysroot-bookworm-armhf -DESFRAME_BUILD_BENCH=OFF
set(CMAKE_SYSTEM_PROCESSOR arm)
set(ESFRAME_CROSS_TRIPLET arm-linux-gnueabihf)
set(ESFRAME_CROSS_QEMU qemu-arm)
# GCC notes every std::vector<struct> on ARM that its parameter passing changed in GCC 7.1: noise
# that only matters when linking with code built by GCC 6 or older.
set(CMAKE_CXX_FLAGS_INIT "-Wno-psabi")
include(${CMAKE_CURRENT_LIST_DIR}/cross-common.cmake)
