#!/usr/bin/env bash
# Runs on the NVIDIA device machine from the repository root, with .gl and .devrun carried
# (bench/README.md, "The NVIDIA run"): esframe selftest (full, then every histogram strategy as
# JSON) and toolchain/board-report, through the bundle's loader. Writes under $OUT.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
exec > >(tee "$OUT/selftest-log.txt") 2>&1
# shellcheck source=SCRIPTDIR/device_env.sh
. "$(dirname "$0")/device_env.sh"
# Wrappers that run the bundle's binaries through its loader, so board-report can call them.
bin=/tmp/esframe-bin
mkdir -p "$bin"
for b in esframe esframe-bench; do
  printf '#!/bin/sh\nexec "%s" --library-path "%s" "%s" "$@"\n' \
    "$PWD/.devrun/lib/ld-linux-x86-64.so.2" "$libs" "$PWD/.devrun/$b" >"$bin/$b"
  chmod +x "$bin/$b"
done
export XDG_CACHE_HOME=/tmp/esf-cache
nvidia-smi -L
echo "== esframe selftest"
time "$bin/esframe" --egl device selftest
echo "exit $?"
echo "== esframe selftest --all --json"
time "$bin/esframe" --egl device selftest --all --json >"$OUT/selftest-all.json"
echo "exit $?"
echo "== esframe selftest --quick (a second time: the program cache is warm)"
time "$bin/esframe" --egl device selftest --quick | tail -2
echo "== esframe info"
"$bin/esframe" --egl device info | grep -E "GL_RENDERER|GL_VERSION|selftest|backend auto"
echo "== toolchain/board-report"
if command -v python3 >/dev/null; then
  time bash toolchain/board-report --build-dir "$bin" --egl device "$OUT/board-report.json"
  echo "exit $?"
else
  echo "no python3 on this machine: no board report"
fi
