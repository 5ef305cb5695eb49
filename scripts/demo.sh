#!/usr/bin/env bash
# Lathe's main job for a newcomer, with no API key needed: sets up and builds
# Lathe, then runs a headless session in this repository that replays the
# recorded model replies in examples/tour.jsonl. The tools really run: the
# listing and the README come from your checkout. Pass a prompt and set
# GEMINI_API_KEY to talk to the real Gemini API instead.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${LATHE_BUILD_DIR:-$ROOT/build}"

bash "$ROOT/scripts/setup.sh"
cmake -S "$ROOT" -B "$BUILD" -G Ninja >/dev/null
cmake --build "$BUILD" --target lathe >/dev/null
cd "$ROOT"
if [ "$#" -gt 0 ]; then
  exec "$BUILD/server/lathe" run "$@"
fi
exec "$BUILD/server/lathe" run --fake-responses examples/tour.jsonl "What is this project?"
