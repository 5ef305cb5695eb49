#!/usr/bin/env bash
# The release tarball, made from this build tree by scripts/release-tarball.sh
# (as scripts/release.sh does): unpacked in a temporary folder, its binary
# needs no shared library beyond glibc, OpenSSL and zlib, no glibc newer than
# Ubuntu 22.04's, prints its version and answers ACP `initialize` with a bare
# environment, with the source and build trees hidden (bubblewrap).
#   artifact_test.sh SOURCE_DIR BUILD_DIR VERSION DYNAMIC_BINARY
# DYNAMIC_BINARY: a test program linked against the shared libstdc++; the
# dependency check must reject it (the check can fail).
set -euo pipefail
SOURCE="$1" BUILD="$2" VERSION="$3" DYNAMIC="$4"
MAX_GLIBC=2.35  # Ubuntu 22.04
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Prints the problems with BINARY's dynamic linking, one per line; none: fine.
dependency_problems() {
  local binary="$1" lib newest
  while read -r lib; do
    [[ "$lib" =~ ^(libc|libm|libdl|librt|libpthread|ld-linux-x86-64|libssl|libcrypto|libz)\.so\.[0-9]+$ ]] \
      || echo "needs $lib (only glibc, OpenSSL and zlib may be shared)"
  done < <(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  readelf -d "$binary" | grep -qE '\((RPATH|RUNPATH)\)' && echo "has an RPATH/RUNPATH"
  newest="$(readelf -V --wide "$binary" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -n 1)"
  if [ -n "$newest" ] && [ "$(printf '%s\n%s\n' "$newest" "$MAX_GLIBC" | sort -V | tail -n 1)" != "$MAX_GLIBC" ]; then
    echo "needs glibc $newest (newer than $MAX_GLIBC)"
  fi
  return 0
}

# The check itself: a program with the shared C++ runtime is refused.
[ -n "$(dependency_problems "$DYNAMIC")" ] || fail "the dependency check accepted $DYNAMIC, which needs libstdc++"

tarball="$(bash "$SOURCE/scripts/release-tarball.sh" "$BUILD" "$tmp/out")"
[ "$(basename "$tarball")" = "lathe-$VERSION-linux-x64.tar.gz" ] || fail "unexpected tarball name $tarball"
mkdir "$tmp/unpacked" "$tmp/home" "$tmp/work"
tar -C "$tmp/unpacked" -xzf "$tarball"
top="$tmp/unpacked/lathe-$VERSION-linux-x64"
for f in bin/lathe share/man/man1/lathe.1 README.md licenses/cpp-httplib.txt licenses/pcre2.txt licenses/gumbo.txt \
  licenses/tree-sitter.txt licenses/libstdc++.txt; do
  [ -s "$top/$f" ] || fail "the tarball has no $f"
done
echo "tarball: $(basename "$tarball"), $(du -k "$tarball" | cut -f1) KiB; binary $(du -k "$top/bin/lathe" | cut -f1) KiB"
echo "shared libraries: $(readelf -d "$top/bin/lathe" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
problems="$(dependency_problems "$top/bin/lathe")"
[ -z "$problems" ] || fail "$problems"

# Run it where the source and build trees do not exist, with a bare environment.
hide=()
for dir in "$SOURCE" "$BUILD"; do hide+=(--tmpfs "$dir"); done
launch=(timeout 60 env -i PATH=/usr/bin:/bin HOME="$tmp/home" bwrap --dev-bind / / "${hide[@]}" --chdir "$tmp/work" "$top/bin/lathe")
[ "$("${launch[@]}" --version </dev/null)" = "lathe $VERSION" ] || fail "lathe --version did not print \"lathe $VERSION\""
request='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}'
reply="$(printf '%s\n' "$request" | "${launch[@]}")" || fail "the unpacked lathe failed to answer initialize"
grep -q '"id":1' <<<"$reply" && grep -q '"protocolVersion":1' <<<"$reply" && grep -q "\"version\":\"$VERSION\"" <<<"$reply" \
  || fail "unexpected initialize reply: $reply"
echo "initialize answered by the unpacked binary: ok"

# The Zed extension and the ACP registry entry for this release point at this
# tarball and at the binary inside it.
bash "$SOURCE/editors/zed/scripts/render.sh" "$VERSION" https://example.invalid/lathe "$tmp/manifests"
python3 "$SOURCE/tests/release/check_manifests.py" "$tmp/manifests" "$VERSION" "$tarball" "$tmp/unpacked" \
  || fail "the Zed extension or the ACP registry entry does not match the release"
echo "Zed extension and ACP registry entry match the release: ok"
