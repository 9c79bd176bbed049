#!/bin/sh
# faults.sh: an allocation, an HDF5 read or a CUDA call that fails on one
# rank only (TSR_FAULT, lib/include/tessera/fault.h) ends every program at 2
# and 3 ranks within seconds, with exit 1 and one error line (printed once,
# no MPI_ABORT banner). Each case moves the failing call (after=N) over the
# program's calls of that kind (the first few, then sparser);
# a run that finishes normally (N beyond the calls made) must exit 0.
B=${TSR_TOP_BUILDDIR:?set by the test harness}
MPIEXEC=${MPIEXEC:-mpiexec}
dir=$(mktemp -d "${TMPDIR:-/tmp}/tsr-fault.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
command -v timeout >/dev/null 2>&1 || { echo "1..0 # SKIP timeout (Debian coreutils) not found"; exit 0; }
. "${TSR_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/apps/fault_sweep.sh"

MK="$B/apps/tsr-mkinput" AF="$B/apps/tsr-mkairfoil"
"$MK" grid -q -o "$dir/g.h5" --size 16x16x8 >/dev/null 2>&1 &&
  "$AF" --size 20x30 -o "$dir/m.h5" >/dev/null 2>&1 ||
  { echo "1..0 # SKIP cannot make the inputs"; exit 0; }

echo "1..17"
ST="$B/apps/tsr-stencil"
sweep "tsr-stencil laplap" 2 1 alloc 55 "$ST" laplap -q --size 16x16x8 --device cpu --variant cpu/regular
sweep "tsr-stencil -i" 3 2 h5read 6 "$ST" laplap -q -i "$dir/g.h5" --device cpu --variant cpu/regular
sweep "tsr-stencil unstructured" 2 1 alloc 12 "$ST" laplap -q --size 16x16x8 --device cpu --variant cpu/unstr/idxvar
sweep "tsr-fastsg hierarchize" 2 1 alloc 12 "$B/apps/tsr-fastsg" -q --dim 3 --level 5 --mode hierarchize --variant cpu/hier/inv4
sweep "tsr-fastsg evaluate" 3 1 alloc 12 "$B/apps/tsr-fastsg" -q --dim 3 --level 5 --mode evaluate
sweep "tsr-airfoil" 2 1 alloc 55 "$B/apps/tsr-airfoil" -q -i "$dir/m.h5" --iterations 4 --device cpu
sweep "tsr-airfoil -i" 3 2 h5read 12 "$B/apps/tsr-airfoil" -q -i "$dir/m.h5" --iterations 4 --device cpu
sweep "tsr-info" 2 1 h5read 6 "$B/apps/tsr-info" "$dir/m.h5"
sweep "tsr-halobench" 2 1 alloc 12 "$B/apps/tsr-halobench" -q --size 32x32x8 --device cpu
sweep "tsr-copybench" 2 1 alloc 6 "$B/apps/tsr-copybench" -q -s 32x32x8 --device cpu
sweep "tsr-layoutbench" 1 0 alloc 6 "$B/apps/tsr-layoutbench" -q --size 64 --stencil-size 32x32x64 --device cpu
sweep "tsr-lulesh" 1 0 alloc 6 "$B/apps/tsr-lulesh" -q -s 5

# ranks started with different arguments: one agreed line, not a hang
mismatch() {
  name=$1
  shift
  t0=$(date +%s)
  timeout -k 5 "$LIMIT" "$MPIEXEC" --oversubscribe "$@" >"$dir/out" 2>"$dir/err"
  rc=$?
  [ $rc -ne 0 ] && [ $rc -lt 124 ] && [ "$(grep -c 'error:' "$dir/err")" -eq 1 ] &&
    grep -q 'different arguments' "$dir/err" && ! grep -q MPI_ABORT "$dir/err"
  r=$?
  [ $r -eq 0 ] || sed 's/^/#   /' "$dir/err" | head -6
  ok $r "$name on one rank only: one line naming the mismatch, exit $rc after $(($(date +%s) - t0)) s"
}
mismatch "tsr-stencil --size" -n 1 "$ST" laplap -q --size 16x16x8 --device cpu : \
  -n 1 "$ST" laplap -q --size 16x16x16 --device cpu
mismatch "tsr-stencil -i" -n 1 "$ST" laplap -q -i "$dir/g.h5" --device cpu : \
  -n 1 "$ST" laplap -q --size 16x16x8 --device cpu
mismatch "tsr-stencil --iterations" -n 2 "$ST" laplap -q --size 16x16x8 --device cpu : \
  -n 1 "$ST" laplap -q --size 16x16x8 --device cpu --iterations 3
mismatch "tsr-fastsg --level" -n 1 "$B/apps/tsr-fastsg" -q --dim 3 --level 5 : \
  -n 1 "$B/apps/tsr-fastsg" -q --dim 3 --level 6

# an option error every rank finds (at 2 ranks): one line, no MPI_ABORT banner
bad=0
for c in "$ST laplap -q --variant bogus" "$B/apps/tsr-airfoil -q --variant bogus" \
  "$B/apps/tsr-airfoil -q --reorder bogus" "$B/apps/tsr-fastsg -q --mode bogus" \
  "$B/apps/tsr-lulesh -q --decomp bogus" "$B/apps/tsr-copybench -q --variant bogus" \
  "$B/apps/tsr-halobench -q --variant bogus" "$B/apps/tsr-layoutbench -q --variant bogus" \
  "$ST laplap -q --halo bogus" "$B/apps/tsr-airfoil -q --halo bogus" \
  "$B/apps/tsr-lulesh -q --halo bogus"; do
  # shellcheck disable=SC2086
  timeout -k 5 "$LIMIT" "$MPIEXEC" -n 2 --oversubscribe $c >"$dir/out" 2>"$dir/err"
  rc=$?
  if [ $rc -ne 1 ] || [ "$(grep -c 'error:' "$dir/err")" -ne 1 ] || grep -q MPI_ABORT "$dir/err"; then
    echo "# $c at 2 ranks: exit $rc, $(grep -c 'error:' "$dir/err") error lines" >&2
    bad=1
  fi
done
ok $bad "option errors at 2 ranks in every program: exit 1, one line, no MPI_ABORT"
