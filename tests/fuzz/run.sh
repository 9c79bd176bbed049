#!/bin/sh
# tests/fuzz/run.sh HARNESS SECONDS CORPUS WORK: run one libFuzzer harness
# for SECONDS (fork mode, going on past crashes), then replay every crash,
# leak, timeout or out-of-memory input it kept and sort them by where they
# happen: in Tessera's code (a finding: exit 1) or inside the HDF5 library
# alone (Debian's libhdf5 decoding a corrupt object header; reported,
# upstream). Prints executions, coverage and the findings.
h=$1 secs=$2 corpus=$3 work=$4
name=$(basename "$h")
mkdir -p "$work/corpus" "$work/art"
export ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1
"$h" -fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1 -max_total_time="$secs" \
  -rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=20 -artifact_prefix="$work/art/" \
  "$work/corpus" "$corpus" >"$work/log" 2>&1
execs=$(grep -o 'exec/s: [0-9]*' "$work/log" | tail -1)
last=$(grep -E '^#[0-9]+' "$work/log" | tail -1)
ours=0 hdf5=0 other=0
for a in "$work"/art/*; do
  [ -f "$a" ] || continue
  case "$a" in *.txt) continue ;; esac # a replay's report (from an earlier run)
  "$h" "$a" >"$a.txt" 2>&1
  # the first stack frame outside libFuzzer, the sanitizers' interceptors and
  # the C library's string functions, also where the sanitizer's interceptor
  # shows under the plain name (strdup, memcpy: a read past a buffer is its
  # caller's fault; an out-of-memory is the allocating caller's)
  f=$(grep -E '^ +#[0-9]+ ' "$a.txt" |
    grep -v -E '__interceptor_|__asan|__ubsan|__sanitizer| in fuzzer::| in (malloc|calloc|realloc|free) | in (__)?(mem|str|wcs)[a-z_0-9]* |sysdeps/|libc\.so' |
    head -1)
  case "$f" in
  *libhdf5*) hdf5=$((hdf5 + 1)) ;;
  "") other=$((other + 1)); echo "  $name: $(basename "$a"): no stack (timeout?); see $a.txt" ;;
  *) ours=$((ours + 1)); echo "  $name: $(basename "$a"): IN TESSERA: $(echo "$f" | sed 's/^ *//')" ;;
  esac
done
echo "  $name: ${secs} s, last status: ${last:-none}"
echo "  $name: findings: $ours in Tessera, $hdf5 inside libhdf5 only (upstream), $other without a stack"
[ $ours -eq 0 ]
