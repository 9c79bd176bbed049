#!/bin/sh
# tests/apps/bench_scaling.sh: scripts/bench/scaling.sh in SMOKE mode (tiny sizes on the CPU)
# against this build's programs (TAP): the rows at 1 and 2 ranks, airfoil's grown mesh, and the
# 8-rank cube (or its note when the time budget cuts it).
top=${TSR_TOP_SRCDIR:-${srcdir:-.}}
build=${TSR_TOP_BUILDDIR:-.}
b=$top/scripts/bench
command -v python3 > /dev/null 2>&1 || { echo "1..0 # SKIP no python3"; exit 0; }
command -v bash > /dev/null 2>&1 || { echo "1..0 # SKIP no bash"; exit 0; }
t=${TMPDIR:-/tmp}/tsr-bench-test.$$
mkdir -p "$t" || exit 1
trap '[ -n "${KEEP:-}" ] || rm -rf "$t"' EXIT
n=0; fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); echo "not ok $n - $1"; fail=1; sed 's/^/# /' "$t/out" 2>/dev/null | head -40; }
echo "1..1"

OUT=$t/o SMOKE=1 BUDGET=200 bash "$b/scaling.sh" "$build/apps" > "$t/out" 2>&1 &&
  grep -q '^| laplap strong (µs per step) | staged | cpu/regular | 2 | 2 | 48x48x8 | .* | PASS |$' "$t/o/scaling.md" &&
  grep -q '^| airfoil weak (ms per run) | staged | cpu/ref | 2 | 2 | 3528 cells, 10 it | ' "$t/o/scaling.md" &&
  grep -q '^| lulesh weak, METIS (ms per run) | staged | cpu/gather | 1 | 1 | 6^3, 5 cycles | ' "$t/o/scaling.md" &&
  { grep -q "^| lulesh 8 ranks, LULESH's cube, 4 x one GPU's zones .* | 8 | 8 | 5^3 per rank" "$t/o/scaling.md" ||
    grep -q '^- lulesh-cubeweak-staged-np8: \(not run (time budget\|timed out\)' "$t/o/scaling.md"; } &&
  ok "scaling.sh SMOKE: 1 and 2 ranks, weak airfoil, the cube or its note" || no "scaling.sh SMOKE"

exit $fail
