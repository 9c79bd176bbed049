#!/bin/sh
# tests/apps/lulesh_ckpt.sh: tsr-lulesh's checkpoints and restarts (TAP).
# - one rank and three ranks (--decomp metis): a run of -s 6 checkpointed
#   after cycles 20 and 40 of -i 40, restarted from the checkpoint, ends as
#   the uninterrupted run bit for bit (the -o files' datasets, the printed
#   e(0) and sum e with all digits, the cycle count);
# - a checkpoint written at 1 and at 3 ranks, restarted on 2: the
#   uninterrupted 2-rank run's cycles, e(0) and sum e within REL (the history
#   before the checkpoint summed the shared nodes' forces over other rank
#   counts: docs/LULESH.md, "Rank-count tolerance");
# - -s 10 checkpointed after cycle 2 and restarted: LULESH's reference check
#   PASSes, with the dt of cycles 1-3 (two from the checkpoint);
# - a checkpoint of another problem (-s, -r) is refused in one line naming
#   the key, at 2 ranks, with a non-zero exit; so is one beyond -i;
# - on a GPU: cuda/gather restarted ends as its uninterrupted run bit for
#   bit, cuda/atomic within REL (SKIP without a GPU).
. "${TSR_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/apps/lulesh_tap.sh"
tap_scratch tsr-lulesh-ckpt
REL=1e-12
bits() { # FILE REF: the same cycles and energies, every digit
  for l in "Iteration count" "Origin energy e(0)" "Total energy sum e"; do
    [ -n "$(val "$1" "$l")" ] && [ "$(val "$1" "$l")" = "$(val "$2" "$l")" ] || return 1
  done
}
h5same() { # A B: every dataset of the -o file the same bits (h5diff, from HDF5's tools; a
  # machine without them compares the printed energies only)
  command -v h5diff > /dev/null 2>&1 || { echo "# h5diff not found: the -o files not compared"; return 0; }
  for d in elem_nodes elem_faces elem_bc region coords velocity e p q v time cycles e_origin e_total; do
    h5diff "$1" "$2" "/$d" "/$d" > /dev/null 2>&1 || { echo "# /$d differs"; return 1; }
  done
}
lulesh_gpu
echo "1..7"

for np in 1 3; do
  run $np "$t/full$np" --device cpu --variant cpu/gather -s 6 --decomp metis -o "$t/full$np.h5"
  run $np "$t/part$np" --device cpu --variant cpu/gather -s 6 --decomp metis -i 40 --checkpoint-every 20 --checkpoint "$t/ck$np.h5"; rc1=$?
  run $np "$t/rest$np" --device cpu --variant cpu/gather -s 6 --decomp metis --restart "$t/ck$np.h5" -o "$t/rest$np.h5" -p; rc2=$?
  # it resumed: the first cycle it runs is 41
  [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && grep -q '^checkpoint at cycle 40 written to' "$t/part$np" &&
    grep -q "^Restart from $t/ck$np.h5: cycle 40, time " "$t/rest$np" &&
    [ "$(grep -m 1 '^cycle = ' "$t/rest$np" | sed 's/,.*//')" = "cycle = 41" ] &&
    bits "$t/rest$np" "$t/full$np" && h5same "$t/rest$np.h5" "$t/full$np.h5" &&
    ok "$np rank(s): restarted at cycle 40, the uninterrupted run bit for bit ($(val "$t/rest$np" "Iteration count") cycles)" ||
    no "$np rank(s): restart (rc $rc1 $rc2)" "$t/rest$np"
done

run 2 "$t/full2" --device cpu --variant cpu/gather -s 6 --decomp metis
for np in 1 3; do
  run 2 "$t/r${np}to2" --device cpu --variant cpu/gather -s 6 --decomp metis --restart "$t/ck$np.h5"; rc=$?
  [ $rc -eq 0 ] && near "$t/r${np}to2" "$t/full2" &&
    ok "checkpoint of $np rank(s) restarted on 2: the 2-rank run within $REL" ||
    no "checkpoint of $np rank(s) on 2 (rc $rc)" "$t/r${np}to2"
done

run 1 "$t/p10" --device cpu --variant cpu/gather -s 10 -i 2 --checkpoint-every 2 --checkpoint "$t/ck10.h5" -q
run 2 "$t/r10" --device cpu --variant cpu/gather -s 10 --decomp metis --restart "$t/ck10.h5"; rc=$?
[ $rc -eq 0 ] && grep -q '^Reference check      = PASS (231 cycles as LULESH; .*dt of cycles 1-3 rel diff' "$t/r10" &&
  ok "-s 10 restarted after cycle 2 on 2 ranks: LULESH's reference PASS (dt of cycles 1-3 too)" ||
  no "-s 10 restart (rc $rc)" "$t/r10"

run 2 "$t/bs" --device cpu --variant cpu/gather -s 5 --decomp metis --restart "$t/ck1.h5"; rs=$?
run 2 "$t/br" --device cpu --variant cpu/gather -s 6 -r 5 --decomp metis --restart "$t/ck1.h5"; rr=$?
run 2 "$t/bi" --device cpu --variant cpu/gather -s 6 -i 30 --decomp metis --restart "$t/ck1.h5"; ri=$?
[ $rs -ne 0 ] && [ $rr -ne 0 ] && [ $ri -ne 0 ] && [ "$(grep -c '^tsr-lulesh: error:' "$t/bs")" = 1 ] &&
  [ "$(grep -c '^tsr-lulesh: error:' "$t/br")" = 1 ] && [ "$(grep -c '^tsr-lulesh: error:' "$t/bi")" = 1 ] &&
  grep -q "holds cycle 40, beyond -i 30" "$t/bi" &&
  grep -q "^tsr-lulesh: error: --restart $t/ck1.h5: written for size=6, this run has size=5" "$t/bs" &&
  grep -q "written for regions=11, this run has regions=5" "$t/br" &&
  ok "a checkpoint of another -s or -r, or beyond -i: refused in one line" ||
  { no "mismatch (rc $rs $rr $ri)" "$t/bs"; sed 's/^/# /' "$t/br" "$t/bi"; }

if [ $gpu = 1 ]; then
  good=1
  for v in cuda/gather cuda/atomic; do
    run 2 "$t/gf" -s 6 --decomp metis --variant $v || good=0
    run 2 "$t/gp" -s 6 --decomp metis --variant $v -i 40 --checkpoint-every 40 --checkpoint "$t/gck.h5" || good=0
    run 2 "$t/gr" -s 6 --decomp metis --variant $v --restart "$t/gck.h5" || good=0
    if [ $v = cuda/gather ]; then bits "$t/gr" "$t/gf" || good=0; else near "$t/gr" "$t/gf" || good=0; fi
    [ $good = 1 ] || sed 's/^/# /' "$t/gr"
  done
  [ $good = 1 ] && ok "GPU: cuda/gather restarted bit for bit, cuda/atomic within $REL" || no "GPU restarts"
else
  skip "no GPU"
fi
exit $fail
