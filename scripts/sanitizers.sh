#!/usr/bin/env bash
# The sanitizer steps of CI (called by scripts/test.sh after the normal tests):
#  1. ASan + UBSan build (build-asan): unit and end-to-end tests under ctest.
#  2. The libFuzzer targets, built in that same dir, FUZZ_SECONDS each (15).
#  3. TSan build (build-tsan) of the concurrent tests only: the executor and
#     the JSON-RPC peer, child processes (shell, discovery, MCP servers),
#     scheduler, cancellation, parallel tools, many sessions, the fake server.
# LATHE_ASAN_BUILD_DIR / LATHE_TSAN_BUILD_DIR override the dirs.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ASAN="${LATHE_ASAN_BUILD_DIR:-$ROOT/build-asan}"
TSAN="${LATHE_TSAN_BUILD_DIR:-$ROOT/build-tsan}"
LOCK=/tmp/lathe-build.lock
JOBS="$(nproc 2>/dev/null || echo 2)"
say() { printf 'sanitizers: %s\n' "$*" >&2; }

if ! command -v clang++-16 >/dev/null 2>&1; then
  say "skipped: needs clang++-16 (scripts/setup.sh installs it)"
  exit 0
fi
start=$(date +%s)

# Third-party suppressions only (scripts/ubsan.supp, scripts/tsan.supp); leaks
# count as failures. The lathe binary spawned by the
# end-to-end tests inherits these. A report exits with 86, not the default 1,
# so a test expecting lathe to fail with 1 (doctor, bad arguments) cannot take
# a sanitizer report, or a leak at exit, for that failure.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:detect_stack_use_after_return=0:exitcode=86"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=86:suppressions=$ROOT/scripts/ubsan.supp"
export ASAN_SYMBOLIZER_PATH="${ASAN_SYMBOLIZER_PATH:-$(command -v llvm-symbolizer-16 || command -v llvm-symbolizer || true)}"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$ROOT/scripts/tsan.supp"
if [ -n "$ASAN_SYMBOLIZER_PATH" ]; then TSAN_OPTIONS="$TSAN_OPTIONS:external_symbolizer_path=$ASAN_SYMBOLIZER_PATH"; fi

say "ASan+UBSan build ($ASAN)"
bash "$ROOT/scripts/lathe-sanitize-build.sh" "$ASAN" address,undefined lathe fake_gemini fuzz_all \
  protocol_tests tools_tests engine_tests support_tests e2e_tests server_tests syntax_tests shell_exec_tests shell_tests \
  process_tests mcp_tests discovery_tests memory_tests
(cd "$ASAN" && flock "$LOCK" ctest --output-on-failure --parallel "$JOBS" --timeout 300 -E 'acpx_e2e')

say "fuzz targets"
LATHE_FUZZ_BUILD_DIR="$ASAN" bash "$ROOT/scripts/fuzz.sh" "${FUZZ_SECONDS:-15}"

say "TSan build ($TSAN)"
bash "$ROOT/scripts/lathe-sanitize-build.sh" "$TSAN" thread server_tests engine_tests support_tests e2e_tests lathe \
  protocol_tests process_tests shell_exec_tests discovery_tests mcp_tests
(cd "$TSAN" && flock "$LOCK" ctest --output-on-failure --parallel "$JOBS" --timeout 300 \
  -R '^(server_tests|support_tests|protocol_tests|process_tests|shell_exec_tests|discovery_tests|mcp_tests):|^engine_tests:.*(parallel|[Cc]ancel|call order|time)|^e2e_tests:.*(cancel|two sessions|EOF)')
say "done in $(( $(date +%s) - start )) s"
