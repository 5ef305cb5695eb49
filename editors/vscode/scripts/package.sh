#!/usr/bin/env bash
# Builds the extension and packages it as editors/vscode/lathe-vscode.vsix.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$HERE/scripts/deps.sh"
cd "$HERE"
rm -rf out dist
node_modules/.bin/tsc -p .
node scripts/bundle.mjs
node_modules/.bin/vsce package --no-dependencies --skip-license --no-rewrite-relative-links --allow-missing-repository -o lathe-vscode.vsix </dev/null >/dev/null
echo "$HERE/lathe-vscode.vsix"
