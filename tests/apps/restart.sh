#!/bin/sh
# restart.sh: --checkpoint-every / --restart of tsr-stencil and tsr-airfoil.
# Checkpoints are written at 1 and 3 ranks and resumed on 2; the resumed
# runs' outputs equal the uninterrupted runs' bit for bit (the stencils on
# any rank count; airfoil on its own rank count, and across rank counts the
# state comes back exactly and the run goes on within the rounding by which
# airfoil's rank counts differ, docs/AIRFOIL.md). Bad restart files and
# options give one error line and exit 1 at 2 ranks, without hanging.
. "${TSR_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/apps/tap.sh"
ST="$B/apps/tsr-stencil"
AF="$B/apps/tsr-airfoil"
CMP="$B/tests/apps/stencil_h5cmp"
for t in timeout h5diff h5dump; do
  command -v $t >/dev/null 2>&1 || { echo "1..0 # SKIP $t (Debian coreutils, hdf5-tools) not found"; exit 0; }
done
[ -x "$CMP" ] || { echo "1..0 # SKIP stencil_h5cmp not built (needs check)"; exit 0; }
tap_scratch tsr-restart
dir=$t
tap_log=$dir/err
echo "1..26"
run() { # run NP COMMAND...: under mpiexec (1 rank: as a singleton), bounded
  _n=$1; shift
  if [ "$_n" = 1 ]; then timeout 300 "$@"; else timeout 300 "$MPIEXEC" -n "$_n" --oversubscribe "$@"; fi
}
# same A B DS_A DS_B: the two datasets hold the same values (h5diff, no tolerance;
# its exit status also counts the attributes, which differ between a checkpoint
# and a mesh)
same() {
  h5diff -r "$1" "$2" "$3" "$4" >"$dir/diff" 2>&1
  grep -q '^0 differences found$' "$dir/diff" && ! grep -qv -e '^dataset:' -e '^0 differences found$' "$dir/diff"
}
iteration() { h5dump -a /iteration "$1" 2>/dev/null | sed -n 's/.*(0): *//p'; }

# ---- stencils: 7 steps; checkpoints at 4 (1 rank, every 4) and 6 (3 ranks, every 3)
for s in laplap hdiff fastwaves; do
  O="$s --size 40x36x12 --iterations 7 --runs 2 --warmup 1 --variant cpu/regular -q"
  out=out
  [ $s = fastwaves ] && out="u_out v_out"
  run 1 "$ST" $O -o "$dir/full.h5" >/dev/null 2>"$dir/err" &&
    run 1 "$ST" $O --checkpoint-every 4 --checkpoint "$dir/c1.h5" >/dev/null 2>>"$dir/err" &&
    run 3 "$ST" $O --checkpoint-every 3 --checkpoint "$dir/c3.h5" >/dev/null 2>>"$dir/err" &&
    [ "$(iteration "$dir/c1.h5")" = 4 ] && [ "$(iteration "$dir/c3.h5")" = 6 ] &&
    [ -z "$(ls "$dir" | grep tmp-)" ]
  ok_rc $? "$s: checkpoints at iterations 4 (1 rank) and 6 (3 ranks), no temporaries left"
  for c in 1 3; do
    run 2 "$ST" $O --restart "$dir/c$c.h5" -o "$dir/r$c.h5" >/dev/null 2>"$dir/err" &&
      "$CMP" "$dir/full.h5" "$dir/r$c.h5" $out >>"$dir/err" 2>&1
    ok_rc $? "$s: the $c-rank checkpoint resumed on 2 ranks equals the uninterrupted run bit for bit"
  done
  cp "$dir/c3.h5" "$dir/$s-c3.h5"
done
# a restart that checkpoints again goes on from the checkpoint's iteration
O="hdiff --size 40x36x12 --iterations 7 --runs 1 --warmup 0 --variant cpu/unstr/idxvar -q"
run 1 "$ST" $O -o "$dir/full.h5" >/dev/null 2>"$dir/err" &&
  run 3 "$ST" $O --iterations 3 --checkpoint-every 2 --checkpoint "$dir/u.h5" >/dev/null 2>>"$dir/err" &&
  [ "$(iteration "$dir/u.h5")" = 2 ] &&
  run 2 "$ST" $O --restart "$dir/u.h5" --checkpoint-every 2 --checkpoint "$dir/u.h5" -o "$dir/ru.h5" \
    >/dev/null 2>>"$dir/err" &&
  [ "$(iteration "$dir/u.h5")" = 6 ] && "$CMP" "$dir/full.h5" "$dir/ru.h5" out >>"$dir/err" 2>&1
ok_rc $? "hdiff unstructured: checkpoint at 2 (3 ranks), restart on 2 checkpointing at 4 and 6 over the same file, bit for bit"

# ---- airfoil: 150 iterations, checkpoints every 60 (the last at 120; rms printed at 100)
A="--size 60x40 --iterations 150 --variant cpu/ref"
hist() { grep -E '^ [0-9]+ ' "$1"; grep -o 'rms=[0-9.e+-]*' "$1"; }
for np in 1 3; do
  run $np "$AF" $A -o "$dir/af$np.h5" >"$dir/full$np.out" 2>"$dir/err" &&
    run $np "$AF" $A --checkpoint-every 60 --checkpoint "$dir/ac$np.h5" >/dev/null 2>>"$dir/err" &&
    [ "$(iteration "$dir/ac$np.h5")" = 120 ] &&
    run $np "$AF" $A --restart "$dir/ac$np.h5" -o "$dir/ar$np.h5" >"$dir/re$np.out" 2>>"$dir/err" &&
    hist "$dir/full$np.out" >"$dir/h1" && hist "$dir/re$np.out" >"$dir/h2" &&
    [ "$(wc -l <"$dir/h1")" = 2 ] && cmp "$dir/h1" "$dir/h2" >>"$dir/err" 2>&1 &&
    h5diff "$dir/af$np.h5" "$dir/ar$np.h5" /p_q /p_q >>"$dir/err" 2>&1
  ok_rc $? "airfoil, $np rank(s): checkpoint at 120 resumed: rms lines, rms to all digits and -o q bit for bit"
done
for np in 1 3; do
  # the state comes back exactly on 2 ranks: no more iterations, q written as read
  run 2 "$AF" $A --iterations 120 --restart "$dir/ac$np.h5" -o "$dir/a0.h5" >"$dir/o" 2>"$dir/err" &&
    same "$dir/ac$np.h5" "$dir/a0.h5" /state/q /p_q &&
    [ "$(grep -E '^ 100 ' "$dir/o")" = "$(grep -E '^ 100 ' "$dir/full$np.out")" ] &&
    run 2 "$AF" $A --restart "$dir/ac$np.h5" >"$dir/o" 2>>"$dir/err" &&
    a=$(grep -o 'rms=[0-9.e+-]*' "$dir/full$np.out" | cut -d= -f2) &&
    b=$(grep -o 'rms=[0-9.e+-]*' "$dir/o" | cut -d= -f2) &&
    awk -v a="$a" -v b="$b" 'BEGIN { d = (a - b) / a; exit !(d < 1e-12 && d > -1e-12) }'
  ok_rc $? "airfoil: the $np-rank checkpoint on 2 ranks: q back bit for bit, rms within 1e-12 of the $np-rank run ($a, $b)"
done

# ---- bad restarts and options: one line, exit 1, at 2 ranks, no hang
bad() { # bad WHAT PATTERN COMMAND...
  what=$1 pat=$2; shift 2
  run 2 "$@" >"$dir/out" 2>"$dir/err"
  rc=$?
  [ $rc -eq 1 ] && [ "$(grep -c 'error:' "$dir/err")" -eq 1 ] && grep -q -- "$pat" "$dir/err"
  ok_rc $? "$what (exit $rc)"
}
L="laplap --size 40x36x12 --iterations 7 --variant cpu/regular -q"
H="hdiff --size 40x36x12 --variant cpu/regular -q"
bad "stencil: a missing restart file" "--restart $dir/none.h5" "$ST" $L --restart "$dir/none.h5"
bad "stencil: a stencil output (kind regular-grid) as restart" "kind 'regular-grid', not a checkpoint" \
  "$ST" $L --restart "$dir/full.h5"
bad "stencil: a fastwaves checkpoint for laplap" "written for stencil=fastwaves, this run has stencil=laplap" \
  "$ST" $L --restart "$dir/fastwaves-c3.h5"
bad "stencil: another size" "written for size=40x36x12, this run has size=40x36x14" \
  "$ST" laplap --size 40x36x14 --iterations 7 --variant cpu/regular -q --restart "$dir/laplap-c3.h5"
bad "stencil: another seed (hdiff's coeff)" "written for constants_hash=" \
  "$ST" $H --iterations 7 --seed 2 --restart "$dir/hdiff-c3.h5"
bad "stencil: a checkpoint beyond --iterations" "holds iteration 6, beyond --iterations 5" \
  "$ST" $H --iterations 5 --restart "$dir/hdiff-c3.h5"
bad "airfoil: a stencil checkpoint" "a checkpoint of tsr-stencil, not of tsr-airfoil" \
  "$AF" $A --restart "$dir/hdiff-c3.h5"
bad "airfoil: another mesh size" "written for nodes=" "$AF" --size 60x42 --iterations 150 --restart "$dir/ac1.h5"
bad "airfoil: float against a double checkpoint" "written for precision=double, this run has precision=float" \
  "$AF" $A -p float --restart "$dir/ac1.h5"
bad "stencil: checkpointing several variants" "make 2 runs" "$ST" laplap --variant cpu/ref,cpu/regular --checkpoint-every 2
bad "--checkpoint without --checkpoint-every" "needs --checkpoint-every" "$AF" $A --checkpoint "$dir/x.h5"
bad "--checkpoint in a missing directory, before computing" "option --checkpoint $dir/no/ck.h5: cannot create" \
  "$ST" $L --checkpoint-every 2 --checkpoint "$dir/no/ck.h5"
