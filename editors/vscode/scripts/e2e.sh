#!/usr/bin/env bash
# End to end in a real VS Code: code-server 4.100.3 on 127.0.0.1 with the
# platform .vsix installed, driven by playwright-core in Debian's Chromium. The
# extension runs the lathe binary the .vsix carries, as it does for a person
# who installed it: "lathe.path" is empty and no lathe is on PATH. The binary
# replays a recorded model. Screenshots go to $OUT.
# Usage: e2e.sh VSIX   (a platform package; prints "N passed, N failed")
set -euo pipefail
VSIX="$(realpath "$1")"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
CS="$ROOT/.deps/code-server-4.100.3/node_modules/.bin/code-server"
OUT="${VSCODE_E2E_OUT:-${LATHE_BUILD_DIR:-$ROOT/build}/vscode-e2e}"
rm -rf "$OUT"; mkdir -p "$OUT/ws" "$OUT/ud/User" "$OUT/ext" "$OUT/shots"
WS="$OUT/ws"
printf 'alpha\nbeta\ngamma\n' > "$WS/notes.txt"
printf '%s\n' one two three four five six seven eight nine ten > "$WS/multi.txt"
seq 1 60 | sed 's/^/far line /' > "$WS/far.txt"
printf 'old\n' > "$WS/b.txt" # a shell command changes it (and creates c.txt)
# A custom command of the workspace and a skill of the person's (a workspace's
# skills wait for the workspace's consent), offered after "/".
mkdir -p "$WS/.gemini/commands/git" "$OUT/gemini-home/.gemini/skills/review"
printf 'description = "Write a commit message"\nprompt = "Write a commit message."\n' > "$WS/.gemini/commands/git/msg.toml"
printf -- '---\nname: review\ndescription: Reviews the change\n---\nReview it.\n' > "$OUT/gemini-home/.gemini/skills/review/SKILL.md"
# A 1x1 PNG for the image attachment.
echo 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==' | base64 -d > "$WS/dot.png"
node "$HERE/test/e2e/recording.mjs" "$WS" > "$OUT/model.jsonl"
# The person's Gemini CLI settings: a BeforeTool hook that blocks searches.
mkdir -p "$OUT/gemini-home/.gemini"
cat > "$OUT/gemini-home/.gemini/settings.json" <<'JSON'
{"hooks": {"BeforeTool": [{"matcher": "glob", "hooks": [{"type": "command", "name": "guard",
  "command": "cat >/dev/null; echo '{\"decision\":\"deny\",\"reason\":\"no searching here\"}'"}]}]}}
JSON
export GEMINI_CLI_HOME="$OUT/gemini-home"
node -e '
const [ud, rec, out] = process.argv.slice(1);
require("fs").writeFileSync(ud + "/User/settings.json", JSON.stringify({
  "workbench.startupEditor": "none", "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off", "update.mode": "none", "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false, "workbench.enableExperiments": false, "workbench.tips.enabled": false,
  "files.autoSave": "off", "git.enabled": false, "git.openRepositoryInParentFolders": "never", "editor.codeLens": true, "editor.minimap.enabled": false,
  "lathe.args": ["--fake-responses", rec], "lathe.traceProtocol": true,
  // Lathe keeps sessions and "always" answers here, not in the real HOME.
  "lathe.env": { XDG_STATE_HOME: out + "/state", GEMINI_CLI_HOME: out + "/gemini-home" } }, null, 1));
' "$OUT/ud" "$OUT/model.jsonl" "$OUT"
PORT="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
printf 'bind-addr: 127.0.0.1:%s\nauth: none\ncert: false\n' "$PORT" > "$OUT/cs.yaml"
CSARGS=(--config "$OUT/cs.yaml" --user-data-dir "$OUT/ud" --extensions-dir "$OUT/ext")
"$CS" "${CSARGS[@]}" --install-extension "$VSIX" >"$OUT/install.log" 2>&1 </dev/null
bundled=("$OUT"/ext/*/bin/lathe)
if [ ! -f "${bundled[0]}" ]; then
  cat "$OUT/install.log" >&2
  echo "e2e.sh: no bin/lathe installed from $VSIX (a platform package: package.sh --binary)" >&2; exit 1
fi
export LATHE_E2E_BUNDLED="${bundled[0]}"
# VS Code and the extension see a PATH without any lathe on it.
clean_path=""
IFS=: read -ra dirs <<<"$PATH"
for dir in "${dirs[@]}"; do
  [ -n "$dir" ] && [ ! -e "$dir/lathe" ] && clean_path="${clean_path:+$clean_path:}$dir"
done
for tool in node curl sh rg; do
  PATH="$clean_path" command -v "$tool" >/dev/null || {
    echo "e2e.sh: $(command -v lathe) shares a folder with $tool; the run needs $tool and no lathe on PATH" >&2; exit 1; }
done
export PATH="$clean_path"
"$CS" "${CSARGS[@]}" --disable-telemetry --disable-update-check --disable-workspace-trust \
  --disable-getting-started-override "$WS" >"$OUT/code-server.log" 2>&1 </dev/null &
CS_PID=$!
trap 'kill "$CS_PID" 2>/dev/null || true; wait "$CS_PID" 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break
  sleep 0.5
done
node "$HERE/test/e2e/e2e.mjs" "http://127.0.0.1:$PORT/?folder=$WS" "$WS" "$OUT"
