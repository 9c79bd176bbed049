#!/bin/bash
# scripts/device/unstr-explore.sh: where the unstructured laplap/hdiff time goes (issue 3).
# 512x512x64 double, 10-step runs: cuda/unstr/jwindow over storage orders (row-major, z-curve
# widths 4 and 8), rows per thread, levels per thread, compressed tables and block sizes, beside
# cuda/regular/jwindow; then Nsight Compute (full set, one launch) of the best regular and the
# unstructured window on both orders. Needs pack/tsr-stencil. Writes $OUT/explore.tar.gz.
set -u
B=${B:-pack}
OUT=${OUT:-/tmp/out}
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
W=$(mktemp -d)
TS=$B/tsr-stencil
S=512x512x64
run() { # TAG ARGS...
  local t=$1; shift
  timeout 60 "$TS" "$@" --size $S --precision double -q --runs 20 --warmup 3 --csv "$W/$t.csv" > "$W/$t.log" 2>&1 || echo "FAILED $t"
}
for k in laplap hdiff; do
  run $k-reg $k --variant cuda/regular/jwindow --jpt 4,8 --threads 64x2x1,128x1x1 --iterations 10
  for o in "rowmajor" "zcurve --zcurve-width 4" "zcurve --zcurve-width 8"; do
    tag=$(echo $o | tr -d ' -' | sed 's/zcurvewidth/w/')
    for kpt in 16 32 64; do
      run $k-$tag-k$kpt $k --variant cuda/unstr/jwindow --jpt 2,4,8 --kpt $kpt --order $o --chase no \
        --compress no,yes --threads 32x1x1,64x1x1,128x1x1,256x1x1 --iterations 10
    done
    run $k-$tag-idx $k --variant 'cuda/unstr/idxvar,cuda/unstr/idxvar-kloop-sliced' --order $o --chase no \
      --compress no,yes --threads 64x4x1,256x1x1,128x1x8 --iterations 10
  done
done
for f in "$W"/*.csv; do echo "== $(basename $f)"; awk -F, 'NR>1 && $24=="PASS"{print $13, $1, $9"x"$10"x"$11, $26}' $f | sort -n | head -3; grep -c FAIL $f; done > "$W/summary.txt" 2>&1
cat "$W/summary.txt"
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
nc() { # TAG ARGS...
  local t=$1; shift
  timeout 120 "$NCU" --set full --launch-count 1 --kernel-name regex:'st_k_' -o "$W/ncu-$t" \
    "$TS" "$@" --size $S --precision double -q --runs 1 --warmup 0 --no-verify > "$W/ncu-$t.log" 2>&1 || echo "ncu FAILED $t"
  "$NCU" --import "$W/ncu-$t.ncu-rep" --page details > "$W/ncu-$t.txt" 2>&1
}
nc lap-reg laplap --variant cuda/regular/jwindow --jpt 8 --threads 64x2x1
nc lap-urm laplap --variant cuda/unstr/jwindow --jpt 4 --kpt 64 --order rowmajor --chase no --threads 128x1x1
nc lap-uz4 laplap --variant cuda/unstr/jwindow --jpt 4 --kpt 64 --order zcurve --chase no --threads 128x1x1
nc lap-idx laplap --variant cuda/unstr/idxvar --order zcurve --chase no --threads 64x4x1
for t in lap-reg lap-urm lap-uz4 lap-idx; do echo "=== $t"; grep -E "Duration|DRAM Throughput|Memory Throughput|L1/TEX Hit|L2 Hit|Achieved Occupancy|Registers Per|Executed Ipc A|Mem Busy|Max Bandwidth|L1/TEX Cache Throughput|L2 Cache Throughput|Theoretical Occ|Waves Per SM" "$W/ncu-$t.txt" | head -20; done
mkdir -p "$OUT" && tar czf "$OUT/explore.tar.gz" -C "$W" .
