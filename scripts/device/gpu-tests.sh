#!/bin/sh
# scripts/device/gpu-tests.sh PACKDIR: every CUDA test, and the MPI tests
# that add CUDA variants when a GPU is present, on the GPU machine (binaries
# packed by shared/device/pack). TAP logs go to $OUT.
set -u
P=${1:?usage: gpu-tests.sh PACKDIR}
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$PWD/$P:${LD_LIBRARY_PATH:-}"
export NCCL_NVLS_ENABLE=0 TSR_TEST_NP="1 2 4"
for t in check_copy check_halo_pack check_airfoil_cuda check_sparse_cuda check_stencil_cuda check_matmul \
         mpi/check_stencil_mpi mpi/check_airfoil_mpi mpi/check_halo_regular; do
  [ -x "$P/$(basename $t)" ] || { echo "$t: not packed"; continue; }
  case $t in mpi/*) prog="$P/mpi/$(basename $t)"; mkdir -p "$P/mpi"; cp "$P/$(basename $t)" "$prog" ;; *) prog="$P/$t" ;; esac
  start=$(date +%s)
  OMP_NUM_THREADS=4 sh tests/driver "$prog" > "$OUT/$(basename $t).tap" 2>&1
  echo "$(basename $t): $(grep -c '^ok' "$OUT/$(basename $t).tap") ok, $(grep -c '^not ok' "$OUT/$(basename $t).tap") not ok, $(($(date +%s) - start)) s $(grep '^1\.\.0' "$OUT/$(basename $t).tap")"
  grep '^not ok' "$OUT/$(basename $t).tap" | head -5
done
