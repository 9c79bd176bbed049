#!/bin/sh
# mkinput.sh: tsr-mkinput writes the same file whatever the rank count, the
# regular and X-Y grids of one seed hold the same values, tsr-info reads
# them, and bad flags give one error line and a non-zero exit.
B=${TSR_TOP_BUILDDIR:?set by the test harness}
MK="$B/apps/tsr-mkinput"
INFO="$B/apps/tsr-info"
MPIEXEC=${MPIEXEC:-mpiexec}
dir=$(mktemp -d "${TMPDIR:-/tmp}/tsr-mk.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
command -v h5diff >/dev/null 2>&1 || { echo "1..0 # SKIP h5diff (Debian hdf5-tools) not installed"; exit 0; }
echo "1..10"
i=0
ok() { i=$((i + 1)); if [ "$1" = 0 ]; then echo "ok $i - $2"; else echo "not ok $i - $2"; [ -f "$dir/err" ] && sed 's/^/# /' "$dir/err"; fi; }

"$MK" grid -q -o "$dir/g1.h5" --size 13x11x5 --fields a,b --seed 7 2>"$dir/err"; ok $? "grid, 1 rank"
"$MPIEXEC" -n 3 --oversubscribe "$MK" grid -q -o "$dir/g3.h5" --size 13x11x5 --fields a,b --seed 7 2>"$dir/err"
ok $? "grid, 3 ranks"
h5diff "$dir/g1.h5" "$dir/g3.h5" /fields/a /fields/a >"$dir/err" 2>&1 &&
  h5diff "$dir/g1.h5" "$dir/g3.h5" /fields/b /fields/b >"$dir/err" 2>&1
ok $? "grid written by 1 and 3 ranks is identical"
h5diff -q "$dir/g1.h5" "$dir/g1.h5" /fields/a /fields/b >/dev/null 2>&1
[ $? -ne 0 ]; ok $? "fields a and b differ (fields are not all alike)"
[ -f "$dir/g1.xmf" ] && grep -q 'Dimensions="5 11 13"' "$dir/g1.xmf"; ok $? "XDMF sidecar with the grid's dimensions"
"$MPIEXEC" -n 2 --oversubscribe "$MK" xygrid -q -o "$dir/x.h5" --size 13x11x5 --fields a,b --seed 7 \
  --order random --depth 2 2>"$dir/err"; ok $? "xygrid random order depth 2, 2 ranks"
"$MK" xygrid -q -o "$dir/xr.h5" --size 13x11x5 --fields a,b --seed 7 --order rowmajor 2>"$dir/err"
ok $? "xygrid row-major"
# row-major storage order: the xy field [nz][nx*ny] holds exactly the grid's [nz][ny][nx] values
h5dump -d /fields/a -y -w 0 "$dir/g1.h5" | sed -n '/DATA {/,/}/p' | tr -s ' ,' '\n\n' | grep -E '^[0-9.e+-]+$' > "$dir/ga"
h5dump -d /fields/a -y -w 0 "$dir/xr.h5" | sed -n '/DATA {/,/}/p' | tr -s ' ,' '\n\n' | grep -E '^[0-9.e+-]+$' > "$dir/xa"
[ "$(wc -l < "$dir/ga")" -eq 715 ] && cmp -s "$dir/ga" "$dir/xa"; ok $? "row-major xygrid values equal the grid's (715 cells)"
"$INFO" "$dir/x.h5" > "$dir/err" 2>&1 && grep -q 'xy-grid' "$dir/err"; ok $? "tsr-info reads the xygrid"
"$MK" grid -o "$dir/bad.h5" --size 4x4x4 --halo 2,2,0 2>"$dir/err"
rc=$?
[ $rc -ne 0 ] && [ $rc -lt 128 ] && [ "$(grep -c 'error:' "$dir/err")" -eq 1 ] && grep -q 'halo' "$dir/err" && [ ! -e "$dir/bad.h5" ]
ok $? "a halo that leaves no inner cells: one error line, no output file"
