#!/bin/bash
# scripts/bench/copy.sh BINDIR: a field copied through the layout offset functions (row-major with
# halo and padding, Z-curve) against cudaMemcpy of the whole array, 512x512x64 and 1024x1024x80
# doubles (tsr-copybench). Writes $OUT/copy.csv and $OUT/copy.md; see common.sh. About 20 s.
. "$(dirname "$0")/common.sh"
bench_init copy 90 "$@"
CB=$(bench_tool tsr-copybench)
if [ "$SMOKE" = 1 ]; then
  step copy-512 30 "$CB" -q $DEV --size 40x40x8 --runs 2 --warmup 1 --csv "$RAW/copy-512.csv"
else
  for s in 512x512x64 1024x1024x80; do
    step "copy-${s%%x*}" 40 "$CB" -q $DEV --size $s --runs 100 --threads 128x1x1,256x1x1 \
      --variant cuda/memcpy,cuda/rowmajor,cuda/zcurve,cuda/zcurve-storage --csv "$RAW/copy-${s%%x*}.csv"
  done
fi
bench_table
