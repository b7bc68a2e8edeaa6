#!/usr/bin/env bash
# The test suite, as README and CI run it (.ci/run):
#   toolchain/test-all.sh          what CI runs: every test, with the ASan and qemu-user runs
#                                  trimmed to what they add (below); about 35 minutes on 2 cores
#                                  with its caches warm (ccache, the boards' Mesa, the QEMU
#                                  guests' kernel and shader caches under /var/cache/esframe)
#   toolchain/test-all.sh --full   the same, plus the whole GPU matrix under ASan and qemu-user,
#                                  the aarch64 cross build, armhf's GPU and threaded tests,
#                                  valgrind on the GLES backend, the arm64 and armhf packages
#
# Coverage in both: the tree checks (layers, library strings, clang-format); the default preset's
# whole ctest on llvmpipe (unit, GPU matrix, CLI, services), the layers in its objects (no
# upward definitions), the exported-symbol and ABI checks and
# the SIMD kernels compiled for aarch64 (toolchain/check-simd-targets);
# the real-driver cases in QEMU guests (tests/vm: vivid, vkms, vgem, vimc); the installed package;
# the amd64 Debian packages installed with apt into a clean root;
# ASan+UBSan; ThreadSanitizer on the threaded tests; valgrind on a CLI run; libFuzzer on the
# parsers; the armhf cross build's tests under qemu-user; the GPU tests on zink over lavapipe
# and on llvmpipe within GLES 3.1's minimum limits.
# What --full adds: the tests listed in tests/gpu-matrix.txt (a stage's whole parameter matrix on
# llvmpipe, already run natively by the default preset) under ASan, zink and qemu-user too, and
# valgrind over the GLES backend's run. Under emulation the matrix costs minutes per stage and
# exercises the same llvmpipe code; each stage keeps its smaller GPU tests there (its smoke).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
full=0
for arg in "$@"; do
  case "$arg" in
    --full) full=1 ;;
    -h | --help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "test-all.sh: unknown argument '$arg' (--full, --help)" >&2; exit 2 ;;
  esac
done

# Every build below (default, asan, tsan, fuzz, the cross build, the Debian packages) compiles
# through ccache (CMakeLists.txt finds it) into one cache outside the clone, beside the boards'
# Mesa: CI clones into a new folder each time, and paths under the clone hash relative to it, so a
# source unchanged since the last run is not compiled again. ESFRAME_CCACHE_DIR moves it.
if [ -z "${CCACHE_DIR:-}" ]; then
  CCACHE_DIR=${ESFRAME_CCACHE_DIR:-/var/cache/esframe/ccache}
  mkdir -p "$CCACHE_DIR" 2>/dev/null || CCACHE_DIR=$HOME/.cache/esframe-ccache
fi
export CCACHE_DIR CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=true CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-12G}
# The QEMU guests' kernel, modules and kept shader caches (tests/vm/prepare.sh) beside it.
if [ -z "${ESFRAME_VM_CACHE:-}" ] && mkdir -p /var/cache/esframe/vm 2>/dev/null; then
  export ESFRAME_VM_CACHE=/var/cache/esframe/vm
fi
# And Mesa's shader cache for the host's GL tests (llvmpipe, zink over lavapipe): a fresh clone's
# build folder would compile every test's programs again in each of the GL steps. Mesa keys an
# entry by its own build and the shader's text and options, and keeps no failed compile; the
# tests that need a cold cache or none set their own (test_cli_program_cache, esframe programs).
if [ -z "${MESA_SHADER_CACHE_DIR:-}" ] && mkdir -p /var/cache/esframe/mesa-shader-cache 2>/dev/null
then
  export MESA_SHADER_CACHE_DIR=/var/cache/esframe/mesa-shader-cache
fi

# Each step's seconds go into a table printed at the end, also when a step fails.
# With each step, how busy the machine's CPUs were (from /proc/stat): a step well under 100%
# leaves cores idle, which a step beside it could use.
# And each step's ccache misses (sources compiled, not found in the cache; a background lane's
# compilations count in the step they overlap). A step whose script times its own phases
# (toolchain/cross-test) writes "phase<TAB>seconds" lines to $ESFRAME_STEP_PHASES: rows under it.
start_s=$(date +%s)
step_names=() step_secs=() step_busy=() step_miss=() step_name='' step_start=0 step_cpu=''
step_misses0=0
ESFRAME_STEP_PHASES=$(mktemp)
export ESFRAME_STEP_PHASES
ccache_misses() { ccache --print-stats 2>/dev/null | awk -F'\t' '$1=="cache_miss"{print $2}' || true; }
cpu_ticks() { awk '/^cpu /{print $2+$3+$4+$7+$8, $2+$3+$4+$5+$6+$7+$8}' /proc/stat; }
busy_since() {  # busy_since "<busy> <total>": percent of CPU time busy since then
  local now
  now=$(cpu_ticks)
  awk -v a="$1" -v b="$now" 'BEGIN{split(a,x," "); split(b,y," ");
    t=y[2]-x[2]; printf "%d", (t > 0 ? 100*(y[1]-x[1])/t : 0)}'
}
end_step() {
  [ -n "$step_name" ] || return 0
  local misses phase secs
  misses=$(ccache_misses)
  step_names+=("$step_name") step_secs+=($(($(date +%s) - step_start)))
  step_busy+=("$(busy_since "$step_cpu")%") step_miss+=($((${misses:-0} - step_misses0)))
  while IFS=$'\t' read -r phase secs; do
    step_names+=("  - $phase") step_secs+=("$secs") step_busy+=("-") step_miss+=("-")
  done <"$ESFRAME_STEP_PHASES"
  : >"$ESFRAME_STEP_PHASES"
  step_name=''
}
step() {
  end_step
  step_name=$*
  step_start=$(date +%s)
  step_cpu=$(cpu_ticks)
  step_misses0=$(ccache_misses)
  step_misses0=${step_misses0:-0}
  printf '\n== [%4d s] %s ==\n' "$((step_start - start_s))" "$*"
}
print_table() {  # [exit status]
  local status=${1:-$?} i
  end_step
  printf '\n%-58s %6s %5s %6s\n' "step" "s" "busy" "misses"
  for i in "${!step_names[@]}"; do
    printf '%-58s %6d %5s %6s\n' "${step_names[$i]}" "${step_secs[$i]}" "${step_busy[$i]}" \
      "${step_miss[$i]}"
  done
  printf '%-58s %6d\n' "total$([ $full = 1 ] && echo ' (--full)')" "$(($(date +%s) - start_s))"
  if command -v ccache >/dev/null; then
    echo "ccache ($CCACHE_DIR), this run:"
    ccache -s 2>/dev/null | grep -E '^ *(Hits|Misses):' || true
  fi
  [ "$status" -eq 0 ] || echo "test-all.sh: FAILED in step '${step_names[-1]}'" >&2
}
trap print_table EXIT

# Background lanes: a command that runs beside the steps, its output in a log printed only if it
# fails, its seconds in the table when joined. Each runs in a process group of its own (setsid).
declare -A lane_pid=() lane_start=() lane_end=() lane_log=() lane_title=()
start_lane() {  # start_lane ID TITLE COMMAND...
  local id=$1
  lane_title[$id]=$2 lane_log[$id]=$(mktemp) lane_start[$id]=$(date +%s)
  lane_end[$id]=$(mktemp)
  shift 2
  # The lane's own end time goes to a file: its row shows how long it ran, not when it was joined.
  setsid bash -c '"${@:2}"; status=$?; date +%s >"$1"; exit $status' lane "${lane_end[$id]}" "$@" \
    >"${lane_log[$id]}" 2>&1 &
  lane_pid[$id]=$!
}
join_lane() {  # join_lane ID: waits for it; fails as it failed, its log on stderr
  local id=$1 status=0
  [ -n "${lane_pid[$id]:-}" ] || return 0
  end_step
  wait "${lane_pid[$id]}" || status=$?
  unset "lane_pid[$id]"
  step_names+=("${lane_title[$id]}") step_busy+=("-") step_miss+=("-")
  local ended
  ended=$(cat "${lane_end[$id]}" 2>/dev/null)
  step_secs+=($((${ended:-$(date +%s)} - lane_start[$id])))
  if [ "$status" -ne 0 ]; then
    cat "${lane_log[$id]}" >&2
    echo "test-all.sh: ${lane_title[$id]}: failed (above)" >&2
    return "$status"
  fi
}

# The GPU matrix tests as one ctest regex (tests/gpu-matrix.txt: one gtest name pattern a line).
matrix_regex=$(grep -v '^\s*\(#\|$\)' tests/gpu-matrix.txt | paste -sd'|')
matrix_regex="^(${matrix_regex})\$"

step "checks: layers, library strings, clang-format"
{ command -v clang-format && command -v ccache; } >/dev/null || bash toolchain/setup-debian.sh
bash toolchain/check-tree
ccache -z >/dev/null  # the table at the end counts this run's hits
step_misses0=0

# The packages of the later steps install in the background while the default preset builds:
# "vm" (QEMU, a kernel's headers and sources for tests/vm), "fuzz" (clang), "browser" (Chromium for
# http.page) and the cross targets' compilers, libraries and sysroot. Downloads and unpacking leave the compiler most of the CPU.
# The default preset needs only the base packages, which the first step installed.
# CI cross-builds armhf only (32-bit size_t, ARMv7 NEON, the board's own unsigned char); --full
# adds aarch64 (below).
if [ $full = 1 ]; then
  cross_targets=${ESFRAME_CROSS_TARGETS-aarch64 armhf}
else
  cross_targets=${ESFRAME_CROSS_TARGETS-armhf}
fi
# shellcheck disable=SC2016
start_lane setup "(background, beside the build) setup: vm, fuzz, browser, debs, simd, cross" \
  bash -c 'bash toolchain/setup-debian.sh vm fuzz browser debs simd &&
    for target in "$@"; do bash toolchain/cross-setup "$target" || exit; done' setup $cross_targets

step "default preset: build"
# libesframe with full debug info (-g): the ABI check reads its types from it; its clients
# (tests, bench, apps) with line tables only.
cmake --preset default -DESFRAME_LINE_DEBUG_INFO=CLIENTS >/dev/null
cmake --build --preset default -j"$jobs"
# What #includes cannot show (check-tree reads the sources only), in the objects just built: no
# layer uses a symbol a higher layer defines, and no public function is defined above the
# include/esframe/ header that declares it (toolchain/check-layers --objects: nm and readelf on
# each layer's OBJECT library, seconds, so before the tests; the ctest
# layers.objects_check_fails_on_upward_definitions shows it failing on planted objects).
step "layers in the objects: no upward definitions (toolchain/check-layers --objects build/default)"
python3 toolchain/check-layers --objects build/default
# Some tests use tools of the "vm" group (jq, v4l-utils): the setup ends before any test runs.
join_lane setup
# The Debian packages as a board gets them: built (toolchain/build-debs amd64, without tests;
# no -dbgsym packages here), lintian, then installed with apt into a clean Debian 12 root made by
# mmdebstrap, run, upgraded and purged there (tests/package/check-debs.sh).
# --full: the arm64 and armhf packages, each cross-built in a clean build root (4 and 6 minutes
# here), lintian, unpacked with their dependencies into a root of that architecture and run there
# under qemu-user.
# In the background from the default preset's tests on, which leave a core idle a quarter of the
# time (services waiting on sockets and timers): much of the packages' check is one core's work
# too (lintian, apt and dpkg in the root, the root's boot). Its log is printed when it fails.
debs_archs=(amd64)
[ $full = 1 ] && debs_archs+=(arm64 armhf)
# shellcheck disable=SC2016
start_lane debs "(background, from the default ctest on) Debian packages: ${debs_archs[*]}" \
  bash -c 'for deb_arch in "$@"; do
      echo "== Debian packages: $deb_arch"
      ESFRAME_DEB_BUILD_OPTIONS=noautodbgsym bash tests/package/check-debs.sh "$deb_arch" || exit
    done' check-debs "${debs_archs[@]}"
# An early exit stops the packages' check whole (mmdebstrap, QEMU); apt in the setup lane is
# left to finish.
trap 'status=$?; [ -z "${lane_pid[debs]:-}" ] || kill -- -"${lane_pid[debs]}" 2>/dev/null
  print_table "$status"' EXIT

step "default preset: ctest (unit, gpu, cli, services; not vm)"
# Not --preset: a test preset's label filter replaces -LE instead of adding to it.
ctest --test-dir build/default --output-on-failure -j"$jobs" -LE 'vm|soak|boards'
# The boards' own GPU compilers (tests/boards): Mesa's v3d (Pi 4, Pi 5), panfrost (Mali-G52,
# G610, T860) and freedreno (Adreno 630, 660) on drm-shim's fake devices, built once from
# Debian's sources into a cache outside the clone (toolchain/board-mesa: about 16 minutes on 2
# cores for 25.0.7 and bookworm's 22.3.6, once a machine). Every program esframe builds
# compiles on each without a refusal, v3d's fallback scheduler, a default that spills (beyond
# tests/boards/known-problems.txt) or a warning; esframe run on the fake Pi 4 and Pi 5 takes
# every pixel format; the check fails when it should.
step "boards: Mesa's v3d, panfrost, freedreno on drm-shim (toolchain/board-mesa, ctest -L boards)"
bash toolchain/board-mesa
ctest --test-dir build/default --output-on-failure -j"$jobs" -L boards
# The GPU tests again on a second Mesa driver, zink (GLES over Vulkan) on lavapipe: its compiler
# (NIR to SPIR-V) and buffer mapping are closer to the boards' GPUs than llvmpipe's. The tests
# stop when the context is not zink (toolchain/with-zink).
# CI: each stage's and strategy family's GPU tests and the selftest (not the parameter matrix of
# tests/gpu-matrix.txt, the same code at more sizes); --full runs the matrix there too.
step "zink over lavapipe: ctest -L 'gpu|cli-gl'$([ $full = 1 ] || echo ' (not tests/gpu-matrix.txt)') (toolchain/with-zink)"
if [ $full = 1 ]; then
  bash toolchain/with-zink ctest --test-dir build/default --output-on-failure -j"$jobs" -L 'gpu|cli-gl'
else
  bash toolchain/with-zink ctest --test-dir build/default --output-on-failure -j"$jobs" -L 'gpu|cli-gl' \
    -E "$matrix_regex"
fi
# The GPU tests once more on llvmpipe with only the limits GLES 3.1 guarantees (128 invocations,
# 16 KB shared memory, 4 storage blocks and images per compute shader): every default and stage
# runs there and is exact, or refuses with one line (platform/gl_spec_limits.hpp); a test's
# explicit parameters beyond them must be refused (tests/support/gl_test_context.hpp).
step "GLES 3.1 minimum limits on llvmpipe: ctest -L 'gpu|cli-gl' (ESFRAME_GL_LIMITS=gles31-min)"
ESFRAME_GL_LIMITS=gles31-min ctest --test-dir build/default --output-on-failure -j"$jobs" \
  -L 'gpu|cli-gl'
# The objects' layers were checked right after the build (check-layers --objects, above); the
# exported symbols and the ABI of the linked library here.
step "exported symbols and ABI (toolchain/check-abi)"
if [ -f toolchain/check-abi ]; then bash toolchain/check-abi build/default; fi
# The SIMD kernels for the 64-bit boards' targets (NEON, SVE, SVE2), which no x86 build checks
# and the armhf step does not reach.
step "aarch64 SIMD targets compile (toolchain/check-simd-targets)"
bash toolchain/check-simd-targets build/default
# Each boot (tests/vm: cases that share a "# vm-boot:" group) is one QEMU process whose guest
# mostly runs one program at a time: two boots at once share the cores better than one alone.
step "real drivers in QEMU (ctest -L vm, $jobs boots at once)"
ctest --preset default -L vm -j"$jobs"
# The installed package as a user gets it: the example built against a scratch install with
# find_package(esframe) and with pkg-config, its output checked against independent references.
step "installed package: examples/ against cmake --install"
bash tests/package/check-installed-example.sh build/default
# The builds below are only tested, never stepped through: line tables (-g1) keep file:line in
# their reports and compile about a third faster (ESFRAME_LINE_DEBUG_INFO).
# ASan+UBSan: everything but the GPU matrix (the matrix's host side is the same code its smaller
# tests run); --full runs the matrix too. No retries: a failure fails.
# The asan test preset sets ASAN_OPTIONS=intercept_tls_get_addr=0: GCC 12's runtime takes a dynamic
# TLS block that malloc places 16 bytes past a page boundary for a glibc 2.18 header and reads a
# bogus range from it; LeakSanitizer's tracer then dies at exit with signal 11 after the test has
# passed, in whichever test's addresses happen to fall there (runtimes after GCC 13 and LLVM 16
# dropped that check).
step "asan preset: build"
cmake --preset asan -DESFRAME_LINE_DEBUG_INFO=ON >/dev/null
cmake --build --preset asan -j"$jobs"
step "asan preset: ctest$([ $full = 1 ] || echo ' (not tests/gpu-matrix.txt)')"
if [ $full = 1 ]; then
  ctest --preset asan -j"$jobs"
else
  ctest --preset asan -j"$jobs" -E "$matrix_regex"
fi

# ThreadSanitizer on the tests labelled threads (only their folders are built).
step "tsan preset: build tests/threads and tests/core/cpu, ctest -L threads"
cmake --preset tsan -DESFRAME_LINE_DEBUG_INFO=ON >/dev/null
cmake --build --preset tsan -j"$jobs"
ctest --preset tsan -j"$jobs"

# valgrind on a short CLI run. llvmpipe's JIT writes and runs code valgrind cannot follow:
# tests/valgrind/llvmpipe.supp says what is suppressed and why; LP_NUM_THREADS=0 keeps llvmpipe
# on one thread. The CPU executor's run needs no GL; the GLES run (--full) covers the host-side GL
# paths that ASan already checks on every run.
backends=("--backend cpu")
[ $full = 1 ] && backends+=("--backend gles")
step "valgrind: esframe run, 3 small pattern frames (${backends[*]}); the Python module's script"
# On an x86 CPU that hides RDTSCP (some virtual machines), valgrind 3.19's CPU still offers it and
# libhwy's start-up (its timer) stops on SIGILL before esframe's main: said, not passed over.
if [ "$(uname -m)" = x86_64 ] && ! grep -qw rdtscp /proc/cpuinfo; then
  echo "test-all.sh: valgrind not run: this CPU hides RDTSCP, and under valgrind libhwy's" \
    "initialiser faults on it (SIGILL in hwy::platform::TimerResolution, before esframe runs)" >&2
  backends=()
fi
for backend in "${backends[@]}"; do
  # shellcheck disable=SC2086
  LP_NUM_THREADS=0 valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite \
    --suppressions=tests/valgrind/llvmpipe.supp build/default/esframe run --frames 3 \
    --size 64x48 $backend >/dev/null
done
# The Python module's C++ side (apps/python) on a short script, CPU backends: memory errors only.
# Debian's python3 leaves its own allocations to the exit (leaks valgrind calls definite, none in
# esframe's frames); tests/python/test_leak.py holds the module to a flat RSS instead.
if [ ${#backends[@]} -gt 0 ] && compgen -G "build/default/python/esframe*.so" >/dev/null; then
  PYTHONMALLOC=malloc PYTHONPATH=build/default/python valgrind -q --error-exitcode=1 \
    --leak-check=no /usr/bin/python3 tests/python/memcheck_script.py >/dev/null
fi

# libFuzzer on the file parsers (tests/fuzz), a few seconds each from the seed corpus, on a
# scratch copy so the corpus in the tree does not grow.
step "fuzz: Y4M, raw and still-image parsers, option parsers, tuning cache, MJPEG"
# File by file, not in unity batches: the one build where a source that leans on another file's
# includes fails to compile.
CC=clang CXX=clang++ cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DESFRAME_FUZZ=ON -DESFRAME_BUILD_BENCH=OFF -DESFRAME_LINE_DEBUG_INFO=ON \
  -DESFRAME_UNITY_BUILD=OFF >/dev/null
cmake --build build/fuzz --target fuzz_y4m fuzz_raw fuzz_still_image fuzz_options \
  fuzz_tuning_cache fuzz_mjpeg -j"$jobs"
root=$PWD
for parser in y4m raw still_image options tuning_cache mjpeg; do
  corpus=$(mktemp -d)
  cp tests/fuzz/corpus/"$parser"/* "$corpus"/
  (cd "$corpus" && "$root"/build/fuzz/tests/fuzz/fuzz_"$parser" -max_total_time=3 -max_len=4096 .)
  rm -rf "$corpus"
done

# Cross builds for the boards, their tests under qemu-user (toolchain/cross-test). CI: armhf, the
# tests a board's CPU runs (unit, the CPU executor's NEON kernels, parsers, formats and hostile
# sizes on a 32-bit size_t, and the CLI); llvmpipe's GPU tests under emulation (llvmpipe's ARM
# JIT more than esframe), the gpu and cli-gl labels, are left to --full. --full: aarch64 and
# armhf, every test including the GPU matrix. ESFRAME_CROSS_TARGETS="" skips them.
export ESFRAME_LINE_DEBUG_INFO=ON  # toolchain/cross-test passes it on to CMake
for target in $cross_targets; do
  if [ $full = 1 ]; then
    step "cross $target: setup, build, ctest under qemu-user (every test)"
    bash toolchain/cross-test "$target"
  else
    step "cross $target: setup, build, ctest under qemu-user (unit, threads, cli; no GPU)"
    ESFRAME_CROSS_EXCLUDE_LABELS='vm|bench|gpu|cli-gl' bash toolchain/cross-test "$target" --board
  fi
done
join_lane debs
grep "^check-debs: \\[" "${lane_log[debs]}" || true
step "done"
