#!/bin/bash
# scripts/device/final-s6.sh: session 6's closing GPU call (issue 3): check_stencil_cuda and
# check_stencil_mpi (1, 2, 4 ranks); the best windows in 10-step runs (laplap, hdiff 512x512x64
# double and float: cuda/regular/jwindow and cuda/unstr/jwindow-plan with blocks of columns x
# strips, over jpt, kpt and block shapes), 1024x1024x80 single launches; then the original beside
# ours (tuned windows only, laplap and hdiff). Needs pack/{tsr-stencil,check_stencil_cuda,
# check_stencil_mpi,gridbenchmark} and stencil-common.sh beside it. Writes $OUT/final-s6.tar.gz and
# the peers-stencil outputs.
# PART=own: the tests and our rows only; PART=peers: the original beside ours only (default: both).
set -u
. "$(dirname "$0")/stencil-common.sh"
RT=60
PART=${PART:-all}
if [ "$PART" != peers ]; then
st_tests
P="--variant cuda/unstr/jwindow-plan --order zcurve --chase no"
RS=64x2x1,128x1x1,32x4x1
PS=32x2x1,64x2x1,32x4x1,64x1x1,128x1x1
for k in laplap hdiff; do
  r $k-it10-reg $k --size 512x512x64 --variant cuda/regular/jwindow --jpt 4,8 --threads $RS --iterations 10
  for kpt in 1 4 8 16; do
    r $k-it10-plan-k$kpt $k --size 512x512x64 $P --jpt 4,8 --kpt $kpt --threads $PS --iterations 10
  done
  r $k-it10-plan-rm $k --size 512x512x64 --variant cuda/unstr/jwindow-plan --order rowmajor --chase no --jpt 4 --kpt 16 --threads $PS --iterations 10
  r $k-f-reg $k --size 512x512x64 --precision float --variant cuda/regular/jwindow --jpt 4,8 --threads $RS --iterations 10
  for kpt in 4 8 16; do
    r $k-f-plan-k$kpt $k --size 512x512x64 --precision float $P --jpt 4,8 --kpt $kpt --threads $PS --iterations 10
  done
  r $k-1024-reg $k --size 1024x1024x80 --variant cuda/regular/jwindow --jpt 4,8 --threads $RS
  for kpt in 4 16; do
    r $k-1024-plan-k$kpt $k --size 1024x1024x80 $P --jpt 4 --kpt $kpt --threads $PS
  done
  echo "[$(el) s] $k rows done"
done
st_best 's/-unstr-jwindow-plan//;s/-no-chase//'
tar czf "$OUT/final-s6.tar.gz" -C "$W" .
echo "[$(el) s] own rows done"
fi
[ "$PART" = own ] && exit 0
BUDGET_S=$(( 480 - $(el) )) HARD_S=$(( 570 - $(el) )) STENCILS="laplap hdiff" AOS=0 EXTRA_STORAGE=0 OURS_ALL=0 KPTS="4 16" \
  bash scripts/device/peers-stencil.sh "$B" 2>&1 | sed -n '/^## /,/rows left out/p' | head -40
echo "[$(el) s] done"
