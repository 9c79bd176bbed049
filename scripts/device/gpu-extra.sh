#!/bin/sh
# scripts/device/gpu-extra.sh PACKDIR: layout experiments at N=10080 and on
# the CPU; stencils at 1024x1024x80 and in float. Outputs in $OUT.
set -u
P=${1:?usage: gpu-extra.sh PACKDIR}
OUT=${OUT:-$PWD/device-out}
W=$(mktemp -d)
export LD_LIBRARY_PATH="$PWD/$P:${LD_LIBRARY_PATH:-}" OMP_NUM_THREADS=16
timeout 200 "$P/tsr-layoutbench" --size 10080 --runs 5 --variant 'cuda/matmul/*=R,cuda/matmul/RRxRC=*,cuda/cublas' -q \
  --csv "$W/layout-gpu-10080.csv" > "$W/layout-gpu-10080.log" 2>&1; echo "layout 10080: exit $?"
timeout 120 "$P/tsr-layoutbench" --size 1008 --variant 'cpu/matmul/*' -q --csv "$W/layout-cpu-1008.csv" > "$W/layout-cpu-1008.log" 2>&1
echo "layout cpu 1008: exit $?"
for st in laplap hdiff fastwaves; do
  timeout 100 "$P/tsr-stencil" $st --size 1024x1024x80 --precision double,float --variant 'cuda/regular/naive,cuda/regular/idxvar,cuda/unstr/idxvar,cuda/unstr/naive' \
    --threads 64x4x1,32x8x1,32x1x8,256x1x1 --order zcurve --runs 20 -q --csv "$W/$st-1024.csv" > "$W/$st-1024.log" 2>&1; echo "$st 1024: exit $?"
done
tar czf "$OUT/extra.tar.gz" -C "$W" .
