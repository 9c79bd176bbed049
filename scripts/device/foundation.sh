#!/bin/sh
# scripts/device/foundation.sh PACKDIR: the foundation's GPU checks and
# benchmarks, run from the repository root on the GPU machine (binaries and
# the libraries that machine lacks packed into PACKDIR by shared/device/pack).
# Logs and CSVs go to $OUT (or ./device-out).
set -u
P=${1:?usage: foundation.sh PACKDIR}
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$PWD/$P:${LD_LIBRARY_PATH:-}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export NCCL_NVLS_ENABLE=0
MPI="mpirun --allow-run-as-root --oversubscribe --bind-to none"
{ date -u; nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.mem,driver_version --format=csv; } | tee "$OUT/device.txt"

echo "== CUDA tests"
for t in check_copy check_halo_pack check_airfoil_cuda; do
  sh tests/driver "$P/$t" > "$OUT/$t.tap" 2>&1
  echo "$t: $(grep -c '^ok' "$OUT/$t.tap") ok, $(grep -c '^not ok' "$OUT/$t.tap") not ok $(grep '^1\.\.0' "$OUT/$t.tap")"
done
for np in 2 4; do
  $MPI -np $np "$P/check_halo_pack" > "$OUT/check_halo_pack.np$np.log" 2>&1
  echo "check_halo_pack -np $np: exit $?"
done

echo "== copy through layouts"
"$P/tsr-copybench" --runs 50 --threads 128x1x1,256x1x1,512x1x1,32x4x2,64x2x4 --csv "$OUT/copy512.csv" 2>&1 | tee "$OUT/copy512.log" | tail -14
"$P/tsr-copybench" --size 1024x1024x80 --runs 50 --threads 128x1x1,256x1x1 --csv "$OUT/copy1024.csv" 2>&1 | tail -7

echo "== halo exchange 512x512x64 double, width 2"
for np in 1 4; do export OMP_NUM_THREADS=$((16 / np))
  $MPI -np $np "$P/tsr-halobench" --size 512x512x64 --halo 2 --device cuda --variant all --runs 100 --csv "$OUT/halo.np$np.csv" 2>&1 | tail -6
done

echo "== airfoil, OP2's standard mesh, 1000 iterations"
"$P/tsr-airfoil" -i "$P/new_grid.h5" --variant 'cuda/*' --iterations 1000 --runs 1 --warmup 0 --csv "$OUT/airfoil.csv" 2>&1 | tee "$OUT/airfoil.log" | tail -12
