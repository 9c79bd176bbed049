#!/bin/sh
# tests/apps/cli.sh: the command line of every installed program (TAP).
# For each program: --help exits 0 and every flag it lists is accepted; every
# common flag it does not list, and a made-up one, is refused with one line
# "PROG: error: unknown option 'FLAG' (see PROG --help)" and exit status 1;
# --version prints "PROG (Tessera) VERSION [git describe]"; --list-variants
# prints a table where --help offers it and is an unknown option elsewhere; a
# program whose --help says it runs on one rank refuses two with one line and
# is marked so in README.md's program table, and no other program is.
S=${TSR_TOP_SRCDIR:-${srcdir:-.}}
. "$S/tests/apps/tap.sh"
PROGS="tsr-stencil tsr-airfoil tsr-fastsg tsr-layoutbench tsr-copybench tsr-halobench tsr-info
tsr-mkinput tsr-mkairfoil tsr-lulesh tsr-mklulesh"
COMMON="-i --input -o --output --variant --list-variants --device --iterations --runs --warmup
--csv --verify --no-verify -q --quiet"
BOGUS=--no-such-flag
tap_scratch tsr-cli

# refused PROG FLAG [ARGS]: exit 1, nothing on stdout, one line on stderr
# naming the flag.
refused() {
  p=$1; f=$2; shift 2
  "$B/apps/$p" "$f" "$@" > "$t/o" 2> "$t/e"; rc=$?
  [ $rc -eq 1 ] && [ ! -s "$t/o" ] && [ "$(wc -l < "$t/e")" -eq 1 ] &&
    grep -qxF "$p: error: unknown option '$f' (see $p --help)" "$t/e"
}

for p in $PROGS; do
  x="$B/apps/$p"
  if [ ! -x "$x" ]; then no "$p is built"; continue; fi
  # --help, and the flags it lists ("-s, --size N", "    --exact", "-q, --quiet")
  "$x" --help > "$t/help" 2> "$t/e"; rc=$?
  [ $rc -eq 0 ] && [ ! -s "$t/e" ] && grep -q "^Usage: $p " "$t/help" &&
    ok "$p --help exits 0" || no "$p --help (exit $rc)" "$t/e"
  sed -n 's/^  \(-[a-zA-Z0-9], \)\{0,1\} *\(--[a-z0-9-]*\)\( [^ ]*\)\{0,1\}  .*/\1 \2 \3/p' "$t/help" \
    > "$t/flags"
  listed=$(sed 's/,//' "$t/flags" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^-/) print $i }')
  # every listed flag is accepted: all of them (with a value where one is
  # shown) then a made-up flag; the parser must stop at the made-up one
  set --
  nl=0
  while read -r a b c; do
    case $a in --*) long=$a; meta=$b ;; *) long=$b; meta=$c ;; esac
    case $long in --help | --version) continue ;; esac
    if [ -n "$meta" ]; then set -- "$@" "$long" 1; else set -- "$@" "$long"; fi
    nl=$((nl + 1))
  done < "$t/flags"
  "$x" "$@" "$BOGUS" > "$t/o" 2> "$t/e"; rc=$?
  [ $rc -eq 1 ] && [ "$(wc -l < "$t/e")" -eq 1 ] &&
    grep -qxF "$p: error: unknown option '$BOGUS' (see $p --help)" "$t/e" &&
    ok "$p accepts the $nl options its --help lists" ||
    no "$p accepts what its --help lists (exit $rc)" "$t/e"
  # common flags not listed, and a made-up one, are refused
  bad=""
  for f in $COMMON $BOGUS; do
    case " $(echo $listed) " in *" $f "*) continue ;; esac
    # --no-verify is the negative of a listed --verify
    [ "$f" = --no-verify ] && case " $(echo $listed) " in *" --verify "*) continue ;; esac
    refused "$p" "$f" || bad="$bad $f"
  done
  [ -z "$bad" ] && ok "$p refuses flags its --help does not list (one line, exit 1)" ||
    no "$p accepts or misreports flags it does not list:$bad" "$t/e"
  # --version
  "$x" --version > "$t/v" 2> "$t/e"; rc=$?
  [ $rc -eq 0 ] && [ "$(wc -l < "$t/v")" -eq 1 ] &&
    grep -qx "$p (Tessera) [0-9][0-9A-Za-z.~+-]* \[[^]]*\]" "$t/v" &&
    ok "$p --version: $(cat "$t/v")" || no "$p --version (exit $rc): $(cat "$t/v")" "$t/e"
  # --list-variants: a table where offered, else an unknown option
  if grep -q -- '--list-variants' "$t/help"; then
    "$x" --list-variants > "$t/l" 2> "$t/e"; rc=$?
    [ $rc -eq 0 ] && head -n 1 "$t/l" | grep -q '^variant  *device' &&
      [ "$(grep -c '^ *[a-z0-9+-]*/[^ ]' "$t/l")" -ge 1 ] &&
      ok "$p --list-variants lists $(grep -c '^ *[a-z0-9+-]*/[^ ]' "$t/l") variants" ||
      no "$p --list-variants (exit $rc)" "$t/e"
  else
    refused "$p" --list-variants && ok "$p has no variants: --list-variants is an unknown option" ||
      no "$p --list-variants" "$t/e"
  fi
  # single-rank programs: said in --help and README.md, refused on 2 ranks
  row=$(grep "^| \`$p[ \`]" "$S/README.md")
  if grep -q '^Runs on one rank' "$t/help"; then
    "$MPIEXEC" -n 2 --oversubscribe "$x" > "$t/o" 2> "$t/e"; rc=$?
    [ $rc -ne 0 ] && [ "$(grep -c "^$p: " "$t/e")" -eq 1 ] &&
      grep -q "^$p: error: $p runs on one rank, not 2" "$t/e" &&
      ok "$p refuses 2 ranks with one line" || no "$p on 2 ranks (exit $rc)" "$t/e"
    case $row in *"one rank"*) ok "README.md: $p runs on one rank" ;;
      *) no "README.md's program table does not say $p runs on one rank" ;; esac
  else
    case $row in "") no "README.md's program table has no row for $p" ;;
      *"one rank"*) no "README.md says $p runs on one rank, its --help does not" ;;
      *) ok "$p runs on any number of ranks (help and README.md agree)" ;; esac
  fi
done
echo "1..$n"
