#!/bin/sh
# scripts/device/gpu-tiles.sh PACKDIR: the regular-grid tile variants of
# laplap and hdiff at 512x512x64 double, --kpt 8 and 16 (BENCHMARKS.md).
set -u
P=${1:?usage: gpu-tiles.sh PACKDIR}
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$PWD/$P:${LD_LIBRARY_PATH:-}" OMP_NUM_THREADS=16
for st in laplap hdiff; do for k in 8 16; do
  timeout 100 "$P/tsr-stencil" $st --size 512x512x64 --variant 'cuda/regular/shared,cuda/regular/tile-kloop,cuda/regular/naive' \
    --threads 32x8x1,64x4x1,64x8x1,128x4x1,32x16x1,128x1x8 --kpt $k --runs 20 -q --csv "$OUT/$st-k$k.csv" > "$OUT/$st-k$k.log" 2>&1
  echo "$st kpt $k: exit $?"; awk -F, 'NR>1 && $13>0 {print $13, $16, $9"x"$10"x"$11, $24}' "$OUT/$st-k$k.csv" | sort -g | head -3
done; done
