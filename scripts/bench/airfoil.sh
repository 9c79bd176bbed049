#!/bin/bash
# scripts/bench/airfoil.sh BINDIR: OP2's Airfoil on OP2's standard mesh (new_grid.h5: 720,000
# cells), double, 1000 iterations: tsr-airfoil's CUDA variants beside OP2's own CUDA builds
# (OP2-Common's apps/c/airfoil/airfoil_hdf5/dp, built by scripts/peers/build-op2-airfoil.sh into
# PEERDIR as airfoil_op2_<variant>: atomic_aos, atomic_soa, colour_aos, colour_soa, hier_aos,
# hier_soa, any subset) on the same GPU. Every run must pass OP2's check: |rms(1000) /
# 1.060114637578e-4 - 1| < 1e-7. OP2's time is its own main-loop total ("Airfoil *1 total"), best
# over OP_BLOCK_SIZE 256 and 512 (the hier_* binaries also with OP_PART_SIZE = the block);
# ours is tsr-airfoil's median of its runs. The mesh: $NEW_GRID if set, else new_grid.h5 in
# PEERDIR, else made here by tsr-mkairfoil (its 400x600 mesh equals OP2's file). Writes
# $OUT/airfoil.csv and $OUT/airfoil.md; see common.sh. About 1.5 minutes.
. "$(dirname "$0")/common.sh"
bench_init airfoil 150 "$@"
AF=$(bench_tool tsr-airfoil)
S=$(mktemp -d "${TMPDIR:-/tmp}/airfoil.XXXXXX")
trap 'rm -rf "$S"' EXIT
if [ "$SMOKE" = 1 ]; then
  ITER=20 MK=(--size 30x20) VARIANTS='cpu/ref' RUNS=1
else
  ITER=1000 MK=() RUNS=3
  VARIANTS=cuda/gather4/aos,cuda/gather4/soa,cuda/atomic1/soa,cuda/gather/soa,cuda/atomic/soa
  VARIANTS=$VARIANTS,cuda/shared/aos,cuda/colour/soa
fi
MESH=${NEW_GRID:-}
[ -z "$MESH" ] && [ "$SMOKE" != 1 ] && [ -f "$PEER/new_grid.h5" ] && MESH=$PEER/new_grid.h5
if [ -z "$MESH" ]; then
  MESH=$S/new_grid.h5
  step mkairfoil 60 "$(bench_tool tsr-mkairfoil)" -q "${MK[@]}" -o "$MESH" || bench_die "no mesh"
fi
step tsr-airfoil 90 "$AF" -i "$MESH" $DEV --variant "$VARIANTS" --iterations $ITER --runs $RUNS \
  --warmup 1 --csv "$RAW/tsr-airfoil.csv"

# OP2: each binary in a scratch directory holding new_grid.h5 (it reads ./new_grid.h5 and writes
# new_grid_out.h5 and file_name.h5 there).
n=0
for bin in "$PEER"/airfoil_op2_*; do
  [ -f "$bin" ] || continue
  bench_peer "$bin" "OP2's airfoil" || continue
  n=$((n + 1))
  v=${bin##*/airfoil_op2_}
  for bs in 256 512; do
    args=(OP_BLOCK_SIZE=$bs)
    case $v in hier_*) args+=(OP_PART_SIZE=$bs) ;; esac
    rm -rf "$S/op2" && mkdir -p "$S/op2" && ln -s "$MESH" "$S/op2/new_grid.h5"
    STEP_DIR=$S/op2 step "op2-$v-b$bs" 30 "$bin" "${args[@]}"
  done
done
[ "$n" -gt 0 ] || bench_note "peer not run: OP2's airfoil: no $PEER/airfoil_op2_* (set PEERDIR; scripts/peers/build-op2-airfoil.sh builds them)"
bench_table
