#!/usr/bin/env bash
# Configures (once) and builds a clang-16 sanitizer build of Lathe in its own
# build dir, reused between runs: -O1, line tables only, tree-sitter's parse
# tables uninstrumented. "address,undefined" builds also carry libFuzzer
# coverage so the fuzz targets and the ASan tests share one build.
#   lathe-sanitize-build.sh BUILD_DIR SANITIZERS TARGET...
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$1" SANITIZE="$2"
shift 2
LOCK=/tmp/lathe-build.lock
fuzz=OFF
[ "$SANITIZE" = "address,undefined" ] && fuzz=ON
if [ ! -f "$BUILD/build.ninja" ]; then
  flock "$LOCK" cmake -S "$ROOT" -B "$BUILD" -G Ninja -DBUILD_TESTING=ON \
    -DCMAKE_C_COMPILER=clang-16 -DCMAKE_CXX_COMPILER=clang++-16 \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
    -DLATHE_SANITIZE="$SANITIZE" -DLATHE_FUZZ="$fuzz" >/dev/null
fi
flock "$LOCK" cmake --build "$BUILD" --parallel "$(nproc 2>/dev/null || echo 2)" --target "$@"
