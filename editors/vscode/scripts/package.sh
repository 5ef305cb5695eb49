#!/usr/bin/env bash
# Builds the extension and packages it as editors/vscode/lathe-vscode.vsix.
# With a binary, a platform package that carries it instead (used when
# lathe.path is empty and no lathe is on PATH), written to OUT:
#   package.sh [--binary LATHE --target linux-x64 --out OUT.vsix]
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
binary="" target="" out="$HERE/lathe-vscode.vsix"
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary="$(realpath "$2")"; shift 2 ;;
    --target) target="$2"; shift 2 ;;
    --out) out="$(realpath -m "$2")"; shift 2 ;;
    *) echo "package.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [ -n "$binary" ] && [ -z "$target" ]; then echo "package.sh: --binary needs --target" >&2; exit 2; fi
bash "$HERE/scripts/deps.sh"
cd "$HERE"
rm -rf out dist bin
node_modules/.bin/tsc -p .
node scripts/bundle.mjs
flags=()
if [ -n "$binary" ]; then
  mkdir bin && install -m 0755 "$binary" bin/lathe
  trap 'rm -rf "$HERE/bin"' EXIT
  flags=(--target "$target")
fi
node_modules/.bin/vsce package "${flags[@]}" --no-dependencies --skip-license --no-rewrite-relative-links --allow-missing-repository -o "$out" </dev/null >/dev/null
echo "$out"
