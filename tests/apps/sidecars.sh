#!/bin/sh
# sidecars.sh: every output with a grid or mesh has an XDMF sidecar whose
# HDF5 references exist with the declared shapes (tsr-mkinput grid and
# xygrid, tsr-fastsg); an xy-grid's sidecar shows each stored cell where it
# lies (checked against the regular grid of the same analytic fields); tsr-info
# reads tsr-fastsg's sparse grids (1 and 3 ranks) and refuses malformed ones in
# one line. The sidecar checks need Debian's python3-h5py (skipped without).
S=${TSR_TOP_SRCDIR:-$(dirname "$0")/../..}
. "$S/tests/apps/tap.sh"
tap_scratch tsr-side
tap_log=$t/out
tap_log_tail=15
echo "1..10"
py=/usr/bin/python3
have_h5py=0
$py -c 'import h5py, numpy' >/dev/null 2>&1 && have_h5py=1
check() { # NAME XMF [--xy-against H5]
  name=$1; shift
  if [ $have_h5py = 0 ]; then skip "$name: no python3-h5py"; return; fi
  $py "$S/tests/apps/xdmf_check.py" "$@" >"$t/out" 2>&1 && ok "$name ($(cat "$t/out"))" || no "$name"
}
mk="$B/apps/tsr-mkinput"; sg="$B/apps/tsr-fastsg"; info="$B/apps/tsr-info"

"$mk" grid -q -s 9x7x4 --halo 0,0,0 --init analytic --fields u,v -o "$t/g.h5" >"$t/out" 2>&1 &&
  "$mk" xygrid -q -s 9x7x4 --halo 0,0,0 --order random --init analytic --fields u,v -o "$t/xy.h5" >>"$t/out" 2>&1 &&
  "$mk" xygrid -q -s 8x8x2 --order zcurve --precision float -o "$t/xz.h5" >>"$t/out" 2>&1 &&
  [ -f "$t/g.xmf" ] && [ -f "$t/xy.xmf" ] && [ -f "$t/xz.xmf" ] &&
  ok "tsr-mkinput grid and xygrid write sidecars" || no "tsr-mkinput sidecars"
check "regular grid sidecar" "$t/g.xmf"
check "xy-grid sidecar (random order): each cell where it lies" "$t/xy.xmf" --xy-against "$t/g.h5"
check "xy-grid sidecar (z-curve, float)" "$t/xz.xmf"

"$sg" -q -d 3 -n 4 --points 40 --runs 1 --warmup 0 -o "$t/s3.h5" >"$t/out" 2>&1 &&
  "$sg" -q -d 5 -n 3 --points 30 --runs 1 --warmup 0 --precision float -o "$t/s5.h5" >>"$t/out" 2>&1 &&
  [ -f "$t/s3.xmf" ] && [ -f "$t/s5.xmf" ] && ok "tsr-fastsg writes sidecars (D 3 and 5)" || no "tsr-fastsg sidecars"
check "sparse grid sidecar, D 3" "$t/s3.xmf"
check "sparse grid sidecar, D 5 (first three coordinates, float points)" "$t/s5.xmf"

"$info" "$t/s3.h5" >"$t/out" 2>&1 &&
  grep -q '^sparse-grid: dim 3 level 4, 111 points, function bump$' "$t/out" &&
  grep -q '^  coordinates   \[111, 3\] double$' "$t/out" && grep -q '^  results       \[40\] double$' "$t/out" &&
  grep -q '^  device        CPU (' "$t/out" &&
  ok "tsr-info reads a sparse grid" || no "tsr-info sparse grid"
$MPIEXEC -n 3 "$info" "$t/s5.h5" >"$t/out" 2>&1 &&
  grep -q '^sparse-grid: dim 5 level 3, 71 points' "$t/out" && grep -q '^  points        \[30, 5\] float$' "$t/out" &&
  [ "$(grep -c '^sparse-grid:' "$t/out")" = 1 ] &&
  ok "tsr-info reads a sparse grid at 3 ranks" || no "tsr-info sparse grid at 3 ranks"

# malformed sparse grids (fastsg_mkbad): one line naming the file and dataset, exit 1
if "$B/tests/apps/fastsg_mkbad" "$t" >"$t/out" 2>&1 && "$info" "$t/good.h5" >"$t/out" 2>&1; then
  bad=""
  for c in "short.h5:values" "pointsdim.h5:points" "pvlen.h5:point_values"; do
    f=${c%%:*}; d=${c#*:}
    "$info" "$t/$f" >"$t/out" 2>"$t/err"; rc=$?
    [ $rc = 1 ] && [ "$(wc -l <"$t/err")" = 1 ] && grep -q "$f: dataset '$d'" "$t/err" || bad="$bad $f"
  done
  [ -z "$bad" ] && ok "tsr-info refuses malformed sparse grids in one line" ||
    { cat "$t/err" >"$t/out"; no "tsr-info on malformed sparse grids:$bad"; }
else
  no "fastsg_mkbad / tsr-info good.h5"
fi
