#!/usr/bin/env bash
# The compile check can fail: `esframe programs --shader FILE` on a board's compiler reports a
# program that compiler cannot take well, with exit 1 and the compiler's reason.
#   check_fails.sh BUILD_DIR TARGET SHADER EXPECTED_TEXT
# (Mesa 25.0's v3d cannot compile tests/boards/shaders/register_storm.comp at all and then
# crashes in its shader disk cache: the v3d case runs on bookworm's 22.3.6, whose compiler
# takes it with its fallback scheduler and spills.)
set -uo pipefail
build=$1 target=$2 shader=$3 expected=$4
here="$(cd "$(dirname "$0")" && pwd)"
out=$(mktemp)
"$here/../../toolchain/board-compilers" --env "$target" -- "$build/esframe" --egl gbm \
  --drm-device /dev/dri/renderD128 programs --shader "$shader" >"$out" 2>&1
status=$?
grep -v 'GET_PARAM' "$out"
if [ "$status" -ne 1 ]; then
  echo "check_fails: $target $(basename "$shader"): exit $status, expected 1" >&2
  exit 1
fi
if ! grep -q -- "$expected" "$out"; then
  echo "check_fails: $target $(basename "$shader"): no '$expected' in the report" >&2
  exit 1
fi
rm -f "$out"
echo "check_fails: $target $(basename "$shader"): reported as failed, as expected"
