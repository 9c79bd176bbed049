# scripts/bench/common.sh: sourced by every scripts/bench/*.sh (bash).
#
#   scripts/bench/X.sh BINDIR        (run from the repository root)
#
# BINDIR holds the tsr-* programs: a build's apps/ directory, or a flat directory of packed
# binaries and the shared libraries they need. Environment:
#   PEERDIR   the peer programs (gridbenchmark, airfoil_op2_*, tasmanian_fastsg; default BINDIR)
#   OUT       where X.csv, X.md and X-raw/ (every log and raw CSV) go (default ./bench-out)
#   SMOKE=1   tiny sizes on the CPU (--device cpu), a couple of runs: checks the script and its
#             table in seconds on a machine without a GPU; the figures mean nothing
#   BUDGET    seconds the whole script may take (each script sets its own default); every step's
#             timeout is cut so that the tables are written before it runs out
#   STEPS     an extended regular expression: only the steps whose tag (the name of its log in
#             X-raw/) matches run; the others are noted as not selected (e.g. STEPS='^airfoil'
#             re-measures one program's rows)
# After bench_init: BIN, PEER, OUT, RAW (X-raw/), NAME, the functions below, LD_LIBRARY_PATH,
# OpenMPI's run-as-root variables, NCCL_NVLS_ENABLE=0 (NVLink multicast stays off) and MPIRUN.
set -u

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BENCH_T0=$(date +%s)

bench_die() { echo "${NAME:-bench}: $*" >&2; exit 1; }

# bench_init NAME DEFAULT_BUDGET "$@": parse BINDIR, set up OUT and the environment.
bench_init() {
  NAME=$1 BUDGET=${BUDGET:-$2}
  shift 2
  [ $# -eq 1 ] || { echo "usage: [PEERDIR=DIR] [OUT=DIR] [SMOKE=1] $0 BINDIR" >&2; exit 2; }
  BIN=$(cd "$1" 2>/dev/null && pwd) || bench_die "$1: no such directory (BINDIR: the tsr-* programs)"
  PEER=$(cd "${PEERDIR:-$BIN}" 2>/dev/null && pwd) || PEER=${PEERDIR:-$BIN}
  SMOKE=${SMOKE:-0}
  OUT=${OUT:-$PWD/bench-out}
  mkdir -p "$OUT" || bench_die "cannot create $OUT"
  OUT=$(cd "$OUT" && pwd)
  RAW=$OUT/$NAME-raw
  rm -rf "$RAW" && mkdir -p "$RAW"
  : > "$RAW/commands.txt"
  : > "$RAW/steps.txt"
  : > "$RAW/notes.txt"
  local cuda=${CUDA_HOME:-/usr/local/cuda}
  export LD_LIBRARY_PATH="$BIN:$PEER:$cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
  export OMPI_MCA_rmaps_base_oversubscribe=1
  export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc 2>/dev/null || echo 4)}
  [ "$OMP_NUM_THREADS" -gt 16 ] 2>/dev/null && OMP_NUM_THREADS=16
  MPIRUN="mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH -x OMP_NUM_THREADS -x NCCL_NVLS_ENABLE"
  if [ "$SMOKE" = 1 ]; then DEV="--device cpu"; else DEV="--device cuda"; fi
  bench_header
}

# bench_elapsed: seconds since the script started.
bench_elapsed() { echo $(( $(date +%s) - BENCH_T0 )); }

# bench_tool NAME: the path of a tsr-* program in BIN (dies if missing); its --version goes to
# the table's header.
bench_tool() {
  [ -x "$BIN/$1" ] || bench_die "$BIN/$1: not found or not executable (BINDIR must hold the tsr-* programs)"
  "$BIN/$1" --version 2>/dev/null | head -n 1 | sed 's/^/version: /' >> "$RAW/info.txt"
  echo "$BIN/$1"
}

# bench_header: date, device, driver, clocks, versions into RAW/info.txt (the tables' header).
bench_header() {
  {
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    if command -v nvidia-smi > /dev/null 2>&1 &&
       g=$(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total \
             --format=csv,noheader 2>/dev/null) && [ -n "$g" ]; then
      echo "gpus: $(echo "$g" | wc -l)"
      echo "$g" | head -n 1 | awk -F', *' '{ print "device: " $1; print "driver: " $2;
        print "clocks: SM max " $3 ", memory max " $4; print "memory: " $5 }'
    else
      echo "gpus: 0"
      echo "device: no GPU (nvidia-smi absent or failed)"
    fi
    echo "host: $(uname -srm), $(nproc 2>/dev/null) cores, OMP_NUM_THREADS=$OMP_NUM_THREADS"
    [ "$SMOKE" = 1 ] && echo "mode: SMOKE (tiny sizes on the CPU: the figures mean nothing)"
  } > "$RAW/info.txt"
}

# bench_gpus: how many GPUs nvidia-smi lists (0 without one).
bench_gpus() { sed -n 's/^gpus: //p' "$RAW/info.txt"; }

# bench_note TEXT: a line for the table's notes (e.g. "peer not run: ...").
bench_note() { echo "$*" >> "$RAW/notes.txt"; echo "$NAME: $*" >&2; }

# bench_peer FILE WHAT: true if the peer program FILE is executable; else a note why not.
bench_peer() {
  if [ -x "$1" ]; then return 0; fi
  if [ -e "$1" ]; then bench_note "peer not run: $2: $1 is not executable"
  else bench_note "peer not run: $2: $1 not found (set PEERDIR; scripts/peers/ builds it)"; fi
  return 1
}

# step TAG LIMIT CMD...: run CMD (output to RAW/TAG.log) with a timeout of LIMIT seconds, cut
# to what is left of BUDGET (minus RESERVE seconds kept for the tables, default 10), in the
# directory STEP_DIR if set (for peers that read and write their working directory). The command
# goes to RAW/commands.txt, "TAG rc seconds" to RAW/steps.txt. Returns CMD's status (124: timed
# out, 125: skipped for want of time).
step() {
  local tag=$1 lim=$2 left rc t0
  shift 2
  left=$(( BUDGET - ${RESERVE:-10} - $(bench_elapsed) ))
  [ "$left" -lt "$lim" ] && lim=$left
  printf '%s%s\n' "${STEP_DIR:+(cd SCRATCH; }" "$*${STEP_DIR:+)}" | sed "s#$BIN/#BINDIR/#g; s#$PEER/#PEERDIR/#g; s#$RAW/##g" >> "$RAW/commands.txt"
  if [ -n "${STEPS:-}" ] && ! printf '%s\n' "$tag" | grep -Eq -- "$STEPS"; then
    echo "$tag 125 0" >> "$RAW/steps.txt"
    bench_note "$tag: not selected (STEPS=$STEPS)"
    return 125
  fi
  if [ "$lim" -lt 3 ]; then
    echo "$tag 125 0" >> "$RAW/steps.txt"
    bench_note "$tag: not run (time budget of $BUDGET s spent)"
    return 125
  fi
  t0=$(date +%s)
  (cd "${STEP_DIR:-.}" && exec timeout -k 5 "$lim" "$@") > "$RAW/$tag.log" 2>&1
  rc=$?
  echo "$tag $rc $(( $(date +%s) - t0 ))" >> "$RAW/steps.txt"
  echo "[$(bench_elapsed) s] $tag: exit $rc ($(( $(date +%s) - t0 )) s, limit $lim s)"
  [ "$rc" = 124 ] || [ "$rc" = 137 ] && bench_note "$tag: timed out after $lim s"
  [ "$rc" = 124 ] || [ "$rc" = 137 ] || [ "$rc" = 0 ] || bench_note "$tag: exit $rc (see $NAME-raw/$tag.log)"
  return "$rc"
}

# bench_table: X.csv and X.md from RAW by scripts/bench/tables.py; prints X.md.
bench_table() {
  python3 "$BENCH_DIR/tables.py" "$NAME" "$RAW" "$OUT/$NAME.csv" "$OUT/$NAME.md" ||
    bench_die "tables.py $NAME failed"
  echo "[$(bench_elapsed) s] $OUT/$NAME.md, $OUT/$NAME.csv"
  cat "$OUT/$NAME.md"
}
