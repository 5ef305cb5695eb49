#!/usr/bin/env bash
# Installs what Lathe needs to build and test on Debian 12: the Debian packages
# (only those missing; apt-get update only when something is), then the pinned
# npm test clients (acpx, @agentclientprotocol/sdk, ajv) and the tree-sitter
# runtime and grammar sources from scripts/npm's lock file
# into .deps/node, and the source of cpp-httplib that Debian ships (the same
# version as libcpp-httplib-dev) into .deps/httplib for static linking. Idempotent and quiet when there is nothing to do; runs as
# root or through sudo, and without a terminal (CI=true).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NPM_SPEC="$ROOT/scripts/npm"
NODE_DEPS="$ROOT/.deps/node"

PACKAGES=(build-essential cmake ninja-build pkg-config rapidjson-dev libcpp-httplib-dev libssl-dev
  libpcre2-dev libgumbo-dev libboost-dev libtomlplusplus-dev libyaml-cpp-dev libgit2-dev catch2 ripgrep bubblewrap git python3 ccache
  libkrb5-dev libgcrypt20-dev libgpg-error-dev  # what the portable build links libgit2 with (cmake/Portable.cmake)
  clang-16 libclang-rt-16-dev llvm)  # sanitizer builds and libFuzzer (scripts/sanitizers.sh, scripts/fuzz.sh); llvm: the symbolizer

say() { printf 'setup: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

# Runs a command as root: directly, or through sudo (never prompting without a terminal).
as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    if [ -t 0 ] && [ "${CI:-}" != "true" ]; then sudo "$@"; else sudo -n "$@"; fi
  else
    die "need root to run: $* (not root and no sudo)"
  fi
}

installed() {
  [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" = "install ok installed" ]
}

install_debian_packages() {
  command -v dpkg-query >/dev/null 2>&1 || die "dpkg-query not found: this script expects Debian 12"
  local wanted=("${PACKAGES[@]}") missing=()
  # Node may come from elsewhere (e.g. a vendor build that bundles npm): only
  # ask apt for it when there is none, since Debian's npm conflicts with those.
  command -v node >/dev/null 2>&1 || wanted+=(nodejs)
  command -v npm >/dev/null 2>&1 || wanted+=(npm)
  for pkg in "${wanted[@]}"; do
    installed "$pkg" || missing+=("$pkg")
  done
  [ "${#missing[@]}" -eq 0 ] && return 0
  say "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -qq >/dev/null || die "apt-get update failed"
  as_root apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || die "apt-get install failed for: ${missing[*]}"
}

# npm ci from the committed lock file, skipped when the stamp matches the spec.
install_npm_clients() {
  command -v npm >/dev/null 2>&1 || die "npm not found after installing packages"
  [ -f "$NPM_SPEC/package-lock.json" ] || die "missing $NPM_SPEC/package-lock.json"
  local hash stamp="$NODE_DEPS/.stamp"
  hash="$(cat "$NPM_SPEC/package.json" "$NPM_SPEC/package-lock.json" "$NPM_SPEC/.npmrc" | sha256sum | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$hash" ] && [ -x "$NODE_DEPS/node_modules/.bin/acpx" ] && [ -d "$NODE_DEPS/node_modules/ajv" ] \
    && [ -f "$NODE_DEPS/node_modules/tree-sitter/vendor/tree-sitter/lib/src/lib.c" ]; then
    return 0
  fi
  say "installing pinned npm test clients into .deps/node"
  mkdir -p "$NODE_DEPS"
  # .npmrc: legacy-peer-deps, because the grammars name the Node bindings as an
  # optional peer of another version; only their C sources are used.
  cp "$NPM_SPEC/package.json" "$NPM_SPEC/package-lock.json" "$NPM_SPEC/.npmrc" "$NODE_DEPS/"
  local log="$NODE_DEPS/npm.log" flags=(--ignore-scripts --no-audit --no-fund --loglevel=error)
  # npm ci calls the lock "out of sync" when an optional platform package that a
  # dependency names is missing from the registry (acpx's @openclaw/fs-safe
  # lists darwin builds that are not published); npm install then takes the
  # same locked versions and skips those. Either way the lock must not change.
  if ! (cd "$NODE_DEPS" && npm ci "${flags[@]}" >"$log" 2>&1); then
    if ! (cd "$NODE_DEPS" && npm install "${flags[@]}" >>"$log" 2>&1); then
      tail -n 20 "$log" >&2 || true
      die "npm install failed (full log: $log)"
    fi
    cmp -s "$NPM_SPEC/package-lock.json" "$NODE_DEPS/package-lock.json" \
      || die "npm resolved versions other than scripts/npm/package-lock.json pins (see $log)"
  fi
  [ -x "$NODE_DEPS/node_modules/.bin/acpx" ] || die "npm ci finished but acpx is missing"
  printf '%s\n' "$hash" >"$stamp"
}

# cpp-httplib's Debian source package, for the version libcpp-httplib-dev
# installed: apt checks it against the signed Sources index; Debian's patches
# are applied and upstream's split.py makes httplib.cc. The header it makes must
# equal the installed one, which every other file compiles against.
install_httplib_source() {
  local dir="$ROOT/.deps/httplib" version
  version="$(dpkg-query -W -f='${Version}' libcpp-httplib-dev)"
  [ -f "$dir/.stamp" ] && [ "$(cat "$dir/.stamp")" = "$version" ] && [ -f "$dir/httplib.cc" ] && return 0
  say "fetching the source of cpp-httplib $version into .deps/httplib"
  rm -rf "$dir" && mkdir -p "$dir/apt/lists/partial" "$dir/src"
  # deb-src lines for the system's own Debian mirrors, in a private apt state.
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources >"$dir/apt/debian.sources"
  else
    grep -h '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' >"$dir/apt/sources.list"
  fi
  touch "$dir/apt/sources.list"
  local apt=(apt-get -qq -o "Dir::Etc::SourceList=$dir/apt/sources.list" -o "Dir::Etc::SourceParts=$dir/apt"
    -o "Dir::State::Lists=$dir/apt/lists" -o APT::Sandbox::User=root)
  as_root "${apt[@]}" update >/dev/null || die "apt-get update for Debian's source index failed"
  (cd "$dir/src" && as_root "${apt[@]}" source --download-only "cpp-httplib=$version" >/dev/null) \
    || die "could not download the source of cpp-httplib $version"
  (cd "$dir/src" && tar xJf cpp-httplib_*.orig.tar.* && tar xJf cpp-httplib_*.debian.tar.*) || die "cannot unpack cpp-httplib's source"
  local tree
  tree="$(find "$dir/src" -mindepth 2 -maxdepth 2 -name split.py -printf '%h\n' | head -n 1)"
  [ -n "$tree" ] || die "cpp-httplib's source has no split.py"
  if [ -f "$dir/src/debian/patches/series" ]; then
    while read -r patch _; do
      case "$patch" in ''|'#'*) continue ;; esac
      patch -d "$tree" -p1 --quiet <"$dir/src/debian/patches/$patch" || die "Debian patch $patch does not apply"
    done <"$dir/src/debian/patches/series"
  fi
  (cd "$tree" && python3 ./split.py -o "$dir" >/dev/null) || die "cpp-httplib's split.py failed"
  cmp -s "$dir/httplib.h" /usr/include/httplib.h || die "cpp-httplib $version's header differs from /usr/include/httplib.h"
  cp "$tree/LICENSE" "$dir/LICENSE"
  rm -rf "$dir/src" "$dir/apt"
  printf '%s\n' "$version" >"$dir/.stamp"
}

install_debian_packages
install_npm_clients
install_httplib_source
