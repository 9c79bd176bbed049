#!/bin/sh
# scripts/peers/build-tasmanian.sh TASMANIAN_SRC OUT_DIR
#
# Builds ORNL Tasmanian (https://github.com/ORNL/TASMANIAN) OUTSIDE this repository as a static
# library with CUDA (sm_90), OpenMP and BLAS/LAPACK, then links our peer driver
# scripts/peers/tasmanian_fastsg.cpp against it into OUT_DIR/tasmanian_fastsg.
# Tasmanian is only read and built here; no Tasmanian code enters Tessera.
#
#   TASMANIAN_SRC  a checkout of Tasmanian (tested: v8.2-28-g64b3b02d, "Merge pull request #800")
#   OUT_DIR        build directory (cmake tree in OUT_DIR/cmake, driver in OUT_DIR/tasmanian_fastsg)
# Environment: CUDA_HOME (default /usr/local/cuda), CUDA_ARCH (default 90), JOBS (default 2),
#   CXX (default g++), TSG_BLAS=static|off (default static: Debian's reference libblas.a and
#   liblapack.a with a static libgfortran, so the binary needs no BLAS at run time).
#
# Run-time needs of the driver: glibc, libstdc++, libgomp, and the CUDA 13 shared libraries
# libcublas, libcublasLt, libcusparse, libcusolver (and what they pull in: libnvJitLink):
# CUDA 13 ships no static cuBLAS/cuSPARSE/cuSOLVER, so these stay shared; cudart is static.
#
# Local edits to Tasmanian: none were needed for CUDA 13.0 (see TSG_PATCHES below: the script
# applies every *.patch in scripts/peers/tasmanian-patches/ if that directory exists).
set -eu
SRC=${1:?usage: build-tasmanian.sh TASMANIAN_SRC OUT_DIR}
OUT=${2:?usage: build-tasmanian.sh TASMANIAN_SRC OUT_DIR}
HERE=$(cd "$(dirname "$0")" && pwd)
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
CUDA_ARCH=${CUDA_ARCH:-90}
JOBS=${JOBS:-2}
CXX=${CXX:-g++}
TSG_BLAS=${TSG_BLAS:-static}
SRC=$(cd "$SRC" && pwd)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# Optional local edits, applied once (recorded by the stamp file in OUT).
if [ -d "$HERE/tasmanian-patches" ]; then
  for p in "$HERE"/tasmanian-patches/*.patch; do
    [ -f "$p" ] || continue
    stamp="$OUT/.applied-$(basename "$p")"
    [ -f "$stamp" ] && continue
    (cd "$SRC" && patch -p1 --forward < "$p") && touch "$stamp"
  done
fi

LIBDIR=/usr/lib/x86_64-linux-gnu
GCCLIB=$(dirname "$($CXX -print-file-name=libgfortran.a)")
BLASOPT="-DTasmanian_ENABLE_BLAS=OFF"
BLASLINK=""
if [ "$TSG_BLAS" = static ]; then
  # Reference BLAS/LAPACK are Fortran: the static archives need libgfortran and libquadmath.
  BLASLINK="$LIBDIR/liblapack.a $LIBDIR/libblas.a $GCCLIB/libgfortran.a $GCCLIB/libquadmath.a -lm"
  BLASOPT="-DTasmanian_ENABLE_BLAS=ON
    -DBLAS_LIBRARIES=$LIBDIR/libblas.a;$GCCLIB/libgfortran.a;$GCCLIB/libquadmath.a;-lm
    -DLAPACK_LIBRARIES=$LIBDIR/liblapack.a;$LIBDIR/libblas.a;$GCCLIB/libgfortran.a;$GCCLIB/libquadmath.a;-lm"
fi

# shellcheck disable=SC2086
cmake -S "$SRC" -B "$OUT/cmake" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$CXX" \
  -DBUILD_SHARED_LIBS=OFF \
  -DTasmanian_ENABLE_OPENMP=ON \
  -DTasmanian_ENABLE_CUDA=ON \
  -DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc" \
  -DCMAKE_CUDA_ARCHITECTURES="$CUDA_ARCH" \
  -DCMAKE_CUDA_HOST_COMPILER="$CXX" \
  -DTasmanian_ENABLE_PYTHON=OFF -DTasmanian_ENABLE_FORTRAN=OFF -DTasmanian_ENABLE_MPI=OFF \
  -DTasmanian_ENABLE_MAGMA=OFF -DTasmanian_ENABLE_DOXYGEN=OFF -DTasmanian_ENABLE_SWIG=OFF \
  $BLASOPT

# Only the sparse-grid library: no tests, examples, DREAM or Addons.
cmake --build "$OUT/cmake" --target Tasmanian_libsparsegrid -j "$JOBS"

LIB=$(find "$OUT/cmake" -name libtasmaniansparsegrid.a | head -n 1)
[ -n "$LIB" ] || { echo "build-tasmanian.sh: libtasmaniansparsegrid.a not built in $OUT/cmake" >&2; exit 1; }
# The configured headers (TasmanianConfig.hpp) live in the build tree, the rest in the source.
CFGDIR=$(dirname "$(find "$OUT/cmake" -name TasmanianConfig.hpp | head -n 1)")

# shellcheck disable=SC2086,SC2016
$CXX -std=c++17 -O3 -fopenmp -Wall -Wextra \
  -I"$SRC/SparseGrids" -I"$CFGDIR" -I"$CUDA_HOME/include" \
  -o "$OUT/tasmanian_fastsg" "$HERE/tasmanian_fastsg.cpp" \
  "$LIB" \
  -L"$CUDA_HOME/lib64" -lcusolver -lcusparse -lcublas -lcublasLt -lcudart_static \
  $BLASLINK -ldl -lpthread -lrt \
  -Wl,-rpath,'$ORIGIN'
echo "build-tasmanian.sh: built $OUT/tasmanian_fastsg"
ldd "$OUT/tasmanian_fastsg" || true
