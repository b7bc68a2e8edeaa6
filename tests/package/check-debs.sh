#!/usr/bin/env bash
# esframe's Debian packages as a user gets them:
#   tests/package/check-debs.sh [amd64|arm64|armhf]     (default amd64)
# amd64: builds the packages (toolchain/build-debs), runs lintian on them (errors and warnings
# fail), then makes a clean Debian 12 minbase root with mmdebstrap and there, with apt, installs
# them (dependencies from the archive), runs them, upgrades them and purges them
# (tests/package/debs-in-root.sh says what is checked); then boots that root with its systemd in
# a QEMU guest, where an upgrade restarts a running esframe@ instance (restart-on-upgrade.sh;
# needs tests/vm's packages: toolchain/setup-debian.sh vm).
# arm64, armhf: builds them cross (in a build root: toolchain/build-debs), then unpacks them with
# their dependencies into a root of that architecture (mmdebstrap --variant=extract: binfmt_misc is
# not mounted here, so no maintainer script or chroot can run the root's binaries) and runs
# esframe there under qemu-user (qemu-aarch64-static, qemu-arm-static) with -L ROOT.
# ESFRAME_DEBS_BUILT=1 uses the packages already in build/debs/. Prints each step's seconds.
set -euo pipefail
cd "$(dirname "$0")/../.."
arch=${1:-amd64}
root=$PWD
debs=$root/build/debs
t0=$(date +%s)
say() { printf 'check-debs: [%4d s] %s\n' "$(($(date +%s) - t0))" "$*"; }
die() {
  echo "check-debs: FAIL: $*" >&2
  exit 1
}
mirrors=("deb http://deb.debian.org/debian bookworm main"
  "deb http://deb.debian.org/debian bookworm-updates main"
  "deb http://deb.debian.org/debian-security bookworm-security main")
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo  # mmdebstrap's root mode
# mmdebstrap runs in a mount namespace of its own (unshare --mount): the root's /proc, /dev and
# /sys mounts stay there and vanish with it, and a program that makes its own namespace meanwhile
# (QEMU guests of tests/vm) takes no copy of them that keeps mmdebstrap's unmount busy.
scratch=$(mktemp -d)
trap '$SUDO rm -rf "$scratch"' EXIT

if [ "${ESFRAME_DEBS_BUILT:-0}" != 1 ]; then
  say "toolchain/build-debs $arch"
  bash toolchain/build-debs "$arch"
fi
version=$(dpkg-parsechangelog -S Version)
mapfile -t packages < <(ls "$debs"/*_"$version"_"$arch".deb | grep -v -- '-dbgsym_')
# amd64: esframe, libesframe0.9, libesframe-dev, gstreamer1.0-esframe, python3-esframe; cross
# builds have no Python module (debian/control: profile cross).
want=$([ "$arch" = amd64 ] && echo 5 || echo 4)
[ ${#packages[@]} = "$want" ] ||
  die "expected $want packages in $debs for $version $arch, found ${#packages[@]}"
for deb in "${packages[@]}"; do
  printf '  %-44s %8d bytes  Depends: %s\n' "${deb##*/}" "$(stat -c %s "$deb")" \
    "$(dpkg-deb -f "$deb" Depends)"
done

say "lintian (errors and warnings fail)"
lintian --fail-on error,warning --tag-display-limit 0 "$debs/esframe_${version}_$arch.changes"

if [ "$arch" = amd64 ]; then
  # The upgrade: the same packages under a higher version (their exact-version dependencies on
  # each other follow), which exercises the maintainer scripts and dpkg's handling of /etc.
  stage=$scratch/esframe-debs
  mkdir -p "$stage/old" "$stage/new"
  cp "${packages[@]}" "$stage/old/"
  new_version=$version+upgradetest1
  for deb in "${packages[@]}"; do
    unpacked=$scratch/unpacked
    dpkg-deb -R "$deb" "$unpacked"
    sed -i "s/^Version: .*/Version: $new_version/; s/(= $version)/(= $new_version)/g" \
      "$unpacked/DEBIAN/control"
    dpkg-deb -Zxz -z1 -b "$unpacked" "$stage/new/" >/dev/null
    rm -rf "$unpacked"
  done
  cp -r examples "$stage/examples"
  cp tests/package/luma_reference.py tests/package/same_histograms.py \
    tests/package/debs-in-root.sh tests/package/restart-on-upgrade.sh "$stage/"
  say "mmdebstrap: a Debian 12 minbase root; in it tests/package/debs-in-root.sh"
  # The checks' tools (debs-in-root.sh's list) come with the root, in mmdebstrap's one apt run.
  # After those checks the root gets the packages again, for the restart check below.
  sys_root=$scratch/root
  $SUDO unshare --mount --propagation private \
    mmdebstrap --quiet --mode=root --variant=minbase --architectures=amd64 \
    --include=g++,cmake,make,pkgconf,python3,systemd,gstreamer1.0-tools,gstreamer1.0-plugins-base \
    --customize-hook="copy-in $stage /var/lib" \
    --customize-hook='chroot "$1" bash /var/lib/esframe-debs/debs-in-root.sh /var/lib/esframe-debs' \
    --customize-hook='chroot "$1" bash /var/lib/esframe-debs/restart-on-upgrade.sh prepare /var/lib/esframe-debs' \
    bookworm "$sys_root" "${mirrors[@]}"
  # A chroot has no service manager: the root boots with its own systemd in a QEMU guest
  # (tests/vm), where the upgrade must restart the running instance.
  say "the root booted with systemd (tests/vm/boot-root.sh): an upgrade restarts esframe@cam"
  boot_status=0
  bash tests/vm/boot-root.sh --root "$sys_root" --out "$scratch/boot" --timeout 300 || boot_status=$?
  cat "$scratch/boot/check.log" 2>/dev/null || true
  if [ "$(cat "$scratch/boot/status" 2>/dev/null)" != 0 ]; then
    echo "---- guest console ----" >&2
    cat "$scratch/boot/console.log" >&2 || true
    die "restart on upgrade: the check in the booted root failed (boot-root.sh status $boot_status)"
  fi
else
  # No binfmt_misc here: neither mmdebstrap's own emulation nor a chroot can run the root's
  # binaries, and a foreign root's maintainer scripts cannot run. So the root is only unpacked
  # (extract: the packages and, resolved by apt, their Depends; Mesa's drivers added, since
  # extract installs no Recommends) and esframe runs under qemu-user with the root as its prefix
  # (-L: absolute paths, the loader's and the libraries', are looked up there first).
  arm_root=$scratch/root-$arch
  say "mmdebstrap --variant=extract: a Debian 12 $arch root with the packages and their Depends"
  includes=(--include=libgl1-mesa-dri)
  for deb in "${packages[@]}"; do includes+=("--include=$deb"); done  # a path: one an option
  # apt hands the packages' paths to the unpacking as they are: the same paths inside the root
  # (copies: the file-mirror-automount hook's bind mounts outlive an extract run).
  # Without bookworm-security: with armhf its index fails apt's size check here (cross-setup).
  $SUDO unshare --mount --propagation private \
    mmdebstrap --quiet --mode=root --variant=extract --architectures="$arch" "${includes[@]}" \
    --setup-hook="mkdir -p \"\$1$debs\"" --setup-hook="copy-in ${packages[*]} $debs" \
    bookworm "$arm_root" "${mirrors[@]:0:2}"
  # qemu-arm shows the PC's x86 /proc/cpuinfo and llvmpipe then emits bad ARM code; -L looks in
  # the root first (toolchain/cross-setup does the same for its sysroot).
  if [ "$arch" = armhf ]; then
    $SUDO mkdir -p "$arm_root/proc"
    $SUDO cp toolchain/cpuinfo-cortex-a72-armhf "$arm_root/proc/cpuinfo"
  fi
  # qemu's -L falls back to the PC's own files where the root lacks one, and this PC has arm64
  # libraries (multiarch, for the cross build): every library the packages' programs and
  # libraries need (their modules' aside: Recommends) must be in the root itself.
  say "every NEEDED library of the packages' files is in the root"
  missing=0
  for elf in "$arm_root"/usr/bin/esframe "$arm_root"/usr/lib/*/libesframe.so.* \
    "$arm_root"/usr/lib/*/gstreamer-1.0/libgstesframe.so; do
    for needed in $(readelf -d "$elf" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
      if ! compgen -G "$arm_root/usr/lib/*/$needed" >/dev/null &&
        ! compgen -G "$arm_root/usr/lib/$needed" >/dev/null &&
        ! compgen -G "$arm_root/lib/*/$needed" >/dev/null; then
        echo "check-debs: ${elf#"$arm_root"} needs $needed, not in the root" >&2
        missing=1
      fi
    done
  done
  [ $missing = 0 ] || die "libraries missing from the $arch root (above): a Depends is missing"
  case $arch in arm64) qemu=qemu-aarch64-static ;; armhf) qemu=qemu-arm-static ;; esac
  in_root() { timeout -s KILL 300 "$qemu" -L "$arm_root" "$arm_root$1" "${@:2}"; }
  export MESA_SHADER_CACHE_DIR=$scratch/mesa-cache XDG_CACHE_HOME=$scratch/cache
  say "$qemu: esframe info"
  in_root /usr/bin/esframe info
  say "$qemu: esframe run --frames 3 --backend cpu, against --backend reference"
  for backend in cpu reference; do
    in_root /usr/bin/esframe run --frames 3 --size 257x3 --backend "$backend" \
      --histogram bins=256,channels=rgbl >"$scratch/run-$backend.jsonl"
  done
  /usr/bin/python3 tests/package/same_histograms.py "$scratch/run-cpu.jsonl" \
    "$scratch/run-reference.jsonl"
fi
say "passed"
