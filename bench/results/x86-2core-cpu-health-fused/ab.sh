#!/bin/bash
# usage: abc.sh SOURCE FRAMES ROUNDS
src=$1; frames=$2; rounds=$3
for r in $(seq $rounds); do
  for b in $BINS; do
    out=$(/usr/bin/python3 bench/health_cost.py --esframe /tmp/bins/esframe-$b --backend cpu --source $src --frames $frames ${FMT:+--format $FMT} --repeat 2 2>&1)
    wo=$(echo "$out" | grep "without" | awk '{print $5}'); wi=$(echo "$out" | grep "frame with " | awk '{print $5}'); ra=$(echo "$out" | grep ratio | awk '{print $2}')
    echo "$src $b round$r without=$wo with=$wi ratio=$ra"
  done
done
