#!/bin/bash
# scripts/device/final-s5.sh: session 5's closing GPU call (issue 3): check_stencil_cuda; the
# best windows in 10-step runs (laplap, hdiff 512x512x64 double and float: cuda/regular/jwindow
# and cuda/unstr/jwindow-plan with its plan slots kept in L2 by an evict_last policy, over jpt
# and kpt), 1024x1024x80 single launches; then the original beside ours (tuned windows only,
# laplap and hdiff). Needs pack/{tsr-stencil,check_stencil_cuda,gridbenchmark}.
# Writes $OUT/final-s5.tar.gz and the peers-stencil outputs.
set -u
B=${B:-pack}
OUT=${OUT:-/tmp/out}
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
W=$(mktemp -d)
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
timeout 120 "$B/check_stencil_cuda" > "$W/check_stencil_cuda.log" 2>&1
echo "[$(el) s] check_stencil_cuda rc=$?: $(grep -E 'Checks|%' "$W/check_stencil_cuda.log" | tail -1)"
grep -E "Failure|Error|error" "$W/check_stencil_cuda.log" | head -5
TS=$B/tsr-stencil
r() { local t=$1; shift; timeout 60 $TS "$@" --runs 20 --warmup 3 -q --csv "$W/$t.csv" > "$W/$t.log" 2>&1 || echo "FAILED $t: $(tail -2 $W/$t.log)"; }
P="--variant cuda/unstr/jwindow-plan --order zcurve --chase no"
for k in laplap hdiff; do
  r $k-it10-reg $k --size 512x512x64 --variant cuda/regular/jwindow --jpt 4,8 --threads 64x2x1,128x1x1 --iterations 10
  for kpt in 1 2 4 8 16; do
    r $k-it10-plan-k$kpt $k --size 512x512x64 $P --jpt 4,8 --kpt $kpt --threads 64x1x1,128x1x1 --iterations 10
  done
  r $k-it10-plan-rm $k --size 512x512x64 --variant cuda/unstr/jwindow-plan --order rowmajor --chase no --jpt 4 --kpt 8 --threads 64x1x1,128x1x1 --iterations 10
  r $k-f-reg $k --size 512x512x64 --precision float --variant cuda/regular/jwindow --jpt 4,8 --threads 64x2x1,128x1x1 --iterations 10
  for kpt in 1 4 8; do
    r $k-f-plan-k$kpt $k --size 512x512x64 --precision float $P --zcurve-width 8 --jpt 4,8 --kpt $kpt --threads 64x1x1,128x1x1 --iterations 10
  done
  r $k-1024-reg $k --size 1024x1024x80 --variant cuda/regular/jwindow --jpt 4,8 --threads 64x2x1,128x1x1
  for kpt in 4 8 16; do
    r $k-1024-plan-k$kpt $k --size 1024x1024x80 $P --jpt 4 --kpt $kpt --threads 64x1x1,128x1x1
  done
  echo "[$(el) s] $k rows done"
done
for f in "$W"/*.csv; do echo "$(basename $f .csv) $(awk -F, 'NR>1 && $24=="PASS"{print $13, $1, $9"x"$10"x"$11}' $f | sort -n | head -1 | sed 's/-unstr-jwindow-plan//;s/-no-chase//') fails=$(grep -c FAIL $f)"; done
tar czf "$OUT/final-s5.tar.gz" -C "$W" .
echo "[$(el) s] own rows done"
BUDGET_S=$(( 480 - $(el) )) HARD_S=$(( 570 - $(el) )) STENCILS="laplap hdiff" AOS=0 EXTRA_STORAGE=0 OURS_ALL=0 KPTS="1 4 8" \
  bash scripts/device/peers-stencil.sh "$B" 2>&1 | sed -n '/^## /,/rows left out/p' | head -40
echo "[$(el) s] done"
