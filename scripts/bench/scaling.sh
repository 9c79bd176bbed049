#!/bin/bash
# scripts/bench/scaling.sh BINDIR: one rank per GPU at 1, 2 and 4 ranks (as many as the machine
# has GPUs; 1 and 2 in SMOKE mode): the halo exchange (tsr-halobench, 512x512x64 doubles, width 2), the
# laplap time step (tsr-stencil: halo exchange + regular register window, 10 steps per run;
# strong scaling 1024x1024x64 in all, weak 512x512x64 per GPU) and airfoil (tsr-airfoil, OP2's
# mesh size, 1000 iterations), each with the host-staged halo and with CUDA IPC (device to device);
# hdiff and fastwaves weak scaling and lulesh (cuda/atomic-fma, 100 cycles: weak -s 150 per GPU,
# strong -s 200, METIS partition) with the IPC halo.
# Every stencil and airfoil row is verified. Writes $OUT/scaling.csv and $OUT/scaling.md; see
# common.sh. About 5 minutes.
. "$(dirname "$0")/common.sh"
bench_init scaling 420 "$@"
HB=$(bench_tool tsr-halobench) TS=$(bench_tool tsr-stencil) AF=$(bench_tool tsr-airfoil)
TL=$(bench_tool tsr-lulesh)
NG=$(bench_gpus)
if [ "$SMOKE" = 1 ]; then
  NPS="1 2" HALOS=staged
  HA=($DEV --size 40x40x8 --variant cpu --runs 3)
  SA=($DEV --variant cpu/regular --iterations 2 --runs 2 --warmup 1) STRONG=48x48x8 WEAK=32x32x8
  AA=($DEV --size 30x20 --variant cpu/ref --iterations 20 --runs 1 --warmup 0)
  HA2=($DEV --variant cpu/regular --iterations 2 --runs 2 --warmup 1)
  FA=($DEV --variant cpu/regular --iterations 2 --runs 2 --warmup 1)
  LA=($DEV --variant cpu/gather -i 5 --runs 1 --warmup 0) LWEAK1=6 LWEAK2=8 LWEAK4=10 LSTRONG=8
else
  NPS=1 HALOS="staged ipc"
  if [ "$NG" -ge 4 ]; then NPS="1 2 4"
  elif [ "$NG" -ge 2 ]; then NPS="1 2"; else bench_note "2 ranks not run: $NG GPU (one rank per GPU)"; fi
  HA=($DEV --size 512x512x64 --halo 2 --variant cuda/staged,cuda/ipc --runs 100)
  SA=($DEV --variant cuda/regular/jwindow --jpt 4 --threads 64x2x1 --iterations 10 --runs 10 --warmup 3)
  STRONG=1024x1024x64 WEAK=512x512x64
  AA=($DEV --variant cuda/gather4/aos,cuda/atomic1/aos,cuda/colour/soa --iterations 1000 --runs 3 --warmup 1)
  HA2=("${SA[@]}")
  FA=($DEV --variant cuda/regular/idxvar-kloop-sliced --iterations 10 --runs 10 --warmup 3)
  # lulesh: weak -s 150 on one GPU, the METIS-partitioned cube of twice (189^3) and four times
  # (238^3) the zones on two and four
  LA=($DEV --variant cuda/atomic-fma -i 100 --runs 3 --warmup 1) LWEAK1=150 LWEAK2=189 LWEAK4=238 LSTRONG=200
fi
for np in $NPS; do
  export OMP_NUM_THREADS=$(( $(nproc) / np > 16 ? 16 : ($(nproc) / np > 0 ? $(nproc) / np : 1) ))
  step "halo-np$np" 20 $MPIRUN -np $np "$HB" -q "${HA[@]}" --csv "$RAW/halo-np$np.csv"
  # weak: 512x512x64 per rank, the ranks side by side in x
  w=${WEAK#*x}; weak=$(( ${WEAK%%x*} * np ))x$w
  for h in $HALOS; do
    hx=(); [ "$SMOKE" = 1 ] || hx=(--halo $h)
    step "laplap-strong-$h-np$np" 20 $MPIRUN -np $np "$TS" laplap -q --size $STRONG "${SA[@]}" "${hx[@]}" \
      --csv "$RAW/laplap-strong-$h-np$np.csv"
    step "laplap-weak-$h-np$np" 20 $MPIRUN -np $np "$TS" laplap -q --size $weak "${SA[@]}" "${hx[@]}" \
      --csv "$RAW/laplap-weak-$h-np$np.csv"
    step "airfoil-$h-np$np" 30 $MPIRUN -np $np "$AF" -q "${AA[@]}" "${hx[@]}" \
      --csv "$RAW/airfoil-$h-np$np.csv"
  done
  # hdiff and fastwaves weak, lulesh weak and strong: the IPC halo only (SMOKE: the CPU)
  hx=(); [ "$SMOKE" = 1 ] || hx=(--halo ipc)
  h=ipc; [ "$SMOKE" = 1 ] && h=staged
  step "hdiff-weak-$h-np$np" 20 $MPIRUN -np $np "$TS" hdiff -q --size $weak "${HA2[@]}" "${hx[@]}" \
    --csv "$RAW/hdiff-weak-$h-np$np.csv"
  step "fastwaves-weak-$h-np$np" 30 $MPIRUN -np $np "$TS" fastwaves -q --size $weak "${FA[@]}" "${hx[@]}" \
    --csv "$RAW/fastwaves-weak-$h-np$np.csv"
  ls=$LWEAK1; [ "$np" = 2 ] && ls=$LWEAK2; [ "$np" = 4 ] && ls=$LWEAK4
  step "lulesh-weak-$h-np$np" 90 $MPIRUN -np $np "$TL" -q -s $ls --decomp metis "${LA[@]}" "${hx[@]}" \
    --csv "$RAW/lulesh-weak-$h-np$np.csv"
  step "lulesh-strong-$h-np$np" 120 $MPIRUN -np $np "$TL" -q -s $LSTRONG --decomp metis "${LA[@]}" "${hx[@]}" \
    --csv "$RAW/lulesh-strong-$h-np$np.csv"
done
bench_table
