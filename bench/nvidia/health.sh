#!/usr/bin/env bash
# On the device (bash .devrun/health.sh after bundle.sh): `esframe run --health` on the GPU (EGL
# device platform) and the CPU executor against ffmpeg's figures and events, from the clips and
# ffmpeg output bundle.sh recorded on the development machine (the device has no ffmpeg):
# tests/apps/esframe/test_run_health.cpp itself, pointed at the recording.
set -uo pipefail
# shellcheck source=SCRIPTDIR/device_env.sh
. "$(dirname "$0")/device_env.sh"
export XDG_CACHE_HOME=/tmp/esf-cache
# The test starts esframe by path: a wrapper that starts it through the bundled loader.
cat >/tmp/esframe-wrapper <<WRAP
#!/bin/sh
exec "$PWD/.devrun/lib/ld-linux-x86-64.so.2" --library-path "$libs" "$PWD/.devrun/esframe" "\$@"
WRAP
chmod +x /tmp/esframe-wrapper
rm -rf /tmp/health-oracle && cp -r .devrun/health /tmp/health-oracle
ESFRAME_BIN=/tmp/esframe-wrapper ESFRAME_HEALTH_ORACLE=/tmp/health-oracle \
  ESFRAME_HEALTH_BACKENDS=gles,cpu \
  "$PWD/.devrun/lib/ld-linux-x86-64.so.2" --library-path "$libs" .devrun/test_run_health \
  --gtest_filter='Ranges/*'
status=$?
# What --health adds to a frame's GPU time (timer queries), the same run alternating with and
# without it: 1080p and 4K from the pattern source in memory (bench/health_cost.py). Where
# .devrun/before/ holds an earlier esframe and libesframe (copied in by hand after bundle.sh),
# each row runs for it too, on the same warm machine: an A/B of a change.
variants=current
[ -x .devrun/before/esframe ] && variants="before current"
for variant in $variants; do
  if [ $variant = before ]; then
    esframe_cmd="$PWD/.devrun/lib/ld-linux-x86-64.so.2 --library-path $PWD/.devrun/before:$libs $PWD/.devrun/before/esframe"
  else
    esframe_cmd="$PWD/.devrun/lib/ld-linux-x86-64.so.2 --library-path $libs $PWD/.devrun/esframe"
  fi
  for size in 1920x1080 3840x2160; do
    # HEALTH_KEYS: the --health keys of each row ("plain": none), HEALTH_REPEAT: runs a variant.
    for keys in ${HEALTH_KEYS:-plain grid=8x6 grid=16x16,roi=100,100,400,300,0,0,64,64}; do
      [ "$keys" = plain ] && keys=
      echo "== $variant"
      python3 .devrun/health_cost.py --esframe "$esframe_cmd" --backend gles --size "$size" \
        --frames 110 --repeat "${HEALTH_REPEAT:-5}" --health-options "$keys"
    done
  done
done
exit $status
