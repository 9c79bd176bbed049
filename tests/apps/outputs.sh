#!/bin/sh
# outputs.sh: every output (HDF5, XDMF sidecar, CSV) gets the usual mode
# 0666 & ~umask; a bad -o is refused before any computation; SIGINT and
# SIGTERM to a writer (one rank, or mpirun at two ranks) leave neither the
# temporary PATH.tmp-XXXXXX nor PATH behind, and the run ends by the signal.
. "${TSR_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/apps/tap.sh"
MK="$B/apps/tsr-mkinput"
AF="$B/apps/tsr-mkairfoil"
ST="$B/apps/tsr-stencil"
tap_scratch tsr-out
dir=$t
tap_log=$dir/err
for c in timeout pgrep; do
  command -v $c >/dev/null 2>&1 || { echo "1..0 # SKIP $c (Debian coreutils, procps) not found"; exit 0; }
done
echo "1..14"

# ---- modes under two umasks
for m in 022 027; do
  want=$(printf '%o' $((0666 & ~0$m)))
  d="$dir/u$m"
  mkdir -p "$d"
  (umask $m &&
    timeout 120 "$MK" grid -q -o "$d/g.h5" --size 8x8x4 &&
    timeout 120 "$AF" --size 20x30 -o "$d/m.h5" &&
    timeout 300 "$ST" laplap -q --size 16x16x8 --device cpu --variant cpu/regular -o "$d/s.h5" --csv "$d/s.csv") \
    >"$dir/err" 2>&1
  bad=$?
  for f in g.h5 g.xmf m.h5 s.h5 s.xmf s.csv; do
    got=$(stat -c %a "$d/$f" 2>/dev/null)
    [ "$got" = "$want" ] || { bad=1; echo "$f: mode '$got', expected $want" >>"$dir/err"; }
  done
  ok_rc $bad "umask $m: .h5, .xmf and .csv outputs are mode $want"
done

# ---- a bad -o is found right after option parsing
t0=$(date +%s%N)
timeout 60 "$ST" laplap --size 256x256x64 --iterations 50 -o /nonexistent-dir/out.h5 >"$dir/out" 2>"$dir/err"
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
[ $rc -eq 1 ] && [ "$(wc -l <"$dir/err")" -eq 1 ] && grep -q '/nonexistent-dir/out.h5' "$dir/err" &&
  [ ! -s "$dir/out" ] && [ $ms -lt 5000 ]
ok_rc $? "-o in a missing directory: one line naming the path, exit 1, before computing (${ms} ms)"
"$MPIEXEC" -n 2 --oversubscribe timeout 60 "$ST" laplap --size 16x16x8 -o "$dir" >"$dir/out" 2>"$dir/err"
rc=$?
[ $rc -ne 0 ] && [ "$(grep -c 'error:' "$dir/err")" -eq 1 ] && grep -q 'is a directory' "$dir/err"
ok_rc $? "-o naming a directory, 2 ranks: one agreed error line"
timeout 60 "$ST" laplap --size 16x16x8 --csv /nonexistent-dir/r.csv >"$dir/out" 2>"$dir/err"
[ $? -eq 1 ] && grep -q -- '--csv /nonexistent-dir/r.csv' "$dir/err"
ok_rc $? "--csv in a missing directory is refused up front"

# ---- signals: start the writer, wait (bounded) for its temporary, signal it
# sigtest SIG FINAL WANT COMMAND...: WANT is the exit status (130 for SIGINT,
# 143 for SIGTERM: ended by the signal) or "nonzero" (mpirun's own status).
# Background commands of a non-interactive shell ignore SIGINT, so env
# restores the default disposition first (env then execs the command).
sigtest() {
  sig=$1 final=$2 want=$3
  shift 3
  rm -f "$final" "$final".tmp-*
  : >"$dir/why"
  env --default-signal=INT,TERM "$@" >"$dir/log" 2>&1 &
  pid=$!
  w=0 held=0
  # up to 300 s: the writer opens its output after its reference run, which
  # the other tests beside it on a loaded machine can slow by minutes; a
  # failure says how long it waited and whether the writer was still running.
  # The temporary must be there in 5 polls in a row: the up-front check of -o
  # (tsr_output_check) creates and removes a PATH.tmp-* of its own at start.
  while [ $w -lt 30000 ] && [ $held -lt 5 ] && kill -0 $pid 2>/dev/null; do
    if ls "$final".tmp-* >/dev/null 2>&1; then held=$((held + 1)); else held=0; fi
    sleep 0.01
    w=$((w + 1))
  done
  seen=0 alive=no waited=$((w / 100))
  ls "$final".tmp-* >/dev/null 2>&1 && seen=1
  kill -0 $pid 2>/dev/null && alive=yes
  if [ -n "${KILLRANKS:-}" ]; then
    kill -s "$sig" $(pgrep -P $pid) 2>/dev/null || echo "no rank processes found" >>"$dir/why"
  else
    kill -s "$sig" $pid 2>/dev/null
  fi
  w=0
  while [ $w -lt 300 ] && kill -0 $pid 2>/dev/null; do sleep 0.1; w=$((w + 1)); done
  kill -0 $pid 2>/dev/null && { kill -KILL $pid; echo "still running 30 s after SIG$sig" >>"$dir/why"; }
  wait $pid
  rc=$?
  left=$(ls "$final".tmp-* 2>/dev/null)
  res=0
  [ $seen = 1 ] || { res=1; echo "the temporary never appeared (waited $waited s, writer still running then: $alive)" >>"$dir/why"; }
  [ -z "$left" ] || { res=1; echo "left behind: $left" >>"$dir/why"; }
  [ ! -e "$final" ] || { res=1; echo "$final exists" >>"$dir/why"; }
  if [ "$want" = nonzero ]; then [ $rc -ne 0 ]; else [ $rc -eq "$want" ]; fi ||
    { res=1; echo "exit status $rc, expected $want" >>"$dir/why"; }
  [ -s "$dir/why" ] && res=1
  { cat "$dir/why"; tail -5 "$dir/log" | sed 's/^/log: /'; } >"$dir/err"
  return $res
}
STARGS="laplap -q --size 256x256x64 --iterations 50 --device cpu --variant cpu/regular"
sigtest INT "$dir/mesh.h5" 130 "$AF" --size 600x900 -o "$dir/mesh.h5"
ok_rc $? "SIGINT while tsr-mkairfoil writes: no temporary, no mesh.h5, ended by SIGINT"
sigtest TERM "$dir/out.h5" 143 "$ST" $STARGS -o "$dir/out.h5"
ok_rc $? "SIGTERM to tsr-stencil with -o open: no temporary, no out.h5, ended by SIGTERM"
sigtest INT "$dir/out.h5" 130 "$ST" $STARGS -o "$dir/out.h5"
ok_rc $? "SIGINT to tsr-stencil with -o open: no temporary, no out.h5, ended by SIGINT"
sigtest TERM "$dir/out.h5" nonzero "$MPIEXEC" -n 2 --oversubscribe "$ST" $STARGS -o "$dir/out.h5"
ok_rc $? "SIGTERM to mpirun -n 2 tsr-stencil with -o open: no temporary, no out.h5, non-zero exit"
sigtest INT "$dir/out.h5" nonzero "$MPIEXEC" -n 2 --oversubscribe "$ST" $STARGS -o "$dir/out.h5"
ok_rc $? "SIGINT to mpirun -n 2 tsr-stencil with -o open: no temporary, no out.h5, non-zero exit"
# as a scheduler does at the time limit: SIGTERM to the rank processes themselves
KILLRANKS=1 sigtest TERM "$dir/out.h5" nonzero "$MPIEXEC" -n 2 --oversubscribe "$ST" $STARGS -o "$dir/out.h5"
ok_rc $? "SIGTERM to both ranks of tsr-stencil with -o open: no temporary, no out.h5, non-zero exit"

# ---- the previous disposition is kept: an ignored SIGTERM stays ignored
f="$dir/ig.h5"
rm -f "$f"
( trap '' TERM
  "$ST" laplap -q --size 128x128x32 --iterations 5 --device cpu --variant cpu/regular -o "$f" >/dev/null 2>&1 &
  pid=$!
  w=0
  while [ $w -lt 3000 ] && ! ls "$f".tmp-* >/dev/null 2>&1 && kill -0 $pid 2>/dev/null; do sleep 0.01; w=$((w + 1)); done
  kill -TERM $pid
  w=0
  while [ $w -lt 1200 ] && kill -0 $pid 2>/dev/null; do sleep 0.1; w=$((w + 1)); done
  kill -0 $pid 2>/dev/null && kill -KILL $pid
  wait $pid ) >"$dir/err" 2>&1
[ $? -eq 0 ] && [ -f "$f" ]
ok_rc $? "with SIGTERM ignored (as under nohup) the run goes on and writes its file"

# ---- the abort path: one rank fails alone with the output open (tsr_abort)
for np in 1 2; do
  rm -f "$dir/ab.h5" "$dir"/ab.h5.tmp-*
  timeout 60 "$MPIEXEC" -n $np --oversubscribe "$B/tests/apps/abort_tmp" "$dir/ab.h5" >"$dir/err" 2>&1
  rc=$?
  left=$(ls "$dir"/ab.h5.tmp-* 2>/dev/null)
  [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ -z "$left" ] && [ ! -e "$dir/ab.h5" ] && grep -q 'simulated' "$dir/err"
  ok_rc $? "tsr_abort on one of $np rank(s) with an output open: the temporary is removed"
done
