#!/bin/bash
# scripts/device/airfoil-ipc.sh: tsr-airfoil with --halo staged and --halo ipc at 1-3 ranks
# (validated against OP2's rms like every run) and check_halo_ipc at 2 and 4 ranks, ranks sharing
# the GPUs present. Needs pack/{tsr-airfoil,check_halo_ipc}. Writes under $OUT.
export LD_LIBRARY_PATH=$PWD/pack:$LD_LIBRARY_PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=2
M="mpirun --allow-run-as-root --oversubscribe --bind-to none"
for np in 2 4; do timeout 100 $M -np $np pack/check_halo_ipc > $OUT/chk$np.log 2>&1; echo "check np $np exit $? $(grep -E '%:' $OUT/chk$np.log | head -1)"; done
for np in 1 2 3; do for h in staged ipc; do
  timeout 120 $M -np $np pack/tsr-airfoil --size 200x300 --iterations 100 --variant 'cuda/atomic/soa,cuda/colour/aos' --halo $h -q --csv $OUT/af-$h-$np.csv > $OUT/af-$h-$np.log 2>&1
  echo "airfoil np $np $h exit $? $(awk -F, 'NR>1{printf "%s %s %s; ", $2, $NF, $10}' $OUT/af-$h-$np.csv)"
done; done
head -2 $OUT/af-ipc-2.csv | cut -c1-300
