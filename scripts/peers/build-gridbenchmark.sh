#!/bin/sh
# scripts/peers/build-gridbenchmark.sh SRC_GIT_DIR OUT_DIR
#
# Builds the ORIGINAL stencil benchmark (the `gridbenchmark` of andrej/stencil-performance, the
# program docs/STENCIL.md follows) for one GPU architecture, so that scripts/bench/stencil.sh
# can run it beside tsr-stencil in the same GPU-machine call (PEERDIR=OUT_DIR).
#
# The original has no licence: nothing of it is kept in this repository. This script exports
# the sources the build needs from the given git repository (a mirror, bare or not) into a
# temporary directory OUTSIDE this repository, applies two small local edits there (below),
# compiles them the way the original Makefile's `nodebug` target does (nvcc, the one translation
# unit main.cu, -O3 -DCUDA_PROFILER -DNDEBUG, Boost.Serialization for its grid cache) and copies
# only the binary (and a build note) to OUT_DIR.
#
# Local edits (each checked: the script stops if a pattern is not found exactly once):
#  1. grids/cuda-base.cu, CudaBaseGrid::prefetch(): CUDA 13 changed cudaMemPrefetchAsync's
#     third argument from an int device to a struct cudaMemLocation (and flags became an
#     explicit fourth argument). The call is rewritten, only when CUDART_VERSION >= 13000, to
#     pass {cudaMemLocationTypeHost} for cudaCpuDeviceId and {cudaMemLocationTypeDevice, device}
#     otherwise, flags 0, stream 0: the same prefetch as before.
#  2. benchmarks/fastwaves-unstr.cu, FastWavesUnstrBenchmark::setup(), array-of-structs branch:
#     the original calls populate_grids() before it stores the new AoS grid in this->inputs,
#     and populate_grids() writes through this->inputs, a null pointer then: every
#     fastwaves-unstr-aos-idxvar run crashes (segmentation fault). The two statements are
#     swapped (store the grid, then populate it). Nothing else in the AoS path changes.
# Nothing else is changed: kernels, launch shapes, timing (host clock around launch +
# cudaDeviceSynchronize, first run untimed), CLI and CSV output are the original's.
#
# Needs: git, nvcc (CUDA 12 or 13; NVCC=, ARCH= override), Boost.Serialization headers and the
# static library (Debian/Ubuntu: apt-get install libboost-serialization-dev). The binary links
# the CUDA runtime, Boost, libstdc++ and libgcc statically, so the GPU machine needs only glibc
# and the NVIDIA driver (the script prints `ldd` of the result).
#
# Usage: scripts/peers/build-gridbenchmark.sh /work/.mirror/andrej+stencil-performance/repo \
#          /work/ext/gridbench
set -eu

usage() { echo "usage: $0 SRC_GIT_DIR OUT_DIR   (env: NVCC, ARCH=sm_90, REV=HEAD)" >&2; exit 2; }
[ $# -eq 2 ] || usage
SRC=$1
OUT_DIR=$2
ARCH=${ARCH:-sm_90}
REV=${REV:-HEAD}
if [ -z "${NVCC:-}" ]; then
  if command -v nvcc >/dev/null 2>&1; then NVCC=nvcc
  elif [ -x /usr/local/cuda/bin/nvcc ]; then NVCC=/usr/local/cuda/bin/nvcc
  else echo "$0: nvcc not found (set NVCC=/path/to/nvcc)" >&2; exit 1; fi
fi
[ -d "$SRC" ] || { echo "$0: $SRC: no such git directory" >&2; exit 1; }
[ -d "$SRC/.git" ] && SRC="$SRC/.git"
BOOST_A=
for d in /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib /usr/local/lib; do
  [ -f "$d/libboost_serialization.a" ] && { BOOST_A="$d/libboost_serialization.a"; break; }
done
if [ -z "$BOOST_A" ]; then
  echo "$0: libboost_serialization.a not found (apt-get install libboost-serialization-dev)" >&2
  exit 1
fi

W=$(mktemp -d "${TMPDIR:-/tmp}/gridbench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
# Export only the sources the build needs (main.cu includes everything else): mirrors may lack
# the large result blobs, so no full checkout. The export is a git repository of its own so
# that the edits can be listed (git diff) in the build note.
G="git --git-dir=$SRC"
COMMIT=$($G rev-parse --verify "$REV^{commit}")
mkdir -p "$W/src"
$G ls-tree -r --name-only "$COMMIT" -- main.cu coord3.cu util.cu benchmarks grids kernels |
while IFS= read -r f; do
  mkdir -p "$W/src/$(dirname "$f")"
  $G cat-file blob "$COMMIT:$f" > "$W/src/$f"
done
[ -f "$W/src/main.cu" ] && [ -f "$W/src/grids/cuda-base.cu" ] ||
  { echo "$0: $SRC at $COMMIT has no main.cu / grids/cuda-base.cu" >&2; exit 1; }
cd "$W/src"
git init -q . && git add -A && git -c user.name=build -c user.email=build@localhost commit -qm "$COMMIT"

# check_once FILE PATTERN: the pattern (fixed string) occurs exactly once in FILE.
check_once() {
  n=$(grep -cF -- "$2" "$1" || true)
  [ "$n" = 1 ] || { echo "$0: $1: expected exactly one line with '$2', found $n" >&2; exit 1; }
}

# Edit 1: cudaMemPrefetchAsync for CUDA 13 (cudaMemLocation instead of an int device).
F=grids/cuda-base.cu
P='cudaMemPrefetchAsync(this->data, this->size, device, 0)'
check_once "$F" "$P"
awk -v pat="$P" '
  index($0, pat) {
    print "#if CUDART_VERSION >= 13000"
    print "    {"
    print "        struct cudaMemLocation loc;"
    print "        loc.type = (device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice);"
    print "        loc.id = (device == cudaCpuDeviceId ? 0 : device);"
    print "        CUDA_THROW( cudaMemPrefetchAsync(this->data, this->size, loc, 0, 0) );"
    print "    }"
    print "#else"
    print
    print "#endif"
    next
  }
  { print }' "$F" > "$F.new" && mv "$F.new" "$F"
grep -q 'cudaMemLocationTypeDevice' "$F" || { echo "$0: edit 1 not applied" >&2; exit 1; }

# Edit 2: AoS fastwaves setup order (store the AoS grid before populate_grids() writes to it).
F=benchmarks/fastwaves-unstr.cu
check_once "$F" 'this->inputs = ins;'
awk '
  held != "" {
    if ($0 ~ /this->inputs = ins;/) { print; print held; held = ""; swapped++; next }
    print held; held = ""
  }
  /this->populate_grids\(\);[[:space:]]*$/ { held = $0; next }
  { print }
  END { if (held != "") print held; if (swapped != 1) exit 3 }' "$F" > "$F.new" ||
  { echo "$0: edit 2: populate_grids(); directly before this->inputs = ins; not found" >&2; exit 1; }
mv "$F.new" "$F"

# Build as the Makefile's nodebug target, for $ARCH, with static runtime libraries.
CUDAVER=$("$NVCC" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')
set -x
"$NVCC" -I. -arch="$ARCH" -O3 -DCUDA_PROFILER -DNDEBUG -cudart static \
  -Xcompiler -static-libstdc++,-static-libgcc \
  -Wno-deprecated-declarations \
  -o gridbenchmark main.cu "$BOOST_A"
set +x

mkdir -p "$OUT_DIR"
cp gridbenchmark "$OUT_DIR/gridbenchmark"
{
  echo "gridbenchmark of andrej/stencil-performance, commit $COMMIT"
  echo "built $(date -u +%Y-%m-%dT%H:%MZ) by scripts/peers/build-gridbenchmark.sh with nvcc $CUDAVER -arch=$ARCH -O3"
  echo "local edits: (1) cudaMemPrefetchAsync with cudaMemLocation for CUDA >= 13;"
  echo "             (2) fastwaves-unstr AoS setup: this->inputs set before populate_grids()"
  git diff --stat | tail -1
} > "$OUT_DIR/gridbenchmark.build.txt"
echo "== $OUT_DIR/gridbenchmark (commit $COMMIT)"
ldd "$OUT_DIR/gridbenchmark" || true
