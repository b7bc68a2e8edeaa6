#!/usr/bin/env bash
# Installs everything esframe needs to build and test on Debian 12 (bookworm).
# Idempotent: apt-get skips what is already installed.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo

packages=(
  build-essential cmake ninja-build pkg-config git clang-format
  ccache  # every build compiles through it (CMakeLists.txt); test-all.sh keeps its cache across clones
  libegl-dev libgles-dev libgbm-dev libdrm-dev libv4l-dev libstb-dev
  libcli11-dev nlohmann-json3-dev libgtest-dev libgmock-dev libbenchmark-dev
  libhwy-dev  # the CPU executor's vector kernels (Highway, runtime dispatch)
  libegl-mesa0 libgl1-mesa-dri libgbm1 mesa-utils-bin valgrind
  mesa-vulkan-drivers  # lavapipe: the Vulkan driver under zink, the GPU tests' second driver
  # --output mqtt:// (libmosquitto) and its test's broker and client; promtool (in prometheus:
  # bookworm has no smaller package with it) checks --output prom:.
  libmosquitto-dev mosquitto mosquitto-clients prometheus
  # The GStreamer plugin (apps/gstreamer) and its tests: videotestsrc, gst-inspect-1.0.
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-tools gstreamer1.0-plugins-base
  # --source rtsp://, http(s):// (libesframe-network.so): rtspsrc, souphttpsrc, jpegdec and
  # multipartdemux (good), y4mdec (bad), avdec_h264 (libav); its test's RTSP server
  # (gst-rtsp-server through python3-gi) and H.264 encoder (x264enc, ugly).
  gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-libav gstreamer1.0-plugins-ugly
  gir1.2-gst-rtsp-server-1.0 python3-gi
  ffmpeg  # tests/apps/esframe/test_run_stdin: Y4M piped into `esframe run --source -`
  libcamera-dev  # --source libcamera (ESFRAME_LIBCAMERA=AUTO builds it when found)
  libxxhash-dev  # the program binary cache's key hash and checksum (header-only use)
  abigail-tools  # toolchain/check-abi: libesframe.so against abi/libesframe.abi (abidw, abidiff)
  python3-jsonschema  # tests: esframe selftest --json against docs/selftest-report.schema.json
  # The Python module (apps/python, pybind11) for Debian's python3, and its pytest suite
  # (tests/python: numpy.bincount is the oracle).
  python3-dev python3-pybind11 pybind11-dev python3-numpy python3-pytest
  # --output http: the server (libmicrohttpd: connection limit, timeouts, basic auth, TLS) and
  # the JPEG of /frame.jpg and /stream.mjpg (libturbojpeg); its test decodes PNG and JPEG with
  # Pillow, fetches with curl and makes its TLS certificate with openssl.
  libmicrohttpd-dev libturbojpeg0-dev python3-pil curl openssl
)
# Optional groups: "bench" adds the OpenCV peer, "vm" the real-driver harness, "browser" the
# headless Chromium of the HTTP page's test, "debs" the Debian packages' build and install test,
# "simd" the aarch64 compiler of toolchain/check-simd-targets.
for extra in "$@"; do
  case "$extra" in
    bench) packages+=(libopencv-dev mate-backgrounds ffmpeg  # OpenCV peer; a 4K camera photo; ffmpeg signalstats peer (bench/cpu-vs-peers.sh)
                      python3-opencv python3-matplotlib) ;;  # bench/python_histogram.py's cv2 peer; the Python example's plot
    # The guest kernel's ABI is pinned in tests/vm/kernel-abi (headers build vkms out of tree).
    vm) packages+=(python3 qemu-system-x86 busybox-static kmod cpio xz-utils zstd jq v4l-utils linux-source-6.1
                   "linux-headers-$(cat "$(dirname "$0")/../tests/vm/kernel-abi")"
                   libcamera-ipa udev) ;;  # vm.libcamera: vimc's IPA module; udev in the guest
    fuzz) packages+=(clang libclang-rt-14-dev) ;;
    browser) packages+=(chromium) ;;  # http.page: the page at / of --output http in headless Chromium
    # Debian packages (toolchain/build-debs) and their install test (tests/package/check-debs.sh:
    # a clean root made by mmdebstrap).
    debs) packages+=(debhelper lintian mmdebstrap dh-python) ;;
    # toolchain/check-simd-targets: the SIMD kernels compiled for aarch64's NEON and SVE targets.
    simd) packages+=(g++-aarch64-linux-gnu) ;;
    *) echo "setup-debian.sh: unknown group '$extra' (bench, vm, fuzz, browser, debs, simd)" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
