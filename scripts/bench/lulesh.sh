#!/bin/bash
# scripts/bench/lulesh.sh BINDIR: LULESH's Sedov problem on one GPU at -s 50, 100, 150 and 200
# for ITERS cycles (default 200, LULESH's -i): every CUDA node-force assembly of tsr-lulesh
# (cuda/gather, cuda/atomic, cuda/colour, cuda/twolevel, cuda/atomic-fma) with the mesh in
# LULESH's order, at -s 150 also with the GPS element order (ORDERS; METIS's blocks of 128
# elements take over 2 minutes to compute on the host at -s 150), beside LLNL's official CUDA
# port (LLNL/LULESH branch 2.0.2-dev, cuda/, built by scripts/peers/build-lulesh-cuda.sh into
# PEERDIR as lulesh_llnl_cuda) on the same GPU. Ours: tsr-lulesh's median of 3 runs after one
# untimed (each run is the whole simulation from the initial state); the port's: its own
# "Elapsed time" of its single run. Grind time is microseconds per zone per cycle; the figure
# of merit zone-cycles per second. Every tsr-lulesh row is verified (LULESH's serial reference
# where one matches, else its own CPU-vs-GPU and energy checks); the port's Final Origin Energy
# (6 digits) is compared with ours. Writes $OUT/lulesh.csv and $OUT/lulesh.md; see common.sh.
# About 6 minutes on an H100.
. "$(dirname "$0")/common.sh"
bench_init lulesh 560 "$@"
TL=$(bench_tool tsr-lulesh)
S=$(mktemp -d "${TMPDIR:-/tmp}/lulesh.XXXXXX")
trap 'rm -rf "$S"' EXIT
if [ "$SMOKE" = 1 ]; then
  SIZES="5 8" ITERS=${ITERS:-10} VARIANTS=cpu/gather RUNS=1 ORDER_AT=8 ORDERS=${ORDERS:-"gps metis"}
else
  SIZES="50 100 150 200" ITERS=${ITERS:-200} RUNS=3 ORDER_AT=150 ORDERS=${ORDERS:-gps}
  VARIANTS=cuda/gather,cuda/atomic,cuda/colour,cuda/twolevel,cuda/atomic-fma
fi
# the port writes every node's coordinates to ./xyz.asc after its timed loop: a scratch
# directory whose xyz.asc is /dev/null
PORT=0
if [ "$SMOKE" != 1 ] && bench_peer "$PEER/lulesh_llnl_cuda" "LLNL's LULESH CUDA port"; then
  PORT=1
  mkdir -p "$S/llnl" && ln -sf /dev/null "$S/llnl/xyz.asc"
fi
for s in $SIZES; do
  [ $PORT = 1 ] && STEP_DIR=$S/llnl step "llnl-s$s" 90 "$PEER/lulesh_llnl_cuda" -s $s -i $ITERS
  step "tsr-lulesh-s$s" 150 "$TL" -q $DEV -s $s -i $ITERS --variant $VARIANTS --runs $RUNS \
    --warmup 1 --csv "$RAW/tsr-lulesh-s$s.csv"
  if [ "$s" = "$ORDER_AT" ]; then
    for o in $ORDERS; do
      step "tsr-lulesh-s$s-$o" 150 "$TL" -q $DEV -s $s -i $ITERS --variant $VARIANTS --reorder $o \
        --runs $RUNS --warmup 1 --csv "$RAW/tsr-lulesh-s$s-$o.csv"
    done
  fi
done
bench_table
