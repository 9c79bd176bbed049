#!/bin/sh
# scripts/device/gpu-bench1.sh PACKDIR: stencil and fastsg benchmarks on the
# GPU machine (see BENCHMARKS.md). CSVs and logs go to $OUT.
set -u
P=${1:?usage: gpu-bench1.sh PACKDIR}
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$PWD/$P:${LD_LIBRARY_PATH:-}" OMP_NUM_THREADS=16
S="$P/tsr-stencil"
for st in laplap hdiff fastwaves; do
  timeout 150 $S $st --size 512x512x64 --variant 'cuda/*' --threads 128x1x8,32x1x8,256x1x1,64x4x1 \
    --order zcurve --compress no,yes --chase yes,no --runs 20 --warmup 3 -q --csv "$OUT/$st.csv" > "$OUT/$st.log" 2>&1
  echo "$st: exit $?"; sort -t, -k13 -g "$OUT/$st.csv" 2>/dev/null | head -4 | cut -d, -f1,13,16,22,23,24
done
timeout 100 "$P/tsr-fastsg" --dim 10 --level 11 --mode hierarchize --variant 'cuda/hier/*' --runs 3 -q \
  --csv "$OUT/fastsg-hier.csv" > "$OUT/fastsg-hier.log" 2>&1; echo "fastsg hier: exit $?"; tail -8 "$OUT/fastsg-hier.log"
timeout 100 "$P/tsr-fastsg" --dim 10 --level 11 --mode evaluate --points 1000000 --variant 'cuda/eval/*' --runs 3 -q \
  --csv "$OUT/fastsg-eval.csv" > "$OUT/fastsg-eval.log" 2>&1; echo "fastsg eval: exit $?"; tail -7 "$OUT/fastsg-eval.log"
