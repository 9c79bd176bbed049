#!/bin/bash
# scripts/device/uwinm-s8.sh: session 8's GPU call for issue 3's jwindow-proto as one kernel
# (st_k_uwinm: the largest rectangle of chains that match the prototype through it, the other
# chains from a list through the plan): check_stencil_cuda and check_stencil_mpi (1, 2, 4 ranks),
# then 10-step runs at 512x512x64 of the regular window beside jwindow-proto on row-major
# storage (over kpt and block shapes) and jwindow-plan on z-curves, in double and float, and
# single launches at 1024x1024x80 (double).
# Needs $B/{tsr-stencil,check_stencil_cuda,check_stencil_mpi} and stencil-common.sh beside it.
# Writes $OUT/uwinm-s8.tar.gz.
# STENCILS= (default laplap hdiff); QUICK=1: the tests and the double 512 rows only;
# NOTEST=1: no tests.
set -u
. "$(dirname "$0")/stencil-common.sh"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
[ "${NOTEST:-0}" != 1 ] && st_tests
U="--variant cuda/unstr/jwindow-proto --chase no --order rowmajor"
RS=64x2x1,128x1x1,32x4x1
PS=32x2x1,64x2x1,32x4x1,64x1x1,128x1x1,32x8x1
for k in ${STENCILS:-laplap hdiff}; do
  for prec in double float; do
    [ "${QUICK:-0}" = 1 ] && [ $prec = float ] && continue
    P="--precision $prec"
    r $k-$prec-reg $k --size 512x512x64 $P --variant cuda/regular/jwindow --jpt 4,8 --threads $RS --iterations 10
    for kpt in 1 2 4; do
      r $k-$prec-proto-k$kpt $k --size 512x512x64 $P $U --jpt 4,8 --kpt $kpt --threads $PS --iterations 10
    done
    r $k-$prec-zc-plan $k --size 512x512x64 $P --variant cuda/unstr/jwindow-plan --chase no --order zcurve --jpt 4 --kpt 16 --threads 32x2x1,64x1x1 --iterations 10
    echo "[$(el) s] $k $prec rows done"
  done
  [ "${QUICK:-0}" = 1 ] && continue
  r $k-1024-reg $k --size 1024x1024x80 --variant cuda/regular/jwindow --jpt 4,8 --threads $RS
  for kpt in 1 2; do
    r $k-1024-proto-k$kpt $k --size 1024x1024x80 $U --jpt 4 --kpt $kpt --threads 32x2x1,32x4x1,64x2x1
  done
  echo "[$(el) s] $k 1024 rows done"
done
st_best 's/-unstr-jwindow//;s/-no-chase//'
tar czf "$OUT/uwinm-s8.tar.gz" -C "$W" .
echo "[$(el) s] done"
