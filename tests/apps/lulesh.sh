#!/bin/sh
# tests/apps/lulesh.sh: tsr-lulesh end to end on small cubes (TAP): LULESH
# 2.0's serial reference values (cycles to completion at -s 5 and -s 10, e(0)
# after -s 10 -i 10, the dt of cycles 1-3 in -p's progress lines), the Run
# completed block, the CSV row, a run without a reference "not verified", bad
# flags and two ranks refused in one line.
b=${TSR_TOP_BUILDDIR:-.}
x="$b/apps/tsr-lulesh"
MPIEXEC=${MPIEXEC:-mpiexec}
t=${TMPDIR:-/tmp}/tsr-lulesh-test.$$
mkdir -p "$t" || exit 1
trap 'rm -rf "$t"' EXIT
OMP_NUM_THREADS=1; export OMP_NUM_THREADS
n=0; fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); echo "not ok $n - $1"; fail=1; [ -n "$2" ] && sed 's/^/# /' "$2"; }
echo "1..11"

# -s 5 to completion: 72 cycles (LULESH), PASS, the Run completed block
"$x" -s 5 --csv "$t/s5.csv" > "$t/s5" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q '^   Iteration count     =  72$' "$t/s5" &&
  grep -q '^FOM tsr-lulesh: variant=cpu/gather .* verify=PASS$' "$t/s5" &&
  ok "-s 5 to completion: 72 cycles, PASS" || no "-s 5 (rc $rc)" "$t/s5"
blk=1
for l in '^Run completed:$' '^   Problem size        =  5$' '^   MPI tasks           =  1$' \
  '^   Final Origin Energy =  [0-9]\.[0-9]\{6\}e+0[0-9]$' \
  '^        MaxAbsDiff   = [0-9]\.[0-9]\{6\}e[-+][0-9][0-9]$' \
  '^        TotalAbsDiff = [0-9]\.[0-9]\{6\}e[-+][0-9][0-9]$' \
  '^        MaxRelDiff   = [0-9]\.[0-9]\{6\}e[-+][0-9][0-9]$' \
  '^   Origin energy e(0)  =  [0-9.e+]*$' '^   Total energy sum e  =  [0-9.e+]*$' \
  '^Elapsed time         = ' '^Grind time (us/z/c)  = .* (microseconds per zone per cycle)$' \
  '^FOM                  = .* (zone-cycles/s)$' '^Reference check      = PASS ('; do
  grep -q "$l" "$t/s5" || { blk=0; echo "# missing: $l"; }
done
[ $blk = 1 ] && ok "the Run completed block's lines" || no "Run completed block" "$t/s5"
# e(0) to 17 significant digits agrees with the short line
e17=$(sed -n 's/^   Origin energy e(0)  =  //p' "$t/s5")
e7=$(sed -n 's/^   Final Origin Energy =  //p' "$t/s5")
[ -n "$e17" ] && [ "$(printf '%.6e' "$e17")" = "$e7" ] &&
  [ "$(printf '%.16e' "$e17" | sed 's/[.e+-]//g' | wc -c)" -ge 17 ] &&
  ok "e(0) printed to 17 digits ($e17)" || no "e(0) lines: '$e17' vs '$e7'"
# the CSV: one header and one row, PASS
[ "$(wc -l < "$t/s5.csv")" = 2 ] && head -1 "$t/s5.csv" | grep -q '^app,variant,version,commit,date,host,device,ranks,precision,nx,ny,nz,runs,' &&
  grep -q '^lulesh,cpu/gather,.*,CPU (1 thread),1,[a-z-]*,5,5,5,1,.*cycles=72 .*,PASS,' "$t/s5.csv" &&
  ok "--csv: one row, cpu/gather, 5x5x5, PASS" || no "--csv" "$t/s5.csv"

# -s 10 -i 10: LULESH's e(0) 2.59676419555243687e+05
"$x" -s 10 -i 10 > "$t/i10" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q '^   Iteration count     =  10$' "$t/i10" &&
  grep -q '^   Origin energy e(0)  =  259676.41955524369$' "$t/i10" &&
  grep -q '^Reference check      = PASS (10 cycles as LULESH; e(0) rel diff' "$t/i10" &&
  ok "-s 10 -i 10: e(0) as LULESH, PASS" || no "-s 10 -i 10 (rc $rc)" "$t/i10"

# -s 10 to completion: 231 cycles and e(0) as LULESH
"$x" -s 10 -q > "$t/c10" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q '^lulesh .* PASS  cycles=231 e0=27205.311684703469 ' "$t/c10" &&
  ok "-s 10 to completion: 231 cycles, e(0) as LULESH, PASS" || no "-s 10 (rc $rc)" "$t/c10"

# -p: LULESH's progress lines; at -s 10 the dt of cycles 1-3 are LULESH's
# 6.04222231003001547e-05, 7.25066677203601776e-05, 2.48525205960514583e-05
"$x" -s 10 -i 3 -p > "$t/p" 2>&1; rc=$?
printf '%s\n' 'cycle = 1, time = 6.042222e-05, dt=6.042222e-05' \
  'cycle = 2, time = 1.329289e-04, dt=7.250667e-05' \
  'cycle = 3, time = 1.577814e-04, dt=2.485252e-05' > "$t/p.want"
grep '^cycle = ' "$t/p" > "$t/p.got"
[ $rc -eq 0 ] && cmp -s "$t/p.want" "$t/p.got" && grep -q '^Reference check      = PASS (dt' "$t/p" &&
  ok "-p: progress lines as LULESH prints them, dt of cycles 1-3 as LULESH" ||
  no "-p (rc $rc)" "$t/p"
"$x" -s 5 -i 3 -p -q > "$t/pq" 2>&1; rc=$?
[ $rc -eq 0 ] && ! grep -q '^cycle = ' "$t/pq" && ! grep -q '^Run completed' "$t/pq" &&
  ok "-q: no progress lines, no Run completed block" || no "-p -q (rc $rc)" "$t/pq"

# no reference for the run: "not verified", exit 0
"$x" -s 4 -r 3 > "$t/nr" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q 'verify=not-verified$' "$t/nr" &&
  grep -q 'no LULESH reference for -r 3 -b 1 -c 1' "$t/nr" &&
  ok "-s 4 -r 3: not verified, exit 0" || no "-s 4 -r 3 (rc $rc)" "$t/nr"

# bad flags: one line, non-zero exit
bad=""
for a in "-s 0" "-s x" "-i 0" "-c -1" "-r 0" "-b -1" "-i" "--input f.h5" "--device cpu" "-z"; do
  "$x" $a > "$t/o" 2> "$t/e"; rc=$?
  { [ $rc -ne 0 ] && [ ! -s "$t/o" ] && [ "$(wc -l < "$t/e")" = 1 ] &&
    grep -q '^tsr-lulesh: error: ' "$t/e"; } || bad="$bad [$a]"
done
[ -z "$bad" ] && ok "bad flags: one line each, non-zero exit" || no "bad flags:$bad" "$t/e"

# two ranks: refused in one line
"$MPIEXEC" -n 2 --oversubscribe "$x" -s 5 > "$t/o" 2> "$t/e"; rc=$?
[ $rc -ne 0 ] && [ "$(cat "$t/o" "$t/e" | grep -c '^tsr-lulesh: ')" = 1 ] &&
  grep -q '^tsr-lulesh: error: tsr-lulesh runs on one rank, not 2' "$t/e" &&
  ok "-np 2: refused in one line" || no "-np 2 (rc $rc)" "$t/e"
exit $fail
