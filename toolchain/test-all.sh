#!/usr/bin/env bash
# The whole test suite, as README and CI run it: installs what it needs, then builds and tests
# the default preset (unit, GPU-on-llvmpipe, CLI and the real-driver VM cases), the installed
# package's example (tests/package), the asan preset (ASan + UBSan), then the aarch64 and armhf
# cross builds' tests under qemu-user.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

# Each step prints the seconds since the start, so CI logs show where the time goes.
start_s=$(date +%s)
step() { printf '\n== [%4d s] %s ==\n' "$(($(date +%s) - start_s))" "$*"; }

step "setup"
# "vm": QEMU, a kernel's headers and sources for the real-driver cases (tests/vm, ctest label vm).
bash toolchain/setup-debian.sh vm fuzz

step "default preset: build"
cmake --preset default >/dev/null
cmake --build --preset default -j"$jobs"
step "default preset: ctest"
ctest --preset default -j"$jobs"
# The installed package as a user gets it: the example built against a scratch install with
# find_package(esframe) and with pkg-config, its output checked against independent references.
step "installed package: examples/ against cmake --install"
bash tests/package/check-installed-example.sh build/default

# The asan test preset runs llvmpipe single-threaded (LP_NUM_THREADS=0) and retries a failed
# test once: LeakSanitizer's tracer once crashed (signal 11) at exit while llvmpipe's worker
# threads wound down, after the test itself had passed. A real failure fails both tries.
step "asan preset: build"
cmake --preset asan >/dev/null
cmake --build --preset asan -j"$jobs"
step "asan preset: ctest"
ctest --preset asan -j"$jobs"

# ThreadSanitizer on the tests labelled threads (only their folder, tests/threads, is built).
step "tsan preset: build tests/threads, ctest -L threads"
cmake --preset tsan >/dev/null
cmake --build --preset tsan -j"$jobs"
ctest --preset tsan -j"$jobs"

# valgrind on a short CLI run, on each backend that runs here. llvmpipe's JIT writes and runs
# code valgrind cannot follow: tests/valgrind/llvmpipe.supp says what is suppressed and why.
# LP_NUM_THREADS=0 keeps llvmpipe on one thread (valgrind serializes them). --backend cpu, not
# the default auto: auto picks cpu on llvmpipe after opening a GL context, which the gles run
# covers; spelled out, the CPU run needs no GL and takes a quarter of the time (21 s, not 82 s).
step "valgrind: esframe run, 3 small pattern frames"
for backend in "--backend cpu" "--backend gles"; do
  # shellcheck disable=SC2086
  LP_NUM_THREADS=0 valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite \
    --suppressions=tests/valgrind/llvmpipe.supp build/default/esframe run --frames 3 \
    --size 64x48 $backend >/dev/null
done

# libFuzzer on the file parsers (tests/fuzz), a few seconds each from the seed corpus, on a
# scratch copy so the corpus in the tree does not grow.
step "fuzz: Y4M, raw and still-image parsers, option parsers, tuning cache, MJPEG"
CC=clang CXX=clang++ cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DESFRAME_FUZZ=ON -DESFRAME_BUILD_BENCH=OFF >/dev/null
cmake --build build/fuzz --target fuzz_y4m fuzz_raw fuzz_still_image fuzz_options \
  fuzz_tuning_cache fuzz_mjpeg -j"$jobs"
root=$PWD
for parser in y4m raw still_image options tuning_cache mjpeg; do
  corpus=$(mktemp -d)
  cp tests/fuzz/corpus/"$parser"/* "$corpus"/
  (cd "$corpus" && "$root"/build/fuzz/tests/fuzz/fuzz_"$parser" -max_total_time=5 -max_len=4096 .)
  rm -rf "$corpus"
done

# Cross builds for the boards, unit and GPU tests under qemu-user (toolchain/cross-test).
# ESFRAME_CROSS_TARGETS="" skips them on a developer's machine.
for target in ${ESFRAME_CROSS_TARGETS-aarch64 armhf}; do
  step "cross $target: setup, build, ctest under qemu-user"
  bash toolchain/cross-test "$target"
done
step "done"
