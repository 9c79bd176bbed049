#!/bin/sh
# scripts/device/gpu-round3.sh PACKDIR: stencil CUDA tests and tile variants,
# fastsg evaluation at D=10; all outputs in $OUT/round3.tar.gz.
set -u
P=${1:?usage: gpu-round3.sh PACKDIR}
OUT=${OUT:-$PWD/device-out}
W=$(mktemp -d)
KPT=${KPT:-8}
export LD_LIBRARY_PATH="$PWD/$P:${LD_LIBRARY_PATH:-}" OMP_NUM_THREADS=16
for t in check_stencil_cuda check_sparse_cuda; do
  OMP_NUM_THREADS=4 sh tests/driver "$P/$t" > "$W/$t.tap" 2>&1
  echo "$t: $(grep -c '^ok' "$W/$t.tap") ok, $(grep -c '^not ok' "$W/$t.tap") not ok"; grep '^not ok' "$W/$t.tap" | head -3
done
mkdir -p "$P/mpi" && cp "$P/check_stencil_mpi" "$P/mpi/" && TSR_TEST_NP="1 2 4" OMP_NUM_THREADS=4 sh tests/driver "$P/mpi/check_stencil_mpi" > "$W/mpi.tap" 2>&1
echo "check_stencil_mpi: $(grep -c '^ok' "$W/mpi.tap") ok, $(grep -c '^not ok' "$W/mpi.tap") not ok"
S="$P/tsr-stencil"
for st in laplap hdiff; do
  timeout 120 $S $st --size 512x512x64 --variant 'cuda/regular/shared,cuda/regular/tile-kloop,cuda/regular/naive' \
    --threads 32x8x1,64x4x1,64x8x1,128x4x1,32x16x1,64x1x1 --kpt $KPT --runs 20 -q --csv "$W/$st-tile$KPT.csv" > "$W/$st-tile$KPT.log" 2>&1
  echo "$st tile: exit $?"; awk -F, 'NR>1 && $13>0 {print $13, $16, $9"x"$10"x"$11, $24}' "$W/$st-tile.csv" | sort -g | head -4
done
timeout 150 $S fastwaves --size 512x512x64 --variant 'cuda/*' --threads 128x1x8,32x1x8,256x1x1,64x4x1 \
  --order zcurve --compress no,yes --chase yes,no --runs 20 -q --csv "$W/fastwaves.csv" > "$W/fastwaves.log" 2>&1
echo "fastwaves: exit $?"; awk -F, 'NR>1 && $13>0 {print $13, $16, $9"x"$10"x"$11, $24}' "$W/fastwaves.csv" | sort -g | head -3
( time timeout 150 stdbuf -oL "$P/tsr-fastsg" --dim 10 --level 8 --mode evaluate --points 1000000 --variant 'cuda/eval/*' --runs 3 ) > "$W/fastsg-eval8.log" 2>&1
echo "fastsg eval n=8: exit $?"; tail -9 "$W/fastsg-eval8.log" | cut -c1-160
( time timeout 200 stdbuf -oL "$P/tsr-fastsg" --dim 10 --level 11 --mode evaluate --points 1000000 --variant 'cuda/eval/sred1,cuda/eval/ichg2p,cuda/eval/ichg2pp' --runs 3 ) > "$W/fastsg-eval11.log" 2>&1
echo "fastsg eval n=11: exit $?"; tail -8 "$W/fastsg-eval11.log" | cut -c1-160
tar czf "$OUT/round3.tar.gz" -C "$W" .
