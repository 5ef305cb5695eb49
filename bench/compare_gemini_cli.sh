#!/usr/bin/env bash
# Benchmarks Lathe and Gemini CLI side by side on the same one-read_file ACP
# turn against an in-process fake Gemini server (bench/acp_turn_bench), then
# prints the medians with ratios. Installs the pinned @google/gemini-cli
# (bench/npm's lock file) into .deps/gemini-cli on first use.
#
# usage: bench/compare_gemini_cli.sh [--iterations N] [--build DIR] [--no-relaunch]
#                                    [--skip-lathe] [--skip-gemini] [--install-only]
#                                    [--sessions | --compress] [-- extra args]
# --install-only installs Gemini CLI and exits (nothing is built).
# --sessions builds lathe and fake_gemini, then runs the MCP and session/load
# comparisons (bench/compare_gemini_cli_sessions.py; the args after -- go to it,
# e.g. -- --scenario mcp --iterations 5); --compress the compression one
# (bench/compare_gemini_cli_compress.py, e.g. -- --trigger command).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$ROOT/build"
ITERATIONS=5
NO_RELAUNCH=0
RUN_LATHE=1
RUN_GEMINI=1
INSTALL_ONLY=0
SESSIONS=0
EXTRA=()
while [ $# -gt 0 ]; do
  case "$1" in
    --iterations) ITERATIONS="$2"; shift 2 ;;
    --build) BUILD="$(cd "$2" && pwd)"; shift 2 ;;
    --no-relaunch) NO_RELAUNCH=1; shift ;;
    --skip-lathe) RUN_LATHE=0; shift ;;
    --skip-gemini) RUN_GEMINI=0; shift ;;
    --install-only) INSTALL_ONLY=1; shift ;;
    --sessions) SESSIONS=sessions; shift ;;
    --compress) SESSIONS=compress; shift ;;
    --) shift; EXTRA=("$@"); break ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "compare_gemini_cli: unknown argument $1" >&2; exit 2 ;;
  esac
done

die() { echo "compare_gemini_cli: $*" >&2; exit 1; }

BENCH="$BUILD/bench/acp_turn_bench"
LATHE="$BUILD/server/lathe"
GEMINI_DIR="$ROOT/.deps/gemini-cli"
GEMINI_JS="$GEMINI_DIR/node_modules/@google/gemini-cli/bundle/gemini.js"

install_gemini_cli() {
  command -v npm >/dev/null 2>&1 || die "npm not found (run scripts/setup.sh)"
  local spec="$ROOT/bench/npm" hash
  hash="$(cat "$spec/package.json" "$spec/package-lock.json" | sha256sum | cut -d' ' -f1)"
  if [ -f "$GEMINI_DIR/.stamp" ] && [ "$(cat "$GEMINI_DIR/.stamp")" = "$hash" ] && [ -f "$GEMINI_JS" ]; then
    return 0
  fi
  echo "compare_gemini_cli: installing @google/gemini-cli (pinned) into .deps/gemini-cli" >&2
  mkdir -p "$GEMINI_DIR"
  cp "$spec/package.json" "$spec/package-lock.json" "$GEMINI_DIR/"
  local log="$GEMINI_DIR/npm.log" flags=(--ignore-scripts --no-audit --no-fund --loglevel=error)
  if ! (cd "$GEMINI_DIR" && npm ci "${flags[@]}" >"$log" 2>&1); then
    (cd "$GEMINI_DIR" && npm install "${flags[@]}" >>"$log" 2>&1) || { tail -n 20 "$log" >&2; die "npm failed (log: $log)"; }
    cmp -s "$spec/package-lock.json" "$GEMINI_DIR/package-lock.json" || die "npm moved off the pinned lock (log: $log)"
  fi
  [ -f "$GEMINI_JS" ] || die "gemini-cli installed but $GEMINI_JS is missing"
  echo "$hash" >"$GEMINI_DIR/.stamp"
}

if [ "$INSTALL_ONLY" = 1 ]; then install_gemini_cli; echo "$GEMINI_JS"; exit 0; fi
if [ "$SESSIONS" != 0 ]; then
  [ "$RUN_GEMINI" = 1 ] && install_gemini_cli
  flock /tmp/lathe-build.lock cmake --build "$BUILD" --target lathe fake_gemini >/dev/null \
    || die "build failed: cmake --build $BUILD --target lathe fake_gemini"
  skip=()
  [ "$RUN_LATHE" = 1 ] || skip+=(--skip-lathe)
  [ "$RUN_GEMINI" = 1 ] || skip+=(--skip-gemini)
  exec python3 "$ROOT/bench/compare_gemini_cli_$SESSIONS.py" --build "$BUILD" "${skip[@]}" "${EXTRA[@]}"
fi

# Build the harness (and Lathe when it is part of the build), under the shared lock.
targets=(acp_turn_bench)
if [ "$RUN_LATHE" = 1 ] && ninja -C "$BUILD" -t targets all 2>/dev/null | grep -q '^lathe:'; then targets+=(lathe); fi
flock /tmp/lathe-build.lock cmake --build "$BUILD" --target "${targets[@]}" >/dev/null \
  || die "build failed: cmake --build $BUILD --target ${targets[*]}"
[ -x "$BENCH" ] || die "missing $BENCH"

OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
run_bench() {  # label outfile agent...
  local label="$1" out="$2"; shift 2
  echo "== $label: $ITERATIONS run(s)" >&2
  "$BENCH" --iterations "$ITERATIONS" --label "$label" --tsv "${EXTRA[@]}" -- "$@" >"$out" \
    || { echo "compare_gemini_cli: $label: some runs failed (see above)" >&2; [ -s "$out" ]; }
}

if [ "$RUN_LATHE" = 1 ]; then
  if [ -x "$LATHE" ]; then
    run_bench lathe "$OUT/lathe.tsv" "$LATHE" --acp || true
  else
    echo "compare_gemini_cli: $LATHE not built yet; skipping Lathe" >&2
  fi
fi
if [ "$RUN_GEMINI" = 1 ]; then
  install_gemini_cli
  gemini_env=()
  [ "$NO_RELAUNCH" = 1 ] && gemini_env=(--env GEMINI_CLI_NO_RELAUNCH=true)
  label="gemini-cli-0.61.0"
  [ "$NO_RELAUNCH" = 1 ] && label="$label(no-relaunch)"
  EXTRA=("${gemini_env[@]}" "${EXTRA[@]}")
  run_bench "$label" "$OUT/gemini.tsv" node "$GEMINI_JS" --acp || true
fi

# Side by side: metric, Lathe median, Gemini CLI median, Gemini/Lathe.
python3 - "$OUT/lathe.tsv" "$OUT/gemini.tsv" <<'PY'
import os, sys
def load(path):
    rows = {}
    if os.path.exists(path):
        for line in open(path):
            f = line.rstrip("\n").split("\t")
            if len(f) == 5: rows[f[1]] = (float(f[2]), float(f[3]), float(f[4]))
    return rows
lathe, gemini = load(sys.argv[1]), load(sys.argv[2])
if not lathe and not gemini:
    sys.exit("compare_gemini_cli: no results")
units = {"initialize": "ms", "session_new": "ms", "turn_end": "ms", "peak_rss": "MB", "peak_tree_rss": "MB", "cpu": "s"}
names = [n for n in ["initialize", "session_new", "turn_end", "peak_rss", "peak_tree_rss", "cpu", "model_requests", "tool_calls"]
         if n in lathe or n in gemini]
cell = lambda r: "%.1f [%.1f-%.1f]" % r if r else "-"
print("%-22s %26s %26s %12s" % ("median [min-max]", "lathe", "gemini-cli", "gemini/lathe"))
for n in names:
    a, b = lathe.get(n), gemini.get(n)
    ratio = "%.1fx" % (b[0] / a[0]) if a and b and a[0] > 0 else "-"
    label = n + (" (%s)" % units[n] if n in units else "")
    print("%-22s %26s %26s %12s" % (label, cell(a), cell(b), ratio))
PY
