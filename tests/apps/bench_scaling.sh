#!/bin/sh
# tests/apps/bench_scaling.sh: scripts/bench/scaling.sh in SMOKE mode (tiny sizes on the CPU)
# against this build's programs (TAP): the rows at 1 and 2 ranks, airfoil's grown mesh, and the
# 8-rank cube (or its note when the time budget cuts it); STEPS selecting the airfoil steps only.
. "${TSR_TOP_SRCDIR:-${srcdir:-$(dirname "$0")/../..}}/tests/apps/bench_tap.sh"
echo "1..2"

OUT=$t/o SMOKE=1 BUDGET=200 bash "$b/scaling.sh" "$build/apps" > "$t/out" 2>&1 &&
  grep -q '^| laplap strong (µs per step) | staged | cpu/regular | 2 | 2 | 48x48x8 | .* | PASS |$' "$t/o/scaling.md" &&
  grep -q '^| airfoil weak (ms per run) | staged | cpu/ref | 2 | 2 | 3528 cells, 10 it | ' "$t/o/scaling.md" &&
  grep -q '^| lulesh weak, METIS (ms per run) | staged | cpu/gather | 1 | 1 | 6^3, 5 cycles | ' "$t/o/scaling.md" &&
  { grep -q "^| lulesh 8 ranks, LULESH's cube, 4 x one GPU's zones .* | 8 | 8 | 5^3 per rank" "$t/o/scaling.md" ||
    grep -q '^- lulesh-cubeweak-staged-np8: \(not run (time budget\|timed out\)' "$t/o/scaling.md"; } &&
  ok "scaling.sh SMOKE: 1 and 2 ranks, weak airfoil, the cube or its note" || no "scaling.sh SMOKE"

OUT=$t/s SMOKE=1 BUDGET=100 STEPS='^airfoil-staged' bash "$b/scaling.sh" "$build/apps" > "$t/sout" 2>&1 &&
  grep -q '^| airfoil strong (ms per run) | staged | cpu/ref | 2 | 2 | ' "$t/s/scaling.md" &&
  ! grep -q '^| airfoil weak (ms per run)' "$t/s/scaling.md" &&
  ! grep -q '^| laplap' "$t/s/scaling.md" &&
  grep -q '^- laplap-strong-staged-np1: not selected (STEPS=^airfoil-staged)$' "$t/s/scaling.md" &&
  [ "$(grep -c 'exit 125, 0 s\] ' "$t/s/scaling.md")" -ge 10 ] &&
  ok "scaling.sh SMOKE, STEPS: only the selected steps run, the others noted" || no "scaling.sh STEPS"

exit $fail
