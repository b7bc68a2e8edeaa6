#!/usr/bin/env bash
# esframe's Debian packages as a user gets them:
#   tests/package/check-debs.sh [amd64|arm64]     (default amd64)
# amd64: builds the packages (toolchain/build-debs), runs lintian on them (errors and warnings
# fail), then makes a clean Debian 12 minbase root with mmdebstrap and there, with apt, installs
# them (dependencies from the archive), runs them, upgrades them and purges them
# (tests/package/debs-in-root.sh says what is checked).
# arm64: builds them cross, then unpacks them with their dependencies into an arm64 root
# (mmdebstrap --variant=extract: binfmt_misc is not mounted here, so no maintainer script or
# chroot can run the root's binaries) and runs esframe there under qemu-aarch64-static -L ROOT.
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
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

if [ "${ESFRAME_DEBS_BUILT:-0}" != 1 ]; then
  say "toolchain/build-debs $arch"
  bash toolchain/build-debs "$arch"
fi
version=$(dpkg-parsechangelog -S Version)
mapfile -t packages < <(ls "$debs"/*_"$version"_"$arch".deb | grep -v -- '-dbgsym_')
[ ${#packages[@]} = 4 ] || die "expected 4 packages in $debs for $version $arch, found ${#packages[@]}"
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
  cp tests/package/luma_reference.py tests/package/debs-in-root.sh "$stage/"
  say "mmdebstrap: a Debian 12 minbase root; in it tests/package/debs-in-root.sh"
  # The root is a temporary directory (target /dev/null: the null format), deleted at the end.
  mmdebstrap --quiet --mode=root --variant=minbase --architectures=amd64 \
    --customize-hook="copy-in $stage /tmp" \
    --customize-hook='chroot "$1" bash /tmp/esframe-debs/debs-in-root.sh /tmp/esframe-debs' \
    bookworm /dev/null "${mirrors[@]}"
else
  die "arch $arch: not yet"
fi
say "passed"
