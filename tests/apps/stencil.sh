#!/bin/sh
# tests/apps/stencil.sh: tsr-stencil end to end (TAP): generated and HDF5
# inputs (regular-grid and xy-grid files from tsr-mkinput) give PASSED
# variants; -o writes the result with its XDMF sidecar; bad inputs (missing
# field, wrong shape, neighbour offsets outside the grid or inconsistent
# with the order, wrong halo, a domain too small for the halo, a warp thread
# shape that is not whole warps, an unknown stencil) fail with a clear
# message and a non-zero exit, without a crash.
. "${TSR_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/apps/tap.sh"
st="$B/apps/tsr-stencil"
mk="$B/apps/tsr-mkinput"
bad="$B/tests/apps/stencil_bad"
tap_scratch tsr-stencil-test
# expect_fail NAME PATTERN CMD...: non-zero exit (not a signal) and PATTERN in the output
expect_fail() {
  name=$1; pat=$2; shift 2
  "$@" > "$t/e" 2>&1; rc=$?
  if [ $rc -ne 0 ] && [ $rc -lt 128 ] && grep -q -- "$pat" "$t/e"; then ok "$name"
  else no "$name (rc $rc)" "$t/e"; fi
}
echo "1..16"
R="--runs 1 --warmup 0 --device cpu"

"$st" hdiff --size 19x15x4 --iterations 2 $R --precision double,float --order rowmajor,zcurve,random \
  --compress no,yes --chase yes,no --csv "$t/h.csv" > "$t/o" 2>&1 &&
  [ "$(grep -c ',PASS,' "$t/h.csv")" -ge 20 ] && ! grep -q FAILED "$t/o" &&
  ok "hdiff: every CPU variant and grid configuration PASSED" || no "hdiff sweep" "$t/o"
"$st" fastwaves --size 19x15x8 --iterations 2 $R --fields soa,aos,aosoa --precision float > "$t/o" 2>&1 &&
  ! grep -q FAILED "$t/o" && ok "fastwaves SoA/AoS/AoSoA float PASSED" || no "fastwaves" "$t/o"
"$mk" grid -q -o "$t/g.h5" --size 20x18x4 --halo 2,2,0 --fields in,coeff &&
  "$st" hdiff -i "$t/g.h5" $R --iterations 3 -o "$t/out.h5" > "$t/o" 2>&1 &&
  ! grep -q FAILED "$t/o" && [ -f "$t/out.h5" ] && [ -f "$t/out.xmf" ] &&
  ok "regular-grid input, output + XDMF" || no "regular-grid input" "$t/o"
"$B/apps/tsr-info" "$t/out.h5" > "$t/i" 2>&1 && grep -q "tsr-stencil" "$t/i" &&
  ok "output carries provenance" || no "provenance" "$t/i"
"$mk" xygrid -q -o "$t/x.h5" --size 20x18x4 --order zcurve --depth 2 --fields in &&
  "$st" laplap -i "$t/x.h5" $R > "$t/o" 2>&1 && ! grep -q FAILED "$t/o" &&
  ok "xy-grid input" || no "xy-grid input" "$t/o"

"$bad" "$t/g.h5" "$t/nofield.h5" nofield &&
  expect_fail "missing field" "fields/coeff is missing" "$st" hdiff -i "$t/nofield.h5" $R
"$bad" "$t/g.h5" "$t/shape.h5" shape &&
  expect_fail "wrong shape" "shape.h5" "$st" laplap -i "$t/shape.h5" $R
"$bad" "$t/x.h5" "$t/outside.h5" outside &&
  expect_fail "neighbour offset outside the grid" "outside.h5" "$st" laplap -i "$t/outside.h5" $R
"$bad" "$t/x.h5" "$t/wrongnb.h5" wrongnb &&
  expect_fail "neighbour offset inconsistent with the order" "neigh\[1\]" "$st" laplap -i "$t/wrongnb.h5" $R
"$mk" grid -q -o "$t/h1.h5" --size 20x18x4 --halo 1,1,0 --fields in &&
  expect_fail "wrong halo" "needs a halo of 2,2,0" "$st" laplap -i "$t/h1.h5" $R
expect_fail "domain too small for the halo" "too small for its halo" "$st" laplap --size 4x20x4 $R
expect_fail "fastwaves Z too small" "too small for its halo" "$st" fastwaves --size 20x20x5 $R
expect_fail "warp shape not whole warps" "multiple of 32" "$st" laplap --variant cuda/unstr/idxvar-warp --threads 24x1x1 $R
expect_fail "unknown stencil" "unknown stencil" "$st" lapla $R
# a pattern selects only the variants made for the stencil; named ones say why they do not run
"$st" fastwaves --size 19x15x8 --iterations 2 $R --variant 'cpu/*' > "$t/o" 2>&1 &&
  ! grep -q 'not run' "$t/o" && grep -q PASS "$t/o" &&
  ok "fastwaves --variant 'cpu/*': laplap's and hdiff's own variants left out, exit 0" ||
  no "fastwaves cpu/*" "$t/o"
expect_fail "fastwaves: a pattern of laplap's variants only" "none of its variants is made for fastwaves" \
  "$st" fastwaves --size 19x15x8 --variant 'cpu/regular/tb*' $R
exit $fail
