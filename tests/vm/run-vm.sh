#!/usr/bin/env bash
# Boots the prepared kernel under QEMU TCG and runs case scripts in the guest, one after another
# in the same boot (see README.md).
#
#   run-vm.sh --esframe BIN --build-dir DIR --out DIR [--timeout S] [--cache DIR] [--name N] CASE.sh...
#
# With several cases each has its own folder under DIR (DIR/<case>/). Exit status: the first
# failing case's status (0 if all passed); 124 timed out (guest watchdog, or the host killed QEMU);
# 125 the guest died without leaving a status; 126 harness error on the host.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../.." && pwd)

harness_error() { echo "vm: $*" >&2; exit 126; }
# shellcheck source=qemu.sh
source "$here/qemu.sh"

esframe='' build_dir='' out='' timeout_s=240 cache='' boot_name='' case_scripts=()
while [ $# -gt 0 ]; do
  case "$1" in
    --esframe) esframe=$2; shift 2 ;;
    --build-dir) build_dir=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --cache) cache=$2; shift 2 ;;
    --name) boot_name=$2; shift 2 ;;
    -*) harness_error "unknown option '$1'" ;;
    *) case_scripts+=("$1"); shift ;;
  esac
done
[ -n "$esframe" ] && [ -n "$build_dir" ] && [ -n "$out" ] && [ ${#case_scripts[@]} -gt 0 ] ||
  harness_error "usage: run-vm.sh --esframe BIN --build-dir DIR --out DIR [--timeout S] [--cache DIR] [--name N] CASE.sh..."
[ -x "$esframe" ] || harness_error "esframe binary '$esframe' is not executable"
for case_script in "${case_scripts[@]}"; do
  [ -f "$case_script" ] || harness_error "case script '$case_script' not found"
done
case "$timeout_s" in '' | *[!0-9]*) harness_error "timeout '$timeout_s' is not a number of seconds" ;; esac

if [ -z "$cache" ]; then
  cache=$("$here/prepare.sh") || harness_error "preparing the VM cache failed"
fi
for f in vmlinux initramfs.cpio.gz image; do
  [ -e "$cache/$f" ] || harness_error "'$cache/$f' is missing: run tests/vm/prepare.sh"
done

# Absolute paths: the guest sees the host's tree at the same paths.
abs() { (cd "$(dirname "$1")" && echo "$(pwd)/$(basename "$1")"); }
esframe=$(abs "$esframe")
# Each case's own "# vm-timeout: <seconds>" bounds it inside the guest.
case_timeouts=''
for i in "${!case_scripts[@]}"; do
  case_scripts[$i]=$(abs "${case_scripts[$i]}")
  own=$(sed -n 's/^# vm-timeout: *\([0-9][0-9]*\).*/\1/p' "${case_scripts[$i]}" | head -n1)
  case_timeouts+="$(basename "${case_scripts[$i]}" .sh) ${own:-240};"
done
build_dir=$(cd "$build_dir" && pwd)
mkdir -p "$out" && out=$(cd "$out" && pwd) || harness_error "cannot create '$out'"
for path in "$out" "${case_scripts[@]}" "$esframe"; do
  case "$path" in *[[:space:]]*) harness_error "paths with spaces are not supported: '$path'" ;; esac
done
case_name=${boot_name:-$(basename "${case_scripts[0]}" .sh)}
rm -rf "${out:?}"/* "$out"/.[!.]* 2>/dev/null

abi=$(basename "$cache")
# llvmpipe's compiled shaders, kept between boots of the same name in the VM cache: compiling
# them under TCG is a large part of a boot's first runs. The guest copies them in at boot and
# hands its cache back in $out/mesa-shader-cache, which then replaces the kept one. Kept per
# QEMU version, whose TCG decides the CPU features llvmpipe compiles for (the cache's keys do not
# include them). ESFRAME_VM_SHADER_CACHE=0: every boot compiles from nothing.
shader_keep=''
if [ "${ESFRAME_VM_SHADER_CACHE:-1}" != 0 ]; then
  qemu_id=$(qemu-system-x86_64 --version | head -n1 | md5sum | cut -c1-12)
  shader_keep=$cache/guest-shader-cache/$qemu_id/$case_name
fi
{
  for v in ESFRAME="$esframe" ESFRAME_BUILD_DIR="$build_dir" ESFRAME_SOURCE_DIR="$source_dir" \
    VM_OUT="$out" VM_CASE="$case_name" VM_CASE_SCRIPTS="${case_scripts[*]}" \
    VM_CASE_TIMEOUTS="$case_timeouts" VM_LIB="$here/guest/lib.sh" VM_HOST_TIMEOUT="$timeout_s" \
    VM_SHADER_CACHE_KEPT="$shader_keep"; do
    printf 'export %s=%q\n' "${v%%=*}" "${v#*=}"
  done
} >"$out/vm-env.sh"

start_ns=$(date +%s%N)
boot_qemu "$timeout_s" "$out" "$cache" \
  "esfvm.main=$here/guest/main.sh esfvm.out=$out esfvm.modules=$cache/image/lib/modules/$abi" \
  -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap
qemu_status=$?
# CPU time QEMU used (children's user+sys): about the wall time on an idle machine, times vCPUs.
times >"$out/times.txt"  # not in a pipeline: a subshell would have no children
cpu_s=$(tail -1 "$out/times.txt" | awk '{ gsub(/[ms]/, " "); print int($1 * 60 + $2 + $3 * 60 + $4) }')
elapsed_ms=$((($(date +%s%N) - start_ns) / 1000000))
elapsed=$(printf '%d.%01d' $((elapsed_ms / 1000)) $((elapsed_ms % 1000 / 100)))

if [ -n "$shader_keep" ] && [ -d "$out/mesa-shader-cache" ]; then
  mkdir -p "$(dirname "$shader_keep")" && rm -rf "$shader_keep.new" &&
    mv "$out/mesa-shader-cache" "$shader_keep.new" && rm -rf "$shader_keep" &&
    mv "$shader_keep.new" "$shader_keep" || echo "vm: keeping the guest's shader cache failed" >&2
fi

show_console() {
  echo "---- guest console ($out/console.log) ----" >&2
  cat "$out/console.log" >&2 2>/dev/null
  echo "---- end of guest console; artefacts in $out ----" >&2
}

if [ "$qemu_status" -eq 124 ] || [ "$qemu_status" -eq 137 ]; then
  echo "vm: case '$case_name' timed out: host killed QEMU after ${timeout_s} s" >&2
  show_console
  exit 124
fi
if [ ! -f "$out/status" ]; then
  echo "vm: case '$case_name': the guest died without an exit status (QEMU exit $qemu_status)" >&2
  cat "$out/qemu.log" >&2
  show_console
  exit 125
fi
status=$(cat "$out/status")
if [ "$status" = 124 ]; then
  echo "vm: case '$case_name' timed out in the guest (its watchdog, before the host's ${timeout_s} s)" >&2
else
  echo "vm: case '$case_name' exited with $status (${elapsed} s wall, QEMU used ${cpu_s} s of CPU)" >&2
fi
if [ ${#case_scripts[@]} -gt 1 ]; then
  for script in "${case_scripts[@]}"; do
    name=$(basename "$script" .sh)
    echo "vm:   $name: exit $(cat "$out/$name/status" 2>/dev/null || echo 'none (not reached)')" >&2
  done
fi
if [ "$status" -ne 0 ]; then
  show_console
fi
exit "$status"
