#!/usr/bin/env bash
# The installed package, as a user gets it: installs BUILD_DIR into a scratch prefix, checks what
# is there (public headers only, each compiling alone against that prefix), builds
# examples/histogram.cpp against it with find_package(esframe) and with pkg-config, runs both on
# the synthetic pattern and on a still image, and compares their output with independent
# expectations: for the image, luma counted by tests/package/luma_reference.py from the pixels;
# for the pattern, the installed `esframe run --backend reference` (the CPU references; the example
# runs the GPU stages). Any difference fails loudly.
#   tests/package/check-installed-example.sh [BUILD_DIR]    (default build/default)
set -euo pipefail
cd "$(dirname "$0")/../.."
build_dir=${1:-build/default}
reference=tests/package/luma_reference.py

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
prefix=$scratch/prefix
die() {
  echo "check-installed-example: FAIL: $*" >&2
  exit 1
}

cmake --install "$build_dir" --prefix "$prefix" >/dev/null
libesframe=$(find "$prefix" -name 'libesframe.so' -o -name 'libesframe.a' | head -n1)
[ -n "$libesframe" ] || die "no libesframe installed under $prefix"
libdir=$(dirname "$libesframe")
for file in "$libdir/cmake/esframe/esframeConfig.cmake" \
  "$libdir/cmake/esframe/esframeConfigVersion.cmake" "$libdir/pkgconfig/esframe.pc" \
  "$prefix/include/esframe/version.hpp" "$prefix/bin/esframe"; do
  [ -e "$file" ] || die "not installed: ${file#"$prefix"/}"
done

# Public headers only: include/ holds esframe/ and nothing else, and no internal header.
[ "$(ls "$prefix/include")" = esframe ] || die "include/ holds more than esframe/"
diff <(cd include && find esframe -name '*.hpp' | sort) \
  <(cd "$prefix/include" && find esframe -name '*.hpp' ! -path esframe/version.hpp | sort) ||
  die "installed headers differ from include/esframe/"

# Each public header alone, with only the prefix's include directory; and they include only the
# C++ standard library (plus POSIX unistd.h for UniqueFd) and each other.
while read -r header; do
  echo "#include \"$header\"" |
    c++ -std=c++20 -fsyntax-only -Wall -Wextra -Werror -I"$prefix/include" -x c++ - ||
    die "$header does not compile alone against the installed headers"
  if grep -E '^#include <' "$prefix/include/$header" | grep -vE '^#include <([a-z_]+|unistd\.h)>$'; then
    die "$header includes something outside the standard library"
  fi
done < <(cd "$prefix/include" && find esframe -name '*.hpp' | sort)

# The example, twice.
cmake -S examples -B "$scratch/with-cmake" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$scratch/with-cmake" >/dev/null
pkg_flags=$(PKG_CONFIG_PATH=$libdir/pkgconfig pkg-config --cflags --libs esframe)
# shellcheck disable=SC2086 # pkg-config's flags are words
c++ -std=c++20 -O2 -Wall -Wextra -Werror examples/histogram.cpp $pkg_flags \
  -Wl,-rpath,"$libdir" -o "$scratch/histogram-pkgconfig"
examples=("$scratch/with-cmake/histogram" "$scratch/histogram-pkgconfig")

# Each loads the installed library, not another one: the examples and the installed esframe, a
# client of the public API like them (its RPATH names the prefix's library directory).
if [ "${libesframe##*.}" = so ]; then
  for program in "${examples[@]}" "$prefix/bin/esframe"; do
    loaded=$(env -u LD_LIBRARY_PATH ldd "$program" | awk '/libesframe/ { print $3 }')
    [ "$(realpath "$loaded")" = "$(realpath "$libesframe")" ] ||
      die "$program loads libesframe from '$loaded', not $libesframe"
  done
fi

# The optional modules (libesframe-*.so) the build made lie in the installed libesframe's private
# folder (esframe-MAJOR.MINOR), and the installed esframe loads them from there (no environment),
# also without the -dev symlink libesframe.so (as a Debian system without libesframe-dev): the
# libcamera section is a list, not an error; an mqtt:// output without a broker is a warning and
# the run goes on.
[ "${libesframe##*.}" = so ] && mv "$libesframe" "$scratch/libesframe.so.dev-link"
for module in "$build_dir"/libesframe-*.so; do
  [ -e "$module" ] || continue
  name=${module##*/}
  modules=$(find "$libdir" -path "$libdir/esframe-*/$name")
  [ -n "$modules" ] || die "module $name not installed in a folder esframe-*/ beside $libesframe"
  case $name in
  libesframe-libcamera.so)
    env -u LD_LIBRARY_PATH -u ESFRAME_MODULE_DIR "$prefix/bin/esframe" info --json |
      python3 -c 'import json, sys; c = json.load(sys.stdin)["libcamera_cameras"]; sys.exit(not isinstance(c, list))' ||
      die "the installed esframe info: libcamera module not loaded"
    ;;
  libesframe-mqtt.so)
    env -u LD_LIBRARY_PATH -u ESFRAME_MODULE_DIR "$prefix/bin/esframe" run --backend cpu \
      --frames 1 --size 16x16 --output mqtt://127.0.0.1:1/esframe-package-check >/dev/null ||
      die "the installed esframe: mqtt module not loaded"
    ;;
  esac
  echo "check-installed-example: $name installed and loaded"
done
[ "${libesframe##*.}" = so ] && mv "$scratch/libesframe.so.dev-link" "$libesframe"

python3 "$reference" write-ppm "$scratch/still.ppm"
python3 "$reference" image "$scratch/still.ppm" >"$scratch/still.expected"
env -u LD_LIBRARY_PATH "$prefix/bin/esframe" run --backend reference --frames 1 \
  --histogram bins=256,channels=l | python3 "$reference" jsonl >"$scratch/pattern.expected"

# Both builds on the GPU (llvmpipe in CI), the CMake one on the CPU backend too.
for run in "${examples[0]} gles" "${examples[1]} gles" "${examples[0]} cpu"; do
  program=${run% *}
  backend=${run##* }
  for input in pattern still; do
    args=()
    [ "$input" = still ] && args=("$scratch/still.ppm")
    env -u LD_LIBRARY_PATH ESFRAME_BACKEND="$backend" "$program" "${args[@]}" \
      >"$scratch/$input.out" || die "$program ${args[*]} ($backend) exited with $?"
    diff -u "$scratch/$input.expected" "$scratch/$input.out" >&2 ||
      die "$program ($backend) on the $input: output differs from the reference (- expected, + got)"
  done
  echo "check-installed-example: ${program##*/} ($backend): pattern and still image match"
done

# The Python module, when the build made it: installed where Debian's python3 looks under this
# prefix, it imports with only PYTHONPATH set, loads the installed libesframe, and counts a frame.
if compgen -G "$build_dir/python/esframe*.so" >/dev/null; then
  module=$(find "$prefix" -name 'esframe.cpython-*.so' | head -n1)
  [ -n "$module" ] || die "the Python module is not installed under $prefix"
  [ -e "$(dirname "$module")/esframe.pyi" ] || die "esframe.pyi is not installed beside $module"
  env -u LD_LIBRARY_PATH PYTHONPATH="$(dirname "$module")" /usr/bin/python3 -c '
import sys, numpy, esframe
loaded = [l.split()[-1] for l in open("/proc/self/maps") if "libesframe.so" in l]
assert loaded and loaded[0].startswith(sys.argv[1]), f"libesframe from {loaded}, not {sys.argv[1]}"
hist = esframe.Pipeline(backend="cpu").process(numpy.zeros((1080, 1920, 4), numpy.uint8)).hist
assert hist.shape == (4, 256) and hist[:, 0].tolist() == [1920 * 1080] * 4, hist[:, 0]
' "$(realpath "$prefix")" || die "the installed Python module does not import and count"
  echo "check-installed-example: Python module ${module#"$prefix"/} imports and counts"
fi
