#!/bin/bash
# scripts/bench/fastsg_eval.sh BINDIR: tsr-fastsg evaluation on the GPU at D=10, n=8 (1,862,145
# grid points), 10^6 random points, double (PREC=float for single), the variants that matter side
# by side: the block walk (walk, walk_s2w) and the simplex variants (simplex, simplex_s,
# simplex_s2, simplex4_s; docs/FASTSG.md); VARIANTS=list to choose, RUNS=k. Each is verified
# against cpu/eval/plain at sampled points. Prints one line per variant: median time and points
# per second. Writes $OUT/fastsg_eval-raw/ (the log and the CSV); see common.sh. About a minute.
. "$(dirname "$0")/common.sh"
bench_init fastsg_eval 240 "$@"
X=$(bench_tool tsr-fastsg)
PREC=${PREC:-double}
if [ "$SMOKE" = 1 ]; then
  D=4 N=5 P=2000 R=2 V=cpu/eval/walk,cpu/eval/vec1
else
  D=10 N=8 P=1000000 R=${RUNS:-5}
  V=${VARIANTS:-cuda/eval/walk,cuda/eval/walk_s2w,cuda/eval/simplex,cuda/eval/simplex_s,cuda/eval/simplex_s2,cuda/eval/simplex4_s}
fi
step eval 200 "$X" --dim $D --level $N --mode evaluate $DEV --precision "$PREC" --variant "$V" \
  --points $P --runs $R --csv "$RAW/eval.csv"
rc=$?
python3 - "$RAW/eval.csv" <<'PY'
import csv, sys
try:
    rows = list(csv.DictReader(open(sys.argv[1])))
except OSError:
    sys.exit("fastsg_eval: no CSV written (see the step's log)")
print("%-22s %-10s %12s %14s  %s" % ("variant", "precision", "median ms", "points/s", "verify"))
for r in rows:
    pts = float(r["nz"])
    med = float(r["median_us"]) if r["median_us"] else float("nan")
    rate = pts / (med * 1e-6) if med == med and med > 0 else float("nan")
    print("%-22s %-10s %12.3f %14.4g  %s %s" % (r["variant"], r["precision"], med / 1e3, rate,
                                                r["verify"], r["note"]))
PY
exit $rc
