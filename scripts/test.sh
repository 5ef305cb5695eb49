#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (scripts/setup.sh), builds everything and
# runs every test: Catch2 unit tests, end-to-end tests against the real binary,
# and the acpx client test. This is the command .ci/run calls.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${LATHE_BUILD_DIR:-$ROOT/build}"
JOBS="$(nproc 2>/dev/null || echo 2)"

bash "$ROOT/scripts/setup.sh"
# Every build (this one, the sanitizer builds) goes through ccache: a machine
# that ran the tests before rebuilds only what changed, wherever the checkout is.
if command -v ccache >/dev/null 2>&1; then
  export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR="$ROOT"
fi
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DBUILD_TESTING=ON >/dev/null
cmake --build "$BUILD" --parallel "$JOBS"
cd "$BUILD"
ctest --output-on-failure --parallel "$JOBS" --timeout 300

# Sanitizers (clang-16, each in its own build dir reused between runs): the
# unit and end-to-end tests under AddressSanitizer + UndefinedBehaviorSanitizer,
# every fuzz target for a short bounded time in that same build, then the
# tests that exercise concurrency under ThreadSanitizer.
cd "$ROOT"
bash "$ROOT/scripts/sanitizers.sh"
bash "$ROOT/editors/neovim/scripts/test.sh" "$BUILD/server/lathe"
bash "$ROOT/editors/vscode/scripts/test.sh" "$BUILD/server/lathe"
