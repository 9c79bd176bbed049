#!/bin/bash
# scripts/device/seed-tables.sh [PACKDIR]: the seeds' two tables on this GPU (issue 3), for
# tsr-stencil and, where it has the variant, the original gridbenchmark (PACKDIR, default pack,
# as for scripts/device/peers-stencil.sh). Results: $OUT/seed-tables.md and
# $OUT/seed-tables.tar.gz (CSVs, logs, ncu output).
#
# Seed 000, table "array-of-structs": fastwaves, 512x512x64, block 128x1x2, run time and global
#   load efficiency (requested / transferred bytes), AoS vs SoA. The original has AoS only on
#   the unstructured grid (fastwaves-unstr-aos-idxvar, row-major storage by default; -z too).
#   Ours: cuda/unstr/idxvar and cuda/regular/idxvar with --fields soa,aos,aosoa, row-major and
#   z-curve storage. Load efficiency: if ncu is on the machine, one launch of each kernel with
#   smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct (Hopper's gld_efficiency),
#   the L1 global-load sectors and requests, DRAM bytes and the kernel duration.
# Seed 002, table "warp broadcasting": laplap, z-curves, pointer chasing, uncompressed, blocks
#   128x1x8, 32x1x8, 1x1x32 (and 32x1x1, 8x1x32 of its command line), median of 20, shared
#   memory vs warp broadcast. Ours: cuda/unstr/idxvar-shared vs cuda/unstr/idxvar-warp; the
#   original: laplap-unstr-idxvar-shared -z only (its published code has no warp variant).
# Env: SIZE (512x512x64), RUNS (20), NCU (path; default: command -v ncu or the CUDA one).
set -u
P=${1:-pack}
OUT=${OUT:-$PWD/device-out}
SIZE=${SIZE:-512x512x64}
RUNS=${RUNS:-20}
mkdir -p "$OUT"
PD=$(cd "$P" && pwd) || { echo "no pack directory $P" >&2; exit 1; }
GB="$PD/gridbenchmark"
TS="$PD/tsr-stencil"
CMP="$PWD/scripts/peers/stencil-compare"
[ -x "$TS" ] || { echo "missing $TS" >&2; exit 1; }
[ -x "$GB" ] || { echo "missing $GB: the original's rows are left out" >&2; GB=""; }
export LD_LIBRARY_PATH="$PD:${LD_LIBRARY_PATH:-}" OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
W=$(mktemp -d)
C=$(mktemp -d)
T0=$(date +%s)
log() { echo "[$(( $(date +%s) - T0 )) s] $*" | tee -a "$W/run.log"; }
orig() {  # TAG TIMEOUT ARGS...
  local tag=$1 to=$2; shift 2
  [ -n "$GB" ] || return
  ( cd "$C" && timeout "$to" "$GB" --no-header --no-cache "$@" ) > "$W/orig-$tag.csv" 2> "$W/orig-$tag.err"
  log "original $tag: exit $?, $(grep -c ',' "$W/orig-$tag.csv") rows, $(grep -c '(Error)' "$W/orig-$tag.csv") with (Error)"
}

# Seed 002: shared memory vs warp broadcast, laplap unstructured z-curves, chasing, uncompressed.
timeout 120 "$TS" laplap --size "$SIZE" --variant 'cuda/unstr/idxvar-shared,cuda/unstr/idxvar-warp' \
  --order zcurve --compress no --chase yes --threads 128x1x8,32x1x1,32x1x8,8x1x32,1x1x32 \
  --runs "$RUNS" --warmup 3 -q --csv "$W/ours-warp.csv" > "$W/ours-warp.log" 2>&1
log "tsr-stencil laplap shared/warp: exit $?"
orig warp 150 --no-verify --size "$SIZE" --threads 128x1x8 32x1x1 32x1x8 8x1x32 1x1x32 --runs "$RUNS" \
  laplap-unstr-idxvar-shared -z

# Seed 000: AoS vs SoA, fastwaves, block 128x1x2.
timeout 150 "$TS" fastwaves --size "$SIZE" --variant 'cuda/unstr/idxvar,cuda/regular/idxvar' \
  --fields soa,aos,aosoa --order rowmajor,zcurve --threads 128x1x2 --runs "$RUNS" --warmup 3 -q \
  --csv "$W/ours-aos.csv" > "$W/ours-aos.log" 2>&1
log "tsr-stencil fastwaves soa/aos/aosoa: exit $?"
orig aos 200 --no-verify --size "$SIZE" --threads 128x1x2 --runs "$RUNS" \
  fastwaves-unstr-idxvar fastwaves-unstr-aos-idxvar fastwaves-unstr-idxvar -z fastwaves-unstr-aos-idxvar -z

# Load efficiency with Nsight Compute: one launch per kernel, row-major unstructured, 128x1x2.
NCU=${NCU:-$(command -v ncu || true)}
[ -z "$NCU" ] && [ -x /usr/local/cuda/bin/ncu ] && NCU=/usr/local/cuda/bin/ncu
METRICS=smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
NCUS=()
if [ -n "$NCU" ]; then
  "$NCU" --version > "$W/ncu-version.txt" 2>&1
  for f in soa aos aosoa; do
    timeout 120 "$NCU" --csv --page raw --log-file "$W/ncu-ours-$f.csv" --launch-count 1 \
      --kernel-name regex:st_k_idxvar --metrics "$METRICS" \
      "$TS" fastwaves --size "$SIZE" --variant cuda/unstr/idxvar --fields $f --order rowmajor \
      --threads 128x1x2 --runs 1 --warmup 0 --no-verify -q > "$W/ncu-ours-$f.log" 2>&1
    rc=$?; log "ncu tsr-stencil fastwaves $f: exit $rc"
    [ $rc != 0 ] && tail -n 3 "$W/ncu-ours-$f.log" "$W/ncu-ours-$f.csv" 2>/dev/null | tee -a "$W/run.log"
    NCUS+=("$W/ncu-ours-$f.csv")
  done
  if [ -n "$GB" ]; then
    for b in fastwaves-unstr-idxvar fastwaves-unstr-aos-idxvar; do
      ( cd "$C" && timeout 150 "$NCU" --csv --page raw --log-file "$W/ncu-orig-$b.csv" --launch-count 1 \
        --kernel-name 'regex:fastwaves_(aos_)?idxvar' --metrics "$METRICS" \
        "$GB" --no-header --no-cache --no-verify --size "$SIZE" --threads 128x1x2 --runs 1 $b ) \
        > "$W/ncu-orig-$b.log" 2>&1
      rc=$?; log "ncu original $b: exit $rc"
      [ $rc != 0 ] && tail -n 3 "$W/ncu-orig-$b.log" "$W/ncu-orig-$b.csv" 2>/dev/null | tee -a "$W/run.log"
      NCUS+=("$W/ncu-orig-$b.csv")
    done
  fi
else
  log "ncu: not found on this machine; no load efficiency"
fi

ORIGS=()
for f in "$W"/orig-*.csv; do [ -e "$f" ] && ORIGS+=(--orig "$f"); done
{
  echo "# The seeds' tables on this GPU ($SIZE, double, median of $RUNS, us)"
  echo
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv 2>&1 | sed 's/^/    /'
  echo
  echo "## Seed 002: shared memory vs warp broadcast (laplap, z-curves, chasing, uncompressed)"
  echo
  python3 "$CMP" shapes --match 'laplap-unstr-idxvar-(shared|warp)' "${ORIGS[@]}" --ours "$W/ours-warp.csv"
  echo
  echo "## Seed 000: AoS vs SoA (fastwaves, block 128x1x2)"
  echo
  python3 "$CMP" shapes --match 'fastwaves-(unstr|regular)-(aos-|aosoa-)?idxvar' "${ORIGS[@]}" --ours "$W/ours-aos.csv"
  if [ ${#NCUS[@]} -gt 0 ]; then
    echo
    echo "### Nsight Compute (one launch each; load efficiency = smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct)"
    echo
    echo '```'
    python3 "$CMP" ncu "${NCUS[@]}"
    echo '```'
  fi
  echo
  echo "## Run log"
  echo
  sed 's/^/    /' "$W/run.log"
} > "$OUT/seed-tables.md" 2>&1
cat "$OUT/seed-tables.md"
rm -rf "$C"
tar czf "$OUT/seed-tables.tar.gz" -C "$W" . && rm -rf "$W"
