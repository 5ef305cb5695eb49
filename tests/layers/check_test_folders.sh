#!/usr/bin/env bash
# tests/ mirrors the source tree: a unit test lives in the folder of tests/
# named like the source folder it tests (tests/engine/scheduler for
# engine/scheduler). Fails on a test folder with no such source folder, and on
# a test file left at the top of a layer's folder.
set -euo pipefail
root="${1:?usage: check_test_folders.sh SOURCE_DIR}"
bad=0
for layer in protocol tools engine server; do
  [ -d "$root/tests/$layer" ] || continue
  while IFS= read -r dir; do
    rel="${dir#"$root/tests/"}"
    if [ ! -d "$root/$rel" ]; then
      echo "tests/$rel mirrors no source folder ($rel does not exist)" >&2
      bad=1
    fi
  done < <(find "$root/tests/$layer" -mindepth 1 -type d)
  if [ "$layer" != server ] && find "$root/tests/$layer" -maxdepth 1 -type f -name '*.cpp' | grep -q .; then
    echo "tests/$layer has test files outside a source folder's mirror" >&2
    bad=1
  fi
done
exit "$bad"
