#!/usr/bin/env bash
# CTest's Catch2 discovery splits a test name at ';', so such a test matches
# nothing and "passes" without running. Fails when a TEST_CASE name has one.
set -euo pipefail
root="${1:?usage: check_test_names.sh SOURCE_DIR}"
dirs=()
for d in tests fuzz bench; do [ -d "$root/$d" ] && dirs+=("$root/$d"); done
if grep -rnE 'TEST_CASE\("[^"]*;' "${dirs[@]}"; then
  echo "test names above contain ';': CTest would never run them" >&2
  exit 1
fi
