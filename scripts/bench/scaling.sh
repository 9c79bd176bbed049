#!/bin/bash
# scripts/bench/scaling.sh BINDIR: one rank per GPU at 1, 2 and 4 ranks (as many as the machine
# has GPUs; 1 and 2 in SMOKE mode), weak and strong scaling of every MPI program:
# - the halo exchange (tsr-halobench, 512x512x64 doubles, width 2), host-staged, CUDA IPC and
#   NCCL (a build without NCCL reports it not run);
# - laplap time steps (tsr-stencil: halo exchange + regular register window, 10 steps per run),
#   strong 1024x1024x64 in all and weak 512x512x64 per GPU, staged and IPC; hdiff and fastwaves
#   weak, IPC;
# - airfoil (tsr-airfoil): strong on OP2's standard mesh (400x600, 1000 iterations, OP2's rms
#   check), staged and IPC; weak with the mesh grown with the GPUs (tsr-airfoil --size: 400x600,
#   566x849, 800x1200 = 1, 2, 4 x 720,000 cells; 200 iterations, checked against the CPU
#   reference's rms history), IPC;
# - lulesh (tsr-lulesh cuda/atomic-fma, 100 cycles, IPC): weak -s 150 per GPU with the METIS
#   partition of the cube of 1, 2, 4 x 150^3 zones (-s 150, 189, 238) and on 2 and 4 GPUs with
#   its block grid (--decomp block: plane cuts; -s 190, 240: equal boxes; with and without
#   --no-overlap), strong -s 200 (METIS, and the block grid with and without --no-overlap);
#   with 4 GPUs also LULESH's own decomposition on 8 ranks (two per GPU): -s 75 per rank, the
#   global -s 150 of one GPU spread over 4 (strong), and -s 119 per rank, global 238^3 = 4 x
#   150^3 (weak).
# Every row is verified (PASS/FAIL; lulesh at 100 cycles has no LULESH reference: LULESH's
# symmetry test decides, its e(0) is printed in the CSV). NCCL_NVLS_ENABLE=0 (common.sh). Writes
# $OUT/scaling.csv and $OUT/scaling.md; see common.sh. About 9 minutes on 4 x H200 (default
# BUDGET 600 s).
. "$(dirname "$0")/common.sh"
bench_init scaling 600 "$@"
HB=$(bench_tool tsr-halobench) TS=$(bench_tool tsr-stencil) AF=$(bench_tool tsr-airfoil)
TL=$(bench_tool tsr-lulesh)
NG=$(bench_gpus)
if [ "$SMOKE" = 1 ]; then
  NPS="1 2" HALOS=staged WH=staged CUBE=1
  HA=($DEV --size 40x40x8 --variant cpu --runs 3)
  SA=($DEV --variant cpu/regular --iterations 2 --runs 2 --warmup 1) STRONG=48x48x8 WEAK=32x32x8
  AA=($DEV --size 30x20 --variant cpu/ref --iterations 20 --runs 1 --warmup 0)
  AW=($DEV --variant cpu/ref --iterations 10 --runs 1 --warmup 0) AWS1=30x20 AWS2=42x28 AWS4=60x40
  HA2=("${SA[@]}") FA=("${SA[@]}")
  LA=($DEV --variant cpu/gather -i 5 --runs 1 --warmup 0) LWEAK1=6 LWEAK2=8 LWEAK4=10 LSTRONG=8
  LBLOCK1=6 LBLOCK2=8 LBLOCK4=10
  LCUBE=3 LCUBEW=5
else
  NPS=1 HALOS="staged ipc" WH=ipc CUBE=0
  if [ "$NG" -ge 4 ]; then NPS="1 2 4" CUBE=1
  elif [ "$NG" -ge 2 ]; then NPS="1 2"; else bench_note "2 and 4 ranks not run: $NG GPU (one rank per GPU)"; fi
  [ "$CUBE" = 1 ] || bench_note "lulesh on 8 ranks (LULESH's cube) not run: it needs 4 GPUs, this machine has $NG"
  HA=($DEV --size 512x512x64 --halo 2 --variant cuda/staged,cuda/ipc,cuda/nccl --runs 100)
  SA=($DEV --variant cuda/regular/jwindow --jpt 4 --threads 64x2x1 --iterations 10 --runs 10 --warmup 3)
  STRONG=1024x1024x64 WEAK=512x512x64
  AA=($DEV --variant cuda/gather4/aos,cuda/atomic1/aos,cuda/colour/soa --iterations 1000 --runs 3 --warmup 1)
  AW=($DEV --variant cuda/gather4/aos,cuda/atomic1/aos --iterations 200 --runs 3 --warmup 1)
  AWS1=400x600 AWS2=566x849 AWS4=800x1200
  HA2=("${SA[@]}")
  FA=($DEV --variant cuda/regular/idxvar-kloop-sliced --iterations 10 --runs 10 --warmup 3)
  LA=($DEV --variant cuda/atomic-fma -i 100 --runs 3 --warmup 1) LWEAK1=150 LWEAK2=189 LWEAK4=238 LSTRONG=200
  LBLOCK1=150 LBLOCK2=190 LBLOCK4=240 # block: grids 1x1x2 and 1x2x2 of equal boxes
  LCUBE=75 LCUBEW=119
fi
threads() { # OMP threads per rank: the host's cores shared by NP ranks, 1 to 16
  local t=$(( $(nproc) / $1 )); [ $t -gt 16 ] && t=16; [ $t -lt 1 ] && t=1; echo $t
}
for np in $NPS; do
  export OMP_NUM_THREADS=$(threads $np)
  step "halo-np$np" 20 $MPIRUN -np $np "$HB" -q "${HA[@]}" --csv "$RAW/halo-np$np.csv"
  # weak: 512x512x64 per rank, the ranks side by side in x
  wr=${WEAK#*x}; weak=${WEAK%%x*}x$(( ${wr%%x*} * np ))x${wr#*x} # grown in y: each rank 512 x 512
  for h in $HALOS; do
    hx=(); [ "$SMOKE" = 1 ] || hx=(--halo $h)
    step "laplap-strong-$h-np$np" 20 $MPIRUN -np $np "$TS" laplap -q --size $STRONG "${SA[@]}" "${hx[@]}" \
      --csv "$RAW/laplap-strong-$h-np$np.csv"
    step "laplap-weak-$h-np$np" 20 $MPIRUN -np $np "$TS" laplap -q --size $weak "${SA[@]}" "${hx[@]}" \
      --csv "$RAW/laplap-weak-$h-np$np.csv"
    step "airfoil-$h-np$np" 30 $MPIRUN -np $np "$AF" -q "${AA[@]}" "${hx[@]}" \
      --csv "$RAW/airfoil-$h-np$np.csv"
  done
  # hdiff, fastwaves and airfoil weak, lulesh weak and strong: the IPC halo only (SMOKE: the CPU)
  hx=(); [ "$SMOKE" = 1 ] || hx=(--halo ipc)
  h=$WH
  step "hdiff-weak-$h-np$np" 20 $MPIRUN -np $np "$TS" hdiff -q --size $weak "${HA2[@]}" "${hx[@]}" \
    --csv "$RAW/hdiff-weak-$h-np$np.csv"
  step "fastwaves-weak-$h-np$np" 30 $MPIRUN -np $np "$TS" fastwaves -q --size $weak "${FA[@]}" "${hx[@]}" \
    --csv "$RAW/fastwaves-weak-$h-np$np.csv"
  as=$AWS1; [ "$np" = 2 ] && as=$AWS2; [ "$np" = 4 ] && as=$AWS4
  step "airfoil-weak-$h-np$np" 45 $MPIRUN -np $np "$AF" -q --size $as "${AW[@]}" "${hx[@]}" \
    --csv "$RAW/airfoil-weak-$h-np$np.csv"
  ls=$LWEAK1; [ "$np" = 2 ] && ls=$LWEAK2; [ "$np" = 4 ] && ls=$LWEAK4
  lb=$LBLOCK1; [ "$np" = 2 ] && lb=$LBLOCK2; [ "$np" = 4 ] && lb=$LBLOCK4
  step "lulesh-weak-$h-np$np" 90 $MPIRUN -np $np "$TL" -q -s $ls --decomp metis "${LA[@]}" "${hx[@]}" \
    --csv "$RAW/lulesh-weak-$h-np$np.csv"
  [ "$np" -gt 1 ] && step "lulesh-weakblock-$h-np$np" 90 $MPIRUN -np $np "$TL" -q -s $lb --decomp block "${LA[@]}" "${hx[@]}" \
    --csv "$RAW/lulesh-weakblock-$h-np$np.csv"
  [ "$np" -gt 1 ] && step "lulesh-weakblocknov-$h-np$np" 90 $MPIRUN -np $np "$TL" -q -s $lb --decomp block "${LA[@]}" \
    "${hx[@]}" --no-overlap --csv "$RAW/lulesh-weakblocknov-$h-np$np.csv"
  step "lulesh-strong-$h-np$np" 120 $MPIRUN -np $np "$TL" -q -s $LSTRONG --decomp metis "${LA[@]}" "${hx[@]}" \
    --csv "$RAW/lulesh-strong-$h-np$np.csv"
  [ "$np" -gt 1 ] && step "lulesh-strongblock-$h-np$np" 120 $MPIRUN -np $np "$TL" -q -s $LSTRONG --decomp block \
    "${LA[@]}" "${hx[@]}" --csv "$RAW/lulesh-strongblock-$h-np$np.csv"
  [ "$np" -gt 1 ] && step "lulesh-strongblocknov-$h-np$np" 120 $MPIRUN -np $np "$TL" -q -s $LSTRONG --decomp block \
    "${LA[@]}" "${hx[@]}" --no-overlap --csv "$RAW/lulesh-strongblocknov-$h-np$np.csv"
done
# LULESH's own decomposition: 8 ranks, a cube of 2 x 2 x 2 boxes of -s per rank, two ranks per GPU
if [ "$CUBE" = 1 ]; then
  export OMP_NUM_THREADS=$(threads 8)
  step "lulesh-cube-$h-np8" 90 $MPIRUN -np 8 "$TL" -q -s $LCUBE --decomp cube "${LA[@]}" "${hx[@]}" \
    --csv "$RAW/lulesh-cube-$h-np8.csv"
  step "lulesh-cubeweak-$h-np8" 90 $MPIRUN -np 8 "$TL" -q -s $LCUBEW --decomp cube "${LA[@]}" "${hx[@]}" \
    --csv "$RAW/lulesh-cubeweak-$h-np8.csv"
fi
bench_table
