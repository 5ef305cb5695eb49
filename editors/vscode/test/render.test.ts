import { test } from "node:test";
import * as assert from "node:assert/strict";
import { applyChildUpdate, applyUpdate, childOf, emptyState, setConfigOptions, setModes } from "../src/chatState";
import { changesHtml, completionsHtml, itemHtml, planHtml, queueHtml, questionHtml, terminalHtml, terminalText, toolbarHtml } from "../src/webview/render";
import { queuePrompt, type ToolItem } from "../src/chatState";
import { formFields } from "../src/elicitation";

test("render: Markdown with highlighted code, raw HTML escaped, thoughts collapsed", () => {
  const s = emptyState();
  applyUpdate(s, { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "pondering" } });
  applyUpdate(s, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "**bold** <script>x</script>\n\n```js\nconst a = 1;\n```\n" } });
  const [thought, answer] = s.items.map(itemHtml);
  assert.match(thought, /^<details class="thought"><summary>Thinking<\/summary>/);
  assert.doesNotMatch(thought, /<details[^>]* open/);
  assert.match(answer, /<strong>bold<\/strong>/);
  assert.doesNotMatch(answer, /<script>/);
  assert.match(answer, /<pre class="hljs"><code><span class="hljs-keyword">const<\/span>/);
});

test("render: a tool card has its icon, status, diff, links and the agent's options", () => {
  const s = emptyState();
  applyUpdate(s, { sessionUpdate: "tool_call", toolCallId: "c1", title: "Edit a.txt", kind: "edit", status: "pending",
    content: [{ type: "diff", path: "/w/a.txt", oldText: "a\nb\n", newText: "a\nB\n" }], locations: [{ path: "/w/a.txt", line: 2 }] });
  const tool = s.items[0];
  if (tool.kind !== "tool") throw new Error("not a tool");
  tool.permission = { requestId: "perm-1", options: [{ optionId: "ok", name: "Allow once", kind: "allow_once" }, { optionId: "no", name: "Reject", kind: "reject_once" }] };
  const html = itemHtml(tool);
  assert.match(html, /✏️/);
  assert.match(html, /class="status">pending</);
  assert.match(html, /<div class="del">- b<\/div><div class="add">\+ B<\/div>/);
  assert.match(html, /data-path="\/w\/a.txt" data-line="2">a.txt:2</);
  assert.match(html, /data-req="perm-1" data-opt="ok">Allow once</);
  assert.match(html, /class="opt reject_once" data-req="perm-1" data-opt="no">Reject</);
});

test("render: the mode and model pickers and the plan show only when offered", () => {
  const s = emptyState();
  assert.doesNotMatch(toolbarHtml(s), /<select/);
  assert.doesNotMatch(toolbarHtml(s), /Sessions/);
  assert.equal(planHtml(s), "");
  setModes(s, { currentModeId: "plan", availableModes: [{ id: "default", name: "Default" }, { id: "plan", name: "Plan" }] });
  setConfigOptions(s, [{ id: "m", name: "Model", category: "model", type: "select", currentValue: "b", options: [{ value: "a", name: "A" }, { value: "b", name: "B" }] }]);
  s.canListSessions = true;
  const bar = toolbarHtml(s);
  assert.match(bar, /<select id="mode"[^>]*>.*<option value="plan" selected>Plan<\/option>/);
  assert.match(bar, /<select id="model"[^>]*>.*<option value="b" selected>B<\/option>/);
  assert.match(bar, /id="sessions"/);
  applyUpdate(s, { sessionUpdate: "plan", entries: [{ content: "Step one", status: "completed", priority: "high" }] });
  assert.match(planHtml(s), /<li class="plan-completed">Step one<\/li>/);
  assert.match(bar, /id="new"/);
});

test("render: / completion lists the agent's commands, and nothing when it sent none", () => {
  const s = emptyState();
  assert.equal(completionsHtml(s, "/"), "");
  applyUpdate(s, { sessionUpdate: "available_commands_update", availableCommands: [{ name: "compress", description: "Shrink" }, { name: "clear", description: "Clear" }] });
  assert.match(completionsHtml(s, "/co"), /\/compress <span>Shrink<\/span>/);
  assert.doesNotMatch(completionsHtml(s, "/co"), /clear/);
  assert.equal(completionsHtml(s, "hello /co"), "");
});

test("render: / completion offers custom commands by their namespaced names, and skills", () => {
  const s = emptyState();
  applyUpdate(s, { sessionUpdate: "available_commands_update", availableCommands: [
    { name: "git:msg", description: "Write a commit message" }, { name: "git:push", description: "Push" },
    { name: "review", description: "Reviews the change" }, { name: "tools-ext:audit", description: "Audits" }] });
  const all = completionsHtml(s, "/");
  for (const name of ["git:msg", "git:push", "review", "tools-ext:audit"]) assert.match(all, new RegExp(`data-name="${name}"`));
  const git = completionsHtml(s, "/git:");
  assert.match(git, /\/git:msg <span>Write a commit message<\/span>/);
  assert.doesNotMatch(git, /review/);
  assert.match(completionsHtml(s, "/rev"), /\/review <span>Reviews the change<\/span>/);
});

test("render: changed files list each hunk with Keep and Undo, which wait while a turn runs", () => {
  const s = emptyState();
  s.changes = [{ path: "/w/m.txt", hunks: [{ oldStart: 1, newStart: 1, removed: ["two"], added: ["TWO"] }, { oldStart: 8, newStart: 8, removed: ["nine"], added: ["NINE"] }] }];
  const html = changesHtml(s);
  assert.equal((html.match(/class="undo"/g) ?? []).length, 2);
  assert.equal((html.match(/class="keep"/g) ?? []).length, 2);
  assert.match(html, /@@ line 9 @@/);
  assert.doesNotMatch(html, /disabled/);
  s.busy = true;
  const during = changesHtml(s);
  assert.equal((during.match(/class="undo"[^>]*disabled/g) ?? []).length, 2, "listed, but not to be answered mid-turn");
});

test("render: the plan is pinned with its progress; the write_todos card does not repeat it", () => {
  const s = emptyState();
  applyUpdate(s, { sessionUpdate: "plan", entries: [{ content: "Read", status: "completed", priority: "high" }, { content: "Write", status: "in_progress", priority: "high" }] });
  assert.match(planHtml(s), /^<details class="plan" open><summary><b>Plan<\/b> 1\/2<\/summary>/);
  applyUpdate(s, { sessionUpdate: "tool_call", toolCallId: "t", title: "Write Todos: Set 2 todo(s)", kind: "think", status: "completed",
    rawInput: { todos: [{ description: "Read", status: "completed" }] }, content: [{ type: "content", content: { type: "text", text: "1. [completed] Read" } }] });
  const card = itemHtml(s.items[0]);
  assert.doesNotMatch(card, /\[completed\] Read/);
  assert.match(card, /pinned/);
  applyUpdate(s, { sessionUpdate: "tool_call", toolCallId: "u", title: "Shell", kind: "think", status: "completed", rawInput: { command: "x" },
    content: [{ type: "content", content: { type: "text", text: "kept output" } }] });
  assert.match(itemHtml(s.items[1]), /kept output/);
  applyUpdate(s, { sessionUpdate: "tool_call", toolCallId: "f", title: "Write Todos", kind: "think", status: "failed",
    rawInput: { todos: [{ description: "Read", status: "bogus" }] }, content: [{ type: "content", content: { type: "text", text: "Error: todos[0].status: bogus" } }] });
  const failed = itemHtml(s.items[2]);
  assert.match(failed, /Error: todos\[0\]\.status: bogus/, "a failed card shows its error");
  assert.doesNotMatch(failed, /pinned/);
});

test("render: a prompt's images show in the chat", () => {
  assert.match(itemHtml({ kind: "user", text: "look", images: ["data:image/png;base64,AAAA"] }), /<img class="thumb" alt="attached image" src="data:image\/png;base64,AAAA">/);
});

test("render: a sub-agent is nested in its call's card, with Stop while it works and its own permission card", () => {
  const s = emptyState();
  applyUpdate(s, { sessionUpdate: "tool_call", toolCallId: "call_1", title: "Invoke Subagent: generalist", kind: "other", status: "in_progress" });
  applyUpdate(s, { sessionUpdate: "subagent_update", sessionId: "s.call_1", title: "Generalist Agent", description: "run <the> checks",
    capabilities: { cancel: {} }, state: { state: "requires_action" }, _meta: { lathe: { toolCallId: "call_1" } } });
  applyChildUpdate(s, "s.call_1", { sessionUpdate: "tool_call", toolCallId: "call_1", title: "Shell: make", kind: "execute", status: "pending" });
  const nested = childOf(s, "s.call_1")!.items[0];
  if (nested.kind !== "tool") throw new Error("not a tool");
  nested.permission = { requestId: "perm-2", options: [{ optionId: "ok", name: "Allow once", kind: "allow_once" }] };
  const html = itemHtml(s.items[0]);
  assert.match(html, /<details class="subagent state-requires_action" data-session="s.call_1" open>/);
  assert.match(html, /↳ Generalist Agent<\/span> <span class="subagent-state">waiting for you</);
  assert.match(html, /<button class="stop-child" data-session="s.call_1"/);
  assert.match(html, /<div class="subagent-task">run &#60;the&#62; checks<\/div>/);
  assert.match(html, /<div class="subagent-log"><div class="tool status-pending" data-tool="call_1">/);
  assert.match(html, /data-req="perm-2" data-opt="ok">Allow once</);
  applyUpdate(s, { sessionUpdate: "subagent_update", sessionId: "s.call_1", state: { state: "idle", stopReason: "max_turn_requests" } });
  const done = itemHtml(s.items[0]);
  assert.doesNotMatch(done, /stop-child/);
  assert.doesNotMatch(done, /<details class="subagent[^>]* open>/);
  assert.match(done, /stopped at a limit \(max_turn_requests\)/);
  applyUpdate(s, { sessionUpdate: "subagent_update", sessionId: "s.call_1", state: { state: "idle", stopReason: "error", error: { code: -32603, message: "it failed" } } });
  assert.match(itemHtml(s.items[0]), /stopped: it failed/);
});

test("render: a hook's decision shows on the card it touched, its words escaped", () => {
  const s = emptyState();
  applyUpdate(s, { sessionUpdate: "tool_call", toolCallId: "c1", title: "Write", kind: "edit", status: "failed",
    _meta: { lathe: { hooks: [{ hook: "guard", event: "BeforeTool", decision: "blocked", message: "no <b>writes</b>", text: "Hook guard (BeforeTool) blocked: no <b>writes</b>" }] } } });
  const html = itemHtml(s.items[0]);
  assert.match(html, /<div class="hook hook-blocked"/);
  assert.match(html, /<span class="hook-name">Hook guard<\/span> <span class="hook-event">BeforeTool<\/span> <span class="hook-decision">blocked<\/span>: no &#60;b&#62;writes/);
});

test("render: a question is a form of its fields with Submit, Decline and Cancel; settled, what became of it", () => {
  const fields = formFields({ type: "object", required: ["q1"], properties: {
    q1: { type: "string", title: "DB", description: "Which database?", oneOf: [{ const: "pg", title: "Postgres" }, { const: "lite", title: "SQLite" }] },
    q2: { type: "string", title: "Notes", description: "Anything else?" },
    n: { type: "integer", title: "Count", minimum: 1 },
    ok: { type: "boolean", title: "Agree", default: true } } });
  const open = questionHtml({ kind: "question", id: "ask-1", message: "The agent asks", fields, state: "open" });
  assert.match(open, /<form class="q-form" data-q="ask-1">/);
  assert.match(open, /<input type="radio" name="ask-1:q1" value="pg"> Postgres/);
  assert.match(open, /DB \*<\/span>/);
  assert.match(open, /<input type="text" name="ask-1:q2" data-field="q2">/);
  assert.match(open, /<input type="number" name="ask-1:n" data-field="n" step="1" min="1">/);
  assert.match(open, /<input type="checkbox" name="ask-1:ok" data-field="ok" checked>/);
  assert.match(open, /class="q-submit" data-q="ask-1">Submit</);
  assert.match(open, /class="q-decline"/);
  const link = questionHtml({ kind: "question", id: "ask-2", message: "Log in", fields: [], url: "https://x.test/<b>", state: "open" });
  assert.match(link, /class="q-open" data-q="ask-2">https:\/\/x.test\/&#60;b&#62;</);
  assert.match(link, />Open</);
  const done = itemHtml({ kind: "question", id: "ask-1", message: "m", fields, state: "accept", summary: "DB: Postgres" });
  assert.match(done, /Answered: DB: Postgres/);
  assert.doesNotMatch(done, /<form/);
  assert.match(itemHtml({ kind: "question", id: "ask-3", message: "m", fields, state: "withdrawn" }), /Withdrawn by Lathe/);
});

test("render: the effort picker sits beside the model picker", () => {
  const s = emptyState();
  setConfigOptions(s, [{ id: "effort", name: "Effort", category: "thought_level", type: "select", currentValue: "high",
    options: [{ value: "default", name: "Default" }, { value: "high", name: "High" }] }]);
  assert.match(toolbarHtml(s), /<select id="effort"[^>]*><option value="default"[^>]*>Effort: Default<\/option><option value="high"[^>]*selected>Effort: High/);
});

test("render: queued prompts follow the chat marked queued, each with × to take it back; steered text is marked", () => {
  const s = emptyState();
  assert.equal(queueHtml(s), "");
  queuePrompt(s, { id: "queued-1", text: "then <b>this</b>" });
  const html = queueHtml(s);
  assert.match(html, /^<div class="user queued" data-queued="queued-1"><span class="tag">queued<\/span>/);
  assert.match(html, /<button class="unqueue" data-queued="queued-1"/);
  assert.match(html, /then &#60;b&#62;this&#60;\/b&#62;/);
  assert.match(itemHtml({ kind: "user", text: "use tabs", steered: true }), /^<div class="user steered"><span class="tag">added to the turn<\/span>use tabs/);
  assert.doesNotMatch(itemHtml({ kind: "user", text: "plain" }), /tag|queued|steered/);
});

test("render: a shell call's terminal shows its cwd, the output so far and how it ended, escaped and without colours", () => {
  const s = emptyState();
  applyUpdate(s, { sessionUpdate: "tool_call", toolCallId: "c1", title: "make", kind: "execute", status: "in_progress",
    content: [{ type: "terminal", terminalId: "c1" }], _meta: { terminal_info: { terminal_id: "c1", cwd: "/w/proj" } } });
  applyUpdate(s, { sessionUpdate: "tool_call_update", toolCallId: "c1", _meta: { terminal_output: { terminal_id: "c1", data: "\x1b[31mred <x>\x1b[0m\r\n10%\r50%\r100%\n" } } });
  const tool = s.items[0] as ToolItem;
  let html = itemHtml(tool);
  assert.match(html, /<div class="terminal terminal-running" data-terminal="c1">/);
  assert.match(html, /<span class="terminal-cwd"[^>]*>\/w\/proj<\/span>/);
  assert.match(html, /<span class="terminal-exit">running…<\/span>/);
  assert.match(html, /<pre class="terminal-output">red &#60;x&#62;\n100%\n<\/pre>/);
  assert.doesNotMatch(html, /\(terminal c1\)/);
  applyUpdate(s, { sessionUpdate: "tool_call_update", toolCallId: "c1", status: "completed", _meta: { terminal_exit: { terminal_id: "c1", exit_code: 2, signal: null } } });
  html = itemHtml(tool);
  assert.match(html, /terminal terminal-failed/);
  assert.match(html, /exit code 2/);
  assert.match(terminalHtml({ id: "t", output: "", exit: { code: 0, signal: null } }), /terminal-ok.*exit code 0/);
  assert.match(terminalHtml({ id: "t", output: "", exit: { code: null, signal: "SIGTERM" } }), /ended by SIGTERM/);
  // A long run shows its end.
  const long = terminalHtml({ id: "t", output: "first line\n" + "x".repeat(70_000) + "\nlast line\n" });
  assert.match(long, /the start is cut here/);
  assert.doesNotMatch(long, /first line/);
  assert.match(long, /last line/);
  assert.equal(terminalText("a\x1b]0;title\x07b\r\n"), "ab\n");
});

test("render: exit_plan_mode's question shows the plan as Markdown with Lathe's options", () => {
  const s = emptyState();
  applyUpdate(s, { sessionUpdate: "tool_call", toolCallId: "c9", title: "Ready to carry out the plan?", kind: "switch_mode", status: "pending",
    content: [{ type: "content", content: { type: "text", text: "# Plan\n1. Change src.txt\n2. Test it\n" } }] });
  const tool = s.items[0] as ToolItem;
  tool.permission = { requestId: "perm-3", options: [
    { optionId: "autoEdit", name: "Yes, and allow edits", kind: "allow_always" },
    { optionId: "default", name: "Yes, and ask before edits", kind: "allow_once" },
    { optionId: "reject_once", name: "No, keep planning", kind: "reject_once" }] };
  const html = itemHtml(tool);
  assert.match(html, /<h1>Plan<\/h1>/);
  assert.match(html, /<ol>\s*<li>Change src.txt<\/li>\s*<li>Test it<\/li>\s*<\/ol>/);
  for (const [id, name] of [["autoEdit", "Yes, and allow edits"], ["default", "Yes, and ask before edits"], ["reject_once", "No, keep planning"]]) {
    assert.match(html, new RegExp(`data-req="perm-3" data-opt="${id}">${name}<`));
  }
});
