#!/bin/bash
# scripts/device/halo-ipc.sh [PACKDIR]: the CUDA IPC halo exchange (tsr_halo_set_ipc) on the GPU
# machine: check_halo_ipc at 1-4 ranks, tsr-halobench cuda/staged against cuda/ipc, and
# tsr-stencil with --halo staged / ipc (verified against the CPU reference), ranks sharing the
# GPUs present (one rank per GPU when there are as many). NCCL_NVLS_ENABLE=0. Writes
# $OUT/halo-ipc.tar.gz.
set -u
P=${1:-pack}
OUT=${OUT:-/tmp/out}
W=$(mktemp -d)
export LD_LIBRARY_PATH="$PWD/$P:${LD_LIBRARY_PATH:-}" NCCL_NVLS_ENABLE=0 OMP_NUM_THREADS=4
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPI="mpirun --allow-run-as-root --oversubscribe --bind-to none"
nvidia-smi -L | tee "$W/gpus.txt"
ngpu=$(nvidia-smi -L | wc -l)
NPS=${NPS:-"1 2 4"}
if [ -x "$P/check_halo_ipc" ]; then
  for np in 1 2 3 4; do
    timeout 120 $MPI -np $np "$P/check_halo_ipc" > "$W/check-np$np.log" 2>&1
    echo "check_halo_ipc -np $np: exit $? $(grep -E '%:' "$W/check-np$np.log" | head -1)"
  done
fi
for np in $NPS; do
  timeout 120 $MPI -np $np "$P/tsr-halobench" --size 512x512x64 --halo 2 --device cuda --variant cuda/staged,cuda/ipc \
    --runs 100 -q --csv "$W/halo$np.csv" > "$W/halo$np.log" 2>&1; echo "halobench -np $np: exit $?"
  awk -F, 'NR>1{print "  " $0}' "$W/halo$np.csv" | cut -c1-200
done
# stencil: strong 1024x1024x64 over np ranks, weak 512x512x64 per rank; regular jwindow
for np in $NPS; do
  for mode in staged ipc; do
    timeout 120 $MPI -np $np "$P/tsr-stencil" laplap --size 1024x1024x64 --variant cuda/regular/jwindow --jpt 4 \
      --threads 64x2x1 --iterations 10 --runs 10 --halo $mode -q --csv "$W/strong-$mode-$np.csv" > "$W/strong-$mode-$np.log" 2>&1
    echo "strong np=$np $mode: exit $? $(awk -F, 'NR>1{print $13 " us/step " $24}' "$W/strong-$mode-$np.csv")"
    w=$((512 * (np == 4 ? 2 : 1))); h=$((512 * (np >= 2 ? 2 : 1)))
    timeout 120 $MPI -np $np "$P/tsr-stencil" laplap --size ${h}x${w}x64 --variant cuda/regular/jwindow --jpt 4 \
      --threads 64x2x1 --iterations 10 --runs 10 --halo $mode -q --csv "$W/weak-$mode-$np.csv" > "$W/weak-$mode-$np.log" 2>&1
    echo "weak np=$np (${h}x${w}x64) $mode: exit $? $(awk -F, 'NR>1{print $13 " us/step " $24}' "$W/weak-$mode-$np.csv")"
  done
done
tar czf "$OUT/halo-ipc.tar.gz" -C "$W" .
