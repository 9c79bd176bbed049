#!/bin/bash
# scripts/device/uplan-s7.sh: session 7's GPU call for issue 3's jwindow-proto (the chain plan
# compressed to its prototype: blocks whose chains all match it run st_k_uwinc, the others the
# plan kernel): check_stencil_cuda and check_stencil_mpi (1, 2, 4 ranks), then 10-step runs of
# laplap and hdiff at 512x512x64 (double, float) and single launches at 1024x1024x80: the
# regular window beside jwindow-proto on row-major storage and jwindow-plan / -proto on
# z-curves, over jpt, kpt and block shapes.
# Needs $B/{tsr-stencil,check_stencil_cuda,check_stencil_mpi} and stencil-common.sh beside it.
# Writes $OUT/uplan-s7.tar.gz. (Session 7 ran it before the helper existed, with the same steps.)
# QUICK=1: the tests and the double 512 rows only.
set -u
. "$(dirname "$0")/stencil-common.sh"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
st_tests
U="--variant cuda/unstr/jwindow-proto --chase no"
RS=64x2x1,128x1x1,32x4x1
PS=32x2x1,64x2x1,32x4x1,64x1x1,128x1x1,128x2x1
for k in ${STENCILS:-laplap hdiff}; do
  r $k-it10-reg $k --size 512x512x64 --variant cuda/regular/jwindow --jpt 4,8 --threads $RS --iterations 10
  for kpt in 1 2 4 16; do
    r $k-it10-rmc-k$kpt $k --size 512x512x64 $U --order rowmajor --jpt 4,8 --kpt $kpt --threads $PS --iterations 10
  done
  r $k-it10-zc-k16 $k --size 512x512x64 --variant cuda/unstr/jwindow-plan,cuda/unstr/jwindow-proto --chase no --order zcurve --jpt 4 --kpt 16 --threads 32x2x1,64x1x1 --iterations 10
  echo "[$(el) s] $k double rows done"
  [ "${QUICK:-0}" = 1 ] && continue
  r $k-f-reg $k --size 512x512x64 --precision float --variant cuda/regular/jwindow --jpt 4,8 --threads $RS --iterations 10
  for kpt in 4 16; do
    r $k-f-rmc-k$kpt $k --size 512x512x64 --precision float $U --order rowmajor --jpt 4,8 --kpt $kpt --threads $PS --iterations 10
  done
  r $k-1024-reg $k --size 1024x1024x80 --variant cuda/regular/jwindow --jpt 4,8 --threads $RS
  for kpt in 4 16; do
    r $k-1024-rmc-k$kpt $k --size 1024x1024x80 $U --order rowmajor --jpt 4,8 --kpt $kpt --threads $PS
  done
  echo "[$(el) s] $k rows done"
done
st_best 's/-unstr-jwindow//;s/-no-chase//'
tar czf "$OUT/uplan-s7.tar.gz" -C "$W" .
echo "[$(el) s] done"
