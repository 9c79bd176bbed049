#!/bin/bash
# scripts/device/final-s4.sh: session 4's closing GPU call (issue 3): check_stencil_cuda; the
# best windows in 10-step runs (laplap, hdiff 512x512x64 double: cuda/regular/jwindow and
# cuda/unstr/jwindow-plan), float and 1024x1024x80 rows of jwindow-plan. The original beside
# ours is the next call: BUDGET_S=420 HARD_S=560 EXTRA_STORAGE=0 scripts/device/peers-stencil.sh.
# Needs pack/{tsr-stencil,check_stencil_cuda}. Writes $OUT/final-s4.tar.gz.
set -u
B=${B:-pack}
OUT=${OUT:-/tmp/out}
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
W=$(mktemp -d)
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
if [ "${PART:-1}" = 2 ]; then
  for k in laplap hdiff; do
    timeout 60 $B/tsr-stencil $k --size 1024x1024x80 --variant cuda/unstr/jwindow-plan --jpt 4 --kpt 1 \
      --threads 64x1x1,128x1x1 --order zcurve --chase no --runs 20 --warmup 3 -q --csv "$W/$k-1024-k1.csv" > /dev/null 2>&1
    for kpt in 2 4 8; do
      timeout 60 $B/tsr-stencil $k --size 1024x1024x80 --variant cuda/unstr/jwindow-plan --jpt 4 --kpt $kpt \
        --threads 64x1x1,128x1x1 --order zcurve --chase no --runs 20 --warmup 3 -q --csv "$W/$k-1024-k$kpt.csv" > /dev/null 2>&1
    done
  done
  for f in "$W"/*.csv; do echo "== $(basename $f)"; awk -F, 'NR>1{print $13, $1, $9"x"$10"x"$11, $24}' $f | sort -n | head -2; done
  tar czf "$OUT/final-s4b.tar.gz" -C "$W" .
  BUDGET_S=$(( 400 - $(el) )) HARD_S=$(( 560 - $(el) )) EXTRA_STORAGE=0 bash scripts/device/peers-stencil.sh "$B" 2>&1 |
    sed -n '/^### laplap/,/rows left out/p'
  echo "[$(el) s] done"
  exit 0
fi
timeout 120 "$B/check_stencil_cuda" > "$W/check_stencil_cuda.log" 2>&1
echo "[$(el) s] check_stencil_cuda rc=$?: $(grep -E 'Checks|%' "$W/check_stencil_cuda.log" | tail -1)"
grep -E "Failure|Error|error" "$W/check_stencil_cuda.log" | head -5
TS=$B/tsr-stencil
for k in laplap hdiff; do
  timeout 40 $TS $k --size 512x512x64 --variant cuda/regular/jwindow --jpt 4,8 --threads 64x2x1,128x1x1 \
    --iterations 10 --runs 20 --warmup 3 -q --csv "$W/$k-it10-reg.csv" > /dev/null 2>&1
  timeout 40 $TS $k --size 512x512x64 --variant cuda/unstr/jwindow-plan --jpt 4 --kpt 1 --threads 64x1x1,128x1x1 \
    --order zcurve --chase no --compress no,yes --iterations 10 --runs 20 --warmup 3 -q --csv "$W/$k-it10-plan.csv" > /dev/null 2>&1
  timeout 40 $TS $k --size 512x512x64 --precision float --variant cuda/unstr/jwindow-plan,cuda/regular/jwindow --jpt 4 --kpt 1 \
    --threads 64x1x1,128x1x1,64x2x1 --order zcurve --zcurve-width 8 --chase no --runs 20 --warmup 3 -q --csv "$W/$k-float.csv" > /dev/null 2>&1
  timeout 60 $TS $k --size 1024x1024x80 --variant cuda/unstr/jwindow-plan --jpt 4 --kpt 1 --threads 64x1x1,128x1x1 \
    --order zcurve --chase no --runs 20 --warmup 3 -q --csv "$W/$k-1024-plan.csv" > /dev/null 2>&1
  echo "[$(el) s] $k rows done"
done
for f in "$W"/*.csv; do echo "== $(basename $f)"; awk -F, 'NR>1{print $13, $1, $2, $9"x"$10"x"$11, $24}' $f | sort -n | head -3; done
tar czf "$OUT/final-s4.tar.gz" -C "$W" .
echo "[$(el) s] done"
# Second part (PART=2, its own call): jwindow-plan at 1024x1024x80 over levels per thread (the
# plan, 42 MB there, no longer fits L2 with the fields), then the original beside ours.
