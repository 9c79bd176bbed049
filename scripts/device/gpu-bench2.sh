#!/bin/sh
# scripts/device/gpu-bench2.sh PACKDIR: airfoil (OP2's standard mesh, generated
# on the spot: tsr-mkairfoil's 400x600 mesh equals OP2's file) and the layout
# experiments on the GPU machine. CSVs and logs go to $OUT.
set -u
P=${1:?usage: gpu-bench2.sh PACKDIR}
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$PWD/$P:${LD_LIBRARY_PATH:-}" OMP_NUM_THREADS=16
"$P/tsr-mkairfoil" -q -o /tmp/new_grid.h5 || exit 1
for r in none gps partition; do
  timeout 150 "$P/tsr-airfoil" -i /tmp/new_grid.h5 --variant 'cuda/*' --reorder $r --iterations 1000 \
    --runs 1 --warmup 0 -q --csv "$OUT/airfoil-$r.csv" > "$OUT/airfoil-$r.log" 2>&1
  echo "airfoil --reorder $r: exit $?"; grep -E '^airfoil|FAIL' "$OUT/airfoil-$r.log" | cut -c1-150
done
timeout 200 "$P/tsr-layoutbench" --size 1008 --variant 'cuda/matmul/*,cuda/cublas' -q \
  --csv "$OUT/layout-gpu-1008.csv" > "$OUT/layout-gpu-1008.log" 2>&1
echo "layoutbench 1008: exit $?"; tail -4 "$OUT/layout-gpu-1008.log" | cut -c1-200
