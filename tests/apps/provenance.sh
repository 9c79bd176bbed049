#!/bin/sh
# provenance.sh: every program's --csv has the one schema of docs/CSV.md (the
# common columns first, in order, then the app's own; every row as many
# fields as the header; version, commit, an ISO 8601 UTC date, this host, a
# device that is never empty and spells the CPU "CPU (N threads)"), and every
# HDF5 writer records the provenance of docs/FORMAT.md (release, commit,
# host, the MPI, HDF5, CUDA and compiler versions, a non-empty device:
# tsr-airfoil's included).
. "${TSR_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/apps/tap.sh"
py=python3
command -v $py >/dev/null 2>&1 || py=/usr/bin/python3
tap_scratch tsr-prov
tap_log=$t/out
tap_log_tail=15
OMP_NUM_THREADS=1; export OMP_NUM_THREADS
echo "1..10"
common=app,variant,version,commit,date,host,device,ranks,precision,nx,ny,nz,runs,median_us,min_us,max_us,mean_us,bytes,gbs,ceiling_gbs,pct_floor,figure,verify,config,note,mpi,hdf5,cuda,compiler
host=$(hostname 2>/dev/null || uname -n)

cat > "$t/check.py" <<'END_PY'
import csv, re, sys
common, host, path = sys.argv[1].split(","), sys.argv[2], sys.argv[3]
rows = list(csv.reader(open(path, newline="")))
head, body = rows[0], rows[1:]
assert head[:len(common)] == common, "header %s" % head
assert body, "no rows"
for r in body:
    assert len(r) == len(head), "%d fields, header %d: %s" % (len(r), len(head), r)
    d = dict(zip(head, r))
    assert d["version"] and d["commit"] and d["commit"] != "unknown", d
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", d["date"]), d["date"]
    assert d["host"] == host, (d["host"], host)
    assert d["device"] and (not d["device"].lower().startswith("cpu")
                            or re.fullmatch(r"CPU \(\d+ threads?\)", d["device"])), d["device"]
    assert int(d["ranks"]) >= 1 and float(d["median_us"]) > 0, d
    for k in ("mpi", "hdf5", "cuda", "compiler"):
        assert d[k] and d[k] != "unknown", (k, d[k])
print("%d rows, %d columns (%d the app's own)" % (len(body), len(head), len(head) - len(common)))
END_PY

# ---- the CSV of every program
csvrun() { # NAME PROGRAM ARGS...
  name=$1; prog=$2; shift 2
  if "$B/apps/$prog" "$@" --csv "$t/$name.csv" > "$t/out" 2>&1 &&
     $py "$t/check.py" "$common" "$host" "$t/$name.csv" > "$t/chk" 2>&1; then
    ok "$prog --csv: the common schema ($(cat "$t/chk"))"
  else
    cat "$t/chk" >> "$t/out" 2>/dev/null; no "$prog --csv"
  fi
}
csvrun copy tsr-copybench --size 32x32x4 --runs 2 --warmup 0 --device cpu
csvrun halo tsr-halobench --size 32x32x4 --runs 2 --warmup 0 --device cpu
csvrun stencil tsr-stencil laplap --size 20x18x4 --runs 1 --warmup 0 --device cpu
csvrun airfoil tsr-airfoil --size 30x20 --iterations 20 --device cpu
csvrun fastsg tsr-fastsg -d 2 -n 4 --points 200 --runs 1 --warmup 0 --device cpu
csvrun layout tsr-layoutbench --size 32 --cpu-runs 1 --runs 2 --warmup 0 --stencil-size 20x10x12 --iterations 2 --stencil-runs 1 --device cpu
csvrun lulesh tsr-lulesh -s 4 -i 5
# tsr-stencil's own columns come after the common ones
head -1 "$t/stencil.csv" | grep -q ",compiler,name,blocks_x,blocks_y,blocks_z,threads_x,threads_y,threads_z,iterations,max_err$" &&
  ok "tsr-stencil's gridbenchmark columns follow the common ones" || { head -1 "$t/stencil.csv" > "$t/out"; no "tsr-stencil's columns"; }

# ---- HDF5 provenance of every writer (tsr-info prints it)
"$B/apps/tsr-mkinput" grid -q -s 8x8x4 -o "$t/g.h5" > "$t/out" 2>&1 &&
  "$B/apps/tsr-mkairfoil" --size 20x30 -o "$t/m.h5" >> "$t/out" 2>&1 &&
  "$B/apps/tsr-airfoil" -q -i "$t/m.h5" --iterations 5 --runs 1 --device cpu -o "$t/q.h5" >> "$t/out" 2>&1 &&
  "$B/apps/tsr-stencil" laplap -q --size 16x16x8 --device cpu --variant cpu/regular -o "$t/s.h5" >> "$t/out" 2>&1 &&
  "$B/apps/tsr-fastsg" -q -d 2 -n 3 --points 20 --runs 1 --warmup 0 --device cpu -o "$t/f.h5" >> "$t/out" 2>&1
rc=$?
bad=""
for f in g m q s f; do
  if ! "$B/apps/tsr-info" "$t/$f.h5" > "$t/info" 2>&1; then bad="$bad $f.h5(tsr-info)"; continue; fi
  grep -Eq '^  device +CPU \([0-9]+ threads?\)$' "$t/info" || bad="$bad $f.h5(device)"
  for k in version commit date host mpi hdf5 cuda compiler; do
    grep -Eq "^  $k +[^ ]" "$t/info" || bad="$bad $f.h5($k)"
  done
  grep -Eq "^  host +$host$" "$t/info" || bad="$bad $f.h5(host)"
done
[ $rc = 0 ] && [ -z "$bad" ] &&
  ok "provenance of tsr-mkinput, tsr-mkairfoil, tsr-airfoil, tsr-stencil, tsr-fastsg outputs: device, release, commit, host, libraries" ||
  { cat "$t/info" >> "$t/out"; no "HDF5 provenance:$bad"; }
# the version line names the same commit the outputs record
v=$("$B/apps/tsr-info" --version 2>&1)
c=$("$B/apps/tsr-info" "$t/q.h5" | sed -n 's/^  commit *//p')
case "$v" in *"[$c]") ok "--version names the commit the outputs record ($c)" ;;
  *) echo "$v / $c" > "$t/out"; no "--version and the recorded commit" ;; esac
