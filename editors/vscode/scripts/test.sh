#!/usr/bin/env bash
# Installs what the VS Code extension's tests need on a fresh Debian 12 machine
# (Chromium, code-server 4.100.3, the npm packages, all cached under .deps/),
# builds the extension and its platform package carrying LATHE_BIN, runs the
# unit tests, then the end-to-end tests in a real VS Code with that package
# installed (its bundled binary in use), and ends with "N passed, N failed".
# Usage: test.sh LATHE_BIN
set -euo pipefail
LATHE_BIN="$(realpath "${1:?usage: test.sh LATHE_BIN}")"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="${VSCODE_E2E_OUT:-${LATHE_BUILD_DIR:-$ROOT/build}/vscode-e2e}"
export CI=true VSCODE_E2E_OUT="$OUT"

# Debian packages: Chromium for the browser, and what code-server's native
# modules need to build (kerberos needs libkrb5-dev). Only when missing.
missing=()
for pkg in chromium libkrb5-dev build-essential python3 ripgrep curl; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "apt-get install ${missing[*]}"
  apt-get update -qq </dev/null >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" </dev/null >/dev/null
fi

echo "code-server 4.100.3 (cached under .deps/)"
bash "$HERE/scripts/install-code-server.sh" "$ROOT/.deps/code-server-4.100.3" </dev/null \
  || { tail -40 "$ROOT/.deps/code-server-4.100.3/install.log"; exit 1; }
echo "build and package (linux-x64, carrying $LATHE_BIN)"
VSIX="$(bash "$HERE/scripts/package.sh" --binary "$LATHE_BIN" --target linux-x64 --out "$OUT.vsix" </dev/null)"

passed=0; failed=0
echo "unit tests"
cd "$HERE"
set +e
LATHE_BIN="$LATHE_BIN" node --require ./out/test/setup.js --test --test-reporter=tap out/test/*.test.js </dev/null >"$OUT.unit.log" 2>&1
unit_rc=$?
set -e
grep -E '^(not )?ok ' "$OUT.unit.log" || true
unit_pass="$(sed -n 's/^# pass //p' "$OUT.unit.log")"; unit_fail="$(sed -n 's/^# fail //p' "$OUT.unit.log")"
if [ -z "$unit_pass" ] || { [ "$unit_rc" -ne 0 ] && [ "${unit_fail:-0}" -eq 0 ]; }; then
  cat "$OUT.unit.log"; unit_fail=$(( ${unit_fail:-0} + 1 )); unit_pass=${unit_pass:-0}
elif [ "$unit_fail" -ne 0 ]; then
  cat "$OUT.unit.log"
fi
passed=$((passed + unit_pass)); failed=$((failed + unit_fail))

echo "end-to-end tests in code-server (screenshots in $OUT/shots)"
set +e
bash "$HERE/scripts/e2e.sh" "$VSIX" </dev/null 2>&1 | tee "$OUT.e2e.log"
e2e_rc=${PIPESTATUS[0]}
set -e
line="$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$OUT.e2e.log" | tail -1)"
if [ -n "$line" ]; then
  passed=$((passed + $(echo "$line" | cut -d' ' -f1))); failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
fi
if [ -z "$line" ] || { [ "$e2e_rc" -ne 0 ] && [ "$(echo "$line" | cut -d' ' -f3)" -eq 0 ]; }; then
  failed=$((failed + 1)); tail -30 "$OUT/code-server.log" 2>/dev/null || true
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
