#!/usr/bin/env bash
# Unpacks a newer Neovim from a newer Debian suite into PREFIX, without touching
# the system's apt sources or dpkg: a private apt config downloads the .debs,
# dpkg -x unpacks them, and patchelf points nvim at that suite's glibc inside
# PREFIX (a wrapper calling ld.so would break v:progpath, so the TUI could not
# re-exec). Cached: a second run with a working PREFIX/usr/bin/nvim does nothing.
# Usage: install-nvim.sh SUITE PREFIX
#   trixie: Neovim 0.10 (Debian 13)   forky: Neovim 0.11+ (Debian testing)
set -euo pipefail
SUITE="$1"
case "$SUITE" in
  trixie) WANT='^NVIM v0\.10\.' ;;
  forky)  WANT='^NVIM v0\.(1[1-9]|[2-9][0-9])\.' ;;
  *) echo "install-nvim: unknown suite '$SUITE' (trixie or forky)" >&2; exit 2 ;;
esac
PREFIX="$(mkdir -p "$2" && cd "$2" && pwd)"
NVIM="$PREFIX/usr/bin/nvim"
if [ -x "$NVIM" ] && "$NVIM" --version 2>/dev/null | head -1 | grep -Eq "$WANT"; then
  exit 0
fi
command -v patchelf >/dev/null || { echo "install-nvim: patchelf is missing" >&2; exit 1; }

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/lists/partial" "$WORK/archives/partial" "$WORK/sources" "$WORK/debs"
cat >"$WORK/sources/$SUITE.sources" <<SRC
Types: deb
URIs: http://deb.debian.org/debian
Suites: $SUITE
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
: >"$WORK/empty.list"
APT=(-o "Dir::Etc::SourceList=$WORK/empty.list" -o "Dir::Etc::SourceParts=$WORK/sources"
     -o "Dir::State::Lists=$WORK/lists" -o "Dir::Cache::Archives=$WORK/archives"
     -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache=" -o "Debug::NoLocking=1"
     -o "APT::Sandbox::User=root")
apt-get "${APT[@]}" -qq update
# neovim and everything it depends on in that suite (its own glibc included),
# so a suite that moves on to new library versions needs no change here.
mapfile -t PKGS < <(apt-cache "${APT[@]}" depends --recurse --no-recommends --no-suggests --no-conflicts \
  --no-breaks --no-replaces --no-enhances neovim | grep -Ev '^[ <]' | sort -u)
(cd "$WORK/debs" && apt-get "${APT[@]}" -qq download "${PKGS[@]}")
rm -rf "$PREFIX" && mkdir -p "$PREFIX"
for deb in "$WORK"/debs/*.deb; do dpkg -x "$deb" "$PREFIX"; done
LIB="$PREFIX/usr/lib/x86_64-linux-gnu"
LDSO="$LIB/ld-linux-x86-64.so.2"
[ -e "$LDSO" ] || LDSO="$PREFIX/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
[ -e "$LDSO" ] || LDSO="$(find "$PREFIX" -name 'ld-linux-x86-64.so.2' | head -1)"
patchelf --set-interpreter "$LDSO" --force-rpath --set-rpath "$LIB" "$NVIM"
"$NVIM" --version | head -1 | grep -E "$WANT" || { echo "install-nvim: $NVIM is not the Neovim $SUITE should give" >&2; exit 1; }
