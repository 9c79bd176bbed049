#!/bin/sh
# plot.sh: scripts/tsr-plot on small CSVs in the common schema (docs/CSV.md)
# and in an older column set: rows told apart by config and precision, the
# best row of repeated labels, speed-up over the default and a chosen
# baseline, a FAILED row marked, scaling when ranks differ, scaling.sh's
# table as parallel efficiency at 2 and 4 GPUs; the PNGs are
# real images of a readable size; bad arguments are one-line errors. The
# drawing needs Debian's python3-matplotlib (those checks skip without it).
# Also scripts/demo-summary, the demo's one-screen summary, on the same CSVs.
S=${TSR_TOP_SRCDIR:-$(dirname "$0")/../..}
. "$S/tests/apps/tap.sh"
P="$S/scripts/tsr-plot"
py=/usr/bin/python3
[ -x "$py" ] || { echo "1..0 # SKIP no /usr/bin/python3"; exit 0; }
tap_scratch tsr-plot
tap_log=$t/out
tap_log_tail=20
echo "1..11"
H=app,variant,version,commit,date,host,device,ranks,precision,nx,ny,nz,runs,median_us,min_us,max_us,mean_us,bytes,gbs,ceiling_gbs,pct_floor,figure,verify,config,note,mpi,hdf5,cuda,compiler
P0='0.1.0,abc1234,2026-01-31T12:00:00Z,node1'
L='Open MPI v4.1.4,1.10.8,none (built without CUDA),gcc 12.2.0'
cat > "$t/fw.csv" <<END_CSV
$H
fastwaves,cpu/ref,$P0,CPU (4 threads),1,double,64,64,8,3,400.0,390,410,400,1,1,10,,,not verified,fields=soa,the reference,$L
fastwaves,cpu/regular,$P0,CPU (4 threads),1,double,64,64,8,3,100.0,90,110,100,1,1,10,50.00,,PASS,fields=soa,,$L
fastwaves,cpu/regular,$P0,CPU (4 threads),1,double,64,64,8,3,200.0,190,210,200,1,1,10,25.00,,PASS,fields=aos,,$L
fastwaves,cpu/regular,$P0,CPU (4 threads),1,float,64,64,8,3,50.0,45,55,50,1,1,10,50.00,,PASS,fields=soa,,$L
fastwaves,cpu/regular,$P0,CPU (4 threads),1,float,64,64,8,3,80.0,75,85,80,1,1,10,31.25,,FAIL,fields=aos,bad,$L
fastwaves,cpu/regular,$P0,CPU (4 threads),1,float,64,64,8,3,60.0,55,65,60,1,1,10,41.67,,PASS,fields=soa,again,$L
END_CSV
cat > "$t/halo.csv" <<END_CSV
$H
halo,cpu,$P0,CPU (2 threads),1,double,128,128,16,5,1000.0,990,1010,1000,1,1,10,,,PASS,,,$L
halo,cpu,$P0,CPU (2 threads),2,double,128,128,16,5,600.0,590,610,600,1,1,10,,,PASS,,,$L
halo,cpu,$P0,CPU (2 threads),4,double,128,128,16,5,400.0,390,410,400,1,1,10,,,PASS,,,$L
halo,cpu/packed,$P0,CPU (2 threads),1,double,128,128,16,5,800.0,790,810,800,1,1,10,,,PASS,,,$L
halo,cpu/packed,$P0,CPU (2 threads),2,double,128,128,16,5,500.0,490,510,500,1,1,10,,,PASS,,,$L
END_CSV
# an older column set (no version, date, host; ranks after nz)
cat > "$t/old.csv" <<'END_CSV'
app,variant,device,precision,nx,ny,nz,ranks,runs,median_us,min_us,max_us,mean_us,bytes,gbs,ceiling_gbs,pct_floor,figure,verify,config,note
copy,cpu/rowmajor,CPU (16 threads),double,512,512,64,1,10,2000.0,1990,2010,2000,1,1,1,80.00,,PASS,,
copy,cpu/zcurve,CPU (16 threads),double,512,512,64,1,10,4000.0,3990,4010,4000,1,1,1,40.00,,PASS,,
END_CSV

# the numbers the plots show, as text (no matplotlib needed)
$py "$P" --text "$t/fw.csv" > "$t/out" 2>&1 &&
  grep -q '^fastwaves, size 64x64x8$' "$t/out" &&
  grep -Eq '^  cpu/regular \(fields=soa, float\) +50 us +50\.0% +8x$' "$t/out" &&
  grep -Eq '^  cpu/regular \(fields=aos, float\) +80 us +31\.2% +5x  FAIL$' "$t/out" &&
  grep -Eq '^  cpu/regular \(fields=soa, double\) +100 us +50\.0% +4x$' "$t/out" &&
  grep -Eq '^  cpu/ref \(fields=soa, double\) +400 us +- +1x$' "$t/out" &&
  [ "$(grep -c 'fields=soa, float' "$t/out")" = 1 ] &&
  ok "labels tell config and precision apart; repeated label: its best row; speed-up over cpu/ref" ||
  no "--text on the fastwaves rows"
$py "$P" --text --baseline cpu/rowmajor "$t/old.csv" > "$t/out" 2>&1 &&
  grep -Eq '^  cpu/rowmajor +2 ms +80\.0% +1x$' "$t/out" && grep -Eq '^  cpu/zcurve +4 ms +40\.0% +0\.5x$' "$t/out" &&
  $py "$P" --text --baseline cpu/zcurve "$t/old.csv" > "$t/out" 2>&1 &&
  grep -Eq '^  cpu/rowmajor +2 ms +80\.0% +2x$' "$t/out" &&
  ok "an older column set; --baseline chooses the speed-up's reference" || no "older CSV, --baseline"
$py "$P" --text "$t/halo.csv" > "$t/out" 2>&1 &&
  grep -q '^halo, size 128x128x16 at 1 rank$' "$t/out" && grep -Eq '^  cpu/packed +800 us +- +1.25x$' "$t/out" &&
  ok "rows over several rank counts: time and speed-up at the commonest" || no "ranks"
$py "$P" -o "$t/x" > "$t/out" 2>&1; a=$?
$py "$P" --top 0 "$t/fw.csv" > "$t/out2" 2>&1; b=$?
$py "$P" --bogus "$t/fw.csv" > "$t/out3" 2>&1; c=$?
$py "$P" --text "$t/nosuch.csv" > "$t/out4" 2>&1; d=$?
[ $a != 0 ] && [ $b != 0 ] && [ $c != 0 ] && [ $d != 0 ] &&
  [ "$(cat "$t/out" "$t/out2" "$t/out3" "$t/out4" | wc -l)" = 4 ] && grep -q 'nosuch.csv' "$t/out4" &&
  ok "no files, --top 0, an unknown option, a missing file: one line each, non-zero" ||
  { cat "$t/out2" "$t/out3" "$t/out4" >> "$t/out"; no "argument errors"; }

# the demo's summary: the FOM line's variant, the precision where a run has several, how rows verified
D="$S/scripts/demo-summary"
printf 'FOM tsr-stencil: variant=cpu/regular config="fields=soa" time_s=5e-05 bandwidth=1 GB/s verify=PASS\n' > "$t/fw.txt"
sh "$D" "$t/all.txt" "$t/fw.csv" "$t/old.csv" > "$t/out" 2>&1; rc=$?
[ $rc = 1 ] &&
  grep -Eq '^fw +cpu/regular \(fields=soa, float\) +50 us +50\.0  CPU \(4 threads\) +FAIL: 1 of 6 rows$' "$t/out" &&
  grep -Eq '^old +cpu/rowmajor +2 ms +80\.0  CPU \(16 threads\) +PASS: all 2 rows$' "$t/out" &&
  [ "$(wc -l < "$t/all.txt")" = 9 ] && grep -q 'fields=aos  *float .* FAIL$' "$t/all.txt" &&
  ok "demo-summary: best variant per run, its time and % of floor, FAIL counted, exit 1" || no "demo-summary"
sh "$D" "$t/all.txt" "$t/halo.csv" > "$t/out" 2>&1 &&
  grep -Eq '^halo +cpu +400 us +- +CPU \(2 threads\) +PASS: all 5 rows$' "$t/out" &&
  ok "demo-summary without a FOM line: the fastest row" || no "demo-summary without a FOM line"

# scaling.sh's table: each experiment's parallel efficiency at 2 and 4 GPUs
cat > "$t/scaling.csv" <<'END_CSV'
experiment,halo,ranks,variant,size,median_us,floor_us,pct_floor,speedup_vs_1_rank,verify,gpus,efficiency
laplap-weak,ipc,1,cuda/regular/jwindow,512x512x64,76.2,62.8,82.4,-,PASS,1,-
laplap-weak,ipc,2,cuda/regular/jwindow,512x1024x64,80.8,128.2,158.6,1.886,PASS,2,0.943
laplap-weak,ipc,4,cuda/regular/jwindow,512x2048x64,83.5,252.7,302.5,3.650,PASS,4,0.913
airfoil,ipc,1,cuda/atomic1/aos,720000 cells,348600,134600,38.6,-,PASS,1,-
airfoil,ipc,4,cuda/atomic1/aos,720000 cells,118700,134200,113.0,2.937,FAIL,4,0.734
airfoil,staged,1,cuda/atomic1/aos,720000 cells,348000,134600,38.6,-,PASS,1,-
airfoil,staged,4,cuda/atomic1/aos,720000 cells,140500,134200,95.6,2.477,PASS,4,0.619
END_CSV
$py "$P" --text "$t/scaling.csv" > "$t/out" 2>&1 &&
  grep -q '^parallel efficiency (%) at 2 and 4 GPUs$' "$t/out" &&
  grep -Eq '^  laplap-weak, ipc, cuda/regular/jwindow +94 +91$' "$t/out" &&
  grep -Eq '^  airfoil, ipc, cuda/atomic1/aos +- +73$' "$t/out" &&
  grep -Eq '^  cuda/atomic1/aos \(ipc\) +349 ms ' "$t/out" &&
  grep -Eq '^  cuda/atomic1/aos \(staged\) +348 ms ' "$t/out" &&
  ok "scaling.sh's table: each experiment's parallel efficiency at 2 and 4 GPUs; halos told apart" ||
  no "--text on the scaling table"

if ! $py -c 'import matplotlib' >/dev/null 2>&1; then
  for k in 8 9 10 11; do skip "no matplotlib (Debian: python3-matplotlib)"; done
  exit 0
fi
$py "$P" -o "$t/png" "$t/fw.csv" "$t/halo.csv" "$t/old.csv" > "$t/out" 2>&1 &&
  [ "$(sed "s|$t/png/||" "$t/out" | tr '\n' ' ')" = "fastwaves-time.png fastwaves-speedup.png halo-time.png halo-speedup.png halo-scaling.png copy-time.png copy-speedup.png " ] &&
  ok "PNGs: time and speed-up per app, scaling where ranks differ" || no "PNG files"
# each is a PNG of a size a person can read (IHDR width and height)
cat > "$t/size.py" <<'END_PY'
import struct, sys
for p in sys.argv[1:]:
    with open(p, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", p
    w, h = struct.unpack(">II", head[16:24])
    assert w >= 600 and h >= 250, (p, w, h)
    print(p, w, h)
END_PY
$py "$t/size.py" "$t/png"/*.png > "$t/out" 2>&1 && [ "$(wc -l < "$t/out")" = 7 ] &&
  ok "each is a PNG at least 600x250 pixels" || no "PNG sizes"
$py "$P" -o "$t/png2" --weak "$t/halo.csv" > "$t/out" 2>&1 && grep -q 'halo-scaling.png' "$t/out" &&
  ! cmp -s "$t/png/halo-scaling.png" "$t/png2/halo-scaling.png" &&
  ok "--weak draws weak scaling (another ideal line)" || no "--weak"
$py "$P" -o "$t/png3" "$t/scaling.csv" > "$t/out" 2>&1 && grep -q 'scaling-efficiency.png$' "$t/out" &&
  $py "$t/size.py" "$t/png3/scaling-efficiency.png" >> "$t/out" 2>&1 &&
  ok "scaling.sh's table: scaling-efficiency.png, weak and strong with their goals" ||
  no "scaling-efficiency.png"
