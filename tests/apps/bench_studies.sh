#!/bin/sh
# tests/apps/bench_studies.sh: scripts/bench/auto.sh and tblock.sh in SMOKE mode (tiny sizes on
# the CPU) against this build's programs (TAP): every program's row of auto.md (auto's choice
# against the sweep), tblock's best per k and its grid, and the unstructured grid's rows.
. "${TSR_TOP_SRCDIR:-${srcdir:-$(dirname "$0")/../..}}/tests/apps/bench_tap.sh"
echo "1..2"

s=0
OUT=$t/o SMOKE=1 bash "$b/auto.sh" "$build/apps" > "$t/out" 2>&1 || s=1
for p in 'tsr-stencil laplap' 'tsr-stencil hdiff' 'tsr-stencil fastwaves' tsr-copybench tsr-airfoil tsr-lulesh; do
  grep -q "^| $p | .* | \(PASS\|FAIL\|not measured\) | [^|]* |\$" "$t/o/auto.md" || s=1
done
[ $s = 0 ] && grep -q '^| tsr-fastsg | D=3 n=4, hierarchize | ' "$t/o/auto.md" &&
  grep -q '^| tsr-fastsg | D=3 n=4, evaluate | ' "$t/o/auto.md" &&
  grep -q '^[0-9] of 8 choices within 5 % of the sweep.s best' "$t/o/auto.md" &&
  grep -q 'tsr-lulesh -s 6 -i 10 .*--variant auto --retune' "$t/o/auto.md" &&
  ok "auto.sh SMOKE: a row per program and choice" || no "auto.sh SMOKE"
OUT=$t/o SMOKE=1 bash "$b/tblock.sh" "$build/apps" > "$t/out" 2>&1 &&
  grep -q '^| laplap | cpu/regular | 1 | ' "$t/o/tblock.md" &&
  grep -q '^| hdiff | cpu/regular/tblock (tb-steps=4 .* | 4 | .* | PASS |$' "$t/o/tblock.md" &&
  grep -q '^| laplap | 1 | 16 | 2 | .* | .* | .* |$' "$t/o/tblock.md" &&
  [ "$(grep -c '^hdiff,' "$t/o/tblock.csv")" -ge 8 ] &&
  grep -q '^| laplap | cpu/unstr/tblock (tb-steps=2 .*order=rowmajor.* | 2 | .* | PASS |$' "$t/o/tblock.md" &&
  grep -q '^| hdiff | cpu/unstr/tblock (tb-steps=2 .*order=zcurve.* | 2 | .* | PASS |$' "$t/o/tblock.md" &&
  ok "tblock.sh SMOKE: best per k and the sweep's grid" || no "tblock.sh SMOKE"
exit $fail
