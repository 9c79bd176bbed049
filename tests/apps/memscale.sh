#!/bin/sh
# memscale.sh: peak memory per rank falls as 1/ranks. Each program runs a
# problem large enough that its part dominates at 1, 2 and 4 ranks under
# peakrss (the VmHWM of every rank); a trivial run of the same program at
# the same rank count gives the baseline (MPI, HDF5, and the two buffers of
# the report's copy-bandwidth measurement: twice the last-level cache each,
# 64 to 256 MiB), subtracted from each rank. Those buffers live only while
# the bandwidth is measured, in the run: a peak reached before (a mesh being
# partitioned) does not hold them, so the subtraction understates such a
# peak by their size (128 MiB on a machine with 32 MiB of L3).
# The largest rank's gain must be at most 0.65 of the 1-rank gain at 2
# ranks and 0.40 at 4 (1/ranks plus halos and the run's replicated tables).
# A check given a TODO reason is a known failure (automake's XFAIL; an
# unexpected pass fails, so the mark goes once it passes); none has one.
# tsr-airfoil frees the mesh as read once partitioned and the partitioner's
# buffers before the run, and partitions with PT-Scotch on several ranks
# where configure found libptscotch-dev (--partitioner auto), so no rank
# gathers the cell graph; a build without PT-Scotch uses METIS, whose rank 0
# holds the whole graph (about 35 MB more than the other ranks at 4 ranks
# here: within the bounds at this size, but it does not fall with ranks).
# The up-front estimate (tsr_memory_check) is per rank: under a
# TSR_MEMORY_LIMIT that refuses the problem on 1 rank, 4 ranks run it.
# Programs: tsr-stencil laplap (cpu/regular), tsr-airfoil on a 450x700 mesh
# from tsr-mkairfoil, tsr-fastsg --distribute yes (hierarchization),
# tsr-lulesh --decomp metis and block -s 56.
. "${TSR_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/apps/tap.sh"
P="$B/tests/apps/peakrss"
tap_scratch tsr-memscale
dir=$t
[ -x "$P" ] || { echo "1..0 # SKIP peakrss not built"; exit 0; }
"$B/apps/tsr-mkairfoil" -q --size 450x700 -o "$dir/m.h5" >/dev/null 2>&1 &&
  "$B/apps/tsr-mkairfoil" -q --size 12x12 -o "$dir/tiny.h5" >/dev/null 2>&1 ||
  { echo "1..0 # SKIP cannot make the meshes"; exit 0; }

# peaks NP CMD...: the peak (kB) of every rank, rank order, one line
peaks() {
  np=$1
  shift
  rm -f "$dir"/rss.*
  "$MPIEXEC" -n "$np" --oversubscribe "$P" "$dir/rss" "$@" >"$dir/out" 2>"$dir/err" || {
    echo "# -n $np $*: exit $?" >&2; sed 's/^/#   /' "$dir/err" | head -5 >&2; return 1; }
  r=0 line=
  while [ $r -lt "$np" ]; do line="$line $(cat "$dir/rss.$r")" || return 1; r=$((r + 1)); done
  echo "$line"
}

# check NAME TODO "TRIVIAL..." "BIG...": TODO, a reason, marks a known failure
check() {
  name=$1 todo=$2 trivial=$3 big=$4
  bad=0 msg=
  for np in 1 2 4; do
    # shellcheck disable=SC2086
    b=$(peaks $np $trivial) && p=$(peaks $np $big) || { bad=1; break; }
    base=$(echo "$b" | tr ' ' '\n' | sort -n | tail -1)
    if [ $np = 1 ]; then
      one=$((p - base))
      [ $one -gt 65536 ] || { echo "# $name: the 1-rank run gains only $one kB" >&2; bad=1; break; }
      msg="1 rank $((one / 1024)) MiB"
      continue
    fi
    case $np in 2) lim=0.65 ;; 4) lim=0.40 ;; esac
    msg="$msg; $np ranks:"
    r=0
    for v in $p; do
      l=$lim
      f=$(awk -v g=$((v - base)) -v o=$one 'BEGIN { printf "%.2f", g / o }')
      msg="$msg $f"
      awk -v f="$f" -v l="$l" 'BEGIN { exit !(f <= l) }' ||
        { echo "# $name: rank $r of $np gains $f of the 1-rank peak (bound $l)" >&2; bad=1; }
      r=$((r + 1))
    done
  done
  ok_rc $bad "$name: peak per rank above the baseline, fraction of 1 rank's: $msg${todo:+ # TODO $todo}"
}

echo "1..7"
ST="$B/apps/tsr-stencil"
check "tsr-stencil laplap 512x512x64" "" \
  "$ST laplap -q --size 8x8x8 --device cpu --variant cpu/regular --iterations 1" \
  "$ST laplap -q --size 512x512x64 --device cpu --variant cpu/regular --iterations 1"
AF="$B/apps/tsr-airfoil"
check "tsr-airfoil 450x700" "" \
  "$AF -q -i $dir/tiny.h5 --iterations 2 --device cpu" \
  "$AF -q -i $dir/m.h5 --iterations 2 --device cpu"
SG="$B/apps/tsr-fastsg"
check "tsr-fastsg --distribute yes, d 5 level 12" "" \
  "$SG -q --dim 5 --level 4 --mode hierarchize --distribute yes --variant cpu/hier/ichg1" \
  "$SG -q --dim 5 --level 12 --mode hierarchize --distribute yes --variant cpu/hier/ichg1"
LU="$B/apps/tsr-lulesh"
check "tsr-lulesh --decomp metis -s 56" "" \
  "$LU -q -s 4 -i 2 --decomp metis" "$LU -q -s 56 -i 2 --decomp metis"
check "tsr-lulesh --decomp block -s 56" "" \
  "$LU -q -s 4 -i 2 --decomp block" "$LU -q -s 56 -i 2 --decomp block"

# fits NAME LIMIT CMD...: refused with "needs" at 1 rank, runs at 4
fits() {
  name=$1 lim=$2
  shift 2
  "$MPIEXEC" -n 1 -x TSR_MEMORY_LIMIT="$lim" "$@" >"$dir/out" 2>"$dir/err"
  r1=$?
  n1=$(grep -c 'error:.*needs' "$dir/err")
  "$MPIEXEC" -n 4 --oversubscribe -x TSR_MEMORY_LIMIT="$lim" "$@" >"$dir/out" 2>"$dir/err"
  r4=$?
  [ $r1 = 1 ] && [ "$n1" = 1 ] && [ $r4 = 0 ]
  ok_rc $? "$name: TSR_MEMORY_LIMIT=$lim refuses 1 rank (exit $r1), 4 ranks run (exit $r4)"
}
fits "tsr-airfoil 450x700 estimate per rank" 100M "$AF" -q -i "$dir/m.h5" --iterations 2 --device cpu
fits "tsr-lulesh --decomp metis -s 56 estimate per rank" 60M "$LU" -q -s 56 -i 2 --decomp metis
