#!/usr/bin/env bash
# The CPU executor's health cost on the device's Xeon host, 7c25fb0 (base) against this tree
# (esframe), 2 threads; then the Sobel rows and Y counting microbenchmarks on one core.
cd "$(dirname "$0")/.."
libs=$PWD/.devrun/lib:/usr/local/nvidia/lib64:/usr/local/nvidia/lib:/usr/lib/x86_64-linux-gnu
L="$PWD/.devrun/lib/ld-linux-x86-64.so.2 --library-path $libs"
lscpu | grep -E 'Model name|^CPU\(s\)|L2|L3'
for v in base esframe; do
  printf '#!/bin/sh\nexec %s %s "$@" --threads 2\n' "$L" "$PWD/.devrun/$v" > /tmp/w-$v
  printf '#!/bin/sh\npython3 %s 170 | %s %s "$@" --threads 2\n' "$PWD/.devrun/gen.py" "$L" "$PWD/.devrun/$v" > /tmp/wc-$v
  chmod +x /tmp/w-$v /tmp/wc-$v
done
echo "== RGBA pattern"; python3 .devrun/ab2.py 5 /tmp/w-base /tmp/w-esframe -- --source pattern
echo "== NV12 pattern"; python3 .devrun/ab2.py 5 /tmp/w-base /tmp/w-esframe -- --source pattern --format NV12
echo "== camera-like clip, two frames in turn, on stdin"; python3 .devrun/ab2.py 5 /tmp/wc-base /tmp/wc-esframe -- --source -
echo "== sobel rows, one core (doubles, then table)"
for i in 1 2 3; do Y4M=.devrun/camera2.y4m $L .devrun/sobel_dev 100 | tail -1; TABLE=1 Y4M=.devrun/camera2.y4m $L .devrun/sobel_dev 100 | tail -1; done
echo "== HistogramCounter::countLuma against the plain loop, one core"
(cd .devrun && for i in 1 2 3; do $L ./hc_bench camera2.y4m; done)
