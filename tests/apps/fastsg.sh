#!/bin/sh
# tests/apps/fastsg.sh: tsr-fastsg end to end (TAP): small grids on every
# CPU variant (and CUDA ones when a GPU is present), the SG++ value, identical
# coefficients for 1 and 3 ranks, and bad input (one error line, exit != 0).
. "${TSR_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/apps/tap.sh"
exe=$B/apps/tsr-fastsg
mpi="$MPIEXEC --oversubscribe"
OMP_NUM_THREADS=1; export OMP_NUM_THREADS
tap_scratch tsr-fastsg-test
tmp=$t
tap_log=$tmp/out
echo "1..30"
# run NAME EXPECT(0|1) ARGS...: exit status 0 or non-zero as expected (one rank,
# started without mpiexec: an MPI singleton starts in a third of the time)
run() {
  name=$1; want=$2; shift 2
  "$exe" "$@" >"$tmp/out" 2>&1; rc=$?
  if [ "$want" = 0 ] && [ $rc = 0 ]; then ok "$name"; return 0; fi
  if [ "$want" = 1 ] && [ $rc != 0 ]; then ok "$name"; return 0; fi
  no "$name (exit $rc)"; return 1
}
# bad NAME PATTERN ARGS...: non-zero exit and exactly one error line matching PATTERN
bad() {
  name=$1; pat=$2; shift 2
  "$exe" "$@" >"$tmp/out" 2>&1; rc=$?
  lines=$(grep -c 'error:' "$tmp/out")
  if [ $rc != 0 ] && [ "$lines" = 1 ] && grep -q "$pat" "$tmp/out"; then ok "$name"
  else no "$name (exit $rc, $lines error lines, want '$pat')"; fi
}

run "all CPU variants, D=3 n=5, double" 0 -d 3 -n 5 --points 500 --runs 1 --warmup 0 --variant 'cpu/*'
ncpu=$("$exe" --list-variants | grep -c '^cpu/')
if [ "$(grep -c ' PASS ' "$tmp/out")" = "$ncpu" ]; then ok "$ncpu CPU rows PASS"; else no "$ncpu CPU rows PASS"; fi
run "all CPU variants, D=2 n=7, float, sinprod" 0 -d 2 -n 7 --precision float --function sinprod \
  --points 300 --runs 1 --warmup 0 --variant 'cpu/*'
run "SG++ value at (0.52, 0.73)" 0 -d 2 -n 3 --mode hierarchize --runs 1 --eval-point 0.52,0.73 \
  --variant cpu/hier/plain
if grep -q 'u(0.52.*) = 0.7696' "$tmp/out"; then ok "interpolant = 0.7696"; else no "interpolant = 0.7696"; fi
# one rank and three ranks: the same coefficients and errors
for np in 1 3; do
  $mpi -n $np "$exe" -d 4 -n 5 --points 999 --runs 1 --warmup 0 \
    --variant 'cpu/hier/inv4,cpu/eval/ichg2' >"$tmp/np$np" 2>&1 || echo "exit $? at -np $np" >>"$tmp/np$np"
done
s1=$(grep checksum "$tmp/np1"); s3=$(grep checksum "$tmp/np3")
e1=$(grep -o 'maxerr=[^ ]* l2=[^ ]*' "$tmp/np1"); e3=$(grep -o 'maxerr=[^ ]* l2=[^ ]*' "$tmp/np3")
cat "$tmp/np1" "$tmp/np3" >"$tmp/out"
if [ -n "$s1" ] && [ "$s1" = "$s3" ] && [ -n "$e1" ] && [ "$e1" = "$e3" ] && ! grep -q 'FAIL\|exit' "$tmp/out"; then
  ok "1 and 3 ranks agree ($s1)"; else no "1 and 3 ranks agree"; fi
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  run "all CUDA variants, D=3 n=6" 0 -d 3 -n 6 --points 2000 --runs 1 --variant 'cuda/*'
else
  skip "no CUDA device"
fi
bad "D out of range" "dimension D = 40 is out of range" -d 40
bad "n out of range" "level n = 0 is out of range" -n 0
bad "grid too large for memory" "do not fit in the" -d 10 -n 20
bad "point outside [0,1]^D" "outside \[0,1\]" -d 2 --eval-point 0.5,1.5
bad "unknown mode" "expected hierarchize, evaluate or both" --mode fast
bad "an option the app does not take (--iterations)" "unknown option '--iterations'" --iterations 3

# HDF5: -o then -i round trip, files written by tests/apps/fastsg_mkbad
h5=$tmp/h5; mkdir -p "$h5"
if "$B/tests/apps/fastsg_mkbad" "$h5" >"$tmp/out" 2>&1; then ok "fastsg_mkbad"; else no "fastsg_mkbad"; fi
run "-o with every dataset" 0 -d 3 -n 5 --points 300 --runs 1 --warmup 0 \
  --variant 'cpu/hier/inv3,cpu/eval/sred1' -o "$h5/out.h5"
sum1=$(grep checksum "$tmp/out")
if command -v h5dump >/dev/null 2>&1; then
  h5dump -H "$h5/out.h5" >"$tmp/out" 2>&1
  if grep -q 'DATASET "coefficients"' "$tmp/out" && grep -q 'DATASET "coordinates"' "$tmp/out" &&
     grep -q 'DATASET "results"' "$tmp/out" && grep -q 'ATTRIBUTE "commit"' "$tmp/out" &&
     grep -q 'SIMPLE { ( 351 ) / ( 351 ) }' "$tmp/out"; then ok "-o datasets and provenance"
  else no "-o datasets and provenance"; fi
else
  skip "no h5dump"
fi
# reading it back on 2 ranks: D and n from the file, the same coefficients and errors
$mpi -n 2 "$exe" -i "$h5/out.h5" --runs 1 --warmup 0 --variant 'cpu/hier/plain,cpu/eval/vec1' \
  >"$tmp/out" 2>&1; rc=$?
if [ $rc = 0 ] && grep -q 'D = 3, n = 5' "$tmp/out" && [ "$(grep checksum "$tmp/out")" = "$sum1" ] &&
   grep -q '300 evaluation points from' "$tmp/out" && [ "$(grep -c ' PASS ' "$tmp/out")" = 2 ]; then
  ok "-i round trip on 2 ranks (D, n, values, points from the file)"
else no "-i round trip on 2 ranks"; fi
run "-i values, points and f at them (mkbad good.h5)" 0 -i "$h5/good.h5" --runs 1 --warmup 0 \
  --variant 'cpu/hier/plain,cpu/eval/plain' --eval-point 0.52,0.73
if grep -q 'u(0.52.*) = 0.7696' "$tmp/out" && grep -q 'maxerr=' "$tmp/out"; then
  ok "values from a file: SG++ value 0.7696, error at /point_values"; else no "values from a file"; fi
run "-i without attributes, D and n given" 0 -i "$h5/noattr.h5" -d 2 -n 3 --runs 1 --warmup 0 \
  --variant cpu/eval/plain --points 50
bad "-i /values of the wrong length" "dataset '/values': expected \[17\] values.*found \[16\]" \
  -i "$h5/short.h5"
bad "-i without attributes, wrong n" "expected \[5\] values.*found \[17\]" \
  -i "$h5/noattr.h5" -d 2 -n 2
bad "-i /points with D+1 columns" "dataset '/points': expected \[M\]\[2\].*found \[5, 3\]" \
  -i "$h5/pointsdim.h5"
bad "-i /points outside [0,1]^D" "coordinate 1 of point 2 is 1.5, outside" -i "$h5/outside.h5"
bad "-i /point_values of the wrong length" "'/point_values': expected \[5\] values.*found \[4\]" \
  -i "$h5/pvlen.h5"
bad "-i /values with a NaN" "the value at position 3 is not finite" -i "$h5/nan.h5"
bad "-i with nothing to read" "neither '/values'" -i "$h5/empty.h5"
bad "-i of another kind" "expected kind 'sparse-grid'" -i "$h5/kind.h5"
bad "-i with --dim differing from the file's" "the file's grid has dim = 2, but --dim 3" \
  -i "$h5/good.h5" -d 3
bad "-i missing file" "cannot open" -i "$h5/nosuch.h5"
exit $fail
