#!/usr/bin/env bash
# The CPU executor's health cost on the device's Xeon host: .devrun/base against .devrun/esframe,
# 2 threads. This folder's run: d3700be against b9fd4d2 (a stripe's health rows after its last
# row). MORE=1 adds YUYV, RGB24 and NV12 with --luma source after NV12
# (../zen5-2core-cpu-import-vectors: 002b8bb against 1b464af).
# .devrun/ab2.py is ../zen5-2core-cpu-health-fused-pairs/ab2.py, copied beside it by hand.
cd "$(dirname "$0")/.."
libs=$PWD/.devrun/lib:/usr/local/nvidia/lib64:/usr/local/nvidia/lib:/usr/lib/x86_64-linux-gnu
L="$PWD/.devrun/lib/ld-linux-x86-64.so.2 --library-path $libs"
lscpu | grep -E 'Model name|^CPU\(s\)|L2|L3'; cat /proc/loadavg
for v in base esframe; do
  printf '#!/bin/sh\nexec %s %s "$@" --threads 2\n' "$L" "$PWD/.devrun/$v" > /tmp/w-$v
  printf '#!/bin/sh\npython3 %s 170 | %s %s "$@" --threads 2\n' "$PWD/.devrun/gen.py" "$L" "$PWD/.devrun/$v" > /tmp/wc-$v
  chmod +x /tmp/w-$v /tmp/wc-$v
done
R=${ROUNDS:-5}
echo "== RGBA from memory (pattern:loop=8)"; python3 .devrun/ab2.py $R /tmp/w-base /tmp/w-esframe -- --source pattern:loop=8
echo "== NV12 from memory (pattern:loop=8)"; python3 .devrun/ab2.py $R /tmp/w-base /tmp/w-esframe -- --source pattern:loop=8 --format NV12
if [ -n "$MORE" ]; then
  echo "== YUYV from memory (pattern:loop=8)"; python3 .devrun/ab2.py $R /tmp/w-base /tmp/w-esframe -- --source pattern:loop=8 --format YUYV
  echo "== RGB24 from memory (pattern:loop=8)"; python3 .devrun/ab2.py $R /tmp/w-base /tmp/w-esframe -- --source pattern:loop=8 --format RGB24
  echo "== NV12 from memory, --luma source"; python3 .devrun/ab2.py $R /tmp/w-base /tmp/w-esframe -- --source pattern:loop=8 --format NV12 --luma source
fi
echo "== RGBA pattern drawn in the loop"; python3 .devrun/ab2.py $R /tmp/w-base /tmp/w-esframe -- --source pattern
echo "== camera-like clip, two frames in turn, on stdin"; python3 .devrun/ab2.py $R /tmp/wc-base /tmp/wc-esframe -- --source -
cat /proc/loadavg
