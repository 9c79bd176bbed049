#!/bin/sh
# scripts/device/airfoil-perf.sh PACKDIR: airfoil on the GPU machine (issue 4,
# "Performance"): the CUDA test, then every CUDA variant x --reorder
# none,gps,partition on OP2's standard mesh (made here by tsr-mkairfoil; its
# 400x600 mesh equals OP2's file), 1000 iterations, each variant timed
# unprofiled (--csv) and once more profiled per kernel (--profile-csv);
# unfused with the profile too; a block-size sweep of the fast variants; a
# 2-rank run of the new ones. Everything lands in $OUT/airfoil-perf.tar.gz
# (logs, CSVs); a summary goes to stdout.
# PACKDIR holds (shared/device/pack): tsr-airfoil tsr-mkairfoil
# check_airfoil_cuda (and check_airfoil_mpi, optional) and the libraries
# they need. About 4-5 minutes.
set -u
P=${1:?usage: airfoil-perf.sh PACKDIR}
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
W=$(mktemp -d)
export LD_LIBRARY_PATH="$PWD/$P:${LD_LIBRARY_PATH:-}" OMP_NUM_THREADS=16
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv > "$W/gpu.txt" 2>&1
start=$(date +%s)
"$P/tsr-mkairfoil" -q -o /tmp/new_grid.h5 || { echo "tsr-mkairfoil failed"; exit 1; }

# 1. the CUDA test (every strategy x layout x precision x block x fusion x ordering, profiled runs)
t0=$(date +%s)
OMP_NUM_THREADS=4 timeout 300 sh tests/driver "$P/check_airfoil_cuda" > "$W/check_airfoil_cuda.tap" 2>&1
echo "check_airfoil_cuda: $(grep -c '^ok' "$W/check_airfoil_cuda.tap") ok, $(grep -c '^not ok' "$W/check_airfoil_cuda.tap") not ok, $(($(date +%s) - t0)) s"
grep '^not ok' "$W/check_airfoil_cuda.tap" | cut -c1-300 | head -5
if [ -x "$P/check_airfoil_mpi" ]; then # CUDA variants (new ones included) on 1, 2, 4 ranks vs serial
  t0=$(date +%s); mkdir -p "$P/mpi" && cp "$P/check_airfoil_mpi" "$P/mpi/"
  TSR_TEST_NP="1 2 4" OMP_NUM_THREADS=4 timeout 300 sh tests/driver "$P/mpi/check_airfoil_mpi" > "$W/check_airfoil_mpi.tap" 2>&1
  echo "check_airfoil_mpi: $(grep -c '^ok' "$W/check_airfoil_mpi.tap") ok, $(grep -c '^not ok' "$W/check_airfoil_mpi.tap") not ok, $(($(date +%s) - t0)) s"
  grep '^not ok' "$W/check_airfoil_mpi.tap" | cut -c1-300 | head -5
fi

A="$P/tsr-airfoil -i /tmp/new_grid.h5 --iterations 1000"
# 2. every CUDA variant, fused (the default), per ordering; no reordering: 3 timed runs after 1 warm-up
for r in none gps partition; do
  runs="--runs 1 --warmup 0"; [ $r = none ] && runs="--runs 3 --warmup 1"
  t0=$(date +%s)
  timeout 240 $A --variant 'cuda/*' --reorder $r $runs --profile-csv "$W/prof-$r.csv" \
    --csv "$W/run-$r.csv" > "$W/run-$r.log" 2>&1
  echo "fused --reorder $r: exit $?, $(($(date +%s) - t0)) s"
done
# 3. unfused (one kernel per OP2 loop): the per-loop table
t0=$(date +%s)
timeout 200 $A --variant 'cuda/*' --no-fuse --profile-csv "$W/prof-unfused.csv" \
  --csv "$W/run-unfused.csv" > "$W/run-unfused.log" 2>&1
echo "unfused: exit $?, $(($(date +%s) - t0)) s"
# 4. block sizes of the fast variants (256 is in step 2)
for b in 128 512 1024; do
  timeout 100 $A --variant 'cuda/gather4/*,cuda/gather/soa,cuda/atomic1/*,cuda/atomic/soa' --block $b \
    --runs 3 --warmup 1 --profile-csv "$W/prof-b$b.csv" --csv "$W/run-b$b.csv" > "$W/run-b$b.log" 2>&1
  echo "block $b: exit $?"
done
# 5. two ranks on the one GPU (correctness of the new strategies' halo path; times are not the point)
timeout 100 mpirun --allow-run-as-root --oversubscribe --bind-to none -np 2 "$P/tsr-airfoil" -i /tmp/new_grid.h5 \
  --variant 'cuda/gather4/soa,cuda/atomic1/aos' --iterations 1000 > "$W/np2.log" 2>&1
echo "2 ranks: exit $?"; grep -E 'PASSED|FAILED' "$W/np2.log" | cut -c1-120

# summary: seconds per 1000 iterations (median), % of floor, verification; per-kernel sums
echo "--- fused, seconds / 1000 it (median), % of floor, verify ---"
for f in "$W"/run-*.csv; do
  tag=$(basename "$f" .csv)
  awk -F, -v t="$tag" 'NR > 1 {printf "%-14s %-18s %8.4f %6.1f %s\n", t, $2, $10 / 1e6, $17, $19}' "$f"
done | sort -k3 -g | head -25
echo "--- profile sums (s / 1000 it) and the largest kernel, --reorder none ---"
awk -F, 'NR > 1 && $9 == "sum" {printf "%-18s sum %8.4f  run %8.4f  unprofiled %8.4f\n", $2, $13, $19, $20}' \
  "$W/prof-none.csv" | sort -k3 -g
grep -h FAIL "$W"/run-*.log | head -5
echo "total $(($(date +%s) - start)) s"
tar czf "$OUT/airfoil-perf.tar.gz" -C "$W" .
