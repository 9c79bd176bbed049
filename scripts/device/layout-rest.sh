#!/bin/sh
# scripts/device/layout-rest.sh PACKDIR: issue 5's remaining measurements on
# the GPU machine: the transform payoff over N (GPU and CPU, the seed's
# Figure 3) and the constant-extent stencil builds (gcc, clang; Figures 4-5)
# on the host's cores; then fastwaves at 1024x1024x80. Outputs in $OUT.
set -u
P=${1:?usage: layout-rest.sh PACKDIR}
OUT=${OUT:-$PWD/device-out}
W=$(mktemp -d)
export LD_LIBRARY_PATH="$PWD/$P:${LD_LIBRARY_PATH:-}" OMP_NUM_THREADS=16
lscpu > "$W/lscpu.txt" 2>&1
nvidia-smi > "$W/nvidia-smi.txt" 2>&1
timeout 240 "$P/tsr-layoutbench" --size 256,512,1008,2016,4032 --runs 10 \
  --variant 'cuda/matmul/*=R,cuda/matmul/RRxRC=RR,cuda/matmul/RCxRC=R,cuda/transform/*,cuda/cublas' -q \
  --csv "$W/layout-gpu-payoff.csv" > "$W/layout-gpu-payoff.log" 2>&1; echo "gpu payoff: exit $?"
timeout 150 "$P/tsr-layoutbench" --size 256,512,1008 \
  --variant 'cpu/matmul/*=R,cpu/matmul/RRxRC=RR,cpu/transform/*' -q \
  --csv "$W/layout-cpu-payoff.csv" > "$W/layout-cpu-payoff.log" 2>&1; echo "cpu payoff: exit $?"
timeout 300 "$P/tsr-layoutbench" --variant 'cpu/stencil/*' --iterations 5 --stencil-runs 3 -q \
  --csv "$W/layout-stencil.csv" > "$W/layout-stencil.log" 2>&1; echo "stencil: exit $?"
timeout 150 "$P/tsr-stencil" fastwaves --size 1024x1024x80 --precision double,float \
  --variant 'cuda/regular/idxvar,cuda/unstr/kloop,cuda/unstr/idxvar' --threads 32x1x8,256x1x1 \
  --order zcurve --compress yes --runs 20 -q --csv "$W/fastwaves-1024.csv" > "$W/fastwaves-1024.log" 2>&1
echo "fastwaves 1024: exit $?"
tar czf "$OUT/layout-rest.tar.gz" -C "$W" .
