import { test } from "node:test";
import * as assert from "node:assert/strict";
import type * as acp from "@agentclientprotocol/sdk";
import { applyChildUpdate, applyUpdate, authenticateParams, childOf, commandChanges, dropQueued, findTool, emptyState, loginChoices, parseHeaders, queuePrompt, setConfigOptions, setModes, staleChildren, usageText, type CompactionItem, type ToolItem } from "../src/chatState";

const text = (t: string): acp.ContentBlock => ({ type: "text", text: t });

test("state: message and thought chunks stream into one item each", () => {
  const s = emptyState();
  applyUpdate(s, { sessionUpdate: "agent_thought_chunk", content: text("hmm ") });
  applyUpdate(s, { sessionUpdate: "agent_thought_chunk", content: text("ok") });
  applyUpdate(s, { sessionUpdate: "agent_message_chunk", content: text("**Hel") });
  applyUpdate(s, { sessionUpdate: "agent_message_chunk", content: text("lo**") });
  assert.deepEqual(s.items, [{ kind: "thought", text: "hmm ok" }, { kind: "agent", text: "**Hello**" }]);
});

test("state: a tool call and its updates make one card with diff, output and locations", () => {
  const s = emptyState();
  applyUpdate(s, { sessionUpdate: "tool_call", toolCallId: "c1", title: "Edit a.txt", kind: "edit", status: "pending", locations: [{ path: "/w/a.txt" }] });
  applyUpdate(s, { sessionUpdate: "tool_call_update", toolCallId: "c1", status: "completed",
    content: [{ type: "diff", path: "/w/a.txt", oldText: "x\n", newText: "y\n" }, { type: "content", content: text("done") }],
    locations: [{ path: "/w/a.txt", line: 3 }] });
  assert.equal(s.items.length, 1);
  const tool = s.items[0] as ToolItem;
  assert.equal(tool.status, "completed");
  assert.equal(tool.title, "Edit a.txt");
  assert.deepEqual(tool.diffs, [{ path: "/w/a.txt", oldText: "x\n", newText: "y\n" }]);
  assert.deepEqual(tool.text, ["done"]);
  assert.deepEqual(tool.locations, [{ path: "/w/a.txt", line: 3 }]);
});

test("state: an update without content keeps the card's content", () => {
  const s = emptyState();
  applyUpdate(s, { sessionUpdate: "tool_call", toolCallId: "c1", title: "Shell", kind: "execute", content: [{ type: "content", content: text("$ ls") }] });
  applyUpdate(s, { sessionUpdate: "tool_call_update", toolCallId: "c1", status: "in_progress" });
  assert.deepEqual((s.items[0] as ToolItem).text, ["$ ls"]);
});

test("state: plan, commands, usage and mode updates", () => {
  const s = emptyState();
  applyUpdate(s, { sessionUpdate: "plan", entries: [{ content: "Read", status: "completed", priority: "high" }, { content: "Edit", status: "pending", priority: "low" }] });
  applyUpdate(s, { sessionUpdate: "available_commands_update", availableCommands: [{ name: "compress", description: "Shrink history" }] });
  applyUpdate(s, { sessionUpdate: "usage_update", used: 10, size: 100 });
  assert.equal(s.plan?.length, 2);
  assert.deepEqual(s.commands, [{ name: "compress", description: "Shrink history" }]);
  assert.deepEqual(s.usage, { used: 10, size: 100 });
  applyUpdate(s, { sessionUpdate: "current_mode_update", currentModeId: "plan" });
  assert.equal(s.modes as unknown, undefined, "no picker when the agent offered no modes");
  setModes(s, { currentModeId: "default", availableModes: [{ id: "default", name: "Default" }, { id: "plan", name: "Plan" }] });
  applyUpdate(s, { sessionUpdate: "current_mode_update", currentModeId: "plan" });
  assert.equal(s.modes!.current, "plan");
});

test("state: the model picker shows only when a model config option is offered", () => {
  const s = emptyState();
  setConfigOptions(s, undefined);
  assert.equal(s.models, undefined);
  setConfigOptions(s, [{ id: "model", name: "Model", category: "model", type: "select", currentValue: "pro",
    options: [{ value: "pro", name: "Pro" }, { value: "flash", name: "Flash" }] }]);
  assert.deepEqual(s.models, { configId: "model", current: "pro", options: [{ value: "pro", name: "Pro" }, { value: "flash", name: "Flash" }] });
  applyUpdate(s, { sessionUpdate: "config_option_update", configOptions: [] });
  assert.equal(s.models, undefined);
});

test("state: the logins offered are the agent's authMethods, terminal ones left out, each with what it asks", () => {
  assert.deepEqual(loginChoices(undefined), []);
  assert.deepEqual(loginChoices([
    { id: "oauth-personal", name: "Log in with Google" },
    { id: "gemini-api-key", name: "Use Gemini API key", description: "A key", _meta: { "api-key": { provider: "google" } } },
    { id: "tui", name: "Log in in a terminal", type: "terminal", args: ["--login"] },
    { id: "vertex-ai", name: "Vertex AI" },
    { id: "gateway", name: "Use an AI gateway", description: null, _meta: { gateway: { protocol: "google" } } },
  ]), [
    { id: "oauth-personal", name: "Log in with Google", description: "", ask: "browser" },
    { id: "gemini-api-key", name: "Use Gemini API key", description: "A key", ask: "key" },
    { id: "vertex-ai", name: "Vertex AI", description: "", ask: "optionalKey" },
    { id: "gateway", name: "Use an AI gateway", description: "", ask: "gateway" },
  ]);
});

test("state: what a login gives goes to authenticate's _meta as Gemini CLI reads it", () => {
  assert.deepEqual(authenticateParams({ methodId: "vertex-ai" }), { methodId: "vertex-ai" });
  assert.deepEqual(authenticateParams({ methodId: "gemini-api-key", key: "k" }), { methodId: "gemini-api-key", _meta: { "api-key": "k" } });
  assert.deepEqual(authenticateParams({ methodId: "gateway", gateway: { baseUrl: "https://gw.test", headers: { Authorization: "Bearer t" } } }),
    { methodId: "gateway", _meta: { gateway: { baseUrl: "https://gw.test", headers: { Authorization: "Bearer t" } } } });
  assert.deepEqual(parseHeaders(""), {});
  assert.deepEqual(parseHeaders("Authorization: Bearer a:b; X-Team: core\nX-Empty:"), { Authorization: "Bearer a:b", "X-Team": "core", "X-Empty": "" });
  assert.match(parseHeaders("no colon here") as string, /not a header name/);
  assert.match(parseHeaders("Bad Name: x") as string, /not a header name/);
});

test("state: a sub-agent's child session is nested under the call that started it", () => {
  const s = emptyState();
  applyUpdate(s, { sessionUpdate: "tool_call", toolCallId: "call_1", title: "Invoke Subagent: generalist: fix it", kind: "other", status: "pending" });
  applyUpdate(s, { sessionUpdate: "subagent_update", sessionId: "s.call_1", title: "Generalist Agent", description: "fix it",
    capabilities: { cancel: {} }, state: { state: "running" }, _meta: { lathe: { toolCallId: "call_1" } } });
  assert.equal(applyChildUpdate(s, "s.call_1", { sessionUpdate: "session_message_chunk", messageId: "m", content: text("fix it") }), true);
  applyChildUpdate(s, "s.call_1", { sessionUpdate: "agent_message_chunk", content: text("Looking.") });
  applyChildUpdate(s, "s.call_1", { sessionUpdate: "tool_call", toolCallId: "call_1", title: "Shell: make", kind: "execute", status: "in_progress" });
  assert.equal(applyChildUpdate(s, "other", { sessionUpdate: "agent_message_chunk", content: text("x") }), false);
  assert.equal(s.items.length, 1, "the child's items stay out of the chat");
  const view = (s.items[0] as ToolItem).subagent!;
  assert.equal(childOf(s, "s.call_1"), view);
  assert.deepEqual({ title: view.title, task: view.task, state: view.state, canStop: view.canStop },
    { title: "Generalist Agent", task: "fix it", state: "running", canStop: true });
  assert.deepEqual(view.items.map((i) => i.kind), ["user", "agent", "tool"]);
  assert.equal((view.items[2] as ToolItem).title, "Shell: make");
  applyUpdate(s, { sessionUpdate: "subagent_update", sessionId: "s.call_1", state: { state: "idle", stopReason: "cancelled" } });
  assert.deepEqual({ state: view.state, stopReason: view.stopReason, canStop: view.canStop }, { state: "idle", stopReason: "cancelled", canStop: true });
});

test("state: after a reload a child still running is shown as no longer running, and cannot be stopped", () => {
  const s = emptyState();
  applyUpdate(s, { sessionUpdate: "subagent_update", sessionId: "s.c", title: "Investigator", capabilities: { cancel: {} }, state: { state: "running" } });
  const tool = s.items[0] as ToolItem;  // no call named: a card of its own
  assert.equal(tool.subagent?.title, "Investigator");
  staleChildren(s);
  assert.deepEqual({ state: tool.subagent?.state, canStop: tool.subagent?.canStop }, { state: "unknown", canStop: false });
});

test("state: a hook's note on a call comes from _meta and is not repeated among its output", () => {
  const s = emptyState();
  const note = { hook: "guard", event: "BeforeTool", decision: "blocked", message: "no writes here", text: "Hook guard (BeforeTool) blocked: no writes here" };
  applyUpdate(s, { sessionUpdate: "tool_call", toolCallId: "c1", title: "Write", kind: "edit" });
  applyUpdate(s, { sessionUpdate: "tool_call_update", toolCallId: "c1", status: "failed",
    content: [{ type: "content", content: text("Tool execution blocked: no writes here") }, { type: "content", content: text(note.text) }],
    _meta: { lathe: { hooks: [note] } } });
  const tool = s.items[0] as ToolItem;
  assert.deepEqual(tool.hooks, [note]);
  assert.deepEqual(tool.text, ["Tool execution blocked: no writes here"]);
  // Another agent's _meta, or none, is no hook note.
  applyUpdate(s, { sessionUpdate: "tool_call", toolCallId: "c2", title: "Read", _meta: { other: 1 } });
  assert.equal((s.items[1] as ToolItem).hooks, undefined);
});

test("state: a new messageId starts a new message; one id streams into one item", () => {
  const s = emptyState();
  applyUpdate(s, { sessionUpdate: "agent_message_chunk", content: text("First "), messageId: "m1" });
  applyUpdate(s, { sessionUpdate: "agent_message_chunk", content: text("reply."), messageId: "m1" });
  applyUpdate(s, { sessionUpdate: "agent_message_chunk", content: text("A note."), messageId: "m2" });
  assert.deepEqual(s.items, [{ kind: "agent", text: "First reply.", messageId: "m1" }, { kind: "agent", text: "A note.", messageId: "m2" }]);
});

test("state: the meter shows tokens and the session's cost; the effort picker comes from thought_level", () => {
  const s = emptyState();
  applyUpdate(s, { sessionUpdate: "usage_update", used: 1240, size: 1048576, cost: { amount: 0.0019, currency: "USD" } });
  assert.equal(usageText(s.usage), "1,240 / 1,048,576 tokens · $0.0019");
  applyUpdate(s, { sessionUpdate: "usage_update", used: 10, size: 100, cost: { amount: 12.5, currency: "EUR" } });
  assert.equal(usageText(s.usage), "10 / 100 tokens · 12.50 EUR");
  applyUpdate(s, { sessionUpdate: "usage_update", used: 10, size: 100 });
  assert.equal(usageText(s.usage), "10 / 100 tokens");
  setConfigOptions(s, [
    { id: "model", name: "Model", category: "model", type: "select", currentValue: "m", options: [{ value: "m", name: "m" }] },
    { id: "effort", name: "Effort", category: "thought_level", type: "select", currentValue: "default",
      options: [{ value: "default", name: "Default" }, { value: "high", name: "High", description: "A thinking budget of 24576 tokens" }] },
  ]);
  assert.deepEqual(s.efforts, { configId: "effort", current: "default",
    options: [{ value: "default", name: "Default" }, { value: "high", name: "High", description: "A thinking budget of 24576 tokens" }] });
  setConfigOptions(s, [{ id: "model", name: "Model", category: "model", type: "select", currentValue: "m", options: [{ value: "m", name: "m" }] }]);
  assert.equal(s.efforts, undefined);
});

test("state: notices and compactions are items of their own", () => {
  const s = emptyState();
  applyUpdate(s, { sessionUpdate: "notice", severity: "warning", title: "Loop detected", description: "the same call" });
  applyUpdate(s, { sessionUpdate: "compaction_update", compactionId: "c1", status: "in_progress" });
  applyUpdate(s, { sessionUpdate: "compaction_summary_chunk", compactionId: "c1", content: text("kept this") });
  applyUpdate(s, { sessionUpdate: "compaction_update", compactionId: "c1", status: "completed" });
  assert.deepEqual(s.items[0], { kind: "notice", text: "Loop detected: the same call", severity: "warning" });
  assert.equal(s.items.length, 2);
  assert.deepEqual(s.items[1] as CompactionItem, { kind: "compaction", id: "c1", status: "completed", summary: "kept this" });
});

test("state: a queued prompt is pending until Lathe echoes it, then the person's message, once", () => {
  const s = emptyState();
  s.items.push({ kind: "user", text: "first" });
  queuePrompt(s, { id: "q1", text: "second", images: ["data:image/png;base64,AA"] });
  queuePrompt(s, { id: "q2", text: "third" });
  applyUpdate(s, { sessionUpdate: "agent_message_chunk", content: text("First done.") });
  assert.deepEqual(s.queued?.map((q) => q.id), ["q1", "q2"]);
  assert.deepEqual(s.items.map((i) => i.kind), ["user", "agent"], "the running turn's reply stays above the pending ones");
  // The echo carries the text blocks only; the chat keeps what the person sent, images included.
  applyUpdate(s, { sessionUpdate: "user_message_chunk", content: text("second"), messageId: "m2" });
  assert.deepEqual(s.queued?.map((q) => q.id), ["q2"]);
  assert.deepEqual(s.items[2], { kind: "user", text: "second", images: ["data:image/png;base64,AA"], messageId: "m2" });
  applyUpdate(s, { sessionUpdate: "agent_message_chunk", content: text("Second done."), messageId: "a2" });
  applyUpdate(s, { sessionUpdate: "user_message_chunk", content: text("third"), messageId: "m3" });
  assert.equal(s.queued, undefined);
  assert.deepEqual(s.items.filter((i) => i.kind === "user").map((i) => "text" in i && i.text), ["first", "second", "third"]);
  // With nothing queued, an echo (a steered text that started a turn, a replay) is a message of its own.
  applyUpdate(s, { sessionUpdate: "user_message_chunk", content: text("later"), messageId: "m4" });
  assert.equal(s.items.filter((i) => i.kind === "user").length, 4);
});

test("state: a queued prompt that will not run leaves no pending entry", () => {
  const s = emptyState();
  queuePrompt(s, { id: "q1", text: "one" });
  queuePrompt(s, { id: "q2", text: "two" });
  dropQueued(s, "q2");
  assert.deepEqual(s.queued, [{ id: "q1", text: "one" }]);
  dropQueued(s, "q1");
  assert.equal(s.queued, undefined);
  assert.deepEqual(s.items, []);
});

test("state: a shell call's terminal streams live from _meta: where it runs, the output appended, how it ended", () => {
  const s = emptyState();
  applyUpdate(s, { sessionUpdate: "tool_call", toolCallId: "c1", title: "printf hello", kind: "execute", status: "pending" });
  applyUpdate(s, { sessionUpdate: "tool_call_update", toolCallId: "c1", content: [{ type: "terminal", terminalId: "c1" }],
    _meta: { terminal_info: { terminal_id: "c1", cwd: "/w" } } });
  applyUpdate(s, { sessionUpdate: "tool_call_update", toolCallId: "c1", status: "in_progress" });
  applyUpdate(s, { sessionUpdate: "tool_call_update", toolCallId: "c1", _meta: { terminal_output: { terminal_id: "c1", data: "hel" } } });
  applyUpdate(s, { sessionUpdate: "tool_call_update", toolCallId: "c1", _meta: { terminal_output: { terminal_id: "c1", data: "lo\nworld\n" } } });
  const tool = s.items[0] as ToolItem;
  assert.deepEqual({ ...tool.terminal }, { id: "c1", cwd: "/w", output: "hello\nworld\n" });
  assert.deepEqual(tool.text, [], "the terminal is the card's view, not a line of text");
  // The final update: the terminal again, how it ended in words, and terminal_exit beside the hooks' notes.
  applyUpdate(s, { sessionUpdate: "tool_call_update", toolCallId: "c1", status: "completed",
    content: [{ type: "terminal", terminalId: "c1" }, { type: "content", content: text("[exit code 3]") }],
    _meta: { lathe: { hooks: [] }, terminal_exit: { terminal_id: "c1", exit_code: 3, signal: null } } });
  assert.deepEqual(tool.terminal?.exit, { code: 3, signal: null });
  assert.equal(tool.terminal?.output, "hello\nworld\n");
  assert.deepEqual(tool.text, ["[exit code 3]"]);
  // Another terminal's output is not this card's.
  applyUpdate(s, { sessionUpdate: "tool_call_update", toolCallId: "c1", _meta: { terminal_output: { terminal_id: "other", data: "x" } } });
  assert.equal(tool.terminal?.output, "hello\nworld\n");
  // A signal, and a terminal of the editor's own (not display-only) named as before.
  applyUpdate(s, { sessionUpdate: "tool_call", toolCallId: "c2", title: "sleep", kind: "execute",
    _meta: { terminal_info: { terminal_id: "c2" } } });
  applyUpdate(s, { sessionUpdate: "tool_call_update", toolCallId: "c2", _meta: { terminal_exit: { terminal_id: "c2", exit_code: null, signal: "SIGKILL" } } });
  assert.deepEqual((s.items[1] as ToolItem).terminal, { id: "c2", output: "", exit: { code: null, signal: "SIGKILL" } });
  applyUpdate(s, { sessionUpdate: "tool_call", toolCallId: "c3", title: "ls", kind: "execute", content: [{ type: "terminal", terminalId: "term-1" }] });
  assert.deepEqual((s.items[2] as ToolItem).text, ["(terminal term-1)"]);
  assert.equal((s.items[2] as ToolItem).terminal, undefined);
});

test("state: a command's changed files are the diffs on its final update; an edit's diffs and earlier updates name none", () => {
  const s = emptyState();
  const diffs: acp.ToolCallContent[] = [
    { type: "content", content: text("b.txt was deleted") },
    { type: "diff", path: "/w/b.txt", oldText: "old\n", newText: "new\n" },
    { type: "diff", path: "/w/c.txt", oldText: null, newText: "made\n" },
  ];
  applyUpdate(s, { sessionUpdate: "tool_call", toolCallId: "x", kind: "execute", status: "pending", title: "echo" });
  const running: acp.SessionUpdate = { sessionUpdate: "tool_call_update", toolCallId: "x", status: "in_progress", content: diffs };
  applyUpdate(s, running);
  assert.deepEqual(commandChanges(findTool(s, "x"), running), []);
  const done: acp.SessionUpdate = { sessionUpdate: "tool_call_update", toolCallId: "x", status: "completed", content: diffs };
  applyUpdate(s, done);
  assert.deepEqual(commandChanges(findTool(s, "x"), done), [
    { path: "/w/b.txt", oldText: "old\n", newText: "new\n" }, { path: "/w/c.txt", oldText: null, newText: "made\n" }]);
  const failed: acp.SessionUpdate = { ...done, status: "failed" };
  assert.equal(commandChanges(findTool(s, "x"), failed).length, 2, "a command that failed may have changed files too");
  applyUpdate(s, { sessionUpdate: "tool_call", toolCallId: "e", kind: "edit", status: "pending", title: "WriteFile" });
  const edit: acp.SessionUpdate = { sessionUpdate: "tool_call_update", toolCallId: "e", status: "completed", content: diffs };
  applyUpdate(s, edit);
  assert.deepEqual(commandChanges(findTool(s, "e"), edit), [], "an edit's diffs are tracked through its fs write");
  assert.deepEqual(commandChanges(undefined, done), []);
});
