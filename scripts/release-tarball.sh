#!/usr/bin/env bash
# Makes OUT_DIR/lathe-<version>-linux-x64.tar.gz from a built tree: the `lathe`
# install component (bin/lathe stripped, man page, README, licences) under one
# top folder. scripts/release.sh calls it on its release build; the
# release_artifact test calls it on the test build. Prints the tarball's path.
#   release-tarball.sh BUILD_DIR OUT_DIR
set -euo pipefail
BUILD="$(cd "$1" && pwd)" OUT="$2"
die() { printf 'release-tarball: error: %s\n' "$*" >&2; exit 1; }

version="$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$BUILD/CMakeCache.txt")"
[ -n "$version" ] || die "no project version in $BUILD/CMakeCache.txt"
grep -q '^LATHE_PORTABLE:BOOL=ON' "$BUILD/CMakeCache.txt" || die "$BUILD is not a LATHE_PORTABLE build"
name="lathe-$version-linux-x64"
mkdir -p "$OUT"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
cmake --install "$BUILD" --component lathe --prefix "$stage/$name" --strip >/dev/null
# The README and licences at the top, where people look after unpacking.
mv "$stage/$name/share/doc/lathe/README.md" "$stage/$name/share/doc/lathe/licenses" "$stage/$name/"
rmdir "$stage/$name/share/doc/lathe" "$stage/$name/share/doc"
tar -C "$stage" --owner=0 --group=0 --numeric-owner -czf "$OUT/$name.tar.gz" "$name"
printf '%s\n' "$OUT/$name.tar.gz"
