#!/usr/bin/env bash
# Runs on the NVIDIA device machine from the repository root, with .gl and .devrun carried
# (bench/nvidia/README in bench/README.md). Writes the log, the bench report, its JSON and the
# sweep plots under $OUT. BENCH_EXTRA: more esframe-bench options, e.g. "--histogram-only
# --histogram-variants .devrun/variants.json" (bench/README.md).
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
exec > >(tee "$OUT/log.txt") 2>&1
# shellcheck source=SCRIPTDIR/device_env.sh
. "$(dirname "$0")/device_env.sh"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
nvidia-smi -L; nvidia-smi --query-gpu=driver_version,clocks.sm,clocks.mem --format=csv
# Debian's loader and glibc from the bundle: the device image's own glibc may be older.
run() { "$PWD/.devrun/lib/ld-linux-x86-64.so.2" --library-path "$libs" "$@"; }
export XDG_CACHE_HOME=/tmp/esf-cache
echo "== esframe info --egl device"
run .devrun/esframe --egl device info
if [ -z "${SKIP_TUNE:-}" ]; then  # the bench sweeps the same (and more); SKIP_TUNE=1 saves time
  echo "== esframe tune --egl device --size 3840x2160"
  run .devrun/esframe --egl device tune --size 3840x2160 && run .devrun/esframe tune --show
  run .devrun/esframe --egl device info | sed -n '/tuning/,$p'
fi
echo "== esframe-bench"
# $OUT takes 8 files: the plots and tables travel as one archive, the report also on its own.
run .devrun/esframe-bench --egl device --sizes "${BENCH_SIZES:-3840x2160,1920x1080}" \
  --sweep-sizes "${BENCH_SWEEP:-3840x2160,1920x1080}" --sweep-content "${BENCH_SWEEP_CONTENT:-natural}" \
  --contents "${BENCH_CONTENTS:-photo,random,flat,gradient}" \
  --photo .devrun/photo.jpg --out /tmp/bench --iterations "${BENCH_ITERATIONS:-50}" --warmup 10 \
  ${BENCH_EXTRA:-}
rc=$?
tar czf "$OUT/bench.tgz" -C /tmp bench
cp /tmp/bench/report.md "$OUT/report.md"
exit $rc
