#!/usr/bin/env bash
# Runs every libFuzzer target in fuzz/ for SECONDS each (default 20) from its
# seed corpus (fuzz/corpus/<target>, copied to the build dir so the committed
# seeds stay small), and fails on any crash, leak, timeout or sanitizer
# report; the input that failed is kept in $BUILD/fuzz-artifacts/. Prints the
# executions per second of each target and the total executions.
#   bash scripts/fuzz.sh            # CI: 20 s each
#   bash scripts/fuzz.sh 600        # by hand, longer
#   FUZZ_TARGETS="fuzz_sse fuzz_glob" bash scripts/fuzz.sh 60
# LATHE_FUZZ_BUILD_DIR picks the build dir (default build-asan, shared with
# the ASan test build of scripts/test.sh). Needs clang-16 (scripts/setup.sh).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SECONDS_EACH="${1:-20}"
BUILD="${LATHE_FUZZ_BUILD_DIR:-$ROOT/build-asan}"
LOCK=/tmp/lathe-build.lock

say() { printf 'fuzz: %s\n' "$*" >&2; }

if ! command -v clang++-16 >/dev/null 2>&1; then
  say "skipped: libFuzzer needs clang++-16 (run scripts/setup.sh)"
  exit 0
fi

bash "$ROOT/scripts/lathe-sanitize-build.sh" "$BUILD" address,undefined fuzz_all

export ASAN_SYMBOLIZER_PATH="${ASAN_SYMBOLIZER_PATH:-$(command -v llvm-symbolizer-16 || command -v llvm-symbolizer || true)}"
targets=(${FUZZ_TARGETS:-$(cd "$ROOT/fuzz" && ls fuzz_*.cpp | sed 's/\.cpp$//')})
mkdir -p "$BUILD/fuzz-artifacts" "$BUILD/fuzz-corpus"
total=0
failed=()
printf '%-22s %12s %14s\n' target execs/s executions
for t in "${targets[@]}"; do
  work="$BUILD/fuzz-corpus/$t"
  mkdir -p "$work"
  log="$BUILD/fuzz-artifacts/$t.log"
  status=0
  flock "$LOCK" env ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
    UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$ROOT/scripts/ubsan.supp" \
    "$BUILD/fuzz/$t" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
    -print_final_stats=1 -artifact_prefix="$BUILD/fuzz-artifacts/$t-" \
    "$work" "$ROOT/fuzz/corpus/$t" >"$log" 2>&1 || status=$?
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
  rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)"
  printf '%-22s %12s %14s\n' "$t" "${rate:-?}" "${execs:-?}"
  total=$((total + ${execs:-0}))
  if [ "$status" -ne 0 ] || grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|WARNING: ThreadSanitizer' "$log"; then
    failed+=("$t")
    grep -E -A30 'ERROR:|runtime error:|==[0-9]+==' "$log" | head -60 >&2 || true
  fi
done
printf '%-22s %12s %14s\n' total "" "$total"
if [ "${#failed[@]}" -gt 0 ]; then
  say "FAILED: ${failed[*]} (logs and inputs in $BUILD/fuzz-artifacts/)"
  exit 1
fi
say "no crash, leak or sanitizer report in ${#targets[@]} targets"
