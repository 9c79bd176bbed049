#!/bin/sh
# hostile.sh: damaged inputs (tests/apps/mkhostile) are refused up front with
# one line naming the dataset or attribute, and valid files in h5py's style
# are accepted:
#   sizes: a set of 10^9 nodes whose p_x was never written, 2^40 nodes, nx = 2^40,
#          nx = ny = 2^40 (a product beyond 64 bits), a flipped ny, xy-grid
#          depth 2^32 + 1, /points [2^36][3] never written
#   values: NaN in p_q, gam = NaN, eps = Inf, gm1 = -0.4, NaN in a stencil
#          input, NaN in fastsg's /point_values, /values stored as strings
#   accepted: root attribute 'kind' as a variable-length UTF-8 string
# Each refusal must come within 60 s under a 4 GiB address-space limit, from
# validation (not from an allocation sized by the damaged header failing).
. "${TSR_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/apps/tap.sh"
MH="$B/tests/apps/mkhostile"
[ -x "$MH" ] || { echo "1..0 # SKIP mkhostile not built (needs check)"; exit 0; }
tap_scratch tsr-hostile
dir=$t
tap_log=$dir/err
tap_log_lines=5
"$B/apps/tsr-mkairfoil" --size 20x30 -o "$dir/m.h5" >/dev/null 2>&1 &&
  "$B/apps/tsr-mkinput" grid -q -o "$dir/g.h5" --size 16x16x8 >/dev/null 2>&1 &&
  "$B/apps/tsr-mkinput" xygrid -q -o "$dir/x.h5" --size 16x16x8 >/dev/null 2>&1 &&
  mkdir "$dir/sg" && "$B/tests/apps/fastsg_mkbad" "$dir/sg" >/dev/null 2>&1 ||
  { echo "1..0 # SKIP cannot make the inputs"; exit 0; }
echo "1..24"
# bad NAME BASE WANT NP PROG ARGS... (the input is $dir/t.h5): exit 1, one
# error line containing WANT
bad() {
  name=$1 want=$2 np=$3
  shift 3
  (ulimit -v 4194304; timeout -k 5 60 "$MPIEXEC" -n "$np" --oversubscribe "$@") >"$dir/out" 2>"$dir/err"
  rc=$?
  [ $rc -eq 1 ] && [ "$(grep -c 'error:' "$dir/err")" -eq 1 ] && grep -q -- "$want" "$dir/err" &&
    ! grep -q MPI_ABORT "$dir/err" && ! grep -q 'out of memory\|cannot allocate' "$dir/err"
  ok_rc $? "$name: refused ($want), exit $rc"
}
good() {
  name=$1
  shift
  timeout -k 5 60 "$@" >"$dir/out" 2>"$dir/err"
  ok_rc $? "$name"
}
mut() { cp "$1" "$dir/t.h5" && shift && "$MH" "$dir/t.h5" "$@" || echo "# mkhostile $* failed"; }
AF="$B/apps/tsr-airfoil" ST="$B/apps/tsr-stencil" SG="$B/apps/tsr-fastsg" IN="$B/apps/tsr-info"

# ---- sizes from headers checked against the datasets
mut "$dir/m.h5" set nodes 1000000000
"$MH" "$dir/t.h5" hollow p_x 1000000000 2
bad "airfoil, nodes = 1e9 with p_x never written" "'p_x'" 2 "$AF" -q -i "$dir/t.h5" --iterations 2 --device cpu
bad "tsr-info, the same file" "'p_x'" 1 "$IN" "$dir/t.h5"
mut "$dir/m.h5" set nodes 1099511627776
bad "airfoil, nodes = 2^40, 2 ranks" "'p_x'" 2 "$AF" -q -i "$dir/t.h5" --iterations 2 --device cpu
mut "$dir/g.h5" attr nx 1099511627776
bad "grid nx = 2^40" "nx, ny, nz" 2 "$ST" laplap -q -i "$dir/t.h5" --device cpu
bad "tsr-info, grid nx = 2^40" "nx, ny, nz" 1 "$IN" "$dir/t.h5"
mut "$dir/g.h5" attr nx 1099511627776
"$MH" "$dir/t.h5" attr ny 1099511627776
bad "grid nx = ny = 2^40 (nx * ny beyond 64 bits)" "nx, ny, nz" 2 "$ST" laplap -q -i "$dir/t.h5" --device cpu
bad "tsr-info, grid nx = ny = 2^40" "nx, ny, nz" 1 "$IN" "$dir/t.h5"
mut "$dir/g.h5" attr ny 2293771
bad "grid ny flipped to 2293771" "/fields/in" 2 "$ST" laplap -q -i "$dir/t.h5" --device cpu
mut "$dir/x.h5" attr depth 4294967297
bad "xy-grid depth = 2^32 + 1" "depth = 4294967297" 1 "$IN" "$dir/t.h5"
mut "$dir/sg/good.h5" hollow /points 68719476736 3
bad "fastsg /points [2^36][3] never written" "'/points'" 2 "$SG" -q -i "$dir/t.h5" --mode evaluate

# ---- values
mut "$dir/m.h5" nan p_q 29 nan
bad "airfoil p_q[7][1] = NaN" "'p_q': element 29 is NaN" 2 "$AF" -q -i "$dir/t.h5" --iterations 2 --device cpu
mut "$dir/m.h5" scalar gam nan
bad "airfoil gam = NaN" "'gam'" 2 "$AF" -q -i "$dir/t.h5" --iterations 2 --device cpu
mut "$dir/m.h5" scalar eps inf
bad "airfoil eps = Inf" "'eps'" 1 "$AF" -q -i "$dir/t.h5" --iterations 2 --device cpu
mut "$dir/m.h5" scalar gm1 -0.4
bad "airfoil gm1 = -0.4" "'gm1'" 2 "$AF" -q -i "$dir/t.h5" --iterations 2 --device cpu
mut "$dir/m.h5" scalar gam 0.5
bad "airfoil gam = 0.5" "'gam'" 1 "$AF" -q -i "$dir/t.h5" --iterations 2 --device cpu
mut "$dir/g.h5" nan /fields/in 1000 nan
bad "stencil input with a NaN: bad input, not a failed verification" "'/fields/in': the value at (x 8, y 14, z 3) is NaN" 2 \
  "$ST" laplap -q -i "$dir/t.h5" --device cpu
bad "stencil input with a NaN, one rank" "'/fields/in': the value at (x 8, y 14, z 3) is NaN" 1 "$ST" laplap -q -i "$dir/t.h5" --device cpu
mut "$dir/sg/good.h5" nan /point_values 2 nan
bad "fastsg /point_values[2] = NaN" "'/point_values': the value at position 2" 2 "$SG" -q -i "$dir/t.h5"
mut "$dir/sg/good.h5" strings /values
bad "fastsg /values stored as strings" "'/values': expected integer or floating-point numbers, found strings" 1 \
  "$SG" -q -i "$dir/t.h5"

# ---- h5py's default string attributes are accepted everywhere
mut "$dir/m.h5" kind-vlen
good "airfoil mesh with kind as a variable-length UTF-8 string" "$AF" -q -i "$dir/t.h5" --iterations 2 --device cpu
good "tsr-info on it" "$IN" "$dir/t.h5"
mut "$dir/g.h5" kind-vlen
good "stencil grid with kind as a variable-length UTF-8 string" "$ST" laplap -q -i "$dir/t.h5" --device cpu
mut "$dir/x.h5" kind-vlen
good "tsr-info on an xy-grid with kind as a variable-length UTF-8 string" "$IN" "$dir/t.h5"
mut "$dir/sg/good.h5" kind-vlen
good "fastsg input with kind as a variable-length UTF-8 string" "$SG" -q -i "$dir/t.h5"
