#!/bin/sh
# scripts/device/unstr-win.sh: the unstructured jwindow (issue #3) on the GPU:
# check_stencil_cuda, then tsr-stencil laplap/hdiff 512x512x64 double,
# cuda/unstr/jwindow vs cuda/unstr/idxvar, 10-step and single-launch runs.
# Needs pack/tsr-stencil and pack/check_stencil_cuda (B=build-dir paths otherwise). Writes $OUT/unstr-win.tar.gz.
set -u
B=${B:-pack}
OUT=${OUT:-/tmp/out}
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
W=$(mktemp -d)
"$B/check_stencil_cuda" > "$W/check_stencil_cuda.log" 2>&1; echo "check_stencil_cuda rc=$?" | tee -a "$W/check_stencil_cuda.log"
tail -3 "$W/check_stencil_cuda.log"
for k in laplap hdiff; do
  for it in 10 1; do
    for kpt in 8 16 64; do
      timeout 25 "$B/tsr-stencil" $k --size 512x512x64 --precision double -q \
        --variant cuda/unstr/jwindow --jpt 4,8 --kpt $kpt --threads 64x1x1,128x1x1,256x1x1 \
        --order zcurve --zcurve-width 4 --chase yes,no --iterations $it --runs 20 --warmup 3 \
        --csv "$W/$k-it$it-uwin-kpt$kpt.csv" > "$W/$k-it$it-uwin-kpt$kpt.log" 2>&1 || echo "FAILED $k it$it kpt$kpt"
    done
    timeout 25 "$B/tsr-stencil" $k --size 512x512x64 --precision double -q \
      --variant cuda/unstr/idxvar --threads 64x4x1 --order zcurve --zcurve-width 4 --chase no \
      --iterations $it --runs 20 --warmup 3 --csv "$W/$k-it$it-idxvar.csv" > "$W/$k-it$it-idxvar.log" 2>&1 || echo "FAILED $k it$it idxvar"
  done
done
for f in "$W"/*.csv; do echo "== $f"; head -1 "$f"; tail -n +2 "$f" | sort -t, -k1,1 | head -40; done > "$W/all.txt" 2>&1
cat "$W/all.txt" | head -120
mkdir -p "$OUT" && tar czf "$OUT/unstr-win.tar.gz" -C "$W" .
