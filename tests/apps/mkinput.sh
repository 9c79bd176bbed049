#!/bin/sh
# mkinput.sh: tsr-mkinput writes the same file whatever the rank count, the
# regular and X-Y grids of one seed hold the same values, tsr-info reads
# them, and bad flags give one error line and a non-zero exit.
. "${TSR_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/apps/tap.sh"
MK="$B/apps/tsr-mkinput"
INFO="$B/apps/tsr-info"
tap_scratch tsr-mk
dir=$t
tap_log=$dir/err
command -v h5diff >/dev/null 2>&1 || { echo "1..0 # SKIP h5diff (Debian hdf5-tools) not installed"; exit 0; }
echo "1..10"

"$MK" grid -q -o "$dir/g1.h5" --size 13x11x5 --fields a,b --seed 7 2>"$dir/err"; ok_rc $? "grid, 1 rank"
"$MPIEXEC" -n 3 --oversubscribe "$MK" grid -q -o "$dir/g3.h5" --size 13x11x5 --fields a,b --seed 7 2>"$dir/err"
ok_rc $? "grid, 3 ranks"
h5diff "$dir/g1.h5" "$dir/g3.h5" /fields/a /fields/a >"$dir/err" 2>&1 &&
  h5diff "$dir/g1.h5" "$dir/g3.h5" /fields/b /fields/b >"$dir/err" 2>&1
ok_rc $? "grid written by 1 and 3 ranks is identical"
h5diff -q "$dir/g1.h5" "$dir/g1.h5" /fields/a /fields/b >/dev/null 2>&1
[ $? -ne 0 ]; ok_rc $? "fields a and b differ (fields are not all alike)"
[ -f "$dir/g1.xmf" ] && grep -q 'Dimensions="5 11 13"' "$dir/g1.xmf"; ok_rc $? "XDMF sidecar with the grid's dimensions"
"$MPIEXEC" -n 2 --oversubscribe "$MK" xygrid -q -o "$dir/x.h5" --size 13x11x5 --fields a,b --seed 7 \
  --order random --depth 2 2>"$dir/err"; ok_rc $? "xygrid random order depth 2, 2 ranks"
"$MK" xygrid -q -o "$dir/xr.h5" --size 13x11x5 --fields a,b --seed 7 --order rowmajor 2>"$dir/err"
ok_rc $? "xygrid row-major"
# row-major storage order: the xy field [nz][nx*ny] holds exactly the grid's [nz][ny][nx] values
h5dump -d /fields/a -y -w 0 "$dir/g1.h5" | sed -n '/DATA {/,/}/p' | tr -s ' ,' '\n\n' | grep -E '^[0-9.e+-]+$' > "$dir/ga"
h5dump -d /fields/a -y -w 0 "$dir/xr.h5" | sed -n '/DATA {/,/}/p' | tr -s ' ,' '\n\n' | grep -E '^[0-9.e+-]+$' > "$dir/xa"
[ "$(wc -l < "$dir/ga")" -eq 715 ] && cmp -s "$dir/ga" "$dir/xa"; ok_rc $? "row-major xygrid values equal the grid's (715 cells)"
"$INFO" "$dir/x.h5" > "$dir/err" 2>&1 && grep -q 'xy-grid' "$dir/err"; ok_rc $? "tsr-info reads the xygrid"
"$MK" grid -o "$dir/bad.h5" --size 4x4x4 --halo 2,2,0 2>"$dir/err"
rc=$?
[ $rc -ne 0 ] && [ $rc -lt 128 ] && [ "$(grep -c 'error:' "$dir/err")" -eq 1 ] && grep -q 'halo' "$dir/err" && [ ! -e "$dir/bad.h5" ]
ok_rc $? "a halo that leaves no inner cells: one error line, no output file"
