#!/bin/sh
# scripts/device/stencil-perf.sh PACKDIR: the load-lean laplap / hdiff
# variants (issue 3; docs/STENCIL.md "Load-lean strategies") on the GPU
# machine, about 4 minutes. Needs PACKDIR/tsr-stencil and
# PACKDIR/check_stencil_cuda (with their libraries); run from the
# repository root. Writes $OUT/stencil-perf-summary.txt (the best rows)
# and $OUT/stencil-perf.tar.gz (every CSV, log and the test's TAP).
#  1. tests/cuda/check_stencil_cuda (every CUDA variant; the new ones with
#     every --jpt / kpt, error exactly 0);
#  2. 512x512x64 double: jwindow and jwindow-shfl with --jpt 2,4,8,16 and
#     blocks 32x1x1 .. 256x1x1; unstructured z-curve (w = 4) patch-kloop
#     with --kpt 8, 16, 64, chased and not (kpt 16 also compressed), blocks
#     of 64 .. 1024 slots; the old best rows (regular naive 32x8x1, idxvar
#     64x4x1; unstructured idxvar 64x4x1, naive 256x1x1) in double and
#     float; then float: jwindow* --jpt 4,8,16, patch-kloop kpt 16;
#  3. 1024x1024x80, double and float: new and old variants, fewer shapes.
# Each call has its own timeout (all together at most 550 s; expected
# well under that): a slow step loses its own rows only.
# --runs 20 --warmup 3, every row verified against the CPU reference.
set -u
P=${1:?usage: stencil-perf.sh PACKDIR}
OUT=${OUT:-$PWD/device-out}
W=$(mktemp -d)
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$PWD/$P:${LD_LIBRARY_PATH:-}" OMP_NUM_THREADS=16
S="$P/tsr-stencil"
R="--runs 20 --warmup 3 -q"
REG=cuda/regular/jwindow,cuda/regular/jwindow-shfl
T512=32x1x1,32x4x1,64x1x1,64x2x1,128x1x1,256x1x1
U512=64x1x1,128x1x1,256x1x1,512x1x1,1024x1x1,32x8x1
start=$(date +%s)
run() { # run LIMIT NAME ARGS...: one tsr-stencil call, its CSV and log
  lim=$1 name=$2
  shift 2
  timeout "$lim" "$S" "$@" $R --csv "$W/$name.csv" > "$W/$name.log" 2>&1
  echo "$name: exit $? at $(($(date +%s) - start)) s"
}

OMP_NUM_THREADS=4 timeout 120 sh tests/driver "$P/check_stencil_cuda" > "$W/check_stencil_cuda.tap" 2>&1
echo "check_stencil_cuda: exit $?, $(grep -c '^ok' "$W/check_stencil_cuda.tap") ok, $(grep -c '^not ok' "$W/check_stencil_cuda.tap") not ok, $(($(date +%s) - start)) s"
grep '^not ok\|^1\.\.0' "$W/check_stencil_cuda.tap" | head -5

for st in laplap hdiff; do
  run 40 "$st-reg512-double" $st --size 512x512x64 --variant $REG --jpt 2,4,8,16 --threads $T512
  run 15 "$st-old512" $st --size 512x512x64 --precision double,float \
    --variant cuda/regular/naive,cuda/regular/idxvar,cuda/unstr/idxvar,cuda/unstr/naive \
    --threads 32x8x1,64x4x1,256x1x1 --order zcurve --zcurve-width 4
  for k in 8 16 64; do
    comp=no
    [ $k = 16 ] && comp=no,yes
    run 20 "$st-patch512-k$k-double" $st --size 512x512x64 --variant cuda/unstr/patch-kloop \
      --kpt $k --order zcurve --zcurve-width 4 --chase yes,no --compress $comp --threads $U512
  done
  run 20 "$st-reg512-float" $st --size 512x512x64 --precision float --variant $REG --jpt 4,8,16 \
    --threads 32x4x1,64x1x1,64x2x1,128x1x1,256x1x1
  run 15 "$st-patch512-k16-float" $st --size 512x512x64 --precision float --variant cuda/unstr/patch-kloop \
    --kpt 16 --order zcurve --zcurve-width 4 --chase yes,no --threads 128x1x1,256x1x1,1024x1x1
done
for st in laplap hdiff; do
  run 40 "$st-1024-reg" $st --size 1024x1024x80 --precision double,float \
    --variant $REG,cuda/regular/naive,cuda/regular/idxvar --jpt 8,16 --threads 32x4x1,64x4x1,128x1x1
  run 25 "$st-1024-unstr" $st --size 1024x1024x80 --precision double,float \
    --variant cuda/unstr/patch-kloop,cuda/unstr/idxvar --kpt 16 --order zcurve --zcurve-width 4 \
    --threads 64x4x1,256x1x1,1024x1x1
done

# per CSV and (grid, precision): the two fastest rows (median us, % of the
# copy floor, name, block, verification) and the number of FAIL rows
for f in "$W"/*.csv; do
  echo "== $(basename "$f" .csv)"
  awk -F, 'NR > 1 && $13 > 0 {g = $1 ~ /-unstr-/ ? "unstr" : "regular";
    printf "%s-%s %010.1f %8.1f us %6.1f %%  %-60s %sx%sx%s %s\n", g, $2, $13, $13, $23, $1, $9, $10, $11, $24}' "$f" |
    sort -k1,1 -k2,2 | awk '{n[$1]++} n[$1] <= 2 {$2 = ""; print}'
  awk -F, 'NR > 1 && $24 == "FAIL" {n++} END {if (n) print "   FAILED rows: " n}' "$f"
done > "$OUT/stencil-perf-summary.txt"
cat "$OUT/stencil-perf-summary.txt"
tar czf "$OUT/stencil-perf.tar.gz" -C "$W" .
echo "total $(($(date +%s) - start)) s"
