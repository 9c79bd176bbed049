#!/bin/sh
# faults_cuda.sh: a CUDA runtime call that fails on rank 1 of 2 (TSR_FAULT
# cuda:rank=1:after=N, lib/include/tessera/fault.h; every call checked with
# TSR_CALL_CUDA counts) ends every program with CUDA variants within seconds,
# with exit 1 and one agreed error line (no MPI_ABORT banner, no hang). The
# failing call moves over the first calls, then sparser ones (after=0, 2, 8,
# 34, 144, 610), until a run ends normally (exit 0). Needs a CUDA build and
# a GPU (both ranks share it); skipped otherwise. tsr-layoutbench runs on
# one rank: its call fails on rank 0 of 1.
B=${TSR_TOP_BUILDDIR:?set by the test harness}
MPIEXEC=${MPIEXEC:-mpiexec}
if ! "$B/apps/tsr-airfoil" --list-variants 2>/dev/null | grep -q '^cuda/.* yes ' ||
   ! { command -v nvidia-smi > /dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q GPU; }; then
  echo "1..0 # SKIP no GPU (or built without CUDA)"; exit 0
fi
command -v timeout >/dev/null 2>&1 || { echo "1..0 # SKIP timeout (Debian coreutils) not found"; exit 0; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/tsr-fault-cuda.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
. "${TSR_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/apps/fault_sweep.sh"
FAULT_POINTS="0 2 8 34 144 610"
"$B/apps/tsr-mkairfoil" --size 20x30 -o "$dir/m.h5" >/dev/null 2>&1 ||
  { echo "1..0 # SKIP cannot make the mesh"; exit 0; }

echo "1..11"
ST="$B/apps/tsr-stencil"
# a CUDA call that fails on one rank in the middle of a step: its neighbours' halo waits end
# (lib/src/error.c, failure notices) and every rank meets it at the run's agreement
sweep "tsr-stencil cuda/regular" 2 1 cuda 610 "$ST" laplap -q --size 32x32x8 --device cuda \
  --variant cuda/regular/idxvar
sweep "tsr-stencil cuda/unstr" 2 1 cuda 610 "$ST" laplap -q --size 32x32x8 --device cuda \
  --variant cuda/unstr/idxvar
sweep "tsr-airfoil cuda" 2 1 cuda 610 "$B/apps/tsr-airfoil" -q -i "$dir/m.h5" --iterations 4 \
  --device cuda --variant cuda/atomic/soa
# the stages as CUDA graphs (gather4/aos, IPC, update split): a failure in the loop while the
# other rank's graph waits at its gate on the device and its host in the handshake
sweep "tsr-airfoil cuda graphs" 2 1 cuda 610 "$B/apps/tsr-airfoil" -q -i "$dir/m.h5" \
  --iterations 300 --runs 1 --warmup 0 --device cuda --variant cuda/gather4/aos --halo ipc
SG="$B/apps/tsr-fastsg"
# tsr-fastsg --mode hierarchize: its first CUDA calls are the device memory query of the memory
# check (after=0, 2); a failure mid-run is agreed before each sweep's broadcasts or all-to-all
sweep "tsr-fastsg cuda hierarchize" 2 1 cuda 610 "$SG" -q --dim 3 --level 5 --mode hierarchize \
  --variant cuda/hier/inv4 --distribute no
sweep "tsr-fastsg cuda distributed" 2 1 cuda 610 "$SG" -q --dim 3 --level 5 --mode hierarchize \
  --variant cuda/hier/ichg1 --distribute yes
sweep "tsr-fastsg cuda evaluate" 2 1 cuda 610 "$SG" -q --dim 3 --level 5 --mode evaluate \
  --variant cuda/eval/plain
sweep "tsr-lulesh cuda" 2 1 cuda 610 "$B/apps/tsr-lulesh" -q -s 6 -i 5 --decomp metis \
  --variant cuda/atomic-fma
sweep "tsr-copybench cuda" 2 1 cuda 610 "$B/apps/tsr-copybench" -q -s 32x32x8 --device cuda \
  --variant cuda/rowmajor
sweep "tsr-halobench cuda" 2 1 cuda 610 "$B/apps/tsr-halobench" -q --size 32x32x8 --device cuda \
  --variant cuda/staged
sweep "tsr-layoutbench cuda" 1 0 cuda 610 "$B/apps/tsr-layoutbench" -q --size 64 \
  --stencil-size 32x32x64 --device cuda
