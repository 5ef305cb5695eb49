#!/usr/bin/env bash
# Writes the Zed extension (OUT/zed/extension.toml) and the ACP registry entry
# (OUT/acp-registry/lathe/agent.json + icon.svg) for a release, from the
# templates beside this script's folder.
#   render.sh VERSION REPOSITORY_URL OUT
# REPOSITORY_URL: where the release is published, e.g. https://github.com/ORG/lathe
# (its releases/download/vVERSION/ holds lathe-VERSION-linux-x64.tar.gz).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="${1:?usage: render.sh VERSION REPOSITORY_URL OUT}" repo="${2%/}" out="${3:?}"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "render.sh: version must be x.y.z, got $version" >&2; exit 2; }
[[ "$repo" =~ ^https://[^[:space:]@]+$ ]] || { echo "render.sh: repository must be an https URL, got $repo" >&2; exit 2; }
fill() { sed -e "s|@VERSION@|$version|g" -e "s|@REPOSITORY@|$repo|g" "$1"; }
mkdir -p "$out/zed" "$out/acp-registry/lathe"
fill "$HERE/extension.toml.in" >"$out/zed/extension.toml"
cp "$HERE/icon.svg" "$out/zed/icon.svg"
fill "$HERE/agent.json.in" >"$out/acp-registry/lathe/agent.json"
cp "$HERE/icon.svg" "$out/acp-registry/lathe/icon.svg"
