#!/bin/sh
# tests/apps/variant_auto.sh: --variant auto end to end (TAP), with the
# cache in a fresh $XDG_CACHE_HOME: for tsr-stencil, tsr-copybench,
# tsr-fastsg, tsr-airfoil and tsr-lulesh the first run times the candidates ("the
# fastest of N candidates"), runs one of the default variants, PASSes and
# stores the choice; the second takes it from the cache, the same variant;
# --retune times again; a corrupt cache is ignored with a warning and
# rewritten; tsr-stencil on 2 ranks agrees (one choice line, one row);
# auto with other names, and a program without auto (tsr-layoutbench),
# are one-line errors.
. "${TSR_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/apps/tap.sh"
tap_scratch tsr-variant-auto
tap_log=$t/out
XDG_CACHE_HOME="$t/cache"; export XDG_CACHE_HOME
OMP_NUM_THREADS=1; export OMP_NUM_THREADS
cache="$XDG_CACHE_HOME/tessera/variant-auto.tsv"
check() { if eval "$2"; then ok "$1"; else no "$1"; fi; }

progs="stencil copybench fastsg airfoil lulesh"
args_stencil="laplap --size 24x20x3 --iterations 3 --runs 2 --warmup 0 --tb-steps 2,3"
args_copybench="--size 32x32x4 --runs 2 --warmup 0"
args_fastsg="-d 2 -n 4 --points 200 --runs 1 --warmup 0 --mode evaluate"
args_airfoil="--size 30x20 --iterations 10"
args_lulesh="-s 10 -i 10"
echo "1..$((5 * 5 + 4))"
for p in $progs; do
  exe="$B/apps/tsr-$p"
  eval "args=\$args_$p"
  rm -rf "$XDG_CACHE_HOME"
  # shellcheck disable=SC2086
  "$exe" $args --variant auto > "$t/out" 2>&1; rc=$?
  first=$(sed -n 's/.*--variant auto: \([^:]*\):.*the fastest of.*/\1/p' "$t/out" | head -n 1)
  check "tsr-$p: a trial, one PASS row, stored" \
    "[ $rc = 0 ] && [ -n \"$first\" ] && grep -q 'auto: best of' \"$t/out\" && ! grep -q FAIL \"$t/out\" && grep -q \"$(printf '\t')\" \"$cache\""
  # shellcheck disable=SC2086
  "$exe" $args --variant auto > "$t/out" 2>&1; rc=$?
  check "tsr-$p: the cached choice" \
    "[ $rc = 0 ] && grep -q 'auto: cached choice' \"$t/out\" && grep -q -- \"--variant auto: $first (cached\" \"$t/out\""
  # shellcheck disable=SC2086
  "$exe" $args --variant auto --retune > "$t/out" 2>&1; rc=$?
  check "tsr-$p: --retune times again" "[ $rc = 0 ] && grep -q 'the fastest of' \"$t/out\""
  printf 'garbage without tabs\n' >> "$cache"
  # shellcheck disable=SC2086
  "$exe" $args --variant auto > "$t/out" 2>&1; rc=$?
  check "tsr-$p: a corrupt cache is ignored with a warning" \
    "[ $rc = 0 ] && grep -q 'warning: the cache' \"$t/out\" && grep -q 'the fastest of' \"$t/out\""
  # shellcheck disable=SC2086
  "$exe" $args --variant auto > "$t/out" 2>&1; rc=$?
  check "tsr-$p: ... and rewritten" "[ $rc = 0 ] && grep -q 'auto: cached choice' \"$t/out\" && ! grep -q garbage \"$cache\""
done

mpi="mpirun --oversubscribe -np 2"
rm -rf "$XDG_CACHE_HOME"
# shellcheck disable=SC2086
$mpi "$B/apps/tsr-stencil" $args_stencil --variant auto > "$t/out" 2>&1; rc=$?
check "tsr-stencil, 2 ranks: one choice, one row" \
  "[ $rc = 0 ] && [ \$(grep -c -- '--variant auto:' \"$t/out\") = 1 ] && [ \$(grep -c '^c[pu][ud][a/].* auto: best of' \"$t/out\") = 1 ] && ! grep -q FAIL \"$t/out\""
# shellcheck disable=SC2086
$mpi "$B/apps/tsr-stencil" $args_stencil --variant auto > "$t/out" 2>&1; rc=$?
check "tsr-stencil, 2 ranks: cached" "[ $rc = 0 ] && grep -q 'auto: cached choice' \"$t/out\""
"$B/apps/tsr-stencil" laplap --variant auto,cpu/ref > "$t/out" 2>&1; rc=$?
check "auto with other names: one error line" "[ $rc != 0 ] && [ \$(wc -l < \"$t/out\") = 1 ] && grep -q 'give it alone' \"$t/out\""
"$B/apps/tsr-layoutbench" --variant auto > "$t/out" 2>&1; rc=$?
check "a program without auto refuses it" "[ $rc != 0 ] && grep -q 'does not choose its variants by a trial' \"$t/out\""
exit $fail
