# tests/apps/lulesh_tap.sh: sourced by the TAP scripts of tsr-lulesh
# (lulesh*.sh); tap.sh's pieces and:
# - x and mk, this build's tsr-lulesh and tsr-mklulesh; OMP_NUM_THREADS=1;
# - run NP OUT ARGS...: tsr-lulesh on NP ranks, stdout and stderr to OUT,
#   $run_limit seconds at most (default 120);
# - val FILE LABEL: the value of a "   LABEL  =  " line of the output;
# - near FILE REF: the same cycle count as REF, e(0) and the total energy
#   within $REL (relative);
# - lulesh_gpu: gpu=1 when this build has the CUDA variants and a GPU is
#   present, else gpu=0.
. "${TSR_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/apps/tap.sh"
x="$B/apps/tsr-lulesh"
mk="$B/apps/tsr-mklulesh"
OMP_NUM_THREADS=1; export OMP_NUM_THREADS
run() {
  rn=$1; out=$2; shift 2
  timeout -k 10 "${run_limit:-120}" "$MPIEXEC" -n "$rn" --oversubscribe "$x" "$@" > "$out" 2>&1
}
val() { sed -n "s/^   $2 *=  //p" "$1"; }
near() {
  c1=$(val "$1" "Iteration count"); c0=$(val "$2" "Iteration count")
  [ -n "$c1" ] && [ "$c1" = "$c0" ] || return 1
  for l in "Origin energy e(0)" "Total energy sum e"; do
    awk -v a="$(val "$1" "$l")" -v r="$(val "$2" "$l")" -v tol="$REL" \
      'BEGIN { d = (a - r) / r; if (d < 0) d = -d; exit !(a != "" && d <= tol) }' || return 1
  done
}
lulesh_gpu() {
  gpu=0
  if "$x" --list-variants 2>/dev/null | grep -q '^cuda/gather  *cuda  *yes ' &&
     command -v nvidia-smi > /dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q GPU; then gpu=1; fi
}
