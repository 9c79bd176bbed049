#!/bin/sh
# tests/apps/peers_compare.sh: scripts/peers/stencil-compare on hand-made CSVs of both kinds
# (TAP): the original's rows (header lines, "(Error)" rows) and tsr-stencil's (PASS, FAIL,
# skipped, CPU rows); the best row per program and grid kind, % of floor, ratio, summary CSV,
# the per-block table and the ncu reader.
top=${TSR_TOP_SRCDIR:-${srcdir:-.}}
s=$top/scripts/peers/stencil-compare
command -v python3 > /dev/null 2>&1 || { echo "1..0 # SKIP no python3"; exit 0; }
. "$top/tests/apps/tap.sh"
tap_scratch tsr-peers-test
tap_log=$t/out
tap_log_lines=40
echo "1..9"

# The original's output: command line, two header lines, rows (us); one error row is fastest.
cat > "$t/orig.csv" <<'EOF'
./gridbenchmark --no-verify --size 512x512x64 --threads 128x1x8 32x1x8 laplap-regular-idxvar
Benchmark                           , Precision, Domain size,,, Blocks     ,,, Threads    ,,, Kernel-only execution time
                                    ,          ,   X,   Y,   Z,   X,   Y,   Z,   X,   Y,   Z,   Average,    Median,   Minimum,   Maximum
laplap-regular-idxvar               ,    double, 512, 512,  64,   4, 508,   8, 128,   1,   8,       121,       120,       118,       130
laplap-regular-idxvar               ,    double, 512, 512,  64,  16, 508,   8,  32,   1,   8,       126,       125,       119,       140
laplap-regular-naive                ,    double, 512, 512,  64,   4, 508,   8, 128,   1,   8,        90,        80,        70,       100, (Error)
laplap-unstr-idxvar-z-curves-4      ,    double, 512, 512,  64,   2, 508,  64, 256,   1,   1,       150,       147,       140,       160
laplap-unstr-naive-comp-z-curves-4  ,    double, 512, 512,  64,   2, 508,  64, 256,   1,   1,       190,       188,       180,       200
fastwaves-unstr-aos-idxvar-z-curves ,    double, 512, 512,  64,   2, 508,  60, 256,   1,   1,       700,       696,       690,       710
fastwaves-unstr-idxvar-z-curves     ,    double, 512, 512,  64,   2, 508,  60, 256,   1,   1,       590,       589,       580,       600
EOF
# tsr-stencil's CSV: a FAIL row and a skipped row faster than the rest, a CPU row.
H=name,precision,domain_x,domain_y,domain_z,blocks_x,blocks_y,blocks_z,threads_x,threads_y,threads_z,average_us,median_us,min_us,max_us,variant,device,ranks,iterations,bytes_per_step,gbs,copy_gbs,pct_copy,verify,max_err,note
cat > "$t/ours.csv" <<EOF
$H
laplap-regular-naive,double,512,512,64,4,508,8,128,1,8,101.0,100.0,99.0,110.0,cuda/regular/naive,GPU,1,1,268435456,2684,2684.35,,PASS,0,"ok"
laplap-regular-idxvar,double,512,512,64,16,127,64,32,4,1,51.0,50.0,49.0,60.0,cuda/regular/idxvar,GPU,1,1,268435456,5000,2684.35,,FAIL,1,"bad"
laplap-regular-shared,double,512,512,64,0,0,0,256,1,1,0.0,0.0,0.0,0.0,cuda/regular/shared,GPU,1,1,268435456,0,0,,skipped,0,"skipped: x"
laplap-regular-cpu-fused,double,512,512,64,0,0,0,1,1,1,10.0,10.0,10.0,10.0,cpu/regular,CPU (16 threads),1,1,268435456,1,2684.35,,PASS,0,"ok"
laplap-unstr-idxvar-z-curves-4,double,512,512,64,8,127,64,64,4,1,131.0,130.0,128.0,140.0,cuda/unstr/idxvar,GPU,1,1,268435456,2000,2684.35,,PASS,0,"ok"
laplap-unstr-idxvar-comp-z-curves-4,double,512,512,64,8,127,64,64,4,1,141.0,140.0,138.0,150.0,cuda/unstr/idxvar,GPU,1,1,268435456,2000,2684.35,,PASS,0,"ok"
fastwaves-unstr-aos-idxvar-z-curves-4,double,512,512,64,8,127,60,64,4,1,601.0,600.0,598.0,610.0,cuda/unstr/idxvar,GPU,1,1,1476395008,2400,2952.79,,PASS,0,"ok"
EOF

python3 "$s" best --summary "$t/sum.csv" --orig "$t/orig.csv" --ours "$t/ours.csv" > "$t/out" 2>&1; rc=$?
[ $rc -eq 0 ] && ok "best: runs on both CSV kinds" || no "best: exit $rc"
# floor = 268435456 B / 2684.35 GB/s = 100.0 us; original 120 (83 %), ours 100 (100 %), 0.83
grep -q '^| regular | laplap-regular-idxvar 128x1x8 | 120.0 | 83 | laplap-regular-naive 128x1x8 | 100.0 | 100 | 0.83 |$' "$t/out" &&
  ok "regular: error, FAIL, skipped and CPU rows left out; floor and ratio" || no "regular row"
grep -q '^| unstructured | laplap-unstr-idxvar-z-curves-4 256x1x1 | 147.0 | 68 | laplap-unstr-idxvar-z-curves-4 64x4x1 | 130.0 | 77 | 0.88 |$' "$t/out" &&
  ok "unstructured: best of each program" || no "unstructured row"
grep -q '^| unstructured AoS | fastwaves-unstr-aos-idxvar-z-curves 256x1x1 | 696.0 | 72 | fastwaves-unstr-aos-idxvar-z-curves-4 64x4x1 | 600.0 | 83 | 0.86 |$' "$t/out" &&
  grep -q '^| unstructured | fastwaves-unstr-idxvar-z-curves 256x1x1 | 589.0 | 85 | - | - | - | - |$' "$t/out" &&
  ok "fastwaves: AoS apart from SoA, a missing program shown as -" || no "fastwaves rows"
[ "$(grep -c ',laplap,\|^laplap,' "$t/sum.csv")" = 4 ] && grep -q '^laplap,double,512x512x64,regular,tessera,laplap-regular-naive,cuda/regular/naive,128x1x8,100.00,100.00,100$' "$t/sum.csv" &&
  ok "summary CSV" || { cp "$t/sum.csv" "$t/out"; no "summary CSV"; }

python3 "$s" shapes --match '^laplap-regular' --orig "$t/orig.csv" --ours "$t/ours.csv" > "$t/out" 2>&1
grep -q '^| program | name | 128x1x8 | 32x1x8 |$' "$t/out" &&
  grep -q '^| original | laplap-regular-idxvar | 120.0 | 125.0 |$' "$t/out" &&
  grep -q '^| tessera | laplap-regular-naive | 100.0 | - |$' "$t/out" && ! grep -q 'idxvar | 50' "$t/out" &&
  ok "shapes: one column per block, only verified rows" || no "shapes table"

cat > "$t/ncu.csv" <<'EOF'
==PROF== Connected to process 1
"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","dram__bytes_read.sum","smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"
"","","","","","","","","","","","Mbyte","%"
"0","12","tsr-stencil","h","void st_k_idxvar<A, B>(A, B, long, long)","1","7","(128, 1, 2)","(4, 508, 30)","0","9.0","1,234.5","25.73"
EOF
python3 "$s" ncu "$t/ncu.csv" "$t/missing.csv" > "$t/out" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q 'st_k_idxvar<A, B>  block (128, 1, 2)' "$t/out" &&
  grep -q 'smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct *25.73 %' "$t/out" &&
  grep -q 'missing.csv: not written' "$t/out" && ok "ncu: metrics with units, a missing file noted" || no "ncu reader"

printf 'nothing here\n' > "$t/empty.csv"
python3 "$s" best --orig "$t/empty.csv" > "$t/out" 2>&1 && no "best with no rows must fail" || ok "best: no rows is an error"

sh -n "$top/scripts/peers/build-gridbenchmark.sh" && sh -n "$top/scripts/peers/build-tasmanian.sh" &&
  bash -n "$top/scripts/peers/build-op2-airfoil.sh" && ok "peer build scripts parse" || no "script syntax"
exit $fail
