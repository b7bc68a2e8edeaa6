#!/usr/bin/env bash
# Boots a Debian root folder (one that mmdebstrap made, with systemd in it) under QEMU TCG with the
# harness's kernel, its own systemd as PID 1, for what needs a running service manager. The root
# is shared read-only over virtio-9p under a tmpfs overlay: its writes stay in the guest. What the
# root's units write to /esfvm-out comes back in OUT; a unit there ends the boot with
# `systemctl poweroff`.
#
#   boot-root.sh --root DIR --out DIR [--timeout S]
#
# Exit status: 0 when QEMU ended by itself (the guest powered off), 124 when the host killed it
# at the timeout, 126 on a harness error. OUT/console.log is the serial console.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)

harness_error() { echo "vm: $*" >&2; exit 126; }
# shellcheck source=qemu.sh
source "$here/qemu.sh"

root='' out='' timeout_s=300
while [ $# -gt 0 ]; do
  case "$1" in
    --root) root=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    *) harness_error "unknown argument '$1'" ;;
  esac
done
[ -n "$root" ] && [ -n "$out" ] || harness_error "usage: boot-root.sh --root DIR --out DIR [--timeout S]"
[ -x "$root/lib/systemd/systemd" ] || harness_error "'$root' has no /lib/systemd/systemd"
cache=$("$here/prepare.sh") || harness_error "preparing the VM cache failed"
mkdir -p "$out" || harness_error "cannot create '$out'"

start_ns=$(date +%s%N)
boot_qemu "$timeout_s" "$out" "$cache" esfvm.sysroot \
  -virtfs "local,path=$root,mount_tag=sysroot,security_model=none,readonly=on,multidevs=remap"
status=$?
echo "vm: booted $root: QEMU ended after $((($(date +%s%N) - start_ns) / 1000000)) ms (status $status)" >&2
case $status in
  0) exit 0 ;;
  124 | 137) echo "vm: the host killed QEMU after ${timeout_s} s" >&2; exit 124 ;;
  *) cat "$out/qemu.log" >&2; exit 126 ;;
esac
