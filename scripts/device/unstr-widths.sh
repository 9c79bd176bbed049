#!/bin/sh
# scripts/device/unstr-widths.sh: fastsg-eval.sh, then unstructured laplap/hdiff over z-curve widths
# 8..64 and row-major storage, and 10-step runs (issue 3); pack in ./pack.
sh scripts/device/fastsg-eval.sh pack 2>&1 | tail -40
export LD_LIBRARY_PATH=$PWD/pack
W=$OUT/sw; mkdir -p $W
for st in laplap hdiff; do
 for w in 8 16 32 64; do
  timeout 40 pack/tsr-stencil $st --size 512x512x64 --variant 'cuda/unstr/idxvar,cuda/unstr/naive,cuda/unstr/idxvar-kloop-sliced' --order zcurve --zcurve-width $w --threads 64x4x1,256x1x1,32x8x1,128x1x1 --runs 20 --warmup 3 -q --csv $W/$st-w$w.csv > /dev/null 2>&1
 done
 timeout 40 pack/tsr-stencil $st --size 512x512x64 --variant 'cuda/unstr/idxvar,cuda/unstr/naive,cuda/unstr/idxvar-kloop-sliced' --order rowmajor --threads 64x4x1,256x1x1,32x8x1,128x1x1 --runs 20 --warmup 3 -q --csv $W/$st-rm.csv > /dev/null 2>&1
 timeout 40 pack/tsr-stencil $st --size 512x512x64 --variant 'cuda/unstr/idxvar,cuda/unstr/naive' --order zcurve --threads 64x4x1,256x1x1 --iterations 10 --runs 20 --warmup 3 -q --csv $W/$st-it10.csv > /dev/null 2>&1
done
for f in $W/*.csv; do echo "== $(basename $f)"; awk -F, 'NR>1 && $24=="PASS"{print $13, $1, $9"x"$10"x"$11}' $f | sort -n | head -2; done
tar czf $OUT/sw.tar.gz -C $W . && rm -rf $W
