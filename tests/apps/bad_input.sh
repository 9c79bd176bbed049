#!/bin/sh
# bad_input.sh: tsr-info on malformed files (made by mkbad, plus a text file,
# a truncated file and a missing file), serially and under mpiexec -n 2.
# Each must give exactly one error line naming the file and the dataset,
# a non-zero exit below 128 (no signal), and no hang (timeout).
B=${TSR_TOP_BUILDDIR:?set by the test harness}
. "${TSR_TOP_SRCDIR:?set by the test harness}/tests/apps/bad_check.sh"
INFO="$B/apps/tsr-info"
MPIEXEC=${MPIEXEC:-mpiexec}
dir=$(mktemp -d "${TMPDIR:-/tmp}/tsr-bad.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
"$B/tests/apps/mkbad" "$dir" || { echo "1..0 # SKIP mkbad failed"; exit 0; }
printf 'this is a text file, not HDF5\n' > "$dir/text.h5"
size=$(wc -c < "$dir/good.h5")
head -c $((size / 2)) "$dir/good.h5" > "$dir/truncated.h5"

# file | words the one error line must contain (besides the file name)
cases="missing.h5|cannot open
text.h5|not an HDF5 file
truncated.h5|truncated or damaged
noset.h5|dataset 'cells'
rank.h5|dataset 'pcell'|expected rank 2 [4, 4], found [4]
shape.h5|dataset 'p_x'|expected rank 2 [9, 2], found [10, 2]
type.h5|dataset 'pcell'|non-integral
range.h5|dataset 'pcell'|= 9, expected an index in [0, 9)
zero.h5|dataset 'nodes'|expected a size > 0, found 0
negative.h5|dataset 'cells'|expected a size > 0, found -4"

n=$(printf '%s\n' "$cases" | wc -l)
echo "1..$((2 * n + 1))"
i=0
# the good file passes
i=$((i + 1))
if "$INFO" "$dir/good.h5" > "$dir/out" 2>&1; then echo "ok $i - good.h5 accepted"
else echo "not ok $i - good.h5 rejected"; sed 's/^/# /' "$dir/out"; fi

printf '%s\n' "$cases" > "$dir/cases"
while IFS='|' read -r file need1 need2; do
  i=$((i + 1))
  bad_check "$file serial" tsr-info "$file" "$need1" "$need2" "$INFO" "$dir/$file"
  i=$((i + 1))
  bad_check "$file mpiexec -n 2" tsr-info "$file" "$need1" "$need2" \
    "$MPIEXEC" -n 2 --oversubscribe "$INFO" "$dir/$file"
done < "$dir/cases"
exit 0
