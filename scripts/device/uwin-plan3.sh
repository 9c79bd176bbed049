#!/bin/bash
# scripts/device/uwin-plan3.sh: check_stencil_cuda, then cuda/unstr/jwindow-plan with the slots
# held in registers across levels (kpt > 1) against kpt 1 (issue 3): laplap and hdiff,
# 512x512x64 double 10-step runs, float and 1024x1024x80 single launches; z-curves 4 (float 8),
# no chasing. Needs pack/{tsr-stencil,check_stencil_cuda}. Writes $OUT/uplan3.tar.gz.
set -u
B=${B:-pack}
OUT=${OUT:-/tmp/out}
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
W=$(mktemp -d)
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
timeout 120 "$B/check_stencil_cuda" > "$W/check_stencil_cuda.log" 2>&1
echo "[$(el) s] check_stencil_cuda rc=$?: $(grep -E '%' "$W/check_stencil_cuda.log" | tail -1)"
grep -E "Failure|Error|error" "$W/check_stencil_cuda.log" | head -5
TS=$B/tsr-stencil
r() { local t=$1; shift; timeout 60 $TS "$@" --variant cuda/unstr/jwindow-plan --chase no --runs 20 --warmup 3 -q --csv "$W/$t.csv" > "$W/$t.log" 2>&1 || echo "FAILED $t"; }
for k in laplap hdiff; do
  for kpt in 1 2 4; do
    r $k-512-k$kpt $k --size 512x512x64 --jpt 2,4 --kpt $kpt --threads 64x1x1,128x1x1,256x1x1 --order zcurve --iterations 10
    r $k-f-k$kpt $k --size 512x512x64 --precision float --jpt 2,4 --kpt $kpt --threads 64x1x1,128x1x1 --order zcurve --zcurve-width 8
  done
  for kpt in 2 4 8; do
    r $k-1024-k$kpt $k --size 1024x1024x80 --jpt 2,4 --kpt $kpt --threads 64x1x1,128x1x1 --order zcurve
  done
  echo "[$(el) s] $k done"
done
for f in "$W"/*.csv; do echo "$(basename $f .csv) $(awk -F, 'NR>1 && $24=="PASS"{print $13, $1, $9"x"$10"x"$11}' $f | sort -n | head -1 | sed 's/-unstr-jwindow-plan//;s/-no-chase//')"; done
tar czf "$OUT/uplan3.tar.gz" -C "$W" .
