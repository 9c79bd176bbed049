#!/bin/bash
# scripts/bench/layout.sh BINDIR: the Noarr layout experiments of tsr-layoutbench
# (docs/LAYOUTBENCH.md): the tiled float matmul over layout combinations against R x R = R (GPU
# at N = 1008 and 10080, the host's cores at N = 1008; cuBLAS SGEMM as the reference rate), the
# layout transforms on the GPU (their cost against the copy floor), and the 7-point stencil with
# run-time against constant extents on one core (gcc and clang builds, compiled for the app's
# 32x32x2^20 grid; one sweep per run so that it fits the time; in SMOKE mode a small grid, where
# only the run-time builds run). Every row verified. Writes $OUT/layout.csv and $OUT/layout.md;
# see common.sh. About 80 s.
. "$(dirname "$0")/common.sh"
bench_init layout 220 "$@"
LB=$(bench_tool tsr-layoutbench)
SEL='RxR=R RxC=R CxR=R RCxR=R RxRC=R RCxRC=R RRxRC=R RRxRC=RR RRxR=R CxC=C'
sel() { local s out=; for s in $SEL; do out=$out${out:+,}$1/matmul/$s; done; echo "$out"; }
if [ "$SMOKE" = 1 ]; then
  step cpu-small 40 "$LB" -q --device cpu --size 64 --variant "$(sel cpu)" --cpu-runs 2 \
    --csv "$RAW/cpu-small.csv"
  step transform 20 "$LB" -q --device cpu --size 64 --variant 'cpu/transform/R-C,cpu/transform/C-R' \
    --runs 2 --csv "$RAW/transform.csv"
  step stencil 30 "$LB" -q --device cpu --variant 'cpu/stencil/*' --stencil-size 32x32x1024 \
    --iterations 2 --stencil-runs 1 --csv "$RAW/stencil.csv"
else
  step gpu-1008 25 "$LB" -q --device cuda --size 1008 --variant "$(sel cuda),cuda/cublas" --runs 20 \
    --csv "$RAW/gpu-1008.csv"
  step gpu-10080 30 "$LB" -q --device cuda --size 10080 --variant "$(sel cuda),cuda/cublas" --runs 5 \
    --max-seconds 1 --csv "$RAW/gpu-10080.csv"
  step cpu-1008 25 "$LB" -q --device cpu --size 1008 --variant "$(sel cpu)" --cpu-runs 3 \
    --csv "$RAW/cpu-1008.csv"
  step transform 15 "$LB" -q --device cuda --size 1008,4032 \
    --variant 'cuda/transform/R-C,cuda/transform/C-R,cuda/transform/R-RC,cuda/transform/RC-R' \
    --runs 20 --csv "$RAW/transform.csv"
  # the constant-extent builds are compiled for this grid (apps/layoutbench/layoutbench.h)
  step stencil 150 "$LB" -q --device cpu --variant 'cpu/stencil/*' --stencil-size 32x32x1048576 \
    --iterations 1 --stencil-runs 3 --csv "$RAW/stencil.csv"
fi
bench_table
