#!/usr/bin/env bash
# Builds a release from this checkout into OUT_DIR (default dist/):
#   lathe-<version>-linux-x64.tar.gz       binary, man page, README, licences
#   lathe_<version>_amd64.deb              the same through CPack (recommends bubblewrap, ripgrep)
#   lathe-vscode-<version>-linux-x64.vsix  the VS Code extension carrying the binary
#   zed/, acp-registry/lathe/              Zed extension and ACP registry entry, when
#                                          LATHE_REPOSITORY (https URL of the published
#                                          repository) says where the tarball will be
# The binary links statically what is not on every Linux system (cmake/Portable.cmake).
# Only the `lathe` target is built, in build-release/ (LATHE_RELEASE_BUILD_DIR),
# through the shared build lock, with ccache when it is installed.
#   release.sh [OUT_DIR]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$(realpath -m "${1:-$ROOT/dist}")"
BUILD="${LATHE_RELEASE_BUILD_DIR:-$ROOT/build-release}"
LOCK=/tmp/lathe-build.lock
JOBS="$(nproc 2>/dev/null || echo 2)"
say() { printf 'release: %s\n' "$*" >&2; }

if [ -n "$(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  say "warning: the checkout has uncommitted changes; they go into the release"
fi
bash "$ROOT/scripts/setup.sh"
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
# CMAKE_SKIP_INSTALL_ALL_DEPENDENCY: cpack installs without building every target.
flock "$LOCK" cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
  -DLATHE_PORTABLE=ON -DCMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON "${launcher[@]}" >/dev/null
say "building lathe ($BUILD)"
flock "$LOCK" cmake --build "$BUILD" --parallel "$JOBS" --target lathe >/dev/null
version="$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$BUILD/CMakeCache.txt")"

mkdir -p "$OUT"
tarball="$(bash "$ROOT/scripts/release-tarball.sh" "$BUILD" "$OUT")"
(cd "$BUILD" && cpack -G DEB -B "$BUILD/cpack" >/dev/null)
mv "$BUILD/cpack/lathe_${version}_amd64.deb" "$OUT/"
# The .vsix carries the tarball's (stripped) binary.
unpacked="$(mktemp -d)"
trap 'rm -rf "$unpacked"' EXIT
tar -C "$unpacked" -xzf "$tarball"
bash "$ROOT/editors/vscode/scripts/package.sh" --binary "$unpacked/lathe-$version-linux-x64/bin/lathe" --target linux-x64 \
  --out "$OUT/lathe-vscode-$version-linux-x64.vsix" >/dev/null
if [ -n "${LATHE_REPOSITORY:-}" ]; then
  bash "$ROOT/editors/zed/scripts/render.sh" "$version" "$LATHE_REPOSITORY" "$OUT"
else
  say "no LATHE_REPOSITORY: skipped the Zed extension and ACP registry entry (editors/zed/README.md)"
fi
say "artifacts in $OUT:"
(cd "$OUT" && ls -l --block-size=K lathe-* lathe_* | awk '{print "  " $5 "  " $9}') >&2
