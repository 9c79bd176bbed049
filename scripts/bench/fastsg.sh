#!/bin/bash
# scripts/bench/fastsg.sh BINDIR: regular sparse grids without boundary, hat basis, f = prod
# 4x(1-x): hierarchization and evaluation by tsr-fastsg beside ORNL Tasmanian (its local
# polynomial grid, rule localp0, order 1, the same interpolant) through the driver
# scripts/peers/tasmanian_fastsg.cpp, built by scripts/peers/build-tasmanian.sh into PEERDIR.
# Tessera: hierarchization at D=10, n=11 (127.6M points, against its copy floor) and, beside
# Tasmanian, both operations at D=10, n=8 on the GPU and on the host's cores (10^6 random
# evaluation points on the GPU, 2x10^4 on the CPU). Both programs print the interpolant at the
# same fixed points; the table says whether they agree. Writes $OUT/fastsg.csv and
# $OUT/fastsg.md; see common.sh. About 2 minutes. Also the fastsg study's variants one by one.
. "$(dirname "$0")/common.sh"
bench_init fastsg 150 "$@"
X=$(bench_tool tsr-fastsg)
TAS=$PEER/tasmanian_fastsg
if [ "$SMOKE" = 1 ]; then
  D=3 NB=4 NH=5 GP=2000 CP=500 R=2
  GH=cpu/hier/ichg1 GE=cpu/eval/walk SH='cpu/hier/*' SE='cpu/eval/*' SP=500
  EP=(--eval-point 0.52,0.73,0.1 --eval-point 0.5,0.5,0.5)
else
  D=10 NB=8 NH=11 GP=1000000 CP=20000 R=3
  GH=cuda/hier/ichg1,cuda/hier/inv3 GE=cuda/eval/walk,cuda/eval/walk_s2w
  SH='cuda/hier/*' SE='cuda/eval/*' SP=1000000
  EP=(--eval-point 0.52,0.73,0.52,0.73,0.52,0.73,0.52,0.73,0.52,0.73
      --eval-point 0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,0.95
      --eval-point 0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5
      --eval-point 1,0.99,0.01,0.25,0.75,0.125,0.3,0.6,0.9,0)
fi
# the small check: D=2, n=3, u(0.52, 0.73) = 0.7696 in both programs
step tsr-d2n3 20 "$X" --dim 2 --level 3 --mode both --device cpu --points 1000 --runs 1 --warmup 0 \
  --eval-point 0.52,0.73
# hierarchization at the large size, unverified (the plain CPU reference alone takes a minute; the
# same kernels are verified at n = 8 below)
step tsr-hier-large 45 "$X" --dim $D --level $NH --mode hierarchize $DEV --variant $GH --runs $R \
  --no-verify --csv "$RAW/tsr-hier-large.csv"
step tsr-gpu 45 "$X" --dim $D --level $NB --mode both $DEV --variant $GH,$GE --points $GP --runs $R \
  "${EP[@]}" --csv "$RAW/tsr-gpu.csv"
step tsr-cpu 40 "$X" --dim $D --level $NB --mode both --device cpu \
  --variant cpu/hier/ichg1,cpu/eval/vec1,cpu/eval/walk --points $CP --runs $R --csv "$RAW/tsr-cpu.csv"

# the fastsg study's variants one by one (the plain version and each loop transformation):
# hierarchization at the large level (unverified, as above), evaluation at the small one
step study-hier 40 "$X" --dim $D --level $NH --mode hierarchize $DEV --variant "$SH" --runs $R \
  --no-verify --csv "$RAW/study-hier.csv"
step study-eval 45 "$X" --dim $D --level $NB --mode evaluate $DEV --variant "$SE" --points $SP \
  --runs $R --csv "$RAW/study-eval.csv"

if bench_peer "$TAS" "Tasmanian (tasmanian_fastsg)"; then
  step tas-d2n3 20 "$TAS" --dim 2 --level 3 --mode both --points 1000 --cpu-points 1000 \
    --dense-points 100 --runs 1 --hier-runs 1
  # CPU: grid construction, hierarchization x3, evaluation of 5000 points; GPU: hierarchization
  # once (about 2 s), then its sparse modes (a thread per point) and dense mode
  step tas 80 "$TAS" --dim $D --level $NB --mode both --points 20000 --cpu-points 5000 \
    --dense-points 2000 --runs 3 --hier-runs 3 --gpu-hier-runs 1 "${EP[@]}" \
    --gpu-modes cuda-sparse,cuda-sparse-f32,cuda-dense
fi
bench_table
