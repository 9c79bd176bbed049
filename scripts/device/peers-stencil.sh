#!/bin/bash
# scripts/device/peers-stencil.sh [PACKDIR]: the original stencil benchmark (andrej/stencil-
# performance's gridbenchmark, built by scripts/peers/build-gridbenchmark.sh) beside tsr-stencil,
# in one GPU-machine call, for laplap, hdiff and fastwaves at 512x512x64 double (issue 3,
# "Performance"). Run from the repository root; PACKDIR (default pack) holds gridbenchmark and
# tsr-stencil (with the libraries scripts' pack copies). Results: $OUT/peers-stencil.md (the
# tables), $OUT/peers-stencil-best.csv (best rows), $OUT/peers-stencil.tar.gz (every CSV and log).
#
# Both programs: median of 20 timed runs (host clock around launch + synchronise), thread
# blocks 128x1x8, 32x1x8, 256x1x1 (ours also 64x4x1), best over blocks and variants. The
# original: regular naive, idxvar, idxvar-shared, idxvar-kloop, idxvar-kloop-sliced (+ laplap/
# hdiff shared, fastwaves kloop); unstructured the same strategies on z-curves, then compressed
# (-c), no-chase (-n) and both; fastwaves AoS unstructured (-z). Timed runs use --no-verify (its
# verification walks std::maps on the host, minutes per run at this size), so every benchmark is
# first run once with its verification at 36x36x16 (orig-verify.csv; "(Error)" marks a failure).
# Its grid cache (.grid-cache, its default) lives in a scratch directory that is removed.
# Ours: `tsr-stencil STENCIL --variant 'cuda/*'` over z-curves, compressed or not, chasing or
# not, verified against the CPU reference; fastwaves AoS with --fields aos; with TUNED=1 (default)
# also the windows at their best rows / levels per thread and block shapes (cuda/regular/jwindow --jpt 4,8;
# cuda/unstr/jwindow-plan --jpt 4,8 --kpt 1 and 2, no chasing).
# Env: SIZE (512x512x64), RUNS (20), BUDGET_S (330: later original groups are skipped, with a
# note, once this many seconds have passed), HARD_S (520: every step's timeout is cut so that
# the tables and the tar are written before a 600 s call limit), EXTRA_STORAGE (1: the -c / -n /
# -c -n groups), STENCILS ("laplap hdiff fastwaves": the stencils to run), AOS (1: ours with
# --fields aos, and the original's AoS group), OURS_ALL (1: ours over every CUDA variant; 0:
# the tuned windows only), KPTS ("1 2": the levels per thread of the tuned jwindow-plan rows).
set -u
STENCILS=${STENCILS:-laplap hdiff fastwaves}
AOS=${AOS:-1}
P=${1:-pack}
OUT=${OUT:-$PWD/device-out}
SIZE=${SIZE:-512x512x64}
RUNS=${RUNS:-20}
BUDGET_S=${BUDGET_S:-330}
HARD_S=${HARD_S:-520}
EXTRA_STORAGE=${EXTRA_STORAGE:-1}
mkdir -p "$OUT"
PD=$(cd "$P" && pwd) || { echo "no pack directory $P" >&2; exit 1; }
GB="$PD/gridbenchmark"
TS="$PD/tsr-stencil"
CMP="$PWD/scripts/peers/stencil-compare"
for f in "$GB" "$TS"; do [ -x "$f" ] || { echo "missing $f" >&2; exit 1; }; done
export LD_LIBRARY_PATH="$PD:${LD_LIBRARY_PATH:-}" OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
W=$(mktemp -d)          # logs and CSVs (tarred)
C=$(mktemp -d)          # the original's grid cache (not kept)
mkdir -p "$C/.grid-cache"
T0=$(date +%s)
elapsed() { echo $(( $(date +%s) - T0 )); }
log() { echo "[$(elapsed) s] $*" | tee -a "$W/run.log"; }
# cap T: T, or less so that the step ends by HARD_S (0: no time left).
cap() { local r=$(( HARD_S - $(elapsed) )); [ "$r" -lt 10 ] && r=0; [ "$1" -lt "$r" ] && r=$1; echo "$r"; }

{
  date -u +%FT%TZ
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv 2>&1
  [ -f "$PD/gridbenchmark.build.txt" ] && cat "$PD/gridbenchmark.build.txt"
  "$TS" --version 2>&1
  echo "SIZE=$SIZE RUNS=$RUNS BUDGET_S=$BUDGET_S EXTRA_STORAGE=$EXTRA_STORAGE"
} > "$W/info.txt"
cat "$W/info.txt"

SHAPES_O="128x1x8 32x1x8 256x1x1"
SHAPES_T="128x1x8,32x1x8,256x1x1,64x4x1"
STRAT="naive idxvar idxvar-shared idxvar-kloop idxvar-kloop-sliced"
# orig_list STENCIL GRID FLAGS: the original's benchmark arguments (name, then its flags).
orig_list() {
  local st=$1 grid=$2 flags=$3 s extra=""
  case "$grid" in
    regular) [ "$st" = fastwaves ] && extra=kloop || extra=shared ;;
    unstr) [ "$st" = fastwaves ] && extra=kloop ;;
  esac
  for s in $STRAT $extra; do printf '%s-%s-%s %s ' "$st" "$grid" "$s" "$flags"; done
}
# orig TAG TIMEOUT ARGS...: run the original in the cache directory, CSV rows to orig-TAG.csv.
orig() {
  local tag=$1 to; to=$(cap "$2"); shift 2
  if [ "$(elapsed)" -ge "$BUDGET_S" ] || [ "$to" = 0 ]; then
    log "original $tag: SKIPPED (time budget $BUDGET_S s spent)"; return
  fi
  ( cd "$C" && timeout "$to" "$GB" --no-header "$@" ) > "$W/orig-$tag.csv" 2> "$W/orig-$tag.err"
  local rc=$?
  log "original $tag: exit $rc, $(grep -c ',' "$W/orig-$tag.csv") rows, $(grep -c '(Error)' "$W/orig-$tag.csv") with (Error)"
}

# 1. The original, verified, small: does this build compute what its CPU reference does?
V=""
for st in laplap hdiff fastwaves; do
  V="$V $(orig_list $st regular '') $(orig_list $st unstr -z) $(orig_list $st unstr '-z -c')"
  [ "$st" != fastwaves ] && V="$V $(orig_list $st unstr '-z -n') $(orig_list $st unstr '-z -c -n')"
done
V="$V fastwaves-unstr-aos-idxvar -z fastwaves-unstr-aos-idxvar"
( cd "$W" && timeout 120 "$GB" --no-cache --size 36x36x16 --threads 32x1x8 32x1x1 --runs 1 $V ) \
  > "$W/orig-verify.csv" 2> "$W/orig-verify.err"
log "original verification at 36x36x16: exit $?, $(grep -c 'double' "$W/orig-verify.csv") rows," \
    "$(grep -c '(Error)' "$W/orig-verify.csv") with (Error)"
awk -F, '/\(Error\)/ { gsub(/ /, "", $1); print "  (Error): " $1 " " $9 "x" $10 "x" $11 }' "$W/orig-verify.csv" |
  head -40 | tee -a "$W/run.log"

# 2. Ours (verified against the CPU reference; skipped shapes are noted in the CSV).
[ "${OURS_ALL:-1}" = 1 ] || log "tsr-stencil over every CUDA variant: not asked (OURS_ALL=0)"
for st in $STENCILS; do
  [ "${OURS_ALL:-1}" = 1 ] || continue
  extra="--chase yes,no"; to=150
  [ "$st" = fastwaves ] && extra="" && to=180
  to=$(cap $to); [ "$to" = 0 ] && { log "tsr-stencil $st: SKIPPED (no time left)"; continue; }
  timeout $to "$TS" $st --size "$SIZE" --variant 'cuda/*' --threads "$SHAPES_T" --order zcurve \
    --compress no,yes $extra --runs "$RUNS" --warmup 3 -q --csv "$W/ours-$st.csv" > "$W/ours-$st.log" 2>&1
  log "tsr-stencil $st: exit $?"
done
# 2b. Ours, tuned (TUNED=1): the windows with the rows and levels per thread that sweeps found best
# (docs/STENCIL.md), single launches like every row here.
if [ "${TUNED:-1}" = 1 ]; then
  for st in $STENCILS; do
    [ "$st" = fastwaves ] && continue
    to=$(cap 60); [ "$to" = 0 ] && { log "tsr-stencil $st tuned: SKIPPED (no time left)"; continue; }
    timeout $to "$TS" $st --size "$SIZE" --variant cuda/regular/jwindow --jpt 4,8 --threads 64x2x1,128x1x1,32x4x1 \
      --runs "$RUNS" --warmup 3 -q --csv "$W/ours-$st-tuned-reg.csv" > "$W/ours-$st-tuned-reg.log" 2>&1
    for kpt in ${KPTS:-1 2}; do
      timeout $to "$TS" $st --size "$SIZE" --variant cuda/unstr/jwindow-plan --jpt 4,8 --kpt $kpt \
        --threads 32x2x1,64x2x1,32x4x1,64x1x1,128x1x1 --order zcurve --chase no --runs "$RUNS" --warmup 3 -q \
        --csv "$W/ours-$st-tuned-plan-k$kpt.csv" > "$W/ours-$st-tuned-plan-k$kpt.log" 2>&1
    done
    log "tsr-stencil $st tuned: exit $?"
  done
fi
to=$(cap 90)
case " $STENCILS " in *" fastwaves "*) ;; *) AOS=0 ;; esac
if [ "$AOS" != 1 ]; then log "tsr-stencil fastwaves --fields aos: not asked (AOS=$AOS)";
elif [ "$to" = 0 ]; then log "tsr-stencil fastwaves --fields aos: SKIPPED (no time left)"; else
  timeout "$to" "$TS" fastwaves --size "$SIZE" --variant 'cuda/unstr/*' --fields aos --threads "$SHAPES_T" \
    --order zcurve --compress no,yes --runs "$RUNS" --warmup 3 -q --csv "$W/ours-fastwaves-aos.csv" \
    > "$W/ours-fastwaves-aos.log" 2>&1
  log "tsr-stencil fastwaves --fields aos: exit $?"
fi

# 3. The original, timed: regular and z-curves first, AoS, then the other storages.
for st in $STENCILS; do
  orig "$st-regular" 120 --no-verify --size "$SIZE" --threads $SHAPES_O --runs "$RUNS" $(orig_list $st regular '')
  orig "$st-unstr-z" 150 --no-verify --size "$SIZE" --threads $SHAPES_O --runs "$RUNS" $(orig_list $st unstr -z)
done
[ "$AOS" = 1 ] && orig fastwaves-aos-z 150 --no-verify --size "$SIZE" --threads $SHAPES_O --runs "$RUNS" fastwaves-unstr-aos-idxvar -z
if [ "$EXTRA_STORAGE" = 1 ]; then
  for st in $STENCILS; do
    orig "$st-unstr-zc" 150 --no-verify --size "$SIZE" --threads $SHAPES_O --runs "$RUNS" $(orig_list $st unstr '-z -c')
    [ "$st" = fastwaves ] && continue   # fastwaves reads +1 neighbours only: no chasing option
    orig "$st-unstr-zn" 150 --no-verify --size "$SIZE" --threads $SHAPES_O --runs "$RUNS" $(orig_list $st unstr '-z -n')
    orig "$st-unstr-zcn" 150 --no-verify --size "$SIZE" --threads $SHAPES_O --runs "$RUNS" $(orig_list $st unstr '-z -c -n')
  done
fi

# 4. The tables.
ORIGS=() OURS=()
for f in "$W"/orig-*.csv; do [ "$f" != "$W/orig-verify.csv" ] && ORIGS+=(--orig "$f"); done
for f in "$W"/ours-*.csv; do OURS+=(--ours "$f"); done
{
  echo "# Original gridbenchmark vs tsr-stencil, $SIZE, median of $RUNS (us)"
  echo
  sed 's/^/    /' "$W/info.txt"
  python3 "$CMP" best --summary "$OUT/peers-stencil-best.csv" "${ORIGS[@]}" "${OURS[@]}"
  echo
  echo "## Every original row: median us per thread block"
  echo
  python3 "$CMP" shapes "${ORIGS[@]}"
  echo
  echo "## Run log"
  echo
  sed 's/^/    /' "$W/run.log"
} > "$OUT/peers-stencil.md" 2>&1
cat "$OUT/peers-stencil.md"
log "done"
rm -rf "$C"
tar czf "$OUT/peers-stencil.tar.gz" -C "$W" . && rm -rf "$W"
