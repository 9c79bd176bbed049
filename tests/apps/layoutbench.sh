#!/bin/sh
# tests/apps/layoutbench.sh: tsr-layoutbench end to end on small sizes (TAP):
# CPU matmul combinations verified (PASS), the baseline and payoff rows, the
# transforms, the runtime stencil build, CSV rows, CUDA rows skipped or
# verified, bad options refused with a message.
. "${TSR_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/apps/tap.sh"
lb="$B/apps/tsr-layoutbench"
tap_scratch tsr-layoutbench-test
echo "1..8"

[ "$("$lb" --list-variants | grep -c '^ *cpu/matmul/')" = 216 ] &&
  ok "216 CPU matmul combinations listed" || no "list of CPU matmul combinations"

"$lb" --variant 'cpu/matmul/*=R,cpu/matmul/RRxRC=CC,cpu/transform/*' --size 40,67 --runs 2 \
  --cpu-runs 1 --warmup 0 --csv "$t/m.csv" > "$t/m.out" 2>&1; rc=$?
[ $rc -eq 0 ] && ok "CPU matmul and transform run" || no "CPU matmul run (rc $rc)" "$t/m.out"
# 37 matmul rows + 1 best+transform row + 10 transforms, per size
[ "$(grep -c ',PASS,' "$t/m.csv")" = $((2 * 47)) ] && ! grep -q FAIL "$t/m.csv" &&
  ok "every matmul and transform row verified (PASS)" || no "verification rows ($(grep -c ',PASS,' "$t/m.csv"))"
grep -q '^layout,cpu/matmul/RxR=R,.*speedup=1.000' "$t/m.csv" &&
  grep -q '^layout,cpu/matmul/.*,best+transform,' "$t/m.csv" &&
  ok "baseline speed-up 1 and a best+transform row" || no "baseline/payoff rows"

"$lb" --variant 'cpu/stencil/*' --stencil-size 20x10x12 --iterations 3 --stencil-runs 1 \
  --csv "$t/s.csv" > "$t/s.out" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q '^layout,cpu/stencil/gcc/runtime,.*,PASS,' "$t/s.csv" &&
  grep -q 'cpu/stencil/gcc/cloops.*not run: compiled for 32x32x1048576' "$t/s.out" &&
  ! grep -q 'cpu/stencil/gcc/cloops' "$t/s.csv" &&
  ok "stencil runtime build verified, constant builds skip another grid" ||
  no "stencil (rc $rc)" "$t/s.out"

"$lb" --variant 'cuda/matmul/RCxC=RR,cuda/cublas,cuda/transform/R-CC' --size 50 --runs 2 \
  > "$t/c.out" 2>&1; rc=$?
# named variants must run: without a GPU, one error line and a non-zero exit
{ { [ $rc -eq 0 ] && ! grep -q FAIL "$t/c.out"; } ||
  { [ $rc -ne 0 ] && [ "$(wc -l < "$t/c.out")" = 1 ] &&
    grep -q "cuda/matmul/RCxC=RR not run: \(built without CUDA\|no CUDA device\) (asked for by name)" "$t/c.out"; }; } &&
  ok "CUDA rows verified, or refused in one line without a GPU" ||
  no "CUDA rows (rc $rc)" "$t/c.out"

"$lb" --size 10,x > "$t/e1" 2>&1; r1=$?
"$lb" --tile 12 > "$t/e2" 2>&1; r2=$?
[ $r1 -ne 0 ] && grep -q "option --size" "$t/e1" && [ $r2 -ne 0 ] && grep -q "option --tile" "$t/e2" &&
  ok "bad --size and --tile refused with a message" || no "bad options (rc $r1 $r2)"

# the memory estimate up front: an 8192^2 matmul (about 1.1 GiB) under a 100 MiB limit
TSR_MEMORY_LIMIT=100M "$lb" -q --size 8192 --device cpu > "$t/m" 2>&1; rm=$?
[ $rm -eq 1 ] && [ "$(wc -l < "$t/m")" = 1 ] && grep -q "needs .* GiB of host memory" "$t/m" &&
  ok "a run beyond TSR_MEMORY_LIMIT refused up front in one line" ||
  no "memory estimate (rc $rm)" "$t/m"
exit $fail
