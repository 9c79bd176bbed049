#!/bin/sh
# tests/apps/run_rules.sh: the run, skip and exit rules every program shares
# (TAP). Without a GPU, for every timing program: --variant all exits 0, says
# once what did not run (one "not run: N of M rows: ..." line, rows worded
# "not run: built without CUDA" or "not run: no CUDA device", no zero
# times), and its CSV has exactly the rows that ran; --device cuda is
# "nothing ran" in one line and a non-zero exit; a variant named that cannot
# run is an error; -q prints the table and the FOM line only.
. "${TSR_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/apps/tap.sh"
tap_scratch tsr-run-rules
tap_log=$t/out
OMP_NUM_THREADS=1; export OMP_NUM_THREADS

# program, its small problem
progs="airfoil copybench fastsg halobench layoutbench stencil lulesh"
args_airfoil="--size 30x20 --iterations 20"
args_copybench="--size 32x32x4 --runs 2 --warmup 0"
args_fastsg="-d 2 -n 4 --points 200 --runs 1 --warmup 0"
args_halobench="--size 32x32x4 --runs 2 --warmup 0"
args_layoutbench="--size 32 --cpu-runs 1 --runs 2 --warmup 0 --stencil-size 20x10x12 --iterations 2 --stencil-runs 1"
args_stencil="laplap --size 20x18x4 --runs 1 --warmup 0"
args_lulesh="-s 4 -i 5"
named_airfoil=cuda/gather/aos; named_copybench=cuda/memcpy; named_fastsg=cuda/eval/plain
named_halobench=cuda/staged; named_layoutbench=cuda/cublas; named_stencil=cuda/regular/naive
named_lulesh=cuda/gather

echo "1..$((7 * 5))"
gpu=0
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then gpu=1; fi

for p in $progs; do
  exe="$B/apps/tsr-$p"
  eval "args=\$args_$p; named=\$named_$p"
  if [ $gpu = 1 ]; then
    for k in 1 2 3 4 5; do skip "tsr-$p: a GPU is visible (the rules without one)"; done
    continue
  fi
  # --variant all: exit 0, one summary line, lib's wording, CSV rows = rows that ran
  "$exe" $args --variant all --csv "$t/$p.csv" > "$t/out" 2>&1; rc=$?
  ran=$(awk '/^app +variant/ { on = 1; next } on && /^(\* |not run: |FOM )/ { on = 0 }
             on && !/  not run: / { k++ } END { print k + 0 }' "$t/out")
  rows=$(($(wc -l < "$t/$p.csv") - 1))
  if [ $rc = 0 ] && [ "$(grep -c '^not run: [0-9]* of [0-9]* rows: ' "$t/out")" = 1 ] &&
     [ "$ran" -gt 0 ] && [ "$rows" = "$ran" ] && ! grep -q '^[^,]*,cuda/' "$t/$p.csv"; then
    ok "tsr-$p --variant all: exit 0, one not-run line, $rows CSV rows for $ran that ran"
  else no "tsr-$p --variant all (rc $rc, $ran ran, $rows CSV rows)"; fi
  if grep -q '  not run: \(built without CUDA\|no CUDA device\)$' "$t/out" &&
     ! grep -qi 'skipped' "$t/out" && ! grep -q ' 0\.0  *0\.0  .* not run' "$t/out"; then
    ok "tsr-$p: CUDA rows say 'not run: built without CUDA' or 'no CUDA device', no zero times"
  else no "tsr-$p: not-run wording"; fi
  # nothing ran: one line, non-zero
  "$exe" $args --device cuda > "$t/out" 2>&1; rc=$?
  if [ $rc != 0 ] && [ $rc -lt 128 ] && [ "$(wc -l < "$t/out")" = 1 ] &&
     grep -q "^tsr-$p: error: nothing ran: \(built without CUDA\|no CUDA device\)" "$t/out"; then
    ok "tsr-$p --device cuda: 'nothing ran' in one line, exit $rc"
  else no "tsr-$p --device cuda (rc $rc)"; fi
  # a variant named that cannot run: an error, one line
  "$exe" $args --variant "$named" > "$t/out" 2>&1; rc=$?
  if [ $rc != 0 ] && [ $rc -lt 128 ] && [ "$(wc -l < "$t/out")" = 1 ] &&
     grep -q "error: $named not run: .* (asked for by name)" "$t/out"; then
    ok "tsr-$p --variant $named: refused in one line"
  else no "tsr-$p --variant $named (rc $rc)"; fi
  # -q: the table, its footnotes and the FOM line only
  "$exe" $args -q > "$t/out" 2>&1; rc=$?
  if [ $rc = 0 ] && head -1 "$t/out" | grep -q '^app  *variant ' &&
     [ "$(grep -c "^FOM tsr-$p: variant=[^ ]* .*time_s=[0-9.e+-]* [a-z_]*=[0-9.e+-]* [A-Za-z/]* verify=" "$t/out")" = 1 ] &&
     [ "$(tail -1 "$t/out" | cut -c1-4)" = "FOM " ]; then
    ok "tsr-$p -q: the table and one FOM line"
  else no "tsr-$p -q (rc $rc)"; fi
done
exit $fail
