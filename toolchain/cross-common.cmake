# Shared part of the cross toolchain files (aarch64-linux-gnu.cmake, arm-linux-gnueabihf.cmake).
# They set ESFRAME_CROSS_TRIPLET and ESFRAME_CROSS_QEMU, then include this file.
#
# Where the target's libraries come from:
# - Debian multiarch (default): the :arm64 packages installed next to the PC's own
#   (toolchain/cross-setup aarch64). Only /usr/lib/<triplet> is searched.
# - A sysroot: -DESFRAME_SYSROOT=<dir>, e.g. the root file system of the board's image (mounted,
#   or copied with rsync) or the one toolchain/cross-setup armhf builds. Everything is looked up
#   inside it: libraries, headers, CMake packages and pkg-config files.
# CMAKE_CROSSCOMPILING_EMULATOR runs target programs under qemu-user, so ctest (and
# gtest_discover_tests) work on the PC without binfmt_misc.

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_C_COMPILER ${ESFRAME_CROSS_TRIPLET}-gcc)
set(CMAKE_CXX_COMPILER ${ESFRAME_CROSS_TRIPLET}-g++)
set(CMAKE_LIBRARY_ARCHITECTURE ${ESFRAME_CROSS_TRIPLET})

# try_compile projects read this toolchain file again and get the sysroot as a plain variable.
if(NOT DEFINED ESFRAME_SYSROOT)
  set(ESFRAME_SYSROOT "$ENV{ESFRAME_SYSROOT}" CACHE PATH
      "Root file system of the target (empty: Debian multiarch packages on this machine)")
endif()
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES ESFRAME_SYSROOT)

find_program(ESFRAME_QEMU NAMES ${ESFRAME_CROSS_QEMU}-static ${ESFRAME_CROSS_QEMU}
             NO_CMAKE_FIND_ROOT_PATH)
if(NOT ESFRAME_QEMU)
  message(STATUS "${ESFRAME_CROSS_QEMU}-static not found: tests cannot run on this machine "
                 "(apt-get install qemu-user-static)")
endif()

set(_esf_pc_dirs usr/lib/${ESFRAME_CROSS_TRIPLET}/pkgconfig usr/lib/pkgconfig usr/share/pkgconfig)
if(ESFRAME_SYSROOT)
  if(NOT IS_DIRECTORY "${ESFRAME_SYSROOT}/usr/lib/${ESFRAME_CROSS_TRIPLET}"
     AND NOT IS_DIRECTORY "${ESFRAME_SYSROOT}/usr/lib/pkgconfig")
    message(FATAL_ERROR "ESFRAME_SYSROOT=${ESFRAME_SYSROOT} has no usr/lib/"
                        "${ESFRAME_CROSS_TRIPLET} or usr/lib/pkgconfig: not a target root file system")
  endif()
  set(CMAKE_SYSROOT "${ESFRAME_SYSROOT}")
  set(CMAKE_FIND_ROOT_PATH "${ESFRAME_SYSROOT}")
  set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
  set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
  set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
  set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
  list(TRANSFORM _esf_pc_dirs PREPEND "${ESFRAME_SYSROOT}/")
  set(ENV{PKG_CONFIG_SYSROOT_DIR} "${ESFRAME_SYSROOT}")
  # qemu's -L: the target's loader and libraries, and absolute paths the program opens (Mesa's
  # drivers, glvnd's vendor files, /proc/cpuinfo) are looked up in the sysroot first.
  if(ESFRAME_QEMU)
    set(CMAKE_CROSSCOMPILING_EMULATOR "${ESFRAME_QEMU};-L;${ESFRAME_SYSROOT}")
  endif()
else()
  list(TRANSFORM _esf_pc_dirs PREPEND "/")
  unset(ENV{PKG_CONFIG_SYSROOT_DIR})
  # Never link the PC's own libraries: ignore every other multiarch directory.
  file(GLOB _esf_other_arch_dirs LIST_DIRECTORIES true /usr/lib/*-linux-gnu* /lib/*-linux-gnu*)
  list(REMOVE_ITEM _esf_other_arch_dirs /usr/lib/${ESFRAME_CROSS_TRIPLET} /lib/${ESFRAME_CROSS_TRIPLET})
  list(APPEND CMAKE_IGNORE_PATH ${_esf_other_arch_dirs})
  # No -L here: with multiarch packages the target's libc and loader are already in /lib, and
  # qemu's -L would mix the cross toolchain's loader with them (GL programs then hang).
  if(ESFRAME_QEMU)
    set(CMAKE_CROSSCOMPILING_EMULATOR "${ESFRAME_QEMU}")
  endif()
endif()
# pkg-config must see only the target's .pc files.
list(JOIN _esf_pc_dirs ":" _esf_pc_libdir)
set(ENV{PKG_CONFIG_LIBDIR} "${_esf_pc_libdir}")
unset(ENV{PKG_CONFIG_PATH})
