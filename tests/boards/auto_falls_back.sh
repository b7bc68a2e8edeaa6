#!/usr/bin/env bash
# A program the board's driver refuses: `esframe run --backend auto` says so in one line naming
# the program and the driver's words, runs the CPU executor and exits 0 with the executor's
# output; `--backend gles` fails with that line and exit 1. ESFRAME_TEST_GPU_FAULT=
# histogram-workgroup (ESFRAME_FAULT_INJECTION builds) builds the histogram program with a
# workgroup twice the driver's limit, which the driver's compiler refuses (Mali-T860's: "local_size_x
# exceeds MAX_COMPUTE_WORK_GROUP_SIZE (128)"). The fake device computes nothing, so the
# selftest that `auto` runs before trusting a GPU is off (--no-selftest): the refusal is what
# sends the run to the executor.
#   auto_falls_back.sh BUILD_DIR TARGET EXPECTED_DRIVER_TEXT
set -uo pipefail
build=$1 target=$2 expected=$3
here="$(cd "$(dirname "$0")" && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Its own caches: a refused program's run leaves nothing in the user's tuning cache.
export XDG_CACHE_HOME="$work/cache"
run=(run --source pattern --size 64x48 --frames 2)
failed=0
fail() {
  echo "auto_falls_back: $target: $*" >&2
  failed=1
}
# The figures without their timings, which differ from run to run.
figures() { sed 's/,"timing_ms":{[^}]*},"timing_clock":{[^}]*}//' "$1"; }
# What esframe says, without the fake device's own lines (drm-shim's ioctls; v3d's and
# panfrost's "export failed" for a sync file the fake device cannot give).
said() { grep -v -e 'GET_PARAM' -e '^export failed$' -e '^MESA: error: export failed$' "$1"; }

"$build/esframe" "${run[@]}" --backend cpu >"$work/cpu.jsonl" 2>"$work/cpu.err" ||
  fail "--backend cpu: exit $?"
for backend in auto gles; do
  ESFRAME_TEST_GPU_FAULT=histogram-workgroup "$here/../../toolchain/board-compilers" --env \
    "$target" -- "$build/esframe" --egl gbm --drm-device /dev/dri/renderD128 "${run[@]}" \
    --backend "$backend" --no-selftest >"$work/$backend.jsonl" 2>"$work/$backend.err"
  status=$?
  said "$work/$backend.err" >"$work/$backend.said"
  echo "--backend $backend: exit $status, said:"
  cat "$work/$backend.said"
  if [ "$(wc -l <"$work/$backend.said")" -ne 1 ]; then
    fail "--backend $backend: $(wc -l <"$work/$backend.said") lines on stderr, expected one"
  fi
  if ! grep -q "glsl_es/histogram.comp:[0-9]*: compile error: .*$expected" "$work/$backend.said"; then
    fail "--backend $backend: the line names not histogram.comp and '$expected'"
  fi
  if [ "$backend" = auto ]; then
    [ "$status" -eq 0 ] || fail "--backend auto: exit $status, expected 0"
    grep -q '^esframe: warning: backend auto: cpu, ' "$work/auto.said" ||
      fail "--backend auto: the line does not say it runs the CPU executor"
    [ -s "$work/auto.jsonl" ] || fail "--backend auto: no output"
    cmp -s <(figures "$work/auto.jsonl") <(figures "$work/cpu.jsonl") ||
      fail "--backend auto: its output differs from --backend cpu's"
  else
    [ "$status" -eq 1 ] || fail "--backend gles: exit $status, expected 1 (a runtime error)"
    [ -s "$work/gles.jsonl" ] && fail "--backend gles: it printed figures"
  fi
done
[ "$failed" -eq 0 ] && echo "auto_falls_back: $target: auto fell back to the executor, gles failed"
exit $failed
