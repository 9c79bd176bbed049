#!/bin/bash
# scripts/bench/auto.sh BINDIR: does --variant auto choose well? For every program with --variant
# auto, on one problem each: the full sweep (every variant of the device's default list, cuda/*,
# and every configuration the command line gives: the candidates auto tries), then
# `--variant auto --retune` with the same arguments (a fresh trial of the same candidates, the
# cache in a scratch $XDG_CACHE_HOME), both with the same runs and warm-up. The table sets the
# sweep's best verified row beside auto's choice and its time; the ratio is auto's time over the
# sweep's best, PASS when within 5 % (the goal of --variant auto). Problems: tsr-stencil laplap,
# hdiff, fastwaves 512x512x64 double, 10 steps; tsr-copybench 512x512x64; tsr-fastsg D=10 n=8
# (hierarchization and evaluation of 10^6 points: two choices); tsr-airfoil OP2's standard mesh,
# 1000 iterations; tsr-lulesh -s 150 -i 100. Writes $OUT/auto.csv and $OUT/auto.md; see
# common.sh. About 6 minutes on an H100 (BUDGET 420 s: steps that would pass it are
# skipped and say so in the notes).
. "$(dirname "$0")/common.sh"
bench_init auto 420 "$@"
TS=$(bench_tool tsr-stencil) CB=$(bench_tool tsr-copybench) FS=$(bench_tool tsr-fastsg)
AF=$(bench_tool tsr-airfoil) TL=$(bench_tool tsr-lulesh)
S=$(mktemp -d "${TMPDIR:-/tmp}/auto.XXXXXX")
trap 'rm -rf "$S"' EXIT
export XDG_CACHE_HOME=$S/cache
if [ "$SMOKE" = 1 ]; then
  SWEEP='cpu/*'
  ST=(--size 24x20x4 --iterations 2 --runs 2 --warmup 1 --threads 128x1x8 --tb-steps 2,3)
  FW=(--size 24x20x8 --iterations 2 --runs 2 --warmup 1 --threads 128x1x8)
  CBA=(--size 32x32x4 --runs 3 --warmup 1)
  FSA=(--dim 3 --level 4 --points 500 --mode both --runs 2 --warmup 1)
  AFA=(--size 30x20 --iterations 10 --runs 2 --warmup 1)
  TLA=(-s 6 -i 10 --runs 2 --warmup 1)
else
  SWEEP='cuda/*'
  # thread shapes of the regular and unstructured kernels, rows per thread of the register
  # windows and tblock's steps per pass (auto's own default, given so that the sweep has them
  # too): every combination is a candidate
  ST=(--size 512x512x64 --iterations 10 --runs 10 --warmup 2 --threads 128x1x8,64x2x1,32x4x1
      --jpt 4,8 --tb-steps 2,3,4)
  FW=(--size 512x512x64 --iterations 10 --runs 10 --warmup 2 --threads 128x1x8,32x1x8,256x1x1)
  CBA=(--size 512x512x64 --runs 50 --warmup 5)
  FSA=(--dim 10 --level 8 --points 1000000 --mode both --runs 3 --warmup 1)
  AFA=(--iterations 1000 --runs 3 --warmup 1)
  TLA=(-s 150 -i 100 --runs 3 --warmup 1)
fi
# pair TAG LIMIT PROGRAM ARGS...: the sweep (TAG-sweep) and auto's choice (TAG-auto)
pair() {
  local tag=$1 lim=$2; shift 2
  step "$tag-sweep" "$lim" "$@" -q $DEV --variant "$SWEEP" --csv "$RAW/$tag-sweep.csv"
  step "$tag-auto" "$lim" "$@" -q $DEV --variant auto --retune --csv "$RAW/$tag-auto.csv"
}
pair stencil-laplap 90 "$TS" laplap "${ST[@]}"
pair stencil-hdiff 90 "$TS" hdiff "${ST[@]}"
pair stencil-fastwaves 90 "$TS" fastwaves "${FW[@]}"
pair copybench 30 "$CB" "${CBA[@]}"
pair fastsg 60 "$FS" "${FSA[@]}"
pair airfoil 60 "$AF" "${AFA[@]}"
pair lulesh 90 "$TL" "${TLA[@]}"
bench_table
