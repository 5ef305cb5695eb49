#!/usr/bin/env bash
# End-to-end test with a real ACP client: acpx (from npm, pinned in scripts/npm
# and installed by scripts/setup.sh into .deps/node) runs one prompt against
# `lathe --acp`, whose model is the standalone fake Gemini server.
#
# Usage: acpx_test.sh LATHE_BINARY FAKE_GEMINI_BINARY
# Fails (never skips) when acpx is missing: CI runs scripts/setup.sh first.
set -euo pipefail

if [ "$#" -ne 2 ]; then
  echo "usage: $0 LATHE_BINARY FAKE_GEMINI_BINARY" >&2
  exit 2
fi
LATHE="$1"
FAKE_GEMINI="$2"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ACPX="$ROOT/.deps/node/node_modules/.bin/acpx"

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

[ -x "$LATHE" ] || fail "lathe binary not found at $LATHE"
[ -x "$FAKE_GEMINI" ] || fail "fake_gemini binary not found at $FAKE_GEMINI"
[ -x "$ACPX" ] || fail "acpx is not installed at $ACPX: run scripts/setup.sh (it installs the pinned npm test clients)"
command -v node >/dev/null 2>&1 || fail "node is not on PATH: run scripts/setup.sh"
case "$LATHE" in *"'"*) fail "the lathe path must not contain a single quote: $LATHE" ;; esac

TMP="$(mktemp -d "${TMPDIR:-/tmp}/lathe-acpx.XXXXXX")"
FAKE_PID=""
cleanup() {
  exec 9>&- 2>/dev/null || true
  if [ -n "$FAKE_PID" ] && kill -0 "$FAKE_PID" 2>/dev/null; then
    kill "$FAKE_PID" 2>/dev/null || true
    wait "$FAKE_PID" 2>/dev/null || true
  fi
  rm -rf "$TMP"
}
trap cleanup EXIT

# Starts fake_gemini with the given arguments; sets FAKE_PID and PORT. Its stdin
# is a FIFO held open on fd 9: closing fd 9 tells it to stop.
start_fake() {
  local dir="$1"
  shift
  mkfifo "$dir/fake.stdin"
  "$FAKE_GEMINI" "$@" <"$dir/fake.stdin" >"$dir/fake.stdout" 2>"$dir/fake.stderr" &
  FAKE_PID=$!
  exec 9>"$dir/fake.stdin"
  PORT=""
  for _ in $(seq 1 100); do
    PORT="$(sed -n 's/^PORT \([0-9][0-9]*\)$/\1/p' "$dir/fake.stdout" 2>/dev/null || true)"
    [ -n "$PORT" ] && break
    kill -0 "$FAKE_PID" 2>/dev/null || break
    sleep 0.1
  done
  [ -n "$PORT" ] || fail "fake_gemini did not print its port: $(cat "$dir/fake.stderr")"
}

# Closes fake_gemini's stdin and checks it saw the expected number of requests
# and no history violations (it exits 3 on violations).
stop_fake() {
  local dir="$1" expected="$2" rc=0
  exec 9>&-
  wait "$FAKE_PID" || rc=$?
  FAKE_PID=""
  [ "$rc" -eq 0 ] || fail "fake_gemini exited $rc (3 means history violations): $(cat "$dir/fake.stderr")"
  grep -q "served $expected request(s), 0 violation(s)" "$dir/fake.stderr" \
    || fail "fake_gemini did not serve $expected clean requests: $(cat "$dir/fake.stderr")"
}

# Checks acpx's --format json output (raw ACP messages, one per line).
check_acpx_output() {
  local out="$1" answer="$2"
  node - "$out" "$answer" <<'EOF'
const fs = require("fs");
const [outPath, answer] = process.argv.slice(2);
const lines = fs.readFileSync(outPath, "utf8").split("\n").filter((l) => l.trim() !== "");
const problems = [];
const messages = [];
for (const line of lines) {
  try {
    messages.push(JSON.parse(line));
  } catch (e) {
    problems.push(`not JSON: ${line}`);
  }
}
const updates = messages
  .filter((m) => m.method === "session/update" && m.params && m.params.update)
  .map((m) => m.params.update);
const toolCall = updates.find((u) => u.sessionUpdate === "tool_call");
if (!toolCall) problems.push("no tool_call update");
else {
  if (toolCall.kind !== "read") problems.push(`tool_call kind is ${toolCall.kind}, not read`);
  const loc = toolCall.locations && toolCall.locations[0];
  if (!loc || !loc.path || !loc.path.startsWith("/")) problems.push("tool_call has no absolute locations[0].path");
}
const completed = updates.find(
  (u) => u.sessionUpdate === "tool_call_update" && u.status === "completed" && toolCall && u.toolCallId === toolCall.toolCallId);
if (!completed) problems.push("no tool_call_update completed for the tool call");
const text = updates
  .filter((u) => u.sessionUpdate === "agent_message_chunk" && u.content && u.content.type === "text")
  .map((u) => u.content.text)
  .join("");
if (!text.includes(answer)) problems.push(`agent_message_chunk text ${JSON.stringify(text)} lacks ${JSON.stringify(answer)}`);
const result = messages.find((m) => m.result && m.result.stopReason !== undefined);
if (!result) problems.push("no session/prompt result");
else if (result.result.stopReason !== "end_turn") problems.push(`stopReason is ${result.result.stopReason}`);
const errors = messages.filter((m) => m.error);
if (errors.length) problems.push(`JSON-RPC errors: ${JSON.stringify(errors)}`);
if (problems.length) {
  console.error(problems.join("\n"));
  process.exit(1);
}
EOF
}

# Runs acpx exec in a hermetic HOME against lathe; stdout to $dir/acpx.out.
run_acpx() {
  local dir="$1" ws="$2" prompt="$3" rc=0
  mkdir -p "$dir/home"
  HOME="$dir/home" \
    GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:$PORT" \
    GEMINI_API_KEY="test-key" \
    GEMINI_MODEL="gemini-acpx-test" \
    timeout 120 "$ACPX" --agent "'$LATHE' --acp" --approve-all --format json --timeout 60 \
    --cwd "$ws" exec "$prompt" >"$dir/acpx.out" 2>"$dir/acpx.err" </dev/null || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "--- acpx stdout" >&2
    cat "$dir/acpx.out" >&2
    echo "--- acpx stderr" >&2
    cat "$dir/acpx.err" >&2
    fail "acpx exited $rc"
  fi
}

# Case 1: a recorded reply script: read_file, then a text answer.
case_replay() {
  local dir="$TMP/replay" ws="$TMP/replay/ws"
  mkdir -p "$ws"
  printf 'hello from the acpx workspace\n' >"$ws/hello.txt"
  cat >"$dir/script.jsonl" <<'EOF'
{"method":"generateContentStream","response":[{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"read_file","args":{"file_path":"hello.txt"}}}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":100,"candidatesTokenCount":8,"totalTokenCount":108}}]}
{"method":"generateContentStream","response":[{"candidates":[{"content":{"role":"model","parts":[{"text":"The file greets "}]},"index":0}]},{"candidates":[{"content":{"role":"model","parts":[{"text":"the acpx workspace."}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":130,"candidatesTokenCount":9,"totalTokenCount":139}}]}
EOF
  start_fake "$dir" --replay "$dir/script.jsonl"
  run_acpx "$dir" "$ws" "read the file hello.txt"
  check_acpx_output "$dir/acpx.out" "The file greets the acpx workspace." \
    || { cat "$dir/acpx.out" >&2; fail "replay case: unexpected acpx output"; }
  stop_fake "$dir" 2
  # acpx exec writes nothing under HOME.
  [ -z "$(find "$dir/home" -mindepth 1 -print -quit)" ] || echo "note: acpx wrote under HOME: $(find "$dir/home" -mindepth 1)" >&2
  echo "ok: acpx replay case"
}

# Case 2: the fake's automatic agent (read_file, then "Done.").
case_auto() {
  local dir="$TMP/auto" ws="$TMP/auto/ws"
  mkdir -p "$ws"
  printf 'auto mode file\n' >"$ws/data.txt"
  start_fake "$dir" --auto data.txt
  run_acpx "$dir" "$ws" "read the file"
  check_acpx_output "$dir/acpx.out" "Done." \
    || { cat "$dir/acpx.out" >&2; fail "auto case: unexpected acpx output"; }
  stop_fake "$dir" 2
  echo "ok: acpx auto case"
}

mkdir -p "$TMP/replay" "$TMP/auto"
case_replay
case_auto
echo "PASS: acpx end-to-end"
