#!/bin/sh
# scripts/device/peers-airfoil.sh [PACKDIR]: OP2's own CUDA Airfoil beside
# tsr-airfoil on the same GPU, same mesh, same call (issue #4).
#
# PACKDIR (default ./pack) holds
#   airfoil_op2_<variant>  OP2's binaries from scripts/peers/build-op2-airfoil.sh
#                          (atomic_aos, atomic_soa, colour_aos, colour_soa: any
#                          subset); op2-BUILD-INFO.txt optionally (kept in logs)
#   tsr-airfoil, tsr-mkairfoil (and the shared libraries they need)
# Run from the repository root; results under $OUT (default ./device-out):
#   peers-airfoil.txt       the side-by-side table (also printed)
#   peers-airfoil.csv       one row per (code, variant, block)
#   peers-airfoil.tar.gz    every log, tsr-airfoil's CSV
#
# What it does
#  1. tsr-mkairfoil -q -o W/new_grid.h5: OP2's standard NACA0012 mesh
#     (721,801 nodes, 720,000 cells; maps and values equal to OP2's
#     new_grid.h5, docs/AIRFOIL.md).
#  2. Every OP2 binary at every block size in OP2_BLOCKS (default "64 256 512";
#     64 is OP2's default), REPEAT times (default 2), each in a scratch
#     directory holding new_grid.h5 (OP2's airfoil reads ./new_grid.h5 and
#     writes new_grid_out.h5 and file_name.h5 there; they are deleted).  The
#     block size is OP2's run-time argument OP_BLOCK_SIZE=N; the hier_*
#     binaries (two-level colouring) also run with OP_PART_SIZE=N, edges per
#     plan block = threads (block column "N/pN"; without it the plan takes
#     768 edges per block for res_calc).  Then one run per
#     binary with OP_PROFILE_LEVEL=2 at block PROFILE_BLOCK (default 512):
#     OP2's per-kernel times (each kernel synchronised: slower in total).
#     Repeat runs stop being started once the OP2 part has taken OP2_BUDGET
#     seconds (default 170), so the whole script stays within 5 minutes.
#  3. tsr-airfoil -i W/new_grid.h5 --variant 'cuda/*' --iterations 1000
#     --runs 1 --warmup 0 --csv F $TSR_ARGS (TSR_ARGS: e.g. "--block 512").
#  4. The table: seconds per 1000 iterations, rms at 1000 and OP2's check
#     |rms/1.060114637578e-4 - 1| < 1e-7.
#
# OP2's output (OP2-Common b9e7a58d, apps/c/airfoil/airfoil_hdf5/dp):
#   " 100  5.02186e-04 "    rms every 100 iterations (%10.5e)
#   "Test problem with 720000 cells is within 1.23E-08 % of the expected
#    solution" then "This test is considered PASSED" (diff < 1e-5 %, i.e.
#    the relative error < 1e-7), only on the 720,000-cell mesh
#   "Airfoil *1 total: 681.2ms"   op_profile: wall time of the 1000-iteration
#                                 loop (4 significant digits, s/ms/us/ns);
#                                 it includes OP2's per-iteration copy of the
#                                 rms back to the host and, for colouring, the
#                                 plan (colouring) built on each loop's first
#                                 call. The mesh read and the device copies
#                                 happen before it.
#   at OP_PROFILE_LEVEL=2, per kernel: "    res_calc//Indirect  2000  total
#   avg min max" (the name, count, then durations as above)
# tsr-airfoil's time is its own (docs/AIRFOIL.md): median_us in its CSV.
#
# PEERS_SIZE=IxJ (testing only) makes a smaller mesh; OP2's check then does
# not apply (n/a) and tsr-airfoil checks against its cpu/ref.
set -u
P=$(cd "${1:-pack}" && pwd) || { echo "peers-airfoil.sh: no pack directory ${1:-pack}" >&2; exit 1; }
OUT=${OUT:-$PWD/device-out}
BLOCKS=${OP2_BLOCKS:-64 256 512}
REPEAT=${REPEAT:-2}
OP2_BUDGET=${OP2_BUDGET:-170} # seconds: no repeat run starts after this
PROFILE_BLOCK=${PROFILE_BLOCK:-512}
TSR_ARGS=${TSR_ARGS:-}
SIZE=${PEERS_SIZE:-}
mkdir -p "$OUT"
W=$(mktemp -d "${TMPDIR:-/tmp}/peers-airfoil.XXXXXX")
L=$W/logs
mkdir -p "$L"
export LD_LIBRARY_PATH="$P:${LD_LIBRARY_PATH:-}"

{
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv 2>&1
  uname -a
} > "$L/machine.txt"
[ -f "$P/op2-BUILD-INFO.txt" ] && cp "$P/op2-BUILD-INFO.txt" "$L/"

# 1. the mesh
mesh=$W/new_grid.h5
if ! "$P/tsr-mkairfoil" -q ${SIZE:+--size "$SIZE"} -o "$mesh" > "$L/tsr-mkairfoil.log" 2>&1; then
  echo "peers-airfoil.sh: tsr-mkairfoil failed:" >&2
  cat "$L/tsr-mkairfoil.log" >&2
  tar czf "$OUT/peers-airfoil.tar.gz" -C "$W" logs
  exit 1
fi

# 2. OP2's binaries
op2_run() { # LOGFILE COMMAND...: one run in a fresh scratch directory
  log=$1
  shift
  d=$W/scratch
  rm -rf "$d" && mkdir -p "$d" && ln -s "$mesh" "$d/new_grid.h5"
  t0=$(date +%s.%N)
  (cd "$d" && timeout 60 "$@") > "$log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  echo "peers-airfoil: exit $rc, wall $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s" >> "$log"
  rm -rf "$d"
}
nop2=0
t_op2=$(date +%s)
for bin in "$P"/airfoil_op2_*; do
  [ -f "$bin" ] && [ -x "$bin" ] || continue
  nop2=$((nop2 + 1))
  v=${bin##*/airfoil_op2_}
  for bs in $BLOCKS; do
    parts=-
    case $v in hier_*) parts="- $bs" ;; esac # also OP_PART_SIZE = block (one edge per thread)
    for ps in $parts; do
      tag=b$bs args=OP_BLOCK_SIZE=$bs
      [ "$ps" = - ] || tag=$tag-p$ps args="$args OP_PART_SIZE=$ps"
      r=1
      while [ "$r" -le "$REPEAT" ]; do
        # repeats only while the OP2 part is within its time budget
        [ "$r" -gt 1 ] && [ $(($(date +%s) - t_op2)) -gt "$OP2_BUDGET" ] && break
        # shellcheck disable=SC2086 # args: one or two OP2 arguments
        op2_run "$L/op2-$v-$tag-r$r.log" "$bin" $args
        echo "$L/op2-$v-$tag-r$r.log" >> "$W/op2-logs" # the table keeps this order
        r=$((r + 1))
      done
    done
  done
  op2_run "$L/op2prof-$v-b$PROFILE_BLOCK.log" env OP_PROFILE_LEVEL=2 "$bin" "OP_BLOCK_SIZE=$PROFILE_BLOCK"
  echo "$L/op2prof-$v-b$PROFILE_BLOCK.log" >> "$W/op2-logs"
done
[ "$nop2" -gt 0 ] || echo "peers-airfoil.sh: no $P/airfoil_op2_* binaries: OP2 rows missing" >&2

# 3. tsr-airfoil
# shellcheck disable=SC2086 # TSR_ARGS is a list of options
timeout 240 "$P/tsr-airfoil" -i "$mesh" --variant 'cuda/*' --iterations 1000 --runs 1 --warmup 0 \
  --csv "$W/tsr-airfoil.csv" $TSR_ARGS > "$L/tsr-airfoil.log" 2>&1
echo "peers-airfoil: exit $?" >> "$L/tsr-airfoil.log"
[ -f "$W/tsr-airfoil.csv" ] && cp "$W/tsr-airfoil.csv" "$L/"

# 4. the table (awk only)
# shellcheck disable=SC2046 # the lists of log files (no blanks in their names)
awk -v tol=1e-7 -v pblock="$PROFILE_BLOCK" -v csvout="$W/peers-airfoil.csv" '
function secs(s,   v, u) { # OP2 duration "681.2ms" -> seconds
  v = s + 0; u = s; sub(/^[0-9.]+/, "", u)
  return u == "s" ? v : u == "ms" ? v * 1e-3 : u == "us" ? v * 1e-6 : u == "ns" ? v * 1e-9 : -1
}
function key(code, v, b) { return code SUBSEP v SUBSEP b }
function note(k) { if (!(k in seen)) { seen[k] = 1; order[++nk] = k } }
FNR == 1 {
  f = FILENAME; sub(/.*\//, "", f)
  kind = ""
  if (f ~ /^op2-.*-b[0-9]+(-p[0-9]+)?-r[0-9]+\.log$/) { # op2-VARIANT-bBLOCK[-pPART]-rRUN.log
    kind = "op2"; s = f; sub(/^op2-/, "", s); sub(/-r[0-9]+\.log$/, "", s)
    b = s; sub(/.*-b/, "", b); sub(/-b[0-9]+(-p[0-9]+)?$/, "", s); sub(/-p/, "/p", b)
    k = key("OP2", s, b); note(k); runs[k]++
  } else if (f ~ /^op2prof-/) {
    kind = "prof"; s = f; sub(/^op2prof-/, "", s); sub(/-b[0-9]+\.log$/, "", s); pv = s
    if (!(pv in profseen)) { profseen[pv] = 1; profv[++np] = pv }
  } else if (f == "tsr-airfoil.log") kind = "tsrlog"
  else if (f == "tsr-airfoil.csv") kind = "tsrcsv"
  FS = kind == "tsrcsv" ? "," : " " # from the next line on
}
kind == "op2" && /^ *[0-9]+ +[0-9.]+e[-+][0-9]+ *$/ { if ($1 == 1000) rms[k] = $2 }
kind == "op2" && /is within .* % of the expected solution/ {
  t = $0; sub(/.* is within /, "", t); sub(/ %.*/, "", t); rel[k] = t / 100
}
kind == "op2" && /This test is considered (PASSED|FAILED)/ { if (!(k in op2say) || $NF == "FAILED") op2say[k] = $NF }
kind == "op2" && /^Airfoil \*1 total: / {
  t = secs($4)
  if (t >= 0) {
    if (!(k in tmin) || t < tmin[k]) tmin[k] = t
    if (!(k in tmax) || t > tmax[k]) tmax[k] = t
    ok[k]++
  }
}
kind == "op2" && /^peers-airfoil: exit / { x = $3; sub(/,/, "", x); if (x != 0) bad[k] = "exit " x }
kind == "prof" && NF == 6 && $1 ~ /\// && $2 ~ /^[0-9]+$/ {
  kn = $1; sub(/\/.*/, "", kn)
  if (!(kn in kseen)) { kseen[kn] = 1; kname[++nkn] = kn }
  ktot[pv, kn] = secs($3); kavg[pv, kn] = secs($4); kcnt[pv, kn] = $2
}
kind == "tsrlog" && /^peers-airfoil: exit / { tsrexit = $3 }
kind == "tsrlog" && /^res_calc blocks of <= [0-9]+ edges/ { tsrblock = $5 }
kind == "tsrlog" && /^cuda\/[^ ]*: (PASSED|FAILED) OP2 reference:/ {
  v = $1; sub(/:$/, "", v); t = $0; sub(/.*-1\| = /, "", t); sub(/ .*/, "", t); tsrrel[v] = t
}
kind == "tsrcsv" && FNR > 1 {
  v = $2; k = key("tsr", v, tsrblock == "" ? "256" : tsrblock); note(k); runs[k] = $9; ntsr++
  fig = $(NF - 1); sub(/^rms=/, "", fig)
  if ($(NF - 9) + 0 > 0) { tmin[k] = tmax[k] = $(NF - 9) * 1e-6; ok[k] = 1; rms[k] = fig }
  else bad[k] = "not run"
  vv[k] = $NF; if (v in tsrrel) rel[k] = tsrrel[v]
}
END {
  hdr = sprintf("%-5s %-18s %8s %4s %12s %12s %12s %11s  %s", "code", "variant", "block", "runs",
                "s/1000 it", "(max)", "rms(1000)", "|rms/ref-1|", "OP2 check (< 1e-7)")
  print hdr; gsub(/./, "-", hdr); print hdr
  print "code,variant,block,runs,s_per_1000_min,s_per_1000_max,rms1000,rel_err,check" > csvout
  for (i = 1; i <= nk; i++) {
    k = order[i]; split(k, a, SUBSEP)
    if (k in bad || !(k in ok)) chk = (k in bad) ? bad[k] : "no timing"
    else if (a[1] == "OP2") {
      if (!(k in rel)) chk = "n/a (not the standard mesh)"
      else chk = (rel[k] + 0 < tol && op2say[k] == "PASSED") ? "PASSED" : "FAILED"
      if (ok[k] < runs[k]) chk = chk " (" ok[k] "/" runs[k] " runs timed)"
    } else chk = vv[k] == "PASS" ? "PASSED" : vv[k] == "FAIL" ? "FAILED" : vv[k]
    tm = (k in tmin) ? sprintf("%.4f", tmin[k]) : "-"; tx = (k in tmax) ? sprintf("%.4f", tmax[k]) : "-"
    r = (k in rms) ? rms[k] : "-"; e = (k in rel) ? sprintf("%.1e", rel[k]) : "-"
    printf "%-5s %-18s %8s %4s %12s %12s %12s %11s  %s\n", a[1], a[2], a[3], runs[k], tm, tx, r, e, chk
    printf "%s,%s,%s,%s,%s,%s,%s,%s,%s\n", a[1], a[2], a[3], runs[k], tm, tx, r, e, chk > csvout
    if (chk ~ /^PASSED/ && (!(a[1] in best) || tmin[k] < best[a[1]])) { best[a[1]] = tmin[k]; bestk[a[1]] = a[2] " block " a[3] }
  }
  if (("OP2" in best) && ("tsr" in best))
    printf "\nbest that passed: OP2 %s %.4f s, tsr %s %.4f s: tsr %.2fx faster\n", bestk["OP2"], best["OP2"],
           bestk["tsr"], best["tsr"], best["OP2"] / best["tsr"]
  if (ntsr == 0) printf "tsr   (no rows: tsr-airfoil exit %s, see logs/tsr-airfoil.log)\n", tsrexit
  if (nkn > 0) {
    printf "\nOP2 per kernel at OP_PROFILE_LEVEL=2, block %s (each kernel synchronised): total s over 1000 iterations\n", pblock
    printf "%-18s", "variant"; for (j = 1; j <= nkn; j++) printf " %10s", kname[j]; printf " %10s\n", "sum"
    for (i = 1; i <= np; i++) {
      printf "%-18s", profv[i]; sum = 0
      for (j = 1; j <= nkn; j++) {
        if ((profv[i], kname[j]) in ktot) { printf " %10.4f", ktot[profv[i], kname[j]]; sum += ktot[profv[i], kname[j]] }
        else printf " %10s", "-"
      }
      printf " %10.4f\n", sum
    }
  }
}' $(cat "$W/op2-logs" 2>/dev/null) "$L/tsr-airfoil.log" \
   $( [ -f "$W/tsr-airfoil.csv" ] && echo "$W/tsr-airfoil.csv") > "$W/peers-airfoil.txt"
{
  echo "mesh: tsr-mkairfoil${SIZE:+ --size $SIZE}: $(sed -n 's/^tsr-airfoil: [^:]*: \([^;]*\);.*/\1/p' "$L/tsr-airfoil.log")"
  echo "OP2: airfoil_hdf5/dp, OP_BLOCK_SIZE in {$BLOCKS}, $REPEAT run(s) each, time = OP2's 'Airfoil' total (min, max)"
  echo "tsr: tsr-airfoil --variant 'cuda/*' --runs 1 $TSR_ARGS (its own time)"
  echo
  cat "$W/peers-airfoil.txt"
} > "$OUT/peers-airfoil.txt"
cp "$W/peers-airfoil.csv" "$OUT/peers-airfoil.csv"
cat "$OUT/peers-airfoil.txt"
tar czf "$OUT/peers-airfoil.tar.gz" -C "$W" logs
rm -rf "$W"
