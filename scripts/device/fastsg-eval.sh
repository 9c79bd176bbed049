#!/bin/sh
# scripts/device/fastsg-eval.sh PACKDIR: the fastsg evaluation variants on the
# GPU machine (issue 6): the CUDA tests of the walk variants and of the older
# ones, then 10^6 random points at D=10, n=8 (every cuda/eval variant) and at
# D=10, n=11 (the walk variants and sred1, the old best), in double and
# float, and cpu/eval/walk beside cpu/eval/vec1 on the host's cores at n=8.
# Binaries packed by shared/device/pack: tsr-fastsg, check_sparse_cuda_eval,
# check_sparse_cuda. Everything lands in $OUT/fastsg-eval.tar.gz (CSVs, logs,
# TAP files, nvidia-smi); a summary is printed. About 5-6 minutes.
set -u
P=${1:?usage: fastsg-eval.sh PACKDIR}
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
W=$(mktemp -d)
export LD_LIBRARY_PATH="$PWD/$P:${LD_LIBRARY_PATH:-}" OMP_NUM_THREADS=16
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,memory.total --format=csv > "$W/gpu.csv" 2>&1
for t in check_sparse_cuda_eval check_sparse_cuda; do
  [ -x "$P/$t" ] || { echo "$t: not packed"; continue; }
  start=$(date +%s)
  OMP_NUM_THREADS=4 timeout 300 sh tests/driver "$P/$t" > "$W/$t.tap" 2>&1
  echo "$t: exit $?, $(grep -c '^ok' "$W/$t.tap") ok, $(grep -c '^not ok' "$W/$t.tap") not ok," \
    "$(($(date +%s) - start)) s $(grep '^1\.\.0' "$W/$t.tap")"
  grep '^not ok' "$W/$t.tap" | head -5
done
run() { # NAME TIMEOUT POINTS ARGS...: one tsr-fastsg run, its CSV and log
  name=$1 lim=$2 npts=$3
  shift 3
  start=$(date +%s)
  timeout "$lim" "$P/tsr-fastsg" --mode evaluate --points "$npts" "$@" --csv "$W/$name.csv" \
    > "$W/$name.log" 2>&1
  echo "$name: exit $?, $(($(date +%s) - start)) s"
  grep -E 'eval/|FAIL' "$W/$name.log" | sed 's/^fastsg *//' | cut -c1-150
}
for prec in double float; do
  run "n8-$prec" 240 1000000 --dim 10 --level 8 --precision $prec --runs 3 --warmup 1 --variant 'cuda/eval/*'
  run "n11-$prec" 200 1000000 --dim 10 --level 11 --precision $prec --runs 3 --warmup 1 \
    --variant 'cuda/eval/walk,cuda/eval/walk_s1,cuda/eval/walk_s2,cuda/eval/walk_s4,cuda/eval/walk_s2w,cuda/eval/sred1'
done
run "n8-cpu" 200 20000 --dim 10 --level 8 --runs 1 --variant 'cpu/eval/vec1,cpu/eval/walk'
tar czf "$OUT/fastsg-eval.tar.gz" -C "$W" .
echo "fastsg-eval: $(ls "$W" | wc -l) files in $OUT/fastsg-eval.tar.gz"
