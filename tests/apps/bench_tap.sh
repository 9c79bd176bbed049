# tests/apps/bench_tap.sh: sourced by the TAP scripts of scripts/bench
# (bench_*.sh); tap.sh's pieces and: top, the source tree; build, this
# build's tree; b, scripts/bench; the plan "1..0 # SKIP" and exit without
# python3 or bash; the scratch folder t; no's comments: the first 40 lines of
# $t/out (where each step writes its output).
top=${TSR_TOP_SRCDIR:-${srcdir:-$(dirname "$0")/../..}}
. "$top/tests/apps/tap.sh"
build=$B
b=$top/scripts/bench
command -v python3 > /dev/null 2>&1 || { echo "1..0 # SKIP no python3"; exit 0; }
command -v bash > /dev/null 2>&1 || { echo "1..0 # SKIP no bash"; exit 0; }
tap_scratch tsr-bench-test
tap_log=$t/out
tap_log_lines=40
