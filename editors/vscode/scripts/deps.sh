#!/usr/bin/env bash
# Installs the extension's npm packages from package-lock.json into a cache
# under the repo's .deps/, keyed by the lock file's hash, and links it here.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
HASH="$(sha256sum "$HERE/package-lock.json" | cut -c1-16)"
CACHE="$ROOT/.deps/vscode-npm-$HASH"
if [ ! -f "$CACHE/.complete" ]; then
  rm -rf "$CACHE"; mkdir -p "$CACHE"
  cp "$HERE/package.json" "$HERE/package-lock.json" "$CACHE/"
  (cd "$CACHE" && CI=true npm_config_fund=false npm_config_audit=false npm ci --no-progress </dev/null >npm.log 2>&1) \
    || { cat "$CACHE/npm.log"; exit 1; }
  touch "$CACHE/.complete"
fi
if [ "$(readlink "$HERE/node_modules" 2>/dev/null)" != "$CACHE/node_modules" ]; then
  rm -rf "$HERE/node_modules"
  ln -s "$CACHE/node_modules" "$HERE/node_modules"
fi
