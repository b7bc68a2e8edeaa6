#!/usr/bin/env bash
# Prepares what run-vm.sh boots: the Debian kernel of the pinned ABI (downloaded, unpacked, never
# installed), its uncompressed vmlinux for a PVH boot, vkms and vimc built out of tree (Debian's
# kernel has neither), depmod, and a busybox initramfs. Idempotent: each step leaves a stamp, so a
# second run only checks stamps. Prints the cache directory on stdout.
#
# Cache: $ESFRAME_VM_CACHE (default ${XDG_CACHE_HOME:-~/.cache}/esframe-vm)/<abi>.
# Needs: bash toolchain/setup-debian.sh vm
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
abi=${ESFRAME_VM_KERNEL_ABI:-$(cat "$here/kernel-abi")}
cache_root=${ESFRAME_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/esframe-vm}
cache="$cache_root/$abi"

die() { echo "vm prepare: $*" >&2; exit 1; }
log() { echo "vm prepare: $*" >&2; }

headers=/usr/src/linux-headers-$abi
source_tar=/usr/src/linux-source-6.1.tar.xz
for tool in qemu-system-x86_64 busybox depmod modprobe cpio xz zstd make apt-get dpkg-deb; do
  command -v "$tool" >/dev/null || PATH=$PATH:/sbin:/usr/sbin command -v "$tool" >/dev/null ||
    die "'$tool' is missing; run: bash toolchain/setup-debian.sh vm"
done
export PATH=$PATH:/sbin:/usr/sbin
[ -d "$headers" ] || die "'$headers' is missing; run: bash toolchain/setup-debian.sh vm"
[ -f "$source_tar" ] || die "'$source_tar' is missing; run: bash toolchain/setup-debian.sh vm"

mkdir -p "$cache"
# Several build trees may prepare at once (ctest -j, two presets): one at a time per cache.
exec 9>"$cache/.lock"
flock 9

image="$cache/image"            # the unpacked linux-image package
moddir="$image/lib/modules/$abi"

# 1. Kernel image package, unpacked.
if [ ! -f "$cache/.kernel-done" ]; then
  log "downloading linux-image-$abi"
  rm -rf "$image" "$cache/deb" && mkdir -p "$cache/deb"
  (cd "$cache/deb" && apt-get download -q "linux-image-$abi" >&2) ||
    die "apt-get download linux-image-$abi failed (is the ABI still in the archive? see tests/vm/kernel-abi)"
  dpkg-deb -x "$cache"/deb/linux-image-"$abi"_*.deb "$image"
  rm -rf "$cache/deb"
  touch "$cache/.kernel-done"
fi

# 2. Uncompressed vmlinux from the bzImage's xz payload: QEMU boots an ELF vmlinux through PVH,
# which skips the decompressor (about 3 s under TCG).
if [ ! -f "$cache/vmlinux" ]; then
  log "extracting vmlinux"
  vmlinuz="$image/boot/vmlinuz-$abi"
  offset=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$vmlinuz" | head -1 | cut -d: -f1)
  [ -n "$offset" ] || die "no xz payload in $vmlinuz"
  # The payload is followed by trailer bytes, so xz reports trailing garbage: check the ELF instead.
  tail -c +$((offset + 1)) "$vmlinuz" | xz -dc --single-stream >"$cache/vmlinux.tmp" 2>/dev/null || true
  [ "$(head -c 4 "$cache/vmlinux.tmp" | od -An -c | tr -d ' ')" = '177ELF' ] ||
    die "extracted vmlinux is not an ELF file"
  mv "$cache/vmlinux.tmp" "$cache/vmlinux"
fi

# Builds module $1 (its Kconfig symbol $2) out of tree from linux-source-6.1's directory $3
# against the pinned headers, checking for its source file $4; installs it under updates/.
build_module() {
  local name=$1 config=$2 dir=$3 probe=$4
  local ko="$moddir/updates/$name.ko" src="$cache/$name-src"
  [ -f "$ko" ] && return 0
  log "building $name out of tree"
  rm -rf "$src" && mkdir -p "$src"
  tar -xJf "$source_tar" -C "$src" --strip-components=5 --wildcards "linux-source-6.1/$dir/*"
  [ -f "$src/$probe" ] || die "$name sources not found in $source_tar"
  make -s -C "$headers" M="$src" "$config=m" -j"$(nproc)" modules >"$cache/$name-build.log" 2>&1 ||
    { cat "$cache/$name-build.log" >&2; die "building $name failed"; }
  mkdir -p "$moddir/updates"
  cp "$src/$name.ko" "$ko"
  rm -rf "$src"
  rm -f "$cache/.depmod-done"
}

# 3. vkms, built out of tree from linux-source-6.1 against the pinned headers.
build_module vkms CONFIG_DRM_VKMS drivers/gpu/drm/vkms vkms_drv.c

# 3b. vimc (the virtual camera libcamera's vimc pipeline handler drives), built the same way:
# Debian's kernel has none either. Its dependencies (mc, videodev, videobuf2, v4l2-tpg) are
# Debian's modules; depmod finds them.
build_module vimc CONFIG_VIDEO_VIMC drivers/media/test-drivers/vimc vimc-core.c

# 4. depmod, so the guest's own modprobe finds vivid, vgem, vkms and vimc with their dependencies.
if [ ! -f "$cache/.depmod-done" ]; then
  depmod -b "$image" "$abi"
  touch "$cache/.depmod-done"
fi

# 5. The initramfs: busybox, the modules to reach the host's root over virtio-9p, and init.
# Rebuilt when init or this script changes.
initrd_key=$(cat "$here/guest/init" "$0" | sha256sum | cut -c1-16)
if [ "$(cat "$cache/initramfs.key" 2>/dev/null)" != "$initrd_key" ]; then
  log "building initramfs"
  root="$cache/initramfs-root"
  rm -rf "$root" && mkdir -p "$root"/{bin,dev,proc,sys,mnt,modules}
  cp "$(command -v busybox)" "$root/bin/busybox"
  for applet in sh mount umount mkdir mkfifo ln insmod modprobe uname cat echo sleep chroot switch_root; do
    ln -s busybox "$root/bin/$applet"
  done
  # Dependencies first, each module once, in modprobe's order.
  modprobe -d "$image" -S "$abi" --show-depends -a virtio_pci 9pnet_virtio 9p overlay |
    awk '$1 == "insmod" && !seen[$2]++ { print $2 }' >"$cache/initramfs-modules"
  n=0
  while read -r ko; do
    n=$((n + 1))
    cp "$ko" "$root/modules/$(printf %02d $n)-$(basename "$ko")"
  done <"$cache/initramfs-modules"
  cp "$here/guest/init" "$root/init" && chmod +x "$root/init"
  (cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) >"$cache/initramfs.tmp"
  mv "$cache/initramfs.tmp" "$cache/initramfs.cpio.gz"
  rm -rf "$root"
  echo "$initrd_key" >"$cache/initramfs.key"
fi

echo "$cache"
