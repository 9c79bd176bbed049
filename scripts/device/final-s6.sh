#!/bin/bash
# scripts/device/final-s6.sh: session 6's closing GPU call (issue 3): check_stencil_cuda and
# check_stencil_mpi (1, 2, 4 ranks); the best windows in 10-step runs (laplap, hdiff 512x512x64
# double and float: cuda/regular/jwindow and cuda/unstr/jwindow-plan with blocks of columns x
# strips, over jpt, kpt and block shapes), 1024x1024x80 single launches; then the original beside
# ours (tuned windows only, laplap and hdiff). Needs pack/{tsr-stencil,check_stencil_cuda,
# check_stencil_mpi,gridbenchmark}. Writes $OUT/final-s6.tar.gz and the peers-stencil outputs.
# PART=own: the tests and our rows only; PART=peers: the original beside ours only (default: both).
set -u
B=${B:-pack}
OUT=${OUT:-/tmp/out}
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=4
W=$(mktemp -d)
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
PART=${PART:-all}
if [ "$PART" != peers ]; then
timeout 120 "$B/check_stencil_cuda" > "$W/check_stencil_cuda.log" 2>&1
echo "[$(el) s] check_stencil_cuda rc=$?: $(grep -E 'Checks|%' "$W/check_stencil_cuda.log" | tail -1)"
grep -E "Failure|Error|error" "$W/check_stencil_cuda.log" | head -5
for np in 1 2 4; do
  timeout 120 mpirun --allow-run-as-root --oversubscribe --bind-to none -np $np "$B/check_stencil_mpi" > "$W/check_stencil_mpi-$np.log" 2>&1
  echo "[$(el) s] check_stencil_mpi -np $np rc=$?: $(grep -E '%:' "$W/check_stencil_mpi-$np.log" | head -1)"
done
TS=$B/tsr-stencil
r() { local t=$1; shift; timeout 60 $TS "$@" --runs 20 --warmup 3 -q --csv "$W/$t.csv" > "$W/$t.log" 2>&1 || echo "FAILED $t: $(tail -2 $W/$t.log)"; }
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
for f in "$W"/*.csv; do echo "$(basename $f .csv) $(awk -F, 'NR>1 && $24=="PASS"{print $13, $1, $9"x"$10"x"$11, $25}' $f | sort -n | head -1 | sed 's/-unstr-jwindow-plan//;s/-no-chase//') fails=$(grep -c FAIL $f)"; done
tar czf "$OUT/final-s6.tar.gz" -C "$W" .
echo "[$(el) s] own rows done"
fi
[ "$PART" = own ] && exit 0
BUDGET_S=$(( 480 - $(el) )) HARD_S=$(( 570 - $(el) )) STENCILS="laplap hdiff" AOS=0 EXTRA_STORAGE=0 OURS_ALL=0 KPTS="4 16" \
  bash scripts/device/peers-stencil.sh "$B" 2>&1 | sed -n '/^## /,/rows left out/p' | head -40
echo "[$(el) s] done"
