#!/bin/sh
# scripts/device/gpu-multi.sh PACKDIR: one rank per GPU on a multi-GPU
# machine: halo exchange, stencil weak and strong scaling, airfoil at 1-4
# ranks. NVLink multicast stays off (NCCL_NVLS_ENABLE=0).
set -u
P=${1:?usage: gpu-multi.sh PACKDIR}
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$PWD/$P:${LD_LIBRARY_PATH:-}" NCCL_NVLS_ENABLE=0 OMP_NUM_THREADS=8
MPI="mpirun --allow-run-as-root --bind-to none"
nvidia-smi -L
ngpu=$(nvidia-smi -L | wc -l)
for np in 1 2 4; do [ $np -le $ngpu ] || continue
  $MPI -np $np "$P/tsr-halobench" --size 512x512x64 --halo 2 --device cuda --variant cuda/staged --runs 100 -q --csv "$OUT/halo$np.csv" 2>&1 | grep -E '^halo'
done
for np in 1 2 4; do [ $np -le $ngpu ] || continue
  # strong: 1024x1024x64 over np GPUs; weak: 512x512x64 per GPU
  $MPI -np $np "$P/tsr-stencil" laplap --size 1024x1024x64 --variant cuda/regular/naive --threads 64x4x1 --iterations 10 --runs 5 -q --csv "$OUT/strong$np.csv" > "$OUT/strong$np.log" 2>&1; echo "strong np=$np exit $?"
  w=$((512 * (np == 4 ? 2 : 1))); h=$((512 * (np >= 2 ? 2 : 1)))
  $MPI -np $np "$P/tsr-stencil" laplap --size ${h}x${w}x64 --variant cuda/regular/naive --threads 64x4x1 --iterations 10 --runs 5 -q --csv "$OUT/weak$np.csv" > "$OUT/weak$np.log" 2>&1; echo "weak np=$np (${h}x${w}x64) exit $?"
done
tar czf "$OUT/multi.tar.gz" -C "$OUT" $(cd "$OUT" && ls *.csv *.log 2>/dev/null)
