#!/bin/sh
# scripts/peers/build-lulesh-cuda.sh SRC_GIT_DIR OUT_DIR
#
# Builds LLNL's official CUDA port of LULESH 2.0 (LLNL/LULESH, branch 2.0.2-dev, directory cuda/)
# for one GPU architecture, so that scripts/bench/lulesh.sh can run it beside tsr-lulesh in the
# same GPU-machine call (PEERDIR=OUT_DIR). Nothing of it is kept in this repository: the script
# exports cuda/src from the given git repository (a mirror, bare or not) into a temporary
# directory OUTSIDE this repository, compiles it as its Makefile's release target does (nvcc -O3
# -DNDEBUG, the four translation units) but without MPI (one GPU: USE_MPI left undefined, as the
# port's serial build) and for ARCH, and copies only the binary (and a build note) to OUT_DIR as
# lulesh_llnl_cuda. No source edits: the port builds unchanged with CUDA 12 and 13.
#
# The port's command line is positional: `lulesh_llnl_cuda -s N -i ITERS` (its argv[4] is the
# cycle limit); it prints LULESH's "Run completed" block (Final Origin Energy with 6 digits),
# Elapsed time, Grind time and FOM, and writes xyz.asc (every node's coordinates) into the
# current directory after the timed loop: run it in a scratch directory.
#
# Needs: git, nvcc (NVCC=, ARCH=sm_90, REV=2.0.2-dev override). The binary links the CUDA
# runtime statically (nvcc's default), so the GPU machine needs glibc, libstdc++ and the driver.
#
# Usage: scripts/peers/build-lulesh-cuda.sh /work/.mirror/LLNL+LULESH/repo /work/peers/bin
set -eu

usage() { echo "usage: $0 SRC_GIT_DIR OUT_DIR   (env: NVCC, ARCH=sm_90, REV=2.0.2-dev)" >&2; exit 2; }
[ $# -eq 2 ] || usage
SRC=$1
OUT_DIR=$2
ARCH=${ARCH:-sm_90}
REV=${REV:-2.0.2-dev}
if [ -z "${NVCC:-}" ]; then
  if command -v nvcc >/dev/null 2>&1; then NVCC=nvcc
  elif [ -x /usr/local/cuda/bin/nvcc ]; then NVCC=/usr/local/cuda/bin/nvcc
  else echo "$0: nvcc not found (set NVCC=/path/to/nvcc)" >&2; exit 1; fi
fi
[ -d "$SRC" ] || { echo "$0: $SRC: no such git directory" >&2; exit 1; }
[ -d "$SRC/.git" ] && SRC="$SRC/.git"
G="git --git-dir=$SRC"
COMMIT=$($G rev-parse --verify "$REV^{commit}" 2>/dev/null) ||
  COMMIT=$($G rev-parse --verify "origin/$REV^{commit}") ||
  { echo "$0: $SRC has no revision $REV" >&2; exit 1; }

W=$(mktemp -d "${TMPDIR:-/tmp}/lulesh-cuda.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
$G archive "$COMMIT" cuda/src | tar -x -C "$W"
cd "$W/cuda/src"
for f in allocator.cu lulesh.cu lulesh-comms.cu lulesh-comms-gpu.cu; do
  [ -f "$f" ] || { echo "$0: $REV has no cuda/src/$f" >&2; exit 1; }
done
FLAGS="-O3 -DNDEBUG -arch=$ARCH"
echo "$NVCC $FLAGS -I. allocator.cu lulesh.cu lulesh-comms.cu lulesh-comms-gpu.cu -o lulesh"
# the port's sources trigger many compiler warnings (unused variables, deprecated casts): kept out
$NVCC $FLAGS -I. allocator.cu lulesh.cu lulesh-comms.cu lulesh-comms-gpu.cu -o lulesh 2>build.log ||
  { cat build.log >&2; exit 1; }
mkdir -p "$OUT_DIR"
cp lulesh "$OUT_DIR/lulesh_llnl_cuda"
{
  echo "LLNL/LULESH $REV ($COMMIT), cuda/src, unmodified"
  echo "built $(date -u +%Y-%m-%dT%H:%MZ) with: $NVCC $FLAGS (no MPI)"
  "$NVCC" --version | tail -n 2
} > "$OUT_DIR/lulesh_llnl_cuda.build.txt"
echo "$OUT_DIR/lulesh_llnl_cuda"
ldd "$OUT_DIR/lulesh_llnl_cuda" || true
