#!/bin/sh
# tests/apps/bench_scripts.sh: scripts/bench (TAP). Every script parses; copy.sh, halo.sh and
# fastsg_eval.sh run in SMOKE mode (tiny sizes on the CPU) against this build's programs and
# write their CSV and table (auto.sh, tblock.sh: bench_studies.sh; scaling.sh:
# bench_scaling.sh); tables.py turns hand-made outputs of the peers (the original stencil
# benchmark with a failed check, OP2's airfoil log, Tasmanian's rows) and of the programs (auto's
# choice against a sweep, a tblock sweep, scaling rows) into the tables, and a missing peer is a
# note, not a failure.
. "${TSR_TOP_SRCDIR:-${srcdir:-$(dirname "$0")/../..}}/tests/apps/bench_tap.sh"
echo "1..12"

s=0
for f in "$b"/*.sh; do bash -n "$f" > "$t/out" 2>&1 || s=1; done
python3 -c "import ast, sys; ast.parse(open(sys.argv[1]).read())" "$b/tables.py" >> "$t/out" 2>&1 || s=1
[ $s = 0 ] && ok "every script parses" || no "script syntax"

# SMOKE runs of the simplest scripts, against this build's programs
OUT=$t/o SMOKE=1 PEERDIR=$t/none bash "$b/copy.sh" "$build/apps" > "$t/out" 2>&1 &&
  grep -q '^| [0-9]*x[0-9]*x[0-9]* | cpu/rowmajor[ (].* | PASS |$' "$t/o/copy.md" &&
  grep -q '^size,variant (configuration),median_us,' "$t/o/copy.csv" && grep -q 'cpu/zcurve' "$t/o/copy.csv" &&
  grep -q '^    \[copy-512, exit 0, .*BINDIR/tsr-copybench ' "$t/o/copy.md" &&
  grep -q '^- copy-bandwidth ceiling: [0-9.]* GB/s' "$t/o/copy.md" &&
  ok "copy.sh SMOKE: table, CSV, ceiling and the command" || no "copy.sh SMOKE"
OUT=$t/o SMOKE=1 bash "$b/halo.sh" "$build/apps" > "$t/out" 2>&1 &&
  grep -q '^| 2 | CPU | cpu | .* | PASS |$' "$t/o/halo.md" && ok "halo.sh SMOKE: 2 ranks" || no "halo.sh SMOKE"
OUT=$t/o SMOKE=1 bash "$b/fastsg_eval.sh" "$build/apps" > "$t/out" 2>&1 &&
  grep -q '^cpu/eval/walk  *double  *[0-9.]*  *[0-9.e+]*  PASS ' "$t/out" &&
  ok "fastsg_eval.sh SMOKE: points/s per variant" || no "fastsg_eval.sh SMOKE"

# stencil: ours (verified rows, one FAIL row faster than the rest) beside the original (header
# lines, a row whose own check failed at the small size, an error row)
r=$t/stencil-raw
mkdir -p "$r"
printf 'date: 2026-01-01T00:00:00Z\ngpus: 1\ndevice: TestGPU\n' > "$r/info.txt"
printf 'BINDIR/tsr-stencil laplap\n' > "$r/commands.txt"
printf 'ours-laplap-it1 0 3\n' > "$r/steps.txt"
: > "$r/notes.txt"
H=app,variant,version,commit,date,host,device,ranks,precision,nx,ny,nz,runs,median_us,min_us,max_us,mean_us,bytes,gbs,ceiling_gbs,pct_floor,figure,verify,config,note,mpi,hdf5,cuda,compiler,name,blocks_x,blocks_y,blocks_z,threads_x,threads_y,threads_z,iterations,max_err
cat > "$r/ours-laplap-it1.csv" <<EOF
$H
laplap,cuda/regular/jwindow,0.1.0,v0.1.0-3-gabc1234,2026-01-31T12:00:00Z,gpu01,GPU,1,double,512,512,64,20,100.0,99,110,101,268435456,2684,2684.35,,,PASS,threads=64x2x1 jpt=8,ok,Open MPI v4.1.4,1.10.8,"runtime 12.4, driver 12.6",gcc 12.2.0; nvcc 12.4,laplap-regular-jwindow-j8,4,64,1,64,2,1,1,0
laplap,cuda/regular/jwindow,0.1.0,v0.1.0-3-gabc1234,2026-01-31T12:00:00Z,gpu01,GPU,1,double,512,512,64,20,50.0,49,60,51,268435456,5000,2684.35,,,FAIL,threads=64x2x1 jpt=4,bad,Open MPI v4.1.4,1.10.8,"runtime 12.4, driver 12.6",gcc 12.2.0; nvcc 12.4,laplap-regular-jwindow-j4,4,64,1,64,2,1,1,1
laplap,cuda/unstr/jwindow-proto,0.1.0,v0.1.0-3-gabc1234,2026-01-31T12:00:00Z,gpu01,GPU,1,double,512,512,64,20,120.0,119,130,121,268435456,2000,2684.35,,,PASS,order=rowmajor compress=no chase=no threads=32x4x1 jpt=4 kpt=1,ok,Open MPI v4.1.4,1.10.8,"runtime 12.4, driver 12.6",gcc 12.2.0; nvcc 12.4,laplap-unstr-jwindow-proto-j4,4,64,1,32,4,1,1,0
EOF
cat > "$r/orig-verify.csv" <<'EOF'
Benchmark , Precision, Domain size,,, Blocks ,,, Threads ,,, Kernel-only execution time
laplap-regular-idxvar , double, 36, 36, 16, 1, 1, 1, 32, 1, 8, 5, 5, 5, 5
laplap-unstr-naive-z-curves-4 , double, 36, 36, 16, 1, 1, 1, 32, 1, 8, 5, 5, 5, 5, (Error)
EOF
cat > "$r/orig-laplap.csv" <<'EOF'
laplap-regular-idxvar , double, 512, 512, 64, 2, 508, 64, 256, 1, 1, 126, 125, 120, 130
laplap-regular-naive , double, 512, 512, 64, 2, 508, 64, 256, 1, 1, 90, 80, 70, 100, (Error)
laplap-unstr-naive-z-curves-4 , double, 512, 512, 64, 2, 508, 64, 256, 1, 1, 90, 90, 90, 90
laplap-unstr-idxvar-z-curves-4 , double, 512, 512, 64, 2, 508, 64, 256, 1, 1, 150, 150, 140, 160
EOF
python3 "$b/tables.py" stencil "$r" "$t/s.csv" "$t/s.md" > "$t/out" 2>&1 &&
  grep -q '^| laplap | regular | 100.0 | laplap-regular-idxvar 256x1x1 | 125.0 | 80.0 | cuda/regular/jwindow (threads=64x2x1 jpt=8) | 100.0 | 100.0 | 0.80 |$' "$t/s.md" &&
  grep -q '^| laplap | unstructured | 100.0 | laplap-unstr-idxvar-z-curves-4 256x1x1 | 150.0 | 66.7 | cuda/unstr/jwindow-proto (order=rowmajor compress=no chase=no threads=32x4x1 jpt=4 kpt=1) | 120.0 | 83.3 | 0.80 |$' "$t/s.md" &&
  grep -q 'left out, failed the original.s own check at 36x36x16: laplap-unstr-naive-z-curves-4' "$t/s.md" &&
  grep -q '^original,laplap,double,512x512x64,regular,1,laplap-regular-idxvar,.*,best$' "$t/s.csv" &&
  grep -q '^- rows from: Tessera 0.1.0 (v0.1.0-3-gabc1234) on gpu01$' "$t/s.md" &&
  ok "stencil table: best verified rows, floor, ratio, the original's failed check" ||
  { cat "$t/s.md" >> "$t/out"; no "stencil table"; }

# airfoil: Tessera's CSV and one OP2 log
r=$t/airfoil-raw
mkdir -p "$r"
cp "$t/stencil-raw/info.txt" "$r/"
: > "$r/notes.txt"
cat > "$r/tsr-airfoil.csv" <<'EOF'
app,variant,device,precision,nx,ny,nz,ranks,runs,median_us,min_us,max_us,mean_us,bytes,gbs,ceiling_gbs,pct_floor,figure,verify,config,note
airfoil,cuda/gather4/aos,GPU,double,720000,1438600,1000,1,3,195000.0,194000,196000,195000,564640064000,2895.6,2990.0,96.8,rms=1.06011e-04,PASS,block=256 reorder=none,
EOF
cat > "$r/op2-atomic_soa-b512.log" <<'EOF'
 1000  1.06011e-04 
Test problem with 720000 cells is within 2.536E-11 % of the expected solution
This test is considered PASSED
Airfoil *1 total: 412.6ms
EOF
python3 "$b/tables.py" airfoil "$r" "$t/a.csv" "$t/a.md" > "$t/out" 2>&1 &&
  grep -q '^| OP2 | atomic_soa (512) | 0.4126 | 0.1888 | 45.8 | 1.06011e-04 | PASSED |$' "$t/a.md" &&
  grep -q '^| Tessera | cuda/gather4/aos (256) | 0.1950 | 0.1888 | 96.8 | 1.06011e-04 | PASS |$' "$t/a.md" &&
  grep -q '0.195 s against 0.413 s, 2.12x' "$t/a.md" && ok "airfoil table: OP2's log read" ||
  { cat "$t/a.md" >> "$t/out"; no "airfoil table"; }

# fastsg: Tasmanian's rows and fixed points beside tsr-fastsg's
r=$t/fastsg-raw
mkdir -p "$r"
cp "$t/stencil-raw/info.txt" "$r/"
printf 'peer not run: nothing\n' > "$r/notes.txt"
cat > "$r/tsr-gpu.csv" <<'EOF'
app,variant,device,precision,nx,ny,nz,ranks,runs,median_us,min_us,max_us,mean_us,bytes,gbs,ceiling_gbs,pct_floor,figure,verify
fastsg,cuda/hier/ichg1,GPU,double,10,8,1862145,1,3,340.0,339,341,340,297943200,876,3000.0,29.2,,PASS
fastsg,cuda/eval/walk,GPU,double,10,8,1000000,1,3,91000.0,90000,92000,91000,0,0,0,0,1.099e+07 pts/s maxerr=1e-2,PASS
EOF
printf 'u(0.52, 0.73) = 0.3018100000   f = 0.30\n' > "$r/tsr-gpu.log"
cat > "$r/tas.log" <<'EOF'
tool,mode,D,n,grid_points,eval_points,seconds,points_per_s,max_err
tasmanian,hier-cuda,10,8,1862145,0,1.834,1.0e6,0.000e+00
tasmanian,eval-cuda-sparse,10,8,1862145,20000,0.42,47400,1.0e-02
# u(0.52, 0.73) = 0.3018100000   reference 0.30181   f = 0.3
EOF
python3 "$b/tables.py" fastsg "$r" "$t/f.csv" "$t/f.md" > "$t/out" 2>&1 &&
  grep -q '^| hierarchization, GPU | hier-cuda | 1.834 s | cuda/hier/ichg1 | 0.00034 s | 5394.1x |$' "$t/f.md" &&
  grep -q '^| evaluation, GPU | eval-cuda-sparse | 47.4K pts/s | cuda/eval/walk | 11M pts/s | 231.9x |$' "$t/f.md" &&
  grep -q '^- point 1: Tasmanian 0.3018100000, Tessera 0.3018100000: agree' "$t/f.md" &&
  grep -q '^- peer not run: nothing$' "$t/f.md" && ok "fastsg table beside Tasmanian" ||
  { cat "$t/f.md" >> "$t/out"; no "fastsg table"; }

# a missing peer is a note in the table, not a failure
OUT=$t/o SMOKE=1 PEERDIR=$t/none bash "$b/airfoil.sh" "$build/apps" > "$t/out" 2>&1 &&
  grep -q "^- peer not run: OP2's airfoil: no .*/none/airfoil_op2_\\*" "$t/o/airfoil.md" &&
  grep -q '^| Tessera | cpu/ref (-) | ' "$t/o/airfoil.md" && ok "airfoil.sh SMOKE without OP2" ||
  no "airfoil.sh SMOKE without OP2"
# auto: the sweep's best verified row (a faster FAIL row left out) against auto's choice; fastsg's
# two choices apart
r=$t/auto-raw
mkdir -p "$r"
cp "$t/stencil-raw/info.txt" "$r/"
: > "$r/notes.txt"
A=app,variant,nx,ny,nz,precision,iterations,median_us,bytes,ceiling_gbs,verify,config,note
cat > "$r/stencil-laplap-sweep.csv" <<EOF
$A
laplap,cuda/regular/jwindow,512,512,64,double,10,100.0,268435456,2684.35,PASS,threads=64x2x1 jpt=8,
laplap,cuda/regular/jwindow,512,512,64,double,10,103.0,268435456,2684.35,PASS,threads=32x4x1 jpt=8,
laplap,cuda/regular/tblock,512,512,64,double,10,50.0,268435456,2684.35,FAIL,tb-steps=2,
laplap,cuda/regular/naive,512,512,64,double,10,130.0,268435456,2684.35,PASS,threads=128x1x8,
EOF
cat > "$r/stencil-laplap-auto.csv" <<EOF
$A
laplap,cuda/regular/jwindow,512,512,64,double,10,104.0,268435456,2684.35,PASS,threads=32x4x1 jpt=8,auto: best of 4 in a trial
EOF
cat > "$r/fastsg-sweep.csv" <<EOF
$A
fastsg,cuda/hier/ichg1,10,8,1862145,double,,340.0,0,0,PASS,,
fastsg,cuda/hier/inv3,10,8,1862145,double,,400.0,0,0,PASS,,
fastsg,cuda/eval/walk,10,8,1000000,double,,91000.0,0,0,PASS,,
fastsg,cuda/eval/walk_s2w,10,8,1000000,double,,80000.0,0,0,PASS,,
EOF
cat > "$r/fastsg-auto.csv" <<EOF
$A
fastsg,cuda/hier/ichg1,10,8,1862145,double,,341.0,0,0,PASS,,auto: best of 2 in a trial
fastsg,cuda/eval/walk,10,8,1000000,double,,90000.0,0,0,PASS,,auto: best of 2 in a trial
EOF
python3 "$b/tables.py" auto "$r" "$t/au.csv" "$t/au.md" > "$t/out" 2>&1 &&
  grep -q '^| tsr-stencil laplap | 512x512x64 double, 10 steps | 3 | cuda/regular/jwindow (threads=64x2x1 jpt=8) | 100.0 µs | cuda/regular/jwindow (threads=32x4x1 jpt=8) | 4 | 104.0 µs | 103.0 µs | 1.040 | PASS | PASS |$' "$t/au.md" &&
  grep -q '^| tsr-fastsg | D=10 n=8, hierarchize | 2 | cuda/hier/ichg1 | 340.0 µs | cuda/hier/ichg1 | 2 | 341.0 µs | 340.0 µs | 1.003 | PASS | PASS |$' "$t/au.md" &&
  grep -q '^| tsr-fastsg | D=10 n=8, evaluate | 2 | cuda/eval/walk_s2w | 80.0 ms | cuda/eval/walk | 2 | 90.0 ms | 91.0 ms | 1.125 | FAIL | PASS |$' "$t/au.md" &&
  grep -q '^2 of 3 choices within 5 %' "$t/au.md" && ok "auto table: ratio, PASS within 5 %, fastsg's two choices" ||
  { cat "$t/au.md" >> "$t/out"; no "auto table"; }

# tblock: the single-step floor from the rows' bytes, best verified per k, the grid
r=$t/tblock-raw
mkdir -p "$r"
cp "$t/stencil-raw/info.txt" "$r/"
: > "$r/notes.txt"
cat > "$r/laplap-base.csv" <<EOF
$A
laplap,cuda/regular/jwindow,512,512,64,double,10,95.0,268435456,2684.35456,PASS,threads=64x2x1 jpt=8,
laplap,cuda/regular/tblock,512,512,64,double,10,108.0,268435456,2684.35456,PASS,threads=32x4x1 tb-steps=1 tb-rows=32 tb-xpt=2,
EOF
cat > "$r/laplap-x2-j32-w4.csv" <<EOF
$A
laplap,cuda/regular/tblock,512,512,64,double,10,73.5,268435456,2684.35456,PASS,threads=32x4x1 tb-steps=2 tb-rows=32 tb-xpt=2,
laplap,cuda/regular/tblock,512,512,64,double,10,74.0,268435456,2684.35456,PASS,threads=32x4x1 tb-steps=3 tb-rows=32 tb-xpt=2,
laplap,cuda/regular/tblock,512,512,64,double,10,79.0,268435456,2684.35456,FAIL,threads=32x4x1 tb-steps=4 tb-rows=32 tb-xpt=2,
EOF
cat > "$r/laplap-x1-j16-w2.csv" <<EOF
$A
laplap,cuda/regular/tblock,512,512,64,double,10,60.0,268435456,2684.35456,PASS,threads=32x2x1 tb-steps=2 tb-rows=16 tb-xpt=1,
EOF
python3 "$b/tables.py" tblock "$r" "$t/tb.csv" "$t/tb.md" > "$t/out" 2>&1 &&
  grep -q '^| laplap | cuda/regular/jwindow (threads=64x2x1 jpt=8) | 1 | 95.0 | 100.0 | 0.950 | 105.3 | PASS |$' "$t/tb.md" &&
  grep -q '^| laplap | cuda/regular/tblock (threads=32x2x1 tb-steps=2 tb-rows=16 tb-xpt=1) | 2 | 60.0 | 100.0 | 0.600 | 166.7 | PASS |$' "$t/tb.md" &&
  grep -q '^| laplap | cuda/regular/tblock (threads=32x4x1 tb-steps=3 .* | 3 | 74.0 | ' "$t/tb.md" &&
  ! grep -q '^| laplap | cuda/regular/tblock ([^)]*) | 4 | ' "$t/tb.md" &&
  grep -q '^| laplap | 2 | 32 | 4 | 73.5 (0.73) | 74.0 (0.74) | FAIL |$' "$t/tb.md" &&
  ok "tblock table: best verified per k over the single-step floor, the grid" ||
  { cat "$t/tb.md" >> "$t/out"; no "tblock table"; }

# scaling: weak efficiency from the work rate, lulesh's 8-rank cube on 4 GPUs by grind times
r=$t/scaling-raw
mkdir -p "$r"
printf 'date: 2026-01-01T00:00:00Z\ngpus: 4\ndevice: TestGPU\n' > "$r/info.txt"
: > "$r/notes.txt"
L=app,variant,nx,ny,nz,ranks,median_us,min_us,bytes,ceiling_gbs,verify,config,note,figure
printf '%s\nlaplap,cuda/regular/jwindow,512,512,64,1,75.0,74,268435456,2684.35456,PASS,,,\n' "$L" > "$r/laplap-weak-ipc-np1.csv"
printf '%s\nlaplap,cuda/regular/jwindow,2048,512,64,4,100.0,99,1073741824,2684.35456,PASS,,,\n' "$L" > "$r/laplap-weak-ipc-np4.csv"
printf '%s\nlulesh,cuda/atomic-fma,150,150,150,1,150000,1,0,0,not verified,,,cycles=100 e0=1 grind_us=0.0004\n' "$L" > "$r/lulesh-weak-ipc-np1.csv"
printf '%s\nlulesh,cuda/atomic-fma,119,119,119,8,200000,1,0,0,not verified,,,cycles=100 e0=1 grind_us=0.000125\n' "$L" > "$r/lulesh-cubeweak-ipc-np8.csv"
python3 "$b/tables.py" scaling "$r" "$t/sc.csv" "$t/sc.md" > "$t/out" 2>&1 &&
  grep -q '^| laplap weak (µs per step) | ipc | cuda/regular/jwindow | 4 | 4 | 2048x512x64 | 100.0 | 400.0 | 400.0 | 3.00 | 75 % | PASS |$' "$t/sc.md" &&
  grep -q "^| lulesh 8 ranks, LULESH's cube, 4 x one GPU's zones (ms per run) | ipc | cuda/atomic-fma | 8 | 4 | 119^3 per rank, 100 cycles | 200.0 | - | - | 3.20 | 80 % | not verified |\$" "$t/sc.md" &&
  grep -q '^laplap-weak,ipc,4,cuda/regular/jwindow,2048x512x64,100.00,400.00,400.0,3.000,PASS,4,0.750$' "$t/sc.csv" &&
  grep -q '^| laplap weak | ipc | cuda/regular/jwindow |  | 75 % | >= 90 % (2), >= 85 % (4) | PASS |$' "$t/sc.md" &&
  grep -q "^| lulesh 8 ranks, LULESH's cube, 4 x one GPU's zones | ipc | cuda/atomic-fma |  | 80 % | " "$t/sc.md" &&
  ok "scaling table: work rate and efficiency per GPU, the 8-rank cube on 4 GPUs" ||
  { cat "$t/sc.md" >> "$t/out"; no "scaling table"; }
python3 "$b/tables.py" nosuch "$r" "$t/x.csv" "$t/x.md" > "$t/out" 2>&1 && no "unknown table must fail" ||
  ok "tables.py: an unknown table is a usage error"
exit $fail
