#!/bin/sh
# tests/apps/lulesh.sh: tsr-lulesh end to end on small cubes (TAP): LULESH
# 2.0's serial reference values (cycles to completion at -s 5 and -s 10, e(0)
# after -s 10 -i 10, the dt of cycles 1-3 in -p's progress lines), the Run
# completed block, the CSV row, a run without a reference "not verified", bad
# flags, LULESH's decomposition on two ranks refused in one line; the variants:
# --list-variants, --variant all (without a GPU the five CUDA variants are "not run" rows
# with the reason; with one, all six PASS), --reorder gps and metis (PASS, the CSV's config
# column), and on a GPU every CUDA variant fused and with --no-fuse --block 64 --reorder metis.
. "${TSR_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/apps/lulesh_tap.sh"
tap_scratch tsr-lulesh-test
echo "1..18"
lulesh_gpu
cudav="cuda/gather cuda/atomic cuda/colour cuda/twolevel cuda/atomic-fma"

# -s 5 to completion: 72 cycles (LULESH), PASS, the Run completed block
"$x" -s 5 --variant cpu/gather --csv "$t/s5.csv" > "$t/s5" 2>&1; rc=$?
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
"$x" -s 10 -i 10 --variant cpu/gather > "$t/i10" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q '^   Iteration count     =  10$' "$t/i10" &&
  grep -q '^   Origin energy e(0)  =  259676.41955524369$' "$t/i10" &&
  grep -q '^Reference check      = PASS (10 cycles as LULESH; e(0) rel diff' "$t/i10" &&
  ok "-s 10 -i 10: e(0) as LULESH, PASS" || no "-s 10 -i 10 (rc $rc)" "$t/i10"

# -s 10 to completion: 231 cycles and e(0) as LULESH
"$x" -s 10 -q --variant cpu/gather > "$t/c10" 2>&1; rc=$?
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

# no LULESH run for the size and cycles: LULESH's symmetry test decides
"$x" -s 6 -i 20 > "$t/sy" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q 'verify=PASS$' "$t/sy" &&
  grep -q 'no LULESH run for -s 6 with this -i; symmetry of plane 0: max rel diff [0-9.e+-]* (tolerance 1e-08)' "$t/sy" &&
  ok "-s 6 -i 20: no reference, the symmetry test passes" || no "-s 6 -i 20 (rc $rc)" "$t/sy"

# bad flags: one line, non-zero exit
bad=""
for a in "-s 0" "-s x" "-i 0" "-c -1" "-r 0" "-b -1" "-i" "--input f.h5" "--reorder rcm" \
  "--block 100" "--block 16" "-z"; do
  "$x" $a > "$t/o" 2> "$t/e"; rc=$?
  { [ $rc -ne 0 ] && [ ! -s "$t/o" ] && [ "$(wc -l < "$t/e")" = 1 ] &&
    grep -q '^tsr-lulesh: error: ' "$t/e"; } || bad="$bad [$a]"
done
[ -z "$bad" ] && ok "bad flags: one line each, non-zero exit" || no "bad flags:$bad" "$t/e"

# the variants
"$x" --list-variants > "$t/lv" 2>&1; rc=$?
bad=""
for v in cpu/gather $cudav; do grep -q "^$v  " "$t/lv" || bad="$bad $v"; done
[ $rc -eq 0 ] && [ -z "$bad" ] && ok "--list-variants: cpu/gather and the CUDA variants" ||
  no "--list-variants (rc $rc, missing:$bad)" "$t/lv"
"$x" -s 5 --variant all --csv "$t/all.csv" > "$t/all" 2>&1; rc=$?
bad=""
if [ $gpu = 1 ]; then
  for v in cpu/gather $cudav; do
    grep -q "^lulesh,$v,.*,5,5,5,1,.*cycles=72 .*,PASS," "$t/all.csv" || bad="$bad $v"
  done
  [ $rc -eq 0 ] && [ -z "$bad" ] && [ "$(wc -l < "$t/all.csv")" = 7 ] &&
    ok "--variant all on a GPU: six rows, 72 cycles, PASS" || no "--variant all (rc $rc:$bad)" "$t/all"
else
  for v in $cudav; do
    grep -q "^lulesh  *$v .*  not run: \(built without CUDA\|no CUDA device\)$" "$t/all" || bad="$bad $v"
  done
  [ $rc -eq 0 ] && [ -z "$bad" ] && [ "$(wc -l < "$t/all.csv")" = 2 ] &&
    grep -q '^lulesh,cpu/gather,.*,PASS,' "$t/all.csv" &&
    ok "--variant all without a GPU: cpu/gather PASS, the CUDA variants 'not run' rows with the reason" ||
    no "--variant all (rc $rc:$bad)" "$t/all"
fi
for r in gps metis; do
  "$x" -s 10 --variant all --reorder $r --csv "$t/$r.csv" > "$t/$r" 2>&1; rc=$?
  rows=$(grep -c ',PASS,' "$t/$r.csv"); want=1; [ $gpu = 1 ] && want=6
  [ $rc -eq 0 ] && [ "$rows" = $want ] && ! grep -q ',FAIL,' "$t/$r.csv" &&
    grep -q "^lulesh,cpu/gather,.*,PASS,r=11 b=1 c=1 reorder=$r," "$t/$r.csv" &&
    grep -q "^Reorder $r: element graph bandwidth " "$t/$r" &&
    ok "--reorder $r -s 10: $rows variant(s) PASS (231 cycles, e(0)), reorder=$r in the CSV" ||
    no "--reorder $r (rc $rc, $rows PASS rows)" "$t/$r"
done
if [ $gpu = 1 ]; then
  for o in "" "--no-fuse --block 64 --reorder metis"; do
    "$x" -s 10 -i 10 --variant 'cuda/*' $o --csv "$t/g.csv" > "$t/g" 2>&1; rc=$?
    [ $rc -eq 0 ] && [ "$(grep -c ',PASS,' "$t/g.csv")" = 5 ] &&
      ok "cuda/* -s 10 -i 10 ${o:-(fused)}: five PASS rows (e(0) as LULESH)" ||
      no "cuda/* -s 10 -i 10 $o (rc $rc)" "$t/g"
  done
else
  skip "cuda/* -s 10 -i 10 fused: no GPU"
  skip "cuda/* -s 10 -i 10 --no-fuse --block 64 --reorder metis: no GPU"
fi

# two ranks for LULESH's cube decomposition: refused in one line (more in
# tests/apps/lulesh_mpi.sh)
timeout -k 5 120 "$MPIEXEC" -n 2 --oversubscribe "$x" -s 5 --decomp cube > "$t/o" 2> "$t/e"; rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && [ "$(cat "$t/o" "$t/e" | grep -c '^tsr-lulesh: ')" = 1 ] &&
  grep -q '^tsr-lulesh: error: lulesh: the cube decomposition needs a cube number of ranks (1, 8, 27, 64, ...), not 2' "$t/e" &&
  ok "-np 2 --decomp cube: refused in one line" || no "-np 2 --decomp cube (rc $rc)" "$t/e"
exit $fail
