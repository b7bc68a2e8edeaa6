# 64-bit ARM boards: Raspberry Pi 3/4/5 on 64-bit Raspberry Pi OS, Rockchip RK3399/RK3588 and
# the like. Debian 12's cross compiler (crossbuild-essential-arm64); the target's libraries from
# multiarch :arm64 packages or -DESFRAME_SYSROOT=<board root fs>. See toolchain/cross-common.cmake.
#   cmake -S . -B build/cross-aarch64 -G Ninja \
#         -DCMAKE_TOOLCHAIN_FILE=toolchain/aarch64-linux-gnu.cmake -DESFRAME_BUILD_BENCH=OFF
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(ESFRAME_CROSS_TRIPLET aarch64-linux-gnu)
set(ESFRAME_CROSS_QEMU qemu-aarch64)
include(${CMAKE_CURRENT_LIST_DIR}/cross-common.cmake)
