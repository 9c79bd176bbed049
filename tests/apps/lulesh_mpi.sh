#!/bin/sh
# tests/apps/lulesh_mpi.sh: tsr-lulesh on several ranks (TAP).
# - rank-count invariance: the global cube of edge 8 to completion at 1, 2, 3,
#   4 and 8 ranks (METIS and block, block the default at 3 ranks; 8 ranks
#   also LULESH's cube decomposition at -s 4) gives the 1-rank cycle count,
#   e(0) and total energy within REL (below); block at 8 ranks reports its
#   2 x 2 x 2 boxes of 64 elements and 217 interface nodes;
# - block on 8 ranks at -s 10 is LULESH's -np 8 -s 5: 231 cycles, PASS;
# - LULESH's decomposition: -np 8 -s 5 is 1-rank -s 10: 231 cycles, LULESH's
#   e(0) = 2.7205311684703469e+04 (reference check PASS) and the 1-rank e(0)
#   and total energy within REL;
# - -p prints its progress lines once (rank 0);
# - rank counts a decomposition cannot use (-np 2 --decomp cube, more ranks
#   than elements for METIS, more ranks than elements along every cut for
#   block): one line, non-zero exit, no hang (timeout);
# - the CUDA variants on several ranks (the ranks share the GPUs present): on
#   a GPU, -np 8 -s 5 --variant cuda/atomic PASSes against LULESH's -s 10
#   reference and 1-rank -s 10's energies, and every CUDA variant at -np 3
#   -s 8 --decomp metis (-i 20) gives the CPU's parts' cycles and energies
#   within REL (--halo staged, and ipc for cuda/gather and cuda/twolevel;
#   the exchanges overlapped with interior work, and --no-overlap for
#   cuda/gather and cuda/atomic); without a GPU, the CUDA variants of a
#   --variant all run on two ranks (--no-overlap accepted) are "not run" rows.
# REL = 1e-12: the rank count only regroups the sums of the forces and masses
# of shared nodes (per-rank partial sums, then their sum), a rounding
# difference of a few ulp per node and cycle. Measured: e(0) and the total
# energy within 2e-15 relative of the 1-rank run at every rank count here;
# 1e-12 is LULESH reference check's tolerance, far below any error in an
# exchange (a missed ghost or force contribution moves e(0) in the 3rd digit).
. "${TSR_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/apps/lulesh_tap.sh"
tap_scratch tsr-lulesh-mpi
REL=1e-12
run_limit=300
lulesh_gpu
echo "1..16"

run 1 "$t/r1" -s 8
for np in 2 3 4 8; do
  run $np "$t/r$np" -s 8 --decomp metis; rc=$?
  [ $rc -eq 0 ] && near "$t/r$np" "$t/r1" &&
    ok "-s 8 --decomp metis at $np ranks: 1 rank's cycles, e(0), sum e within $REL" ||
    no "-s 8 --decomp metis at $np ranks (rc $rc)" "$t/r$np"
done
for np in 2 3 4 8; do
  if [ $np = 3 ]; then run 3 "$t/b3" -s 8; else run $np "$t/b$np" -s 8 --decomp block; fi; rc=$?
  [ $rc -eq 0 ] && near "$t/b$np" "$t/r1" &&
    grep -q "^Num processors: $np (block decomposition, global cube 8^3)$" "$t/b$np" &&
    { [ $np != 8 ] || { grep -q '^Partition: 2 x 2 x 2 boxes, elements per rank max 64, mean 64.0 (max/mean 1.0000); 217 interface nodes' "$t/b8" &&
        grep -q '^   Interface nodes     =  217 (' "$t/b8"; }; } &&
    ok "-s 8 --decomp block at $np ranks$([ $np = 3 ] && echo ' (the default)'): 1 rank's cycles, e(0), sum e within $REL" ||
    no "-s 8 --decomp block at $np ranks (rc $rc)" "$t/b$np"
done
run 8 "$t/c8" -s 4; rc=$?
[ $rc -eq 0 ] && grep -q '^Num processors: 8 (cube decomposition, global cube 8^3)$' "$t/c8" &&
  near "$t/c8" "$t/r1" && ok "-np 8 -s 4 (cube): 1-rank -s 8's cycles, e(0), sum e" ||
  no "-np 8 -s 4 (rc $rc)" "$t/c8"

run 8 "$t/c10" -s 5; rc=$?
run 1 "$t/s10" -s 10
[ $rc -eq 0 ] && grep -q '^   Iteration count     =  231$' "$t/c10" &&
  grep -q '^Reference check      = PASS (231 cycles as LULESH; e(0) rel diff' "$t/c10" &&
  grep -q '^   MPI tasks           =  8$' "$t/c10" && near "$t/c10" "$t/s10" &&
  ok "-np 8 -s 5 is -s 10: 231 cycles, LULESH's e(0) (PASS), 1 rank's energies" ||
  no "-np 8 -s 5 (rc $rc)" "$t/c10"

run 8 "$t/b10" -s 10 --decomp block; rc=$?
[ $rc -eq 0 ] && grep -q '^   Iteration count     =  231$' "$t/b10" &&
  grep -q '^Reference check      = PASS (231 cycles as LULESH; e(0) rel diff' "$t/b10" &&
  near "$t/b10" "$t/c10" && ok "-np 8 -s 10 --decomp block is -np 8 -s 5 (cube): 231 cycles, PASS" ||
  no "-np 8 -s 10 --decomp block (rc $rc)" "$t/b10"

run 2 "$t/p" -s 6 -i 5 -p; rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '^cycle = [1-5], time = ' "$t/p")" = 5 ] &&
  [ "$(grep -c '^Run completed:$' "$t/p")" = 1 ] &&
  ok "-np 2 -p: 5 progress lines and one Run completed block" || no "-np 2 -p (rc $rc)" "$t/p"

# the CUDA variants on several ranks
if [ $gpu = 1 ]; then
  run 8 "$t/g10" -s 5 --variant cuda/atomic; rc=$?
  [ $rc -eq 0 ] && grep -q '^   Iteration count     =  231$' "$t/g10" &&
    grep -q '^Reference check      = PASS (231 cycles as LULESH; e(0) rel diff' "$t/g10" &&
    grep -q '^   MPI tasks           =  8$' "$t/g10" && near "$t/g10" "$t/s10" &&
    ok "-np 8 -s 5 --variant cuda/atomic: 231 cycles, LULESH's e(0) (PASS), 1 rank's energies" ||
    no "-np 8 -s 5 --variant cuda/atomic (rc $rc)" "$t/g10"
  run 3 "$t/gc" -s 8 -i 20 --decomp metis --variant cpu/gather; rc0=$?
  bad=""
  for v in "cuda/gather --halo ipc" "cuda/twolevel --halo ipc" cuda/gather cuda/atomic \
           cuda/colour cuda/twolevel cuda/atomic-fma "cuda/gather --no-overlap" \
           "cuda/atomic --no-overlap"; do
    run 3 "$t/gv" -s 8 -i 20 --decomp metis --variant $v; rc=$?
    { [ $rc0 -eq 0 ] && [ $rc -eq 0 ] && near "$t/gv" "$t/gc"; } || { bad="$bad [$v: rc $rc]"; cat "$t/gv" >> "$t/gbad"; }
  done
  [ -z "$bad" ] && ok "-np 3 -s 8 -i 20 --decomp metis: every CUDA variant gives the CPU's cycles and energies" ||
    no "-np 3 CUDA variants:$bad" "$t/gbad"
  skip "CUDA variants on two ranks without a GPU: there is a GPU"
else
  skip "-np 8 -s 5 --variant cuda/atomic: no GPU"
  skip "-np 3 CUDA variants against the CPU's parts: no GPU"
  run 2 "$t/na" -s 6 -i 5 --variant all --no-overlap --csv "$t/na.csv"; rc=$?
  bad=""
  for v in cuda/gather cuda/atomic cuda/colour cuda/twolevel cuda/atomic-fma; do
    grep -q "^lulesh  *$v .*  not run: \(built without CUDA\|no CUDA device\)$" "$t/na" || bad="$bad $v"
  done
  [ $rc -eq 0 ] && [ -z "$bad" ] && grep -q '^lulesh,cpu/gather,' "$t/na.csv" &&
    ok "-np 2 --variant all without a GPU: the CUDA variants are 'not run' rows with the reason" ||
    no "-np 2 --variant all without a GPU (rc $rc:$bad)" "$t/na"
fi

# rank counts a decomposition cannot use: one line, non-zero exit, no hang
bad=""
for c in "2 -s 5 --decomp cube" "3 -s 1 --decomp metis" "3 -s 2 --decomp block"; do
  set -- $c; np=$1; shift
  timeout -k 10 120 "$MPIEXEC" -n "$np" --oversubscribe "$x" "$@" > "$t/o" 2> "$t/e"; rc=$?
  { [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ "$(cat "$t/o" "$t/e" | grep -c '^tsr-lulesh: ')" = 1 ] &&
    grep -q '^tsr-lulesh: error: lulesh: .*rank' "$t/e"; } || bad="$bad [-np $c: rc $rc]"
done
[ -z "$bad" ] && ok "bad rank counts: one line, non-zero exit, no hang" || no "bad rank counts:$bad" "$t/e"
exit $fail
