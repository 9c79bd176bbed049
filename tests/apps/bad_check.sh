# tests/apps/bad_check.sh: sourced by the scripts that feed malformed inputs
# to the programs (bad_input.sh, lulesh_bad.sh).
#
# bad_check LABEL PROG FILE NEED1 NEED2 COMMAND...: runs COMMAND (stdin
# empty, 60 s at most) in the scratch directory $dir and prints TAP line $i:
# ok when it exits non-zero below 128 (no signal, no hang) with exactly one
# "PROG: error: " line on stdout and stderr together, and that line (on
# stderr) names FILE and contains NEED1 and NEED2 (when not empty); else not
# ok with the reason and stderr as comments, and fail=1.
bad_check() {
  label=$1 prog=$2 file=$3 need1=$4 need2=$5; shift 5
  timeout -k 5 60 "$@" < /dev/null > "$dir/stdout" 2> "$dir/stderr"
  rc=$?
  errs=$(cat "$dir/stdout" "$dir/stderr" | grep -c "^$prog: error: ")
  line=$(grep "^$prog: error: " "$dir/stderr" | head -n 1)
  why=""
  [ $rc -eq 0 ] && why="exit 0"
  [ $rc -eq 124 ] && why="timed out"
  [ $rc -ge 128 ] && why="killed by a signal (exit $rc)"
  [ -z "$why" ] && [ "$errs" -ne 1 ] && why="$errs error lines"
  [ -z "$why" ] && case "$line" in *"$file"*) ;; *) why="file name missing";; esac
  [ -z "$why" ] && case "$line" in *"$need1"*) ;; *) why="'$need1' missing";; esac
  [ -z "$why" ] && [ -n "$need2" ] && case "$line" in *"$need2"*) ;; *) why="'$need2' missing";; esac
  if [ -z "$why" ]; then echo "ok $i - $label: $line"
  else echo "not ok $i - $label: $why"; fail=1; sed 's/^/# /' "$dir/stderr"; fi
}
