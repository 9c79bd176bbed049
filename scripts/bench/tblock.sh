#!/bin/bash
# scripts/bench/tblock.sh BINDIR: temporal blocking (tsr-stencil cuda/regular/tblock) on laplap
# and hdiff, 512x512x64 doubles, 10 steps per run (--iterations 10), median of 10 runs after 2
# warm-up runs, every row verified bit for bit against 10 single steps. First the single-step
# kernels beside it (cuda/regular/jwindow and jwindow-shfl at 4 and 8 rows per thread, blocks
# 64x2x1, 32x4x1, 128x1x8) and tblock at k = 1 (default tile); then the tile sweep: k = 2, 3, 4
# steps per pass for each tile of points per lane (--tb-xpt 1, 2), strip rows (--tb-rows 16, 32,
# 64; 128 at xpt 2) and warps per block (--tb-warps 2, 4; 8 at xpt 2 and 32 rows): 14 tiles x 3
# = 42 points per stencil; then float: the single-step kernels again and tblock at k = 1..4 with
# points per lane 1 and 2 (default strip and warps). The table gives the best per k as
# microseconds per step and as a fraction of the single-step floor (the input and output of one
# step, once, at the measured copy bandwidth; the goal for laplap is <= 0.5), beside the best
# single-step kernel, and the whole sweep as a grid. Then the X-Y-unstructured grid (the same
# domain, its slots row by row, or on a z-curve): cuda/unstr/tblock at k = 1..4 over four tiles
# beside the unstructured single-step kernel (cuda/unstr/jwindow-proto), against the regular
# grid's best of the same run. Writes $OUT/tblock.csv and $OUT/tblock.md; see common.sh. About 4
# minutes on an H100 (BUDGET 300 s).
. "$(dirname "$0")/common.sh"
bench_init tblock 300 "$@"
TS=$(bench_tool tsr-stencil)
if [ "$SMOKE" = 1 ]; then
  SIZE=40x36x4 IT=4 R=(--runs 2 --warmup 1)
  BASE=(--variant cpu/regular,cpu/regular/tblock --tb-steps 1)
  TB=cpu/regular/tblock
  TILES="1:16:2 2:32:4" XPTS=2
  UTB=cpu/unstr/tblock UBASE=(--variant cpu/unstr/idxvar) UTILES="1:16:2" ZK=2
else
  SIZE=512x512x64 IT=10 R=(--runs 10 --warmup 2)
  BASE=(--variant cuda/regular/jwindow,cuda/regular/jwindow-shfl,cuda/regular/tblock --tb-steps 1
        --jpt 4,8 --threads 64x2x1,32x4x1,128x1x8)
  TB=cuda/regular/tblock
  # xpt:rows:warps
  TILES="1:16:2 1:16:4 1:32:2 1:32:4 1:64:2 1:64:4 2:16:2 2:16:4 2:32:2 2:32:4 2:32:8 2:64:2 2:64:4 2:128:4"
  XPTS="1 2"
  UTB=cuda/unstr/tblock
  UBASE=(--variant cuda/unstr/jwindow-proto --jpt 4 --threads 64x2x1,32x4x1,32x2x1)
  UTILES="1:16:2 1:32:4 2:16:4 2:32:4" ZK=2,3
fi
for st in laplap hdiff; do
  step "$st-base" 40 "$TS" $st -q $DEV --size $SIZE --iterations $IT "${R[@]}" "${BASE[@]}" \
    --csv "$RAW/$st-base.csv"
  for t in $TILES; do
    IFS=: read -r x j w <<< "$t"
    step "$st-x$x-j$j-w$w" 20 "$TS" $st -q $DEV --size $SIZE --iterations $IT "${R[@]}" --variant $TB \
      --tb-steps 2,3,4 --tb-xpt $x --tb-rows $j --tb-warps $w --csv "$RAW/$st-x$x-j$j-w$w.csv"
  done
  # float: the same single-step kernels, and tblock at k = 1..4 with the default strip and warps
  for x in $XPTS; do
    step "$st-float-x$x" 20 "$TS" $st -q $DEV --size $SIZE --precision float --iterations $IT "${R[@]}" \
      --variant $TB --tb-steps 1,2,3,4 --tb-xpt $x --csv "$RAW/$st-float-x$x.csv"
  done
  step "$st-float-base" 40 "$TS" $st -q $DEV --size $SIZE --precision float --iterations $IT "${R[@]}" \
    "${BASE[@]}" --csv "$RAW/$st-float-base.csv"
  # the unstructured grid: stored row by row (the inner warps read without the slot map) ...
  # (the unstructured window at its best levels per thread: laplap 1, hdiff 2)
  KPT=(); [ "$SMOKE" = 1 ] || KPT=(--kpt $([ $st = laplap ] && echo 1 || echo 2))
  step "$st-unstr-base" 30 "$TS" $st -q $DEV --size $SIZE --iterations $IT "${R[@]}" --order rowmajor \
    "${UBASE[@]}" "${KPT[@]}" --csv "$RAW/$st-unstr-base.csv"
  for t in $UTILES; do
    IFS=: read -r x j w <<< "$t"
    step "$st-unstr-x$x-j$j-w$w" 20 "$TS" $st -q $DEV --size $SIZE --iterations $IT "${R[@]}" --order rowmajor \
      --variant $UTB --tb-steps 1,2,3,4 --tb-xpt $x --tb-rows $j --tb-warps $w --csv "$RAW/$st-unstr-x$x-j$j-w$w.csv"
  done
  # ... and on a z-curve (every read through the map), at the default tile
  step "$st-unstr-zcurve" 20 "$TS" $st -q $DEV --size $SIZE --iterations $IT "${R[@]}" --order zcurve \
    --variant $UTB --tb-steps $ZK --csv "$RAW/$st-unstr-zcurve.csv"
done
bench_table
