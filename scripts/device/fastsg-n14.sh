#!/bin/sh
# scripts/device/fastsg-n14.sh PACKDIR: 64-bit positions on the GPU (issue 6): D = 10, n = 14
# (5,750,358,017 points > 2^31; 21.4 GiB in float: the app keeps three host copies, so double,
# 42.8 GiB each, does not fit the machine's 128 GB) hierarchized by cuda/hier/ichg1, verified bit
# for bit against cpu/hier/ichg1 over every position, and evaluated by cuda/eval/walk at 10^4
# random points (verified against cpu/eval/plain at sampled points) and three fixed points.
# Writes $OUT/n14.*.
set -u
P=${1:?usage: fastsg-n14.sh PACKDIR}
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$PWD/$P:${LD_LIBRARY_PATH:-}" OMP_NUM_THREADS=16
free -g > "$OUT/n14.mem" 2>&1
t0=$(date +%s)
timeout 400 "$P/tsr-fastsg" --dim 10 --level 14 --mode both --variant cuda/hier/ichg1,cuda/eval/walk \
  --precision float --points 10000 --runs 1 --warmup 0 \
  --eval-point 0.52,0.73,0.52,0.73,0.52,0.73,0.52,0.73,0.52,0.73 \
  --eval-point 0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5 \
  --eval-point 1,0.99,0.01,0.25,0.75,0.125,0.3,0.6,0.9,0 \
  --csv "$OUT/n14.csv" > "$OUT/n14.log" 2>&1
echo "n=14 float: exit $?, $(($(date +%s) - t0)) s"
tail -20 "$OUT/n14.log"
