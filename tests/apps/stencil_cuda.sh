#!/bin/sh
# tests/apps/stencil_cuda.sh: every CUDA variant of tsr-stencil on odd-sized
# HDF5 inputs, with the default options (TAP; skips without a CUDA build or
# a CUDA device).
# For each stencil, four inputs written by tsr-mkinput: a regular-grid file
# and xy-grid files in row-major, z-curve and random order, of the odd sizes
# 37x29x9, 33x17x5, 41x23x11 (fastwaves: 37x29x9, 41x23x11; its z halo
# needs 6 levels). Per input:
#  - cpu/ref writes the reference output;
#  - `--variant 'cuda/*'` over every storage order, compression and chasing
#    of the unstructured grids: exit 0, every CUDA run verified (PASS rows
#    in the CSV: laplap, hdiff 10 + 11 x 12; fastwaves 6 + 7 x 6), none FAIL.
# Per CUDA variant V (from --list-variants), on input (index of V mod 4),
# or on every input with TSR_TEST_FULL=1:
#  - `tsr-stencil STENCIL -i in.h5 -o out.h5 --variant V`: exit 0, one PASS
#    row, nothing skipped, and out.h5 the reference output bit for bit
#    (stencil_h5cmp); the laplap/hdiff strategies (shared, tile-kloop,
#    jwindow*, patch-kloop) on fastwaves must not exit 0 and must say that
#    they are for laplap and hdiff.
# About 90 tsr-stencil runs (250 with TSR_TEST_FULL=1: raise
# TSR_TEST_TIMEOUT above its 300 s then).
. "${TSR_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/apps/tap.sh"
st="$B/apps/tsr-stencil"
mk="$B/apps/tsr-mkinput"
cmp="$B/tests/apps/stencil_h5cmp"
if ! "$st" --list-variants 2>/dev/null | grep -q '^cuda/.* yes '; then
  echo "1..0 # SKIP no CUDA device (built without CUDA)"; exit 0
fi
if ! command -v nvidia-smi > /dev/null 2>&1 || ! nvidia-smi -L 2>/dev/null | grep -q GPU; then
  echo "1..0 # SKIP no CUDA device"; exit 0
fi
variants=$("$st" --list-variants | awk '$1 ~ /^cuda\// {print $1}')
[ -n "$variants" ] || { echo "1..1"; echo "not ok 1 - no cuda/ rows in --list-variants"; exit 0; }
tap_scratch tsr-stencil-cuda
only13="cuda/regular/shared cuda/regular/tile-kloop cuda/regular/jwindow cuda/regular/jwindow-shfl
cuda/unstr/patch-kloop cuda/unstr/jwindow cuda/unstr/jwindow-plan cuda/unstr/jwindow-proto
cuda/regular/tblock"
R="--runs 1 --warmup 0"
ALL="--order rowmajor,zcurve,random --compress no,yes --chase yes,no"

for s in laplap hdiff fastwaves; do
  case $s in
    laplap) fields=in; halo=2,2,0; outs=out; sizes="37x29x9 33x17x5 41x23x11 37x29x9"; want=143 ;;
    hdiff) fields=in,coeff; halo=2,2,0; outs=out; sizes="33x17x5 41x23x11 37x29x9 41x23x11"; want=143 ;;
    fastwaves) fields=u_in,v_in,u_tens,v_tens,rho,ppuv,fx,wgtfac,hhl; halo=2,2,2; outs="u_out v_out"
               sizes="41x23x11 37x29x9 41x23x11 37x29x9"; want=48 ;;
  esac
  k=0
  for kind in grid rowmajor zcurve random; do
    size=$(echo $sizes | cut -d' ' -f$((k + 1)))
    in="$t/$s-$kind.h5"; ref="$t/$s-$kind-ref.h5"
    if [ $kind = grid ]; then
      "$mk" grid -q -o "$in" --size $size --halo $halo --fields $fields --seed $((k + 3)) > "$t/log" 2>&1
    else
      "$mk" xygrid -q -o "$in" --size $size --halo $halo --fields $fields --order $kind --seed $((k + 3)) > "$t/log" 2>&1
    fi
    rc=$?
    [ $rc -eq 0 ] && "$st" $s -i "$in" -o "$ref" --variant cpu/ref $R >> "$t/log" 2>&1 && [ -f "$ref" ] &&
      ok "$s $size $kind: input and cpu/ref output" || no "$s $size $kind: input and cpu/ref output" "$t/log"
    "$st" $s -i "$in" --variant 'cuda/*' $ALL $R --csv "$t/all.csv" > "$t/log" 2>&1; rc=$?
    np=$(grep -c ',PASS,' "$t/all.csv" 2>/dev/null)
    if [ $rc -eq 0 ] && [ "$np" = "$want" ] && ! grep -q ',FAIL,' "$t/all.csv"; then
      ok "$s $size $kind: every CUDA variant and grid configuration PASS ($np runs)"
    else no "$s $size $kind: cuda/* (exit $rc, $np PASS rows of $want)" "$t/log"; fi
    k=$((k + 1))
  done
  i=0
  for v in $variants; do
    k=0
    for kind in grid rowmajor zcurve random; do
      if [ "${TSR_TEST_FULL:-0}" = 1 ] || [ $((i % 4)) -eq $k ]; then
        size=$(echo $sizes | cut -d' ' -f$((k + 1)))
        in="$t/$s-$kind.h5"; ref="$t/$s-$kind-ref.h5"; out="$t/out.h5"
        rm -f "$out" "$t/one.csv"
        "$st" $s -i "$in" -o "$out" --variant $v $R --csv "$t/one.csv" > "$t/log" 2>&1; rc=$?
        name="$s $size $kind: $v -o"
        if [ $s = fastwaves ] && echo $only13 | tr ' ' '\n' | grep -qx "$v"; then
          if [ $rc -ne 0 ] && [ $rc -lt 128 ] && grep -q "laplap and hdiff" "$t/log"; then
            ok "$name: not run, says it is for laplap and hdiff"
          else no "$name (exit $rc): expected a refusal naming laplap and hdiff" "$t/log"; fi
        elif [ $rc -ne 0 ] || [ ! -f "$out" ]; then
          no "$name: exit $rc" "$t/log"
        elif [ "$(grep -c ',PASS,' "$t/one.csv")" != 1 ] || grep -qiE 'skipped|not run' "$t/log"; then
          no "$name: not one PASS row" "$t/log"
        elif ! "$cmp" "$ref" "$out" $outs > "$t/cmp" 2>&1; then
          cat "$t/cmp" >> "$t/log"; no "$name: differs from cpu/ref" "$t/log"
        else
          ok "$name: PASS, the reference's bits"
        fi
      fi
      k=$((k + 1))
    done
    i=$((i + 1))
  done
done
echo "1..$n"
