#!/usr/bin/env bash
# Unpacks a newer Neovim from a newer Debian suite into PREFIX, without touching
# the system's apt sources or dpkg: a private apt config downloads the .debs,
# dpkg -x unpacks them, and patchelf points nvim at that suite's glibc inside
# PREFIX (a wrapper calling ld.so would break v:progpath, so the TUI could not
# re-exec). Cached: a second run with a working PREFIX/usr/bin/nvim does nothing.
# Safe when two runs race: a lock next to PREFIX lets one install while the
# other waits, and the install is unpacked beside PREFIX and renamed into place,
# so an interrupted run never leaves a half-installed PREFIX.
# Usage: install-nvim.sh SUITE PREFIX
#   trixie: Neovim 0.10 (Debian 13)   forky: Neovim 0.11+ (Debian testing)
set -euo pipefail
SUITE="$1"
case "$SUITE" in
  trixie) WANT='^NVIM v0\.10\.' ;;
  forky)  WANT='^NVIM v0\.(1[1-9]|[2-9][0-9])\.' ;;
  *) echo "install-nvim: unknown suite '$SUITE' (trixie or forky)" >&2; exit 2 ;;
esac
PARENT="$(mkdir -p "$(dirname "$2")" && cd "$(dirname "$2")" && pwd)"
PREFIX="$PARENT/$(basename "$2")"
NVIM="$PREFIX/usr/bin/nvim"
works() { [ -x "$NVIM" ] && "$NVIM" --version 2>/dev/null | head -1 | grep -Eq "$WANT"; }
works && exit 0
command -v patchelf >/dev/null || { echo "install-nvim: patchelf is missing" >&2; exit 1; }
exec 9>"$PREFIX.lock"
flock 9
works && exit 0 # installed by the run this one waited for

WORK="$(mktemp -d)"
STAGE="$(mktemp -d "$PREFIX.new.XXXXXX")"
trap 'rm -rf "$WORK" "$STAGE"' EXIT
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
for deb in "$WORK"/debs/*.deb; do dpkg -x "$deb" "$STAGE"; done
# Paths as they will be once STAGE is renamed to PREFIX.
LDSO=usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
[ -e "$STAGE/$LDSO" ] || LDSO=lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
[ -e "$STAGE/$LDSO" ] || LDSO="$(cd "$STAGE" && find . -name 'ld-linux-x86-64.so.2' | head -1 | sed 's#^\./##')"
patchelf --set-interpreter "$PREFIX/$LDSO" --force-rpath --set-rpath "$PREFIX/usr/lib/x86_64-linux-gnu" "$STAGE/usr/bin/nvim"
rm -rf "$PREFIX"
mv -T "$STAGE" "$PREFIX"
"$NVIM" --version | head -1 | grep -E "$WANT" || { echo "install-nvim: $NVIM is not the Neovim $SUITE should give" >&2; exit 1; }
