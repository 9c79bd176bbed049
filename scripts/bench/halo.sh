#!/bin/bash
# scripts/bench/halo.sh BINDIR: the halo exchange of a 512x512x64 double grid, width 2, decomposed
# in X-Y (tsr-halobench), host-staged against CUDA IPC and NCCL (where built), at 1 and 2 ranks
# (one rank per GPU where there are two; else both ranks share the GPU, and the table says so).
# Writes $OUT/halo.csv and $OUT/halo.md; see common.sh. About 15 s.
. "$(dirname "$0")/common.sh"
bench_init halo 90 "$@"
HB=$(bench_tool tsr-halobench)
if [ "$SMOKE" = 1 ]; then
  A=($DEV --size 40x40x8 --variant cpu --runs 3)
else
  A=($DEV --size 512x512x64 --halo 2 --variant cuda/staged,cuda/ipc,cuda/nccl --runs 100)
fi
for np in 1 2; do
  OMP_NUM_THREADS=$(( OMP_NUM_THREADS / np > 0 ? OMP_NUM_THREADS / np : 1 )) \
    step "halo-np$np" 30 $MPIRUN -np $np "$HB" -q "${A[@]}" --csv "$RAW/halo-np$np.csv"
done
bench_table
