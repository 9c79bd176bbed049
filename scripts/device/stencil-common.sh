# scripts/device/stencil-common.sh: sourced by the stencil device scripts (final-s6.sh,
# uplan-s7.sh, uwinm-s8.sh). After sourcing: B (binaries, default pack), OUT, TS (tsr-stencil),
# W (a temporary folder for logs and CSVs), LD_LIBRARY_PATH and OpenMPI's run-as-root variables
# set, and the functions below.
B=${B:-pack}
OUT=${OUT:-/tmp/out}
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=4
W=$(mktemp -d)
T0=$(date +%s)
TS=$B/tsr-stencil
# el: seconds since the script started.
el() { echo $(( $(date +%s) - T0 )); }
# st_tests: check_stencil_cuda, then check_stencil_mpi at 1, 2 and 4 ranks (one GPU: ranks share
# it); a line each with the exit status and the test's summary, logs in $W.
st_tests() {
  timeout 150 "$B/check_stencil_cuda" > "$W/check_stencil_cuda.log" 2>&1
  echo "[$(el) s] check_stencil_cuda rc=$?: $(grep -E 'Checks|%' "$W/check_stencil_cuda.log" | tail -1)"
  grep -E "Failure|Error|error" "$W/check_stencil_cuda.log" | head -5
  local np
  for np in 1 2 4; do
    timeout 120 mpirun --allow-run-as-root --oversubscribe --bind-to none -np $np "$B/check_stencil_mpi" \
      > "$W/check_stencil_mpi-$np.log" 2>&1
    echo "[$(el) s] check_stencil_mpi -np $np rc=$?: $(grep -E '%:' "$W/check_stencil_mpi-$np.log" | head -1)"
  done
}
# r TAG ARGS...: tsr-stencil ARGS, median of 20 runs after 3 warm-up runs, rows to $W/TAG.csv
# (RT: its time limit in seconds, default 90).
r() {
  local t=$1
  shift
  timeout ${RT:-90} $TS "$@" --runs 20 --warmup 3 -q --csv "$W/$t.csv" > "$W/$t.log" 2>&1 ||
    echo "FAILED $t: $(tail -2 $W/$t.log)"
}
# st_best SED: each CSV's fastest verified row (median µs, name edited by the sed expression SED,
# block, max error) and its count of FAIL rows.
st_best() {
  local f
  for f in "$W"/*.csv; do
    echo "$(basename $f .csv) $(python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["verify"] == "PASS":
        print(r["median_us"], r["name"], "x".join(r["threads_" + a] for a in "xyz"), r["max_err"])' $f |
      sort -n | head -1 | sed "$1") fails=$(grep -c FAIL $f)"
  done
}
