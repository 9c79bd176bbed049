#!/bin/bash
# scripts/device/uwin-plan2.sh: cuda/unstr/jwindow-plan (issue 3) over storage orders (row-major,
# z-curve widths 4, 8, 16), laplap and hdiff 512x512x64 double, no chasing, 10-step runs; and
# Nsight Compute's speed-of-light and memory sections of one launch. Needs pack/tsr-stencil.
# Writes $OUT/uplan2.tar.gz.
set -u
B=${B:-pack}
OUT=${OUT:-/tmp/out}
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
W=$(mktemp -d)
S=512x512x64
TS=$B/tsr-stencil
for k in laplap hdiff; do
  for o in "rowmajor" "zcurve --zcurve-width 4" "zcurve --zcurve-width 8" "zcurve --zcurve-width 16"; do
    tag=$(echo $o | tr -d ' -' | sed 's/zcurvewidth/w/')
    for kpt in 1 2; do
      timeout 90 $TS $k --variant cuda/unstr/jwindow-plan --jpt 4,8 --kpt $kpt --order $o --chase no --threads 128x1x1,256x1x1,64x1x1 \
        --size $S --precision double -q --runs 20 --warmup 3 --iterations 10 --csv "$W/$k-$tag-k$kpt.csv" > "$W/$k-$tag-k$kpt.log" 2>&1 || echo "FAILED $k $tag $kpt"
    done
  done
done
for k in laplap hdiff; do
  echo "== $k best 10 (median us, name, block, file)"
  for f in "$W"/$k-*.csv; do awk -F, -v f=$(basename $f .csv) 'NR>1 && $24=="PASS"{print $13, $1, $9"x"$10"x"$11, f}' $f; done | sort -n | head -10
  for f in "$W"/$k-*.csv; do echo "$(basename $f) $(awk -F, 'NR>1 && $24=="PASS"{print $13}' $f | sort -n | head -1)"; done
done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for o in zcurve rowmajor; do
timeout 100 $NCU --launch-count 1 --kernel-name regex:st_k_uwinp --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section Occupancy --section WarpStateStats \
  $TS laplap --variant cuda/unstr/jwindow-plan --jpt 4 --kpt 1 --order $o --chase no --threads 128x1x1 --size $S --runs 1 --warmup 1 --no-verify -q > $W/ncu-$o.txt 2>&1
grep -E "Duration|Throughput|Hit Rate|Busy|Achieved Occ|Theoretical Occ|Registers|Warp Cycles Per Issued" $W/ncu-$o.txt | head -24
done
mkdir -p "$OUT" && tar czf "$OUT/uplan2.tar.gz" -C "$W" .
