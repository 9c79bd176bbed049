#!/bin/sh
# lulesh_bad.sh: malformed hex-mesh files (made by lulesh_mkbad) read by
# tsr-info serially and under mpiexec -n 2 (each rank its block), and by
# tsr-lulesh --input. Each must give exactly one error line naming the file,
# the dataset (or attribute) and the problem, a non-zero exit below 128 (no
# signal), and no hang (timeout).
B=${TSR_TOP_BUILDDIR:?set by the test harness}
. "${TSR_TOP_SRCDIR:?set by the test harness}/tests/apps/bad_check.sh"
MPIEXEC=${MPIEXEC:-mpiexec}
dir=$(mktemp -d "${TMPDIR:-/tmp}/tsr-lulesh-bad.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
OMP_NUM_THREADS=1; export OMP_NUM_THREADS
"$B/tests/apps/lulesh_mkbad" "$dir" > "$dir/mk" 2>&1 || { echo "1..0 # SKIP lulesh_mkbad failed"; exit 0; }

# file | words the one error line must contain (besides the file name)
cases="repeated.h5|dataset 'elem_nodes'|element 3 repeats node
inverted.h5|dataset 'elem_nodes'|element 4 has volume
noderange.h5|dataset 'elem_nodes'|entry [7][6] = 27, expected an index in [0, 27)
facerange.h5|dataset 'elem_faces'|entry [2][1] = 8, expected an index in [0, 8)
facebc.h5|dataset 'elem_faces'|element 0 face xi- is a boundary face
facepair.h5|dataset 'elem_faces'|element 0 names 3 across face xi+, but element 3 names 2 across face xi-
facenodes.h5|face eta+ of element 0 and face eta- of its neighbour 3|do not have the same 4 nodes
nosymm.h5|dataset 'symm_y'|not found
nosymmmap.h5|dataset 'symm_z_nodes'|not found
offplane.h5|dataset 'symm_x_nodes'|expected a node on the plane x = 0
shape.h5|dataset 'coords'|expected rank 2 [*, 3], found [27, 2]
rows.h5|dataset 'elem_bc'|expected rank 2 [8, *], found [9, 1]
type.h5|dataset 'elem_nodes'|expected an integer type, found double
flags.h5|dataset 'elem_bc'|element 0 face xi- has flags 3
region.h5|dataset 'region'|element 5 has region 11
origin.h5|attribute 'origin'|= 8, expected an element in [0, 8)"

n=$(printf '%s\n' "$cases" | wc -l)
echo "1..$((3 * n + 3))"
i=0
fail=0
i=$((i + 1))
if "$B/apps/tsr-info" "$dir/good.h5" > "$dir/out" 2>&1; then echo "ok $i - good.h5 accepted by tsr-info"
else echo "not ok $i - good.h5 rejected"; fail=1; sed 's/^/# /' "$dir/out"; fi
i=$((i + 1))
if "$B/apps/tsr-lulesh" --input "$dir/good.h5" -q > "$dir/out" 2>&1; then
  echo "ok $i - good.h5 runs in tsr-lulesh --input"
else echo "not ok $i - good.h5 rejected by tsr-lulesh"; fail=1; sed 's/^/# /' "$dir/out"; fi

printf '%s\n' "$cases" > "$dir/cases"
while IFS='|' read -r file need1 need2; do
  i=$((i + 1))
  bad_check "tsr-info $file" tsr-info "$file" "$need1" "$need2" "$B/apps/tsr-info" "$dir/$file"
  i=$((i + 1))
  bad_check "mpiexec -n 2 tsr-info $file" tsr-info "$file" "$need1" "$need2" \
    "$MPIEXEC" -n 2 --oversubscribe "$B/apps/tsr-info" "$dir/$file"
  i=$((i + 1))
  bad_check "tsr-lulesh --input $file" tsr-lulesh "$file" "$need1" "$need2" \
    "$B/apps/tsr-lulesh" --input "$dir/$file"
done < "$dir/cases"
# a valid OP2 mesh (tsr-info accepts it) is not a hex mesh for tsr-lulesh
i=$((i + 1))
bad_check "tsr-lulesh --input kind.h5" tsr-lulesh kind.h5 "attribute 'kind'" 'expected "hex-mesh"' \
  "$B/apps/tsr-lulesh" --input "$dir/kind.h5"
exit $fail
