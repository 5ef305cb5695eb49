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
# Optional: the permission flag (default --approve-all) and the expected exit
# code (acpx exits 5 when every permission request was denied).
run_acpx() {
  local dir="$1" ws="$2" prompt="$3" permission="${4:---approve-all}" expected="${5:-0}" rc=0
  mkdir -p "$dir/home"
  # $permission is unquoted on purpose: it may hold several flags.
  HOME="$dir/home" \
    XDG_STATE_HOME="$dir/state" \
    GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:$PORT" \
    GEMINI_API_KEY="test-key" \
    GEMINI_MODEL="gemini-acpx-test" \
    timeout 120 "$ACPX" --agent "'$LATHE' --acp" $permission --format json --timeout 60 \
    --cwd "$ws" exec "$prompt" >"$dir/acpx.out" 2>"$dir/acpx.err" </dev/null || rc=$?
  if [ "$rc" -ne "$expected" ]; then
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

# Checks an edit turn: a permission request with the diff, then the tool call
# ending with the given status, and the turn ending end_turn.
check_edit_output() {
  local out="$1" status="$2"
  node - "$out" "$status" <<'EOF'
const fs = require("fs");
const [outPath, status] = process.argv.slice(2);
const messages = fs.readFileSync(outPath, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
const problems = [];
const ask = messages.find((m) => m.method === "session/request_permission");
if (!ask) problems.push("no session/request_permission");
else {
  const diff = (ask.params.toolCall.content || [])[0];
  if (!diff || diff.type !== "diff" || !diff.path.endsWith("/hello.txt")) problems.push("permission request lacks the diff");
  if (diff && diff.newText !== "hello from lathe\n") problems.push(`diff newText is ${JSON.stringify(diff && diff.newText)}`);
}
const updates = messages.filter((m) => m.method === "session/update").map((m) => m.params.update);
const last = updates.filter((u) => u.sessionUpdate === "tool_call_update" && u.status).pop();
if (!last || last.status !== status) problems.push(`last tool_call_update status is ${last && last.status}, not ${status}`);
const result = messages.find((m) => m.result && m.result.stopReason !== undefined);
if (!result || result.result.stopReason !== "end_turn") problems.push("the turn did not end with end_turn");
if (problems.length) {
  console.error(problems.join("\n"));
  process.exit(1);
}
EOF
}

# Cases 3 and 4: an edit that acpx approves, then one it denies.
case_edit() {
  local mode="$1" dir="$TMP/edit-$1" ws="$TMP/edit-$1/ws"
  mkdir -p "$ws"
  printf 'hello from acpx\n' >"$ws/hello.txt"
  cat >"$dir/script.jsonl" <<'EOF'
{"method":"generateContentStream","response":[{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"replace","args":{"file_path":"hello.txt","instruction":"greet from lathe","old_string":"from acpx","new_string":"from lathe"}}}]},"finishReason":"STOP","index":0}]}]}
{"method":"generateContentStream","response":[{"candidates":[{"content":{"role":"model","parts":[{"text":"Finished."}]},"finishReason":"STOP","index":0}]}]}
EOF
  start_fake "$dir" --replay "$dir/script.jsonl"
  if [ "$mode" = approve ]; then
    run_acpx "$dir" "$ws" "change the greeting" --approve-all 0
    check_edit_output "$dir/acpx.out" completed || { cat "$dir/acpx.out" >&2; fail "approved edit: unexpected output"; }
    [ "$(cat "$ws/hello.txt")" = "hello from lathe" ] || fail "approved edit: file is $(cat "$ws/hello.txt")"
  else
    # --deny-all also refuses fs/* calls; without fs, Lathe reads the disk and
    # the denial lands on the permission request itself.
    run_acpx "$dir" "$ws" "change the greeting" "--deny-all --no-fs" 5
    check_edit_output "$dir/acpx.out" failed || { cat "$dir/acpx.out" >&2; fail "denied edit: unexpected output"; }
    [ "$(cat "$ws/hello.txt")" = "hello from acpx" ] || fail "denied edit changed the file: $(cat "$ws/hello.txt")"
  fi
  stop_fake "$dir" 2
  echo "ok: acpx edit $mode case"
}

# Case 5: acpx's `set model` reaches Lathe's configOptions in a named-less
# persistent session; the next prompt asks the fake for the chosen model.
case_set_model() {
  local dir="$TMP/set-model" ws="$TMP/set-model/ws" rc=0
  mkdir -p "$ws" "$dir/home"
  printf 'model choice file\n' >"$ws/data.txt"
  start_fake "$dir" --auto data.txt
  acpx_session() {
    (cd "$ws" && HOME="$dir/home" GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:$PORT" GEMINI_API_KEY="test-key" \
      GEMINI_MODEL="gemini-acpx-test" timeout 120 "$ACPX" --agent "'$LATHE' --acp" --approve-all "$@" \
      </dev/null >>"$dir/acpx.out" 2>>"$dir/acpx.err")
  }
  acpx_session sessions new || rc=$?
  [ "$rc" -eq 0 ] && { acpx_session set model gemini-2.5-flash || rc=$?; }
  [ "$rc" -eq 0 ] && { acpx_session "read the file" || rc=$?; }
  acpx_session sessions close || true
  [ "$rc" -eq 0 ] || { cat "$dir/acpx.out" "$dir/acpx.err" >&2; fail "set model case: acpx exited $rc"; }
  grep -q "model set: gemini-2.5-flash" "$dir/acpx.out" || { cat "$dir/acpx.out" >&2; fail "acpx did not set the model"; }
  stop_fake "$dir" 2
  grep -q "for model gemini-2.5-flash" "$dir/fake.stderr" || fail "the prompt did not use the chosen model: $(cat "$dir/fake.stderr")"
  ! grep -q "for model gemini-acpx-test" "$dir/fake.stderr" || fail "a request still used the old model"
  echo "ok: acpx set model case"
}

# Case: an acpx named session survives the agent being restarted. acpx keeps
# the agent alive for --ttl seconds; once that Lathe has exited (the session's
# lock is free), the next prompt starts a new Lathe, which must reopen the
# recorded session (acpx 0.19.1 calls session/resume) and go on with its history.
case_named_session_restart() {
  local dir="$TMP/named" ws="$TMP/named/ws" rc=0
  mkdir -p "$ws" "$dir/home" "$dir/state"
  cat >"$dir/script.jsonl" <<'EOF'
{"method":"generateContentStream","response":[{"candidates":[{"content":{"role":"model","parts":[{"text":"Noted: ORCHID."}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":3,"totalTokenCount":13}}]}
{"method":"generateContentStream","response":[{"candidates":[{"content":{"role":"model","parts":[{"text":"The word was ORCHID."}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":20,"candidatesTokenCount":5,"totalTokenCount":25}}]}
EOF
  start_fake "$dir" --replay "$dir/script.jsonl"
  acpx_named() {
    HOME="$dir/home" XDG_STATE_HOME="$dir/state" GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:$PORT" \
      GEMINI_API_KEY="test-key" GEMINI_MODEL="gemini-acpx-test" timeout 120 "$ACPX" --agent "'$LATHE' --acp" \
      --approve-all --ttl 1 --format json --timeout 60 --cwd "$ws" "$@" </dev/null
  }
  acpx_named sessions new --name keep >"$dir/new.out" 2>>"$dir/acpx.err" || rc=$?
  [ "$rc" -eq 0 ] && { acpx_named prompt -s keep "remember the word ORCHID" >"$dir/first.out" 2>>"$dir/acpx.err" || rc=$?; }
  [ "$rc" -eq 0 ] || { cat "$dir/acpx.err" >&2; fail "named session case: acpx exited $rc"; }
  local sessions="$dir/state/lathe/sessions" sid
  sid="$(ls "$sessions")"
  [ -n "$sid" ] && [ "$(echo "$sid" | wc -l)" -eq 1 ] || fail "expected one recorded session, found: $sid"
  # Wait for the first Lathe to be gone: its lock on the session is then free.
  local freed=""
  for _ in $(seq 1 100); do
    if flock -n "$sessions/$sid/lock" true; then freed=1; break; fi
    sleep 0.2
  done
  [ -n "$freed" ] || fail "the first Lathe never let go of the session"
  acpx_named prompt -s keep "what was the word?" >"$dir/second.out" 2>>"$dir/acpx.err" || rc=$?
  [ "$rc" -eq 0 ] || { cat "$dir/acpx.err" >&2; fail "named session case: second prompt exited $rc"; }
  grep -qE '"method":"session/(resume|load)"' "$dir/second.out" \
    || { cat "$dir/second.out" >&2; fail "acpx did not reopen the session"; }
  ! grep -q '"method":"session/new"' "$dir/second.out" || fail "acpx made a new session instead of reopening"
  grep -q "The word was ORCHID." "$dir/second.out" || { cat "$dir/second.out" >&2; fail "no answer after the restart"; }
  [ "$(ls "$sessions")" = "$sid" ] || fail "the restart recorded another session: $(ls "$sessions")"
  # The second turn's history record continues the first turn's (two contents before it).
  node - "$sessions/$sid/record.jsonl" <<'EOF' || fail "the recorded history did not go on from the first turn"
const fs = require("fs");
const records = fs.readFileSync(process.argv[2], "utf8").split("\n").filter((l) => l).map((l) => JSON.parse(l));
const history = records.filter((r) => r.h);
const texts = history.flatMap((r) => r.h.flatMap((c) => c.p.map((p) => p.x)));
const ok = history.some((r) => r.at === 2) && texts.includes("remember the word ORCHID") && texts.includes("what was the word?");
process.exit(ok ? 0 : 1);
EOF
  stop_fake "$dir" 2
  echo "ok: acpx named session survives an agent restart"
}

mkdir -p "$TMP/replay" "$TMP/auto" "$TMP/edit-approve" "$TMP/edit-deny" "$TMP/set-model"
case_replay
case_auto
case_edit approve
case_edit deny
case_set_model
case_named_session_restart
echo "PASS: acpx end-to-end"
