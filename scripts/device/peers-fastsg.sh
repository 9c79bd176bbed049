#!/bin/sh
# scripts/device/peers-fastsg.sh [PACKDIR]: ORNL Tasmanian beside tsr-fastsg in one GPU-machine
# call (issue 6): the same interpolant (regular sparse grid without boundary, D=10, n=8, hat
# basis, f = prod 4x(1-x)) hierarchized and evaluated by both, on the GPU and on the CPU cores.
# Run from the repository root; PACKDIR (default pack) holds tasmanian_fastsg (built by
# scripts/peers/build-tasmanian.sh), tsr-fastsg and the shared libraries they need (for the
# Tasmanian driver: libcublas, libcublasLt, libcusparse, libcusolver, libnvJitLink of CUDA 13,
# unless /usr/local/cuda/lib64 has them). About 2.5 minutes, at most 295 s (timeouts below).
# Writes $OUT/peers-fastsg.tar.gz (every log and CSV) and $OUT/peers-fastsg-summary.txt.
set -u
P=${1:-pack}
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
W=$(mktemp -d)
export LD_LIBRARY_PATH="$PWD/$P:${CUDA_HOME:-/usr/local/cuda}/lib64:${LD_LIBRARY_PATH:-}"
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-16}"
TAS="$P/tasmanian_fastsg" TSR="$P/tsr-fastsg"
# the same fixed points for both programs (the last one checks x = 1 and x = 0)
EP="--eval-point 0.52,0.73,0.52,0.73,0.52,0.73,0.52,0.73,0.52,0.73
    --eval-point 0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,0.95
    --eval-point 0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5
    --eval-point 1,0.99,0.01,0.25,0.75,0.125,0.3,0.6,0.9,0"

{ date; hostname; nproc; nvidia-smi -L 2>&1; echo "OMP_NUM_THREADS=$OMP_NUM_THREADS"
  echo "--- ldd $TAS"; ldd "$TAS"; echo "--- ldd $TSR"; ldd "$TSR"; } > "$W/env.txt" 2>&1
if grep -q '=> not found' "$W/env.txt"; then echo "MISSING LIBRARIES:"; grep '=> not found' "$W/env.txt"; fi

# 1. the small check: D=2, n=3 (17 points), u(0.52, 0.73) = 0.7696 in both
timeout 15 "$TAS" --dim 2 --level 3 --mode both --points 1000 --cpu-points 1000 --dense-points 100 \
  --runs 1 --hier-runs 1 > "$W/tas-d2n3.log" 2>&1
echo "tasmanian D=2 n=3: exit $?: $(grep 'D=2 n=3' "$W/tas-d2n3.log")"
timeout 10 "$TSR" --dim 2 --level 3 --mode both --points 1000 --runs 1 --warmup 0 \
  --eval-point 0.52,0.73 > "$W/tsr-d2n3.log" 2>&1
echo "tsr-fastsg D=2 n=3: exit $?: $(grep '^u(' "$W/tsr-d2n3.log")"

# 2. Tessera on the GPU: every cuda variant, 10^6 evaluation points
# shellcheck disable=SC2086
timeout 60 stdbuf -oL "$TSR" --dim 10 --level 8 --mode both --variant 'cuda/*' --points 1000000 \
  --runs 3 $EP --csv "$W/tsr-gpu.csv" > "$W/tsr-gpu.log" 2>&1
echo "tsr-fastsg GPU D=10 n=8: exit $?"

# 3. Tessera on the 16 CPU cores (cpu/eval/plain, the reference, only verifies: 350 pts/s)
timeout 60 stdbuf -oL "$TSR" --dim 10 --level 8 --mode both --device cpu \
  --variant 'cpu/hier/*,cpu/eval/sred1,cpu/eval/ichg2,cpu/eval/vec1' --points 2000 --warmup 1 \
  --runs 3 --csv "$W/tsr-cpu.csv" > "$W/tsr-cpu.log" 2>&1
echo "tsr-fastsg CPU D=10 n=8: exit $?"

# 4. Tasmanian: grid construction, hierarchization (CPU x3, GPU x1: ~30 s), CPU evaluation
#    (5000 points), GPU modes (20000 points; then 100000 points in one call, since its sparse
#    kernels run a thread per point; cublas 5000, dense 2000), in that order, so that a timeout
#    loses only the last modes (rows are printed as they are measured)
# shellcheck disable=SC2086
timeout 150 stdbuf -oL "$TAS" --dim 10 --level 8 --mode both --points 20000 --cpu-points 5000 \
  --dense-points 2000 --runs 3 --hier-runs 3 --gpu-hier-runs 1 $EP --csv "$W/tas.csv" \
  --gpu-modes cuda-sparse,cuda-sparse-dev,cuda-sparse-dev@100000,cuda-sparse-f32,cublas,cuda-dense \
  > "$W/tas.log" 2>&1
echo "tasmanian D=10 n=8: exit $?"

# 5. side by side
{
  echo "Tasmanian (localp0, order 1, depth 7) beside tsr-fastsg, D=10 n=8, $(nproc) cores, OMP_NUM_THREADS=$OMP_NUM_THREADS"
  nvidia-smi -L 2>/dev/null | head -n 1
  echo
  echo "-- all rows: tool, mode/variant, seconds (median), points/s, max |u-f|, verify"
  grep '^tasmanian,' "$W/tas.log" | awk -F, '{printf "%-10s %-22s %12.6f s %12.4g /s  %s\n", $1, $2, $7, $8, $9}'
  cat "$W/tsr-gpu.csv" "$W/tsr-cpu.csv" 2>/dev/null | awk -F, '$1 == "fastsg" {
      s = $10 / 1e6; m = ""; if (match($18, /maxerr=[^ ]*/)) m = substr($18, RSTART + 7, RLENGTH - 7)
      printf "%-10s %-22s %12.6f s %12.4g /s  %s %s\n", "tessera", $2, s, $7 / s, m, $19 }'
  echo
  echo "-- best of each (pts/s: evaluation points per second; hierarchization: seconds)"
  {
    grep '^tasmanian,' "$W/tas.log"
    cat "$W/tsr-gpu.csv" "$W/tsr-cpu.csv" 2>/dev/null | awk -F, '$1 == "fastsg" && $19 == "PASS"'
  } | awk -F, '
    function keep(k, v, name, better) {
      if (!(k in best) || (better == "low" ? v < best[k] : v > best[k])) { best[k] = v; who[k] = name }
    }
    $1 == "tasmanian" && $2 == "make-grid" { keep("tas-make", $7, $2, "low") }
    $1 == "tasmanian" && $2 == "hier-cpu"  { keep("tas-hcpu", $7, $2, "low") }
    $1 == "tasmanian" && $2 == "hier-cuda" { keep("tas-hgpu", $7, $2, "low") }
    $1 == "tasmanian" && $2 == "eval-cpu"  { keep("tas-ecpu", $8, $2, "high") }
    $1 == "tasmanian" && $2 ~ /^eval-cu/   { keep("tas-egpu", $8, $2, "high") }
    $1 == "fastsg" && $2 ~ /^cuda\/hier/   { keep("tsr-hgpu", $10 / 1e6, $2, "low") }
    $1 == "fastsg" && $2 ~ /^cpu\/hier/    { keep("tsr-hcpu", $10 / 1e6, $2, "low") }
    $1 == "fastsg" && $2 ~ /^cuda\/eval/   { keep("tsr-egpu", $7 / ($10 / 1e6), $2, "high") }
    $1 == "fastsg" && $2 ~ /^cpu\/eval/    { keep("tsr-ecpu", $7 / ($10 / 1e6), $2, "high") }
    function row(what, a, b, unit, lowbetter) {
      if (!(a in best) || !(b in best)) { printf "%-26s %s: %s   %s: %s\n", what, "tasmanian", (a in best) ? best[a] : "-", "tessera", (b in best) ? best[b] : "-"; return }
      r = lowbetter ? best[a] / best[b] : best[b] / best[a]
      printf "%-26s tasmanian %-18s %11.4g %s   tessera %-18s %11.4g %s   tessera/tasmanian speedup %.1fx\n",
             what, who[a], best[a], unit, who[b], best[b], unit, r
    }
    END {
      row("hierarchization, GPU", "tas-hgpu", "tsr-hgpu", "s", 1)
      row("hierarchization, CPU", "tas-hcpu", "tsr-hcpu", "s", 1)
      row("evaluation, GPU", "tas-egpu", "tsr-egpu", "pts/s", 0)
      row("evaluation, CPU", "tas-ecpu", "tsr-ecpu", "pts/s", 0)
      if ("tas-make" in best) printf "Tasmanian grid construction (no counterpart in tsr-fastsg): %.3f s\n", best["tas-make"]
    }'
  echo
  echo "-- the interpolant at fixed points (Tasmanian, then tsr-fastsg)"
  grep '^# u(' "$W/tas.log" | sed 's/^# //' | awk '{print "tasmanian " $0}'
  grep '^u(' "$W/tsr-gpu.log" | awk '{print "tessera   " $0}'
  grep '^# u(' "$W/tas.log" | sed 's/.*) = \([^ ]*\).*/\1/' > "$W/u-tas.tmp"
  grep '^u(' "$W/tsr-gpu.log" | sed 's/.*) = \([^ ]*\).*/\1/' > "$W/u-tsr.tmp"
  paste -d' ' "$W/u-tas.tmp" "$W/u-tsr.tmp" | awk 'NF == 2'  |
    awk '{d = $1 - $2; if (d < 0) d = -d; printf "point %d: tasmanian %s tessera %s |diff| %.1e %s\n", NR, $1, $2, d, d <= 1e-9 ? "ok" : "DIFFERENT"}'
  echo
  echo "-- checks"
  grep -h 'D=2 n=3\|FAIL\|all checks passed\|max |surplus\|max |u - reference' "$W/tas-d2n3.log" "$W/tas.log" | cut -c1-160
  grep -h '^u(\|FAIL' "$W/tsr-d2n3.log"
  grep -h 'FAIL' "$W/tsr-gpu.log" "$W/tsr-cpu.log"
} > "$W/summary.txt" 2>&1
rm -f "$W/u-tas.tmp" "$W/u-tsr.tmp"
cat "$W/summary.txt"
cp "$W/summary.txt" "$OUT/peers-fastsg-summary.txt"
tar czf "$OUT/peers-fastsg.tar.gz" -C "$W" .
