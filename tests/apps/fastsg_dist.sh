#!/bin/sh
# tests/apps/fastsg_dist.sh: tsr-fastsg with distributed coefficients
# (--distribute yes) end to end (TAP): the -o file of 2 and 3 ranks holds
# exactly the values and coefficients of the 1-rank (whole-array) file, the
# checksum agrees, -i reads back on distributed ranks, and the distributed
# mode refuses evaluation with one error line.
. "${TSR_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/apps/tap.sh"
exe=$B/apps/tsr-fastsg
mpi="$MPIEXEC --oversubscribe"
OMP_NUM_THREADS=1; export OMP_NUM_THREADS
tap_scratch tsr-fastsg-dist
tmp=$t
tap_log=$tmp/out
echo "1..9"
# raw little-endian bytes of a dataset
raw() { h5dump -d "$2" -b LE -o "$3" "$1" >/dev/null 2>&1; }
args="-d 5 -n 6 --function sinprod --mode hierarchize --runs 1 --warmup 0"
"$exe" $args --variant cpu/hier/plain -o "$tmp/one.h5" >"$tmp/out" 2>&1
if [ $? = 0 ] && grep -q ' PASS ' "$tmp/out"; then ok "1 rank, whole array, -o"; else no "1 rank -o"; fi
sum1=$(grep checksum "$tmp/out")
for np in 2 3; do
  $mpi -n $np "$exe" $args --distribute yes --variant 'cpu/hier/*' -o "$tmp/d$np.h5" >"$tmp/out" 2>&1
  rc=$?
  if [ $rc = 0 ] && [ "$(grep checksum "$tmp/out")" = "$sum1" ] && grep -q 'cpu/hier/ichg1.* PASS .*distributed' "$tmp/out" &&
     grep -q "distributed over $np ranks" "$tmp/out"; then ok "$np ranks distributed: PASS, checksum $sum1"
  else no "$np ranks distributed (exit $rc)"; fi
  if command -v h5dump >/dev/null 2>&1; then
    good=1
    for ds in /values /coefficients /coordinates; do
      raw "$tmp/one.h5" $ds "$tmp/a.bin"; raw "$tmp/d$np.h5" $ds "$tmp/b.bin"
      [ -s "$tmp/a.bin" ] && cmp -s "$tmp/a.bin" "$tmp/b.bin" || { good=0; echo "$ds differs" >"$tmp/out"; }
    done
    if [ $good = 1 ]; then ok "$np ranks: -o values, coefficients, coordinates identical to 1 rank"
    else no "$np ranks: -o identical to 1 rank"; fi
  else
    skip "no h5dump"
  fi
done
# -i the 1-rank file's values on 2 distributed ranks
$mpi -n 2 "$exe" -i "$tmp/one.h5" --mode hierarchize --distribute yes --runs 1 --warmup 0 \
  --variant cpu/hier/ichg1 >"$tmp/out" 2>&1
if [ $? = 0 ] && [ "$(grep checksum "$tmp/out")" = "$sum1" ] && grep -q ' PASS ' "$tmp/out"; then
  ok "-i /values on 2 distributed ranks: the same checksum"; else no "-i on 2 distributed ranks"; fi
# auto: small grids stay whole
$mpi -n 2 "$exe" $args --variant cpu/hier/ichg1 >"$tmp/out" 2>&1
if [ $? = 0 ] && ! grep -q 'distributed over' "$tmp/out"; then ok "auto keeps a small grid whole"
else no "auto keeps a small grid whole"; fi
# evaluation is refused, with one error line
$mpi -n 2 "$exe" -d 3 -n 4 --distribute yes >"$tmp/out" 2>&1; rc=$?
if [ $rc != 0 ] && [ "$(grep -c 'error:' "$tmp/out")" = 1 ] && grep -q 'needs the whole coefficient array' "$tmp/out"; then
  ok "--distribute yes refuses evaluation"; else no "--distribute yes refuses evaluation (exit $rc)"; fi
"$exe" -d 3 -n 4 --distribute maybe >"$tmp/out" 2>&1; rc=$?
if [ $rc != 0 ] && grep -q "expected yes, no or auto" "$tmp/out"; then ok "bad --distribute value"
else no "bad --distribute value"; fi
exit $fail
