#!/usr/bin/env bash
# Runs every Neovim test on Neovim 0.7.2 (Debian 12), 0.10 (unpacked from
# trixie into .deps/nvim-0.10) and 0.11+ (unpacked from forky into
# .deps/nvim-forky): unit specs, headless specs against the real
# Lathe binary with recorded models, and a TUI check in tmux. Installs what is
# missing. Prints "N passed, N failed" last; exits non-zero on any failure.
# Usage: editors/neovim/scripts/test.sh LATHE_BIN
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: $0 LATHE_BIN" >&2; exit 2; }
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
LATHE_BIN="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
[ -x "$LATHE_BIN" ] || { echo "not an executable: $LATHE_BIN" >&2; exit 2; }
export CI=true DEBIAN_FRONTEND=noninteractive

missing=()
command -v nvim >/dev/null || missing+=(neovim)
command -v tmux >/dev/null || missing+=(tmux)
command -v patchelf >/dev/null || missing+=(patchelf)
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq </dev/null && apt-get install -y -qq "${missing[@]}" </dev/null >/dev/null || exit 1
fi

OUT="$ROOT/.cache/neovim-tests"
rm -rf "$OUT" && mkdir -p "$OUT/home"
# A private HOME: no personal Lathe or Neovim settings leak into the tests.
export HOME="$OUT/home" XDG_CONFIG_HOME="$OUT/home/.config" XDG_DATA_HOME="$OUT/home/.local/share" \
  XDG_STATE_HOME="$OUT/home/.local/state" XDG_CACHE_HOME="$OUT/home/.cache"
unset GEMINI_API_KEY

passed=0 failed=0
# The tmux server of the TUI check lives on a private socket and ends with us.
SOCK="${TMPDIR:-/tmp}/lathe-nvim-test-$$.sock"
trap 'tmux -S "$SOCK" kill-server 2>/dev/null; rm -f "$SOCK"' EXIT
NVIMS=("0.7:/usr/bin/nvim" "0.10:$ROOT/.deps/nvim-0.10/usr/bin/nvim" "0.11+:$ROOT/.deps/nvim-forky/usr/bin/nvim")
# LATHE_NVIM=0.11+ (say) runs one version only; LATHE_SPEC=chat_spec (or tui) one spec: for working on one.
if [ -n "${LATHE_NVIM:-}" ]; then
  for entry in "${NVIMS[@]}"; do [ "${entry%%:*}" = "$LATHE_NVIM" ] && NVIMS=("$entry") && break; done
fi
# Only the Neovims that will run are installed.
for entry in "${NVIMS[@]}"; do
  case "${entry%%:*}" in 0.10) suite=trixie:nvim-0.10 ;; 0.11+) suite=forky:nvim-forky ;; *) continue ;; esac
  bash "$HERE/scripts/install-nvim.sh" "${suite%%:*}" "$ROOT/.deps/${suite#*:}" </dev/null || { echo "0 passed, 1 failed"; exit 1; }
done

run_spec() { # label nvim spec
  local label=$1 nvim=$2 spec=$3 log="$OUT/$1-$(basename "$3" .lua).log" rc
  LATHE_BIN="$LATHE_BIN" LATHE_TEST_DIR="$HERE/tests" LATHE_TEST_SPEC="$spec" LATHE_TEST_LABEL="[$label] " \
    timeout 300 "$nvim" --headless -u NONE -i NONE -n --cmd "set rtp^=$HERE" --cmd "runtime plugin/lathe.lua" \
    -c "luafile $HERE/tests/runner.lua" -c 'cquit 3' </dev/null >"$log" 2>"$log.err"
  rc=$?
  grep -v ' passed, .* failed$' "$log"
  local line p f
  line="$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -1)"
  if [ -z "$line" ]; then
    echo "FAIL - [$label] $(basename "$spec"): no result (exit $rc); stderr:"; tail -5 "$log.err"
    failed=$((failed + 1)); return
  fi
  p=${line%% passed*}; f=${line#*, }; f=${f%% failed}
  passed=$((passed + p)); failed=$((failed + f))
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "FAIL - [$label] $(basename "$spec"): exit $rc"; failed=$((failed + 1))
  fi
}

# The TUI check: Neovim in tmux with the plugin, one turn, the screen captured.
tui_check() { # label nvim
  local label=$1 nvim=$2 ws cap="$OUT/tui-$1.txt" i
  ws="$(mktemp -d)"
  printf 'alpha\nbeta\n' >"$ws/notes.txt"
  cat >"$ws/replay.jsonl" <<JSON
{"method":"generateContentStream","response":[{"candidates":[{"content":{"role":"model","parts":[{"text":"Looking at the workspace.","thought":true}]},"index":0}]},{"candidates":[{"content":{"role":"model","parts":[{"text":"I'll list the files."},{"functionCall":{"name":"list_directory","args":{"dir_path":"."}}}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":900,"candidatesTokenCount":20,"totalTokenCount":920}}]}
{"method":"generateContentStream","response":[{"candidates":[{"content":{"role":"model","parts":[{"text":"The workspace holds **notes.txt** and the recording. Nothing else to see."}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":1000,"candidatesTokenCount":20,"totalTokenCount":1020}}]}
{"method":"generateContentStream","response":[{"candidates":[{"content":{"role":"model","parts":[{"text":"Editing the first line."},{"functionCall":{"name":"replace","args":{"file_path":"$ws/notes.txt","instruction":"Mark the first line","old_string":"alpha","new_string":"alpha, edited by Lathe"}}}]},"finishReason":"STOP","index":0}]}]}
{"method":"generateContentStream","response":[{"candidates":[{"content":{"role":"model","parts":[{"text":"The first line is marked now."}]},"finishReason":"STOP","index":0}]}]}
JSON
  cat >"$ws/init.lua" <<LUA
vim.opt.rtp:prepend('$HERE')
vim.o.swapfile = false
require('lathe').setup({ cmd = '$LATHE_BIN', args = { '--fake-responses', '$ws/replay.jsonl' }, width = 0.55 })
LUA
  tmux -S "$SOCK" -f /dev/null new-session -d -x 150 -y 36 \
    "cd '$ws' && TERM=xterm-256color '$nvim' -u '$ws/init.lua' -i NONE notes.txt" </dev/null
  for i in $(seq 1 150); do
    tmux -S "$SOCK" capture-pane -p 2>/dev/null | grep -q 'alpha' && break; sleep 0.2
  done
  tmux -S "$SOCK" send-keys ':Lathe what is in this workspace?' Enter
  local first=0
  for i in $(seq 1 300); do
    tmux -S "$SOCK" capture-pane -p >"$cap" 2>/dev/null
    grep -q 'Nothing else to see' "$cap" && { first=1; break; }; sleep 0.2
  done
  : >"$cap.review"
  if [ $first -eq 1 ]; then
    # A second turn proposes an edit: the review is drawn in notes.txt, then
    # accepted with the buffer-local key from the file's window.
    tmux -S "$SOCK" send-keys ':Lathe mark the first line' Enter
    for i in $(seq 1 300); do
      tmux -S "$SOCK" capture-pane -p >"$cap.review" 2>/dev/null
      grep -q 'Review the edit' "$cap.review" && grep -q 'alpha, edited by Lathe' "$cap.review" && break; sleep 0.2
    done
    tmux -S "$SOCK" send-keys C-w h
    tmux -S "$SOCK" send-keys -l '\a'
    for i in $(seq 1 300); do
      grep -q 'edited by Lathe' "$ws/notes.txt" 2>/dev/null && \
        tmux -S "$SOCK" capture-pane -p 2>/dev/null | grep -q 'marked now' && break; sleep 0.2
    done
  fi
  # /help typed a key at a time in the prompt: the command menu opens and waits;
  # nothing is inserted for the person (it once turned /help into /compress help).
  : >"$cap.slash"
  tmux -S "$SOCK" send-keys ':Lathe' Enter
  tmux -S "$SOCK" send-keys i
  local typed='' ch
  for ch in / h e l p; do
    typed="$typed$ch"
    tmux -S "$SOCK" send-keys -l "$ch"
    for i in $(seq 1 100); do
      tmux -S "$SOCK" capture-pane -p >"$cap.slash" 2>/dev/null
      grep -qE "│$typed +\$|│$typed\$" "$cap.slash" && break; sleep 0.1
    done
    [ "$ch" = / ] && for i in $(seq 1 100); do # the menu lists Lathe's commands
      tmux -S "$SOCK" capture-pane -p >"$cap.slash" 2>/dev/null
      grep -q '/compress' "$cap.slash" && break; sleep 0.1
    done
  done
  cp "$cap.slash" "$cap.menu"
  tmux -S "$SOCK" send-keys Escape Enter
  for i in $(seq 1 300); do
    tmux -S "$SOCK" capture-pane -p >"$cap.slash" 2>/dev/null
    grep -qF -- 'List the commands this session offers' "$cap.slash" && break; sleep 0.2
  done
  local disk
  disk="$(cat "$ws/notes.txt")"
  tmux -S "$SOCK" kill-server 2>/dev/null
  rm -rf "$ws"
  local want ok_all=1
  for want in 'Review the edit' 'alpha, edited by Lathe' '### Edit: notes.txt'; do
    if ! grep -qF -- "$want" "$cap.review"; then
      echo "FAIL - [$label] TUI check: the review screen lacks '$want'"; ok_all=0
    fi
  done
  if ! grep -qE -- '/help +List the commands this session offers' "$cap.menu"; then
    echo "FAIL - [$label] TUI check: typing /help did not show the command menu with /help in it"; ok_all=0
  fi
  if ! grep -qE '│/help *$' "$cap.menu" || grep -qF '/compress help' "$cap.menu"; then
    echo "FAIL - [$label] TUI check: typing /help did not leave /help in the prompt"; ok_all=0
  fi
  if ! grep -qF -- 'List the commands this session offers' "$cap.slash"; then
    echo "FAIL - [$label] TUI check: /help sent with <CR> did not answer"; ok_all=0
  fi
  if [ "$disk" != $'alpha, edited by Lathe\nbeta' ]; then
    echo "FAIL - [$label] TUI check: notes.txt after accepting is '$disk'"; ok_all=0
  fi
  for want in '## You' 'what is in this workspace?' '## Lathe' 'Thinking' "I'll list the files." \
    'ReadFolder' 'completed' 'Nothing else to see.' 'Prompt'; do
    if ! grep -qF -- "$want" "$cap"; then
      echo "FAIL - [$label] TUI check: the captured screen lacks '$want'"; ok_all=0
    fi
  done
  if [ $ok_all -eq 1 ]; then echo "ok   - [$label] TUI check: a turn, an accepted inline review, /help typed key by key in tmux ($cap, $cap.review, $cap.menu)"; passed=$((passed + 1))
  else sed 's/^/    | /' "$cap" "$cap.review" "$cap.menu" "$cap.slash"; failed=$((failed + 1)); fi
}

for entry in "${NVIMS[@]}"; do
  label=${entry%%:*} nvim=${entry#*:}
  echo "# Neovim $label: $("$nvim" --version | head -1)"
  for spec in "$HERE"/tests/*_spec.lua; do
    case "${LATHE_SPEC:-}" in ''|"$(basename "$spec" .lua)") run_spec "$label" "$nvim" "$spec" ;; esac
  done
  case "${LATHE_SPEC:-}" in ''|tui) tui_check "$label" "$nvim" ;; esac
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
