#!/bin/sh
# scripts/device/gpu-round2.sh PACKDIR: after the stencil, fastsg and airfoil
# fixes: CUDA tests, then the benchmarks of BENCHMARKS.md. Outputs in $OUT.
set -u
P=${1:?usage: gpu-round2.sh PACKDIR}
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
sh scripts/device/gpu-tests.sh "$P"
export LD_LIBRARY_PATH="$PWD/$P:${LD_LIBRARY_PATH:-}" OMP_NUM_THREADS=16
S="$P/tsr-stencil"
for st in laplap hdiff; do
  timeout 100 $S $st --size 512x512x64 --variant 'cuda/regular/shared,cuda/regular/tile-kloop' \
    --threads 32x8x1,64x4x1,64x8x1,128x4x1,32x16x1 --kpt 8,16 --runs 20 -q --csv "$OUT/$st-tile.csv" > "$OUT/$st-tile.log" 2>&1
  echo "$st tile: exit $?"
done
timeout 150 $S fastwaves --size 512x512x64 --variant 'cuda/*' --threads 128x1x8,32x1x8,256x1x1,64x4x1 \
  --order zcurve --runs 20 -q --csv "$OUT/fastwaves.csv" > "$OUT/fastwaves.log" 2>&1; echo "fastwaves: exit $?"
( time timeout 120 "$P/tsr-fastsg" --dim 10 --level 11 --mode evaluate --points 1000000 --variant 'cuda/eval/*' --runs 3 \
  -q --csv "$OUT/fastsg-eval11.csv" ) > "$OUT/fastsg-eval11.log" 2>&1; echo "fastsg eval n=11: exit $?"
timeout 100 "$P/tsr-fastsg" --dim 10 --level 8 --mode evaluate --points 1000000 --variant 'cuda/eval/*' --runs 3 \
  -q --csv "$OUT/fastsg-eval8.csv" > "$OUT/fastsg-eval8.log" 2>&1; echo "fastsg eval n=8: exit $?"
"$P/tsr-mkairfoil" -q -o /tmp/new_grid.h5
timeout 100 "$P/tsr-airfoil" -i /tmp/new_grid.h5 --variant 'cuda/*' --iterations 1000 --runs 1 --warmup 0 -q \
  --csv "$OUT/airfoil-fused.csv" > "$OUT/airfoil-fused.log" 2>&1; echo "airfoil fused: exit $?"
grep -E '^airfoil' "$OUT/airfoil-fused.log" | cut -c1-120
for np in 2 4; do
  timeout 100 mpirun --allow-run-as-root --oversubscribe --bind-to none -np $np "$P/tsr-airfoil" -i /tmp/new_grid.h5 \
    --variant 'cuda/atomic/soa,cuda/gather/soa' --iterations 1000 --runs 1 --warmup 0 -q > "$OUT/airfoil-np$np.log" 2>&1
  echo "airfoil -np $np: exit $?"; grep -E 'PASS|FAIL' "$OUT/airfoil-np$np.log" | cut -c1-120 | head -4
done
