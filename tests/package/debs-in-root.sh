#!/bin/bash
# Runs inside a clean Debian 12 minbase root (tests/package/check-debs.sh puts it there with the
# packages): installs esframe's .debs with apt, their dependencies from the archive, and checks
# them as a user would, then upgrades, purges and checks that nothing of esframe is left.
#   debs-in-root.sh DIR   DIR: old/ and new/ (the packages, and the same under a higher version),
#                         examples/, luma_reference.py, same_histograms.py
set -euo pipefail
dir=$1
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8
t0=$(date +%s)
say() { printf 'debs-in-root: [%4d s] %s\n' "$(($(date +%s) - t0))" "$*"; }
die() {
  echo "debs-in-root: FAIL: $*" >&2
  exit 1
}
packages=(esframe libesframe0.9 libesframe-dev gstreamer1.0-esframe python3-esframe)

# The checks' own tools come with the root (check-debs.sh's mmdebstrap --include), before the
# snapshot below: they stay, esframe's packages and what they pulled in go.
tools=(g++ cmake make pkgconf python3 systemd gstreamer1.0-tools gstreamer1.0-plugins-base)
dpkg-query -W "${tools[@]}" >/dev/null || die "the root lacks some of ${tools[*]}"
ls /var/lib/apt/lists/*_Packages >/dev/null 2>&1 || apt-get update -qq
files() {
  find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /run -o -path /tmp \
    -o -path /root -o -path /var/lib/dpkg -o -path /var/lib/apt -o -path /var/cache \
    -o -path /var/log -o -path /var/lib/systemd \) -prune -o -print | sort
}
files >/tmp/files-before

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
chmod -R a+rX "$dir"

say "apt-get install --no-install-recommends: the CPU executor runs; mqtt:// is one line, exit 1"
apt-get install -y -qq --no-install-recommends "$dir"/old/*.deb >/dev/null
# (Mesa's drivers are here already: gstreamer1.0-plugins-base, a tool of the checks, pulls them.)
! installed libmosquitto1 || die "libmosquitto1 came without Recommends: it is a dependency"
esframe run --frames 3 --size 257x3 --backend cpu >/tmp/run-bare.jsonl
[ "$(wc -l </tmp/run-bare.jsonl)" = 3 ] || die "esframe run without the Recommends: not 3 frames"
status=0
esframe run --frames 1 --size 16x16 --backend cpu --output mqtt://127.0.0.1:1/esframe-debs \
  >/dev/null 2>/tmp/mqtt-bare.err || status=$?
cat /tmp/mqtt-bare.err
[ $status = 1 ] && [ "$(wc -l </tmp/mqtt-bare.err)" = 1 ] &&
  grep -q 'cannot load .*esframe-0.9/libesframe-mqtt.so: libmosquitto' /tmp/mqtt-bare.err ||
  die "mqtt:// without libmosquitto1: exit $status, not exit 1 and one line naming the module"
apt-get purge -y -qq "${packages[@]}" >/dev/null
apt-get autoremove --purge -y -qq >/dev/null

say "apt-get install ${packages[*]} (recommends too: Mesa, libmosquitto1; libcamera is a suggestion)"
# Recommends as apt installs them on a board (mmdebstrap's root turns them off).
apt-get install -y -qq -o APT::Install-Recommends=true "$dir"/old/*.deb >/dev/null
dpkg-query -W "${packages[@]}"
for recommended in libgl1-mesa-dri libmosquitto1; do
  installed "$recommended" || die "$recommended (libesframe0.9's Recommends) not installed"
done
if dpkg-query -W -f='${Status}' 'libcamera0*' 2>/dev/null | grep -q 'install ok'; then
  die "libcamera was installed: it is only suggested"
fi

say "esframe info"
esframe info | tee /tmp/info.txt
# The libcamera module is found in the private folder beside libesframe.so.0.9 (/usr/lib or,
# merged /usr, /lib: wherever the loader found the library) and refused only for want of
# libcamera.
grep -Eq "cannot load (/usr)?/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -dumpmachine)/esframe-0.9/libesframe-libcamera.so: libcamera" /tmp/info.txt ||
  die "esframe info: the libcamera module's line is not the expected 'cannot load ... libcamera'"
esframe info --json >/tmp/info.json
python3 -c 'import json, sys; c = json.load(open(sys.argv[1])); print("info --json:", sorted(c))' \
  /tmp/info.json

say "esframe run --frames 3 --backend cpu, against --backend reference"
for backend in cpu reference; do
  esframe run --frames 3 --size 257x3 --backend "$backend" --histogram bins=256,channels=rgbl \
    >"/tmp/run-$backend.jsonl"
done
python3 "$dir/same_histograms.py" /tmp/run-cpu.jsonl /tmp/run-reference.jsonl
say "python3-esframe: import esframe, a frame's counts against numpy.bincount"
python3 -c 'import esframe, numpy as np
frame = np.random.default_rng(7).integers(0, 256, (31, 17), dtype=np.uint8)
result = esframe.Pipeline(backend="cpu", channels="l").process(frame, format="GREY")
assert result.hist[0].tolist() == np.bincount(frame.ravel(), minlength=256).tolist()
print("python3-esframe:", esframe.__version__, result.hist.shape)' || die "python3-esframe"
say "the MQTT module (libmosquitto1 installed): an unreachable broker is a warning, the run goes on"
esframe run --frames 1 --size 16x16 --backend cpu --output mqtt://127.0.0.1:1/esframe-debs \
  >/dev/null

say "gst-inspect-1.0 esframehistogram; a 3-buffer pipeline on the CPU executor"
gst-inspect-1.0 esframehistogram >/tmp/gst-inspect.txt || die "gst-inspect-1.0 esframehistogram"
grep -E '^  (Description|Version|Filename)' /tmp/gst-inspect.txt
gst-launch-1.0 -q videotestsrc num-buffers=3 ! video/x-raw,format=RGBA,width=64,height=48 \
  ! esframehistogram backend=cpu ! fakesink || die "gst-launch-1.0 ... esframehistogram ... failed"

say "the example against libesframe-dev: find_package(esframe) and pkg-config"
cp -r "$dir/examples" /tmp/examples
cmake -S /tmp/examples -B /tmp/examples/build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build /tmp/examples/build >/dev/null
# shellcheck disable=SC2046 # pkg-config's flags are words
g++ -std=c++20 -O2 -Wall -Wextra -Werror /tmp/examples/histogram.cpp \
  $(pkg-config --cflags --libs esframe) -o /tmp/histogram-pkgconfig
reference=$dir/luma_reference.py
python3 "$reference" write-ppm /tmp/still.ppm
python3 "$reference" image /tmp/still.ppm >/tmp/still.expected
esframe run --backend reference --frames 1 --histogram bins=256,channels=l |
  python3 "$reference" jsonl >/tmp/pattern.expected
for program in /tmp/examples/build/histogram /tmp/histogram-pkgconfig; do
  ESFRAME_BACKEND=cpu "$program" >/tmp/pattern.out
  ESFRAME_BACKEND=cpu "$program" /tmp/still.ppm >/tmp/still.out
  diff -u /tmp/pattern.expected /tmp/pattern.out || die "$program on the pattern: differs"
  diff -u /tmp/still.expected /tmp/still.out || die "$program on the still image: differs"
  echo "$program: pattern and still image match the references"
done

say "systemd-analyze verify esframe@.service"
mkdir -p /etc/esframe
printf '[run]\nframes = 2\nsize = 32x16\nbackend = cpu\n' >/etc/esframe/cam.conf
cp /etc/esframe/cam.conf /tmp/cam.conf.orig
# A template verifies through an instance: esframe@cam.service from the unit file.
ln -s /lib/systemd/system/esframe@.service /tmp/esframe@cam.service
systemd-analyze verify --man=no /tmp/esframe@cam.service  # no man-db in the root
[ "$(esframe --config /etc/esframe/cam.conf run | wc -l)" = 2 ] ||
  die "esframe --config /etc/esframe/cam.conf run (the unit's command) did not give 2 frames"

say "upgrade to the same packages under a higher version: the admin's /etc/esframe/cam.conf stays"
apt-get install -y -qq "$dir"/new/*.deb >/dev/null
dpkg-query -W "${packages[@]}"
new_version=$(dpkg-deb -f "$(ls "$dir"/new/esframe_*.deb)" Version)
[ "$(dpkg-query -W -f='${Version}' esframe)" = "$new_version" ] || die "esframe not upgraded"
cmp /etc/esframe/cam.conf /tmp/cam.conf.orig || die "the upgrade changed /etc/esframe/cam.conf"
esframe info >/dev/null

say "apt-get purge ${packages[*]}, autoremove: nothing of esframe left but the admin's file"
apt-get purge -y -qq "${packages[@]}" >/dev/null
apt-get autoremove --purge -y -qq >/dev/null
if dpkg -l | grep -i esframe; then die "packages of esframe still known to dpkg (above)"; fi
files >/tmp/files-after
diff /tmp/files-before /tmp/files-after >/tmp/files.diff || true
printf '> /etc/esframe\n> /etc/esframe/cam.conf\n' >/tmp/files.expected
if ! diff -u /tmp/files.expected <(grep '^[<>]' /tmp/files.diff); then
  die "after the purge the files differ from before the install other than by the admin's" \
    "/etc/esframe/cam.conf (above: + only after the purge, - missing)"
fi
rm -r /etc/esframe
say "passed"
