#!/bin/sh
# tests/apps/airfoil.sh: tsr-airfoil and tsr-mkairfoil end to end on a small
# generated mesh (TAP). The rms history of a mesh read from HDF5, from a
# converted new_grid.dat and generated in memory must be identical (same
# double arithmetic on the same bits); cpu/ref on the 40x60 mesh passes
# OP2's own rms history and fails (exit 1) when one node of it moves; bad
# inputs must fail with a message naming the file, without a crash.
. "${TSR_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/apps/tap.sh"
af="$B/apps/tsr-airfoil"
mk="$B/apps/tsr-mkairfoil"
tap_scratch tsr-airfoil-test
echo "1..17"

"$mk" -q --size 30x20 -o "$t/g.h5" --dat "$t/g.dat" && ok "tsr-mkairfoil writes HDF5 and new_grid.dat" || no "tsr-mkairfoil writes"
"$mk" -q --from-dat "$t/g.dat" -o "$t/c.h5" && ok "tsr-mkairfoil converts new_grid.dat" || no "tsr-mkairfoil converts"
hist() { grep -E '^ [0-9]+  [0-9.e+-]+ $' "$1"; }
"$af" --device cpu --iterations 300 -i "$t/g.h5" > "$t/a.out" 2>&1 &&
"$af" --device cpu --iterations 300 -i "$t/c.h5" > "$t/b.out" 2>&1 &&
"$af" --device cpu --iterations 300 --size 30x20 > "$t/c.out" 2>&1 &&
  [ "$(hist "$t/a.out" | wc -l)" = 3 ] &&
  [ "$(hist "$t/a.out")" = "$(hist "$t/b.out")" ] && [ "$(hist "$t/a.out")" = "$(hist "$t/c.out")" ] &&
  ok "rms history identical: HDF5, converted .dat, generated" || no "rms histories differ"
"$af" --device cpu --iterations 100 --size 30x20 --precision float > "$t/f.out" 2>&1 &&
  ok "float precision runs" || no "float precision"
# the 40x60 mesh: OP2's history (1e-10 relative) at 1 and 3 ranks; one node moved by 0.1 % fails
"$af" --device cpu --variant cpu/ref --iterations 200 --size 40x60 > "$t/s1.out" 2>&1 &&
  "$MPIEXEC" -n 3 --oversubscribe "$af" --device cpu --variant cpu/ref --iterations 200 \
    --size 40x60 --reorder gps > "$t/s3.out" 2>&1 &&
  grep -q 'cpu/ref: PASSED OP2 reference (40x60 mesh)' "$t/s1.out" &&
  grep -q 'cpu/ref: PASSED OP2 reference (40x60 mesh)' "$t/s3.out" &&
  grep -q '^partition: owned cells per rank 2400 mean, 2[45][0-9][0-9] max (1\.[0-9]*); executed edges' "$t/s3.out" &&
  ok "cpu/ref on the 40x60 mesh passes OP2's rms history at 1 and 3 ranks; the partition's balance printed" ||
  no "OP2's 40x60 history" "$t/s3.out"
"$mk" -q --size 40x60 -o "$t/s.h5" --dat "$t/s.dat" &&
  awk 'NR == 1000 {$2 = $2 * 1.001} {print}' "$t/s.dat" > "$t/p.dat" &&
  "$mk" -q --from-dat "$t/p.dat" -o "$t/p.h5" &&
  { "$af" --device cpu --iterations 200 -i "$t/p.h5" > "$t/p.out" 2>&1; [ $? -eq 1 ]; } &&
  grep -q 'cpu/ref: FAILED OP2 reference (40x60 mesh)' "$t/p.out" &&
  ok "a moved node of the 40x60 mesh fails OP2's history (exit 1)" || no "moved node" "$t/p.out"
# every CUDA variant against cpu/ref (PASSED), or "not run" without a GPU
"$af" --iterations 100 --size 30x20 --variant 'cuda/*,cpu/ref' > "$t/v.out" 2>&1
if grep -q FAILED "$t/v.out"; then no "CUDA variants match cpu/ref"; else ok "CUDA variants match cpu/ref or are not run"; fi

# every reordering keeps the history (printed to 5 digits; tests/mpi proves 1e-12)
for r in gps rcm partition; do
  "$af" --device cpu --iterations 300 --size 30x20 --reorder $r --block 64 > "$t/r$r.out" 2>&1 || fail=1
done
[ "$(hist "$t/rgps.out")" = "$(hist "$t/c.out")" ] && [ "$(hist "$t/rrcm.out")" = "$(hist "$t/c.out")" ] &&
  [ "$(hist "$t/rpartition.out")" = "$(hist "$t/c.out")" ] &&
  grep -q "bandwidth" "$t/rgps.out" && grep -q "cell reuse" "$t/rpartition.out" &&
  ok "GPS, RCM and partition reorderings keep the rms history and report" || no "reorderings"
"$af" --device cpu --iterations 20 -i "$t/g.h5" -o "$t/out.h5" > "$t/o.out" 2>&1 &&
  [ -s "$t/out.h5" ] && [ -s "$t/out.xmf" ] && grep -q "pressure" "$t/out.xmf" &&
  ok "-o writes the solution with an XDMF sidecar" || no "-o output"
"$af" --device cpu --reorder sideways > "$t/e5" 2>&1; rc=$?
[ $rc -ne 0 ] && grep -q "reorder" "$t/e5" && ok "bad --reorder" || no "bad --reorder (rc $rc)"
"$af" --device cpu --partitioner chaco > "$t/e6" 2>&1; rc=$?
[ $rc -ne 0 ] && grep -q "partitioner 'chaco': expected auto, metis or ptscotch" "$t/e6" &&
  ok "bad --partitioner" || no "bad --partitioner (rc $rc)"
"$af" --device cpu --l2-persist sometimes > "$t/e7" 2>&1; rc=$?
[ $rc -ne 0 ] && [ "$(wc -l < "$t/e7")" -eq 1 ] &&
  grep -q "l2-persist: 'sometimes', expected auto, on or off" "$t/e7" &&
  ok "bad --l2-persist: one line" || no "bad --l2-persist (rc $rc)"
"$af" --device cpu --iterations 5 --size 30x20 --partitioner metis > "$t/p1" 2>&1 &&
  grep -q "(metis)" "$t/p1" && ok "--partitioner metis" || no "--partitioner metis"

printf 'garbage\n' > "$t/bad.h5"
"$af" --device cpu -i "$t/bad.h5" > "$t/e1" 2>&1; rc=$?
[ $rc -ne 0 ] && grep -q "bad.h5: not an HDF5 file" "$t/e1" && ok "non-HDF5 file: one clear error" || no "non-HDF5 file (rc $rc)"
"$af" --device cpu -i "$t/missing.h5" > "$t/e2" 2>&1; rc=$?
[ $rc -ne 0 ] && grep -q "missing.h5" "$t/e2" && ok "missing file" || no "missing file (rc $rc)"
head -c 100 "$t/g.dat" > "$t/short.dat"
"$mk" --from-dat "$t/short.dat" -o "$t/x.h5" > "$t/e3" 2>&1; rc=$?
[ $rc -ne 0 ] && grep -q "short.dat" "$t/e3" && ok "truncated new_grid.dat" || no "truncated new_grid.dat (rc $rc)"
"$af" --device cpu --precision half > "$t/e4" 2>&1; rc=$?
[ $rc -ne 0 ] && grep -q "precision" "$t/e4" && ok "bad option" || no "bad option (rc $rc)"
exit $fail
