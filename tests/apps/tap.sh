# tests/apps/tap.sh: sourced by the TAP scripts of tests/apps for what they
# share (lulesh_tap.sh and bench_tap.sh add what their programs need):
# - B, this build's tree (TSR_TOP_BUILDDIR, set by the test harness; else .);
#   MPIEXEC (default mpiexec);
# - tap_scratch NAME: t, a new folder NAME.XXXXXX under $TMPDIR, removed at
#   exit (kept when KEEP is set, to look at after a failure);
# - ok MSG, skip MSG and no MSG [FILE]: TAP lines numbered by n; no sets
#   fail=1 and adds FILE (default $tap_log, when set) as comments: its first
#   $tap_log_lines lines when that is set, else its last $tap_log_tail lines
#   when that is set, else all of it;
# - ok_rc STATUS MSG [FILE]: ok MSG when STATUS is 0, else no MSG [FILE]
#   (after a check written as a command: `...; ok_rc $? MSG`).
# A script ends with exit $fail.
B=${TSR_TOP_BUILDDIR:-.}
MPIEXEC=${MPIEXEC:-mpiexec}
n=0
fail=0
tap_scratch() {
  t=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 1
  trap '[ -n "${KEEP:-}" ] || rm -rf "$t"' EXIT
}
ok() { n=$((n + 1)); echo "ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
no() {
  n=$((n + 1)); echo "not ok $n - $1"; fail=1
  tap_f=${2:-${tap_log:-}}
  [ -n "$tap_f" ] || return 0
  if [ -n "${tap_log_lines:-}" ]; then
    sed 's/^/# /' "$tap_f" 2>/dev/null | head -n "$tap_log_lines"
  elif [ -n "${tap_log_tail:-}" ]; then
    sed 's/^/# /' "$tap_f" 2>/dev/null | tail -n "$tap_log_tail"
  else
    sed 's/^/# /' "$tap_f"
  fi
}
ok_rc() {
  if [ "$1" = 0 ]; then ok "$2"; else shift; no "$@"; fi
}
