#!/bin/bash
# scripts/device/uwin-plan.sh: cuda/unstr/jwindow-plan (issue 3) over rows per thread, levels
# per thread and thread shapes, and cuda/unstr/jwindow beside it; laplap and hdiff 512x512x64
# double, z-curves 4, no chasing, 10-step runs. Needs pack/tsr-stencil (BIN=name in pack to
# compare a build with other launch bounds). Writes $OUT/uplan.tar.gz.
set -u
B=${B:-pack}
OUT=${OUT:-/tmp/out}
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
W=$(mktemp -d)
S=512x512x64
TH=32x1x8,64x1x4,128x1x2,128x1x1,32x1x4,256x1x1
run() { # BIN TAG ARGS...
  local b=$1 t=$2; shift 2
  timeout 90 "$B/$b" "$@" --size $S --precision double -q --runs 20 --warmup 3 --iterations 10 --csv "$W/$t.csv" > "$W/$t.log" 2>&1 || echo "FAILED $t: $(tail -1 $W/$t.log)"
}
T0=$(date +%s)
for k in laplap hdiff; do
  for b in ${BIN:-tsr-stencil}; do
    for kpt in 1 2 4 8 16; do
      run $b $k-$b-k$kpt $k --variant cuda/unstr/jwindow-plan --jpt 4,8 --kpt $kpt --order zcurve --zcurve-width 4 --chase no --compress no --threads $TH
    done
  done
  run ${BIN:-tsr-stencil} $k-uwin $k --variant cuda/unstr/jwindow --jpt 4 --kpt 64 --order zcurve --zcurve-width 4 --chase no --threads 128x1x1,64x1x1
  echo "$k done $(( $(date +%s) - T0 )) s"
done
cat "$W"/*.csv | awk -F, '$1!="name" && $24!="PASS" && $24!="skipped"' | head -5
for k in laplap hdiff; do
  echo "== $k best 8 (median us, name, block, file)"
  for f in "$W"/$k-*.csv; do awk -F, -v f=$(basename $f .csv) 'NR>1 && $24=="PASS"{print $13, $1, $9"x"$10"x"$11, f}' $f; done | sort -n | head -8
  for f in "$W"/$k-*.csv; do echo "$(basename $f) $(awk -F, 'NR>1 && $24=="PASS"{print $13}' $f | sort -n | head -1)"; done
done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for b in ${BIN:-tsr-stencil}; do
timeout 100 $NCU --launch-count 1 --kernel-name regex:st_k_uwinp --metrics gpu__time_duration.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed \
  $B/$b laplap --variant cuda/unstr/jwindow-plan --jpt 4 --kpt 8 --order zcurve --chase no --threads 32x1x8 --size $S --runs 1 --warmup 1 --no-verify -q 2>&1 | grep -E "duration|inst_executed|warps_active|dram__" 
done
mkdir -p "$OUT" && tar czf "$OUT/uplan.tar.gz" -C "$W" .
