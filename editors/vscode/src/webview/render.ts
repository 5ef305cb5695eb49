// HTML for the chat webview, from ChatState. No DOM here, so unit tests can
// render synthetic states in node. Markdown via markdown-it (raw HTML off),
// code via highlight.js.
import MarkdownIt from "markdown-it";
import hljs from "highlight.js/lib/common";
import type { ChatState, CompactionItem, Item, QuestionItem, SubagentView, TerminalView, ToolItem } from "../chatState";
import type { FormField } from "../elicitation";
import { computeHunks } from "../hunks";

const md = new MarkdownIt({
  html: false,
  linkify: true,
  highlight: (code, lang) => {
    const html = lang && hljs.getLanguage(lang) ? hljs.highlight(code, { language: lang }).value : hljs.highlightAuto(code).value;
    return `<pre class="hljs"><code>${html}</code></pre>`;
  },
});

// The whole log is re-rendered on each update; finished items hit this cache.
const rendered = new Map<string, string>();
function markdown(text: string): string {
  let html = rendered.get(text);
  if (html === undefined) {
    html = md.render(text);
    if (rendered.size > 500) rendered.clear();
    rendered.set(text, html);
  }
  return html;
}

export const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const ICONS: Record<string, string> = { read: "📖", edit: "✏️", delete: "🗑", move: "↔", search: "🔍", execute: "▶", think: "💭", fetch: "🌐", switch_mode: "⇄", other: "⚙" };

export function diffHtml(oldText: string | null, newText: string): string {
  const rows: string[] = [];
  for (const h of computeHunks(oldText ?? "", newText)) {
    rows.push(`<div class="hunk-head">@@ line ${h.newStart + 1} @@</div>`);
    for (const l of h.oldLines) rows.push(`<div class="del">- ${esc(l)}</div>`);
    for (const l of h.newLines) rows.push(`<div class="add">+ ${esc(l)}</div>`);
  }
  return `<div class="diff">${rows.join("")}</div>`;
}

export function toolHtml(t: ToolItem): string {
  const links = t.locations.map((l) =>
    `<a href="#" class="loc" data-path="${esc(l.path)}" data-line="${l.line ?? ""}">${esc(l.path.split("/").pop() ?? l.path)}${l.line ? ":" + l.line : ""}</a>`).join(" ");
  // A plan is pinned, not repeated; a failed call shows its content (the error).
  const body = t.todos && t.status !== "failed" ? `<div class="notice">The plan is pinned at the top of the chat.</div>`
    : t.text.map((x) => `<div class="md">${markdown(x)}</div>`).join("");
  const diffs = t.diffs.map((d) =>
    `${diffHtml(d.oldText, d.newText)}<button class="sbs" data-path="${esc(d.path)}">Side by side</button>`).join("");
  const perm = t.permission
    ? `<div class="permission">${t.permission.options.map((o) =>
        `<button class="opt ${o.kind}" data-req="${t.permission!.requestId}" data-opt="${esc(o.optionId)}">${esc(o.name)}</button>`).join("")}</div>`
    : "";
  const answer = t.answer ? `<div class="answer">${esc(t.answer)}</div>` : "";
  const child = t.subagent ? subagentHtml(t.subagent) : "";
  const terminal = t.terminal ? terminalHtml(t.terminal) : "";
  const hooks = (t.hooks ?? []).map((h) => `<div class="hook hook-${esc(h.decision.split(" ")[0])}" title="${esc(h.text)}">` +
    `<span class="hook-name">Hook ${esc(h.hook)}</span> <span class="hook-event">${esc(h.event)}</span> ` +
    `<span class="hook-decision">${esc(h.decision)}</span>${h.message ? `: ${esc(h.message)}` : ""}</div>`).join("");
  return `<div class="tool status-${t.status}" data-tool="${esc(t.id)}">
<div class="tool-head"><span class="icon">${ICONS[t.toolKind] ?? "⚙"}</span><span class="title">${esc(t.title)}</span><span class="status">${esc(t.status)}</span></div>
<div class="locs">${links}</div>${hooks}${child}${terminal}${body}${diffs}${perm}${answer}</div>`;
}

/** The most of a command's output a card shows: its end (the whole run is the model's, and in the session's record). */
const TERMINAL_CHARS = 64 * 1024;

/**
 * A terminal's bytes as plain lines: colours and other escape sequences dropped, CR LF
 * as a line end, and a line redrawn with CR (a progress bar) shown as it was last drawn.
 */
export function terminalText(output: string): string {
  const plain = output
    .replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, "")
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, "")
    .replace(/\x1b[@-_]/g, "")
    .replace(/\r+\n/g, "\n");
  return plain.split("\n").map((l) => l.slice(l.lastIndexOf("\r", l.length - 2) + 1).replace(/\r$/, "")).join("\n");
}

function exitText(t: TerminalView): string {
  if (!t.exit) return "running…";
  if (t.exit.signal) return `ended by ${t.exit.signal}`;
  if (t.exit.code === null) return "ended";
  return `exit code ${t.exit.code}`;
}

/** A shell command's live output on its card: where it runs, what it printed so far, how it ended. */
export function terminalHtml(t: TerminalView): string {
  let text = terminalText(t.output);
  const cut = text.length > TERMINAL_CHARS;
  if (cut) text = text.slice(text.length - TERMINAL_CHARS);
  const state = t.exit ? (t.exit.code === 0 && !t.exit.signal ? "ok" : "failed") : "running";
  const cwd = t.cwd ? `<span class="terminal-cwd" title="Where the command runs">${esc(t.cwd)}</span>` : "";
  return `<div class="terminal terminal-${state}" data-terminal="${esc(t.id)}"><div class="terminal-head">${cwd}` +
    `<span class="terminal-exit">${esc(exitText(t))}</span></div>` +
    `<pre class="terminal-output">${cut ? "… (the start is cut here)\n" : ""}${esc(text)}</pre></div>`;
}

/** How a child's state reads on its card. */
export function subagentState(v: SubagentView): string {
  switch (v.state) {
    case "running": return "working";
    case "requires_action": return "waiting for you";
    case "unknown": return "no longer running";
    case "idle":
      if (v.error) return `stopped: ${v.error}`;
      if (v.stopReason === "cancelled") return "stopped";
      if (v.stopReason && v.stopReason !== "end_turn") return `stopped at a limit (${v.stopReason})`;
      return "done";
    default: return v.state;
  }
}

/** A sub-agent's own transcript, nested in the card of the call that started it, with Stop while it works. */
export function subagentHtml(v: SubagentView): string {
  const working = v.state === "running" || v.state === "requires_action";
  const stop = working && v.canStop ? `<button class="stop-child" data-session="${esc(v.sessionId)}" title="Stop this sub-agent only">Stop</button>` : "";
  const task = v.task ? `<div class="subagent-task">${esc(v.task)}</div>` : "";
  return `<details class="subagent state-${esc(v.state)}" data-session="${esc(v.sessionId)}"${working ? " open" : ""}>
<summary><span class="subagent-title">↳ ${esc(v.title)}</span> <span class="subagent-state">${esc(subagentState(v))}</span></summary>${stop}${task}
<div class="subagent-log">${v.items.map(itemHtml).join("")}</div></details>`;
}

function fieldHtml(q: string, f: FormField): string {
  const name = `${esc(q)}:${esc(f.name)}`;
  const dflt = f.default;
  const label = `<span class="f-title">${esc(f.title)}${f.required ? " *" : ""}</span>${f.description ? `<span class="f-desc">${markdown(f.description)}</span>` : ""}`;
  switch (f.type) {
    case "boolean":
      return `<label class="field check"><input type="checkbox" name="${name}" data-field="${esc(f.name)}"${dflt === true ? " checked" : ""}> ${label}</label>`;
    case "choice":
    case "multi": {
      const type = f.type === "choice" ? "radio" : "checkbox";
      const picked = (v: string) => (Array.isArray(dflt) ? dflt.includes(v) : dflt === v);
      return `<fieldset class="field" data-field="${esc(f.name)}" data-type="${f.type}"><legend>${label}</legend>${(f.options ?? []).map((o) =>
        `<label class="choice"><input type="${type}" name="${name}" value="${esc(o.value)}"${picked(o.value) ? " checked" : ""}> ${esc(o.title)}</label>`).join("")}</fieldset>`;
    }
    default: {
      const type = f.type === "number" || f.type === "integer" ? "number" : ({ email: "email", uri: "url", date: "date", "date-time": "datetime-local" } as Record<string, string>)[f.format ?? ""] ?? "text";
      const step = f.type === "integer" ? ` step="1"` : f.type === "number" ? ` step="any"` : "";
      const range = `${f.minimum !== undefined ? ` min="${f.minimum}"` : ""}${f.maximum !== undefined ? ` max="${f.maximum}"` : ""}`;
      const value = dflt !== undefined && !Array.isArray(dflt) ? ` value="${esc(String(dflt))}"` : "";
      return `<label class="field">${label}<input type="${type}" name="${name}" data-field="${esc(f.name)}"${step}${range}${value}></label>`;
    }
  }
}

const SETTLED: Record<string, string> = { accept: "Answered", decline: "You declined", cancel: "You cancelled", withdrawn: "Withdrawn by Lathe" };

/** A question: its form (or link) and Submit / Decline / Cancel while open; what became of it after. */
export function questionHtml(q: QuestionItem): string {
  const head = `<div class="q-message md">${markdown(q.message)}</div>`;
  if (q.state !== "open") {
    const summary = q.summary ? `: ${esc(q.summary)}` : "";
    return `<div class="question settled state-${q.state}" data-q="${esc(q.id)}">${head}<div class="answer">${SETTLED[q.state]}${summary}</div></div>`;
  }
  const body = q.url
    ? `<div class="q-url"><a href="#" class="q-open" data-q="${esc(q.id)}">${esc(q.url)}</a></div>`
    : `<form class="q-form" data-q="${esc(q.id)}">${q.fields.map((f) => fieldHtml(q.id, f)).join("")}</form>`;
  const problem = q.problem ? `<div class="error">${esc(q.problem)}</div>` : "";
  const submit = q.url ? "Open" : "Submit";
  return `<div class="question" data-q="${esc(q.id)}">${head}${body}${problem}<div class="q-actions">
<button class="q-submit" data-q="${esc(q.id)}">${submit}</button><button class="q-decline" data-q="${esc(q.id)}">Decline</button><button class="q-cancel" data-q="${esc(q.id)}">Cancel</button></div></div>`;
}

const COMPACTION: Record<string, string> = { in_progress: "Compacting the conversation…", completed: "Conversation compacted", failed: "Compaction failed", cancelled: "Compaction cancelled" };

export function compactionHtml(c: CompactionItem): string {
  const title = COMPACTION[c.status] ?? `Compaction: ${c.status}`;
  const error = c.error ? `<div class="error">${esc(c.error)}</div>` : "";
  const summary = c.summary ? `<details><summary>What it kept</summary><div class="md">${markdown(c.summary)}</div></details>` : "";
  return `<div class="compaction status-${esc(c.status)}"><b>${esc(title)}</b>${error}${summary}</div>`;
}

export function itemHtml(item: Item): string {
  switch (item.kind) {
    case "user": return `<div class="user${item.steered ? " steered" : ""}">${item.steered ? `<span class="tag">added to the turn</span>` : ""}` +
      `${esc(item.text)}${thumbs(item.images)}</div>`;
    case "agent": return `<div class="agent md">${markdown(item.text)}</div>`;
    case "thought": return `<details class="thought"><summary>Thinking</summary><div class="md">${markdown(item.text)}</div></details>`;
    case "error": return `<div class="error">${esc(item.text)}</div>`;
    case "notice": return `<div class="notice${item.severity ? ` severity-${esc(item.severity)}` : ""}">${esc(item.text)}</div>`;
    case "tool": return toolHtml(item);
    case "question": return questionHtml(item);
    case "compaction": return compactionHtml(item);
  }
}

const thumbs = (images: string[] | undefined) => (images ?? []).map((src) => `<img class="thumb" alt="attached image" src="${esc(src)}">`).join("");

/** The prompts waiting behind the running turn, after the chat, each marked queued and with × to take it back. */
export function queueHtml(s: ChatState): string {
  return (s.queued ?? []).map((q) => `<div class="user queued" data-queued="${esc(q.id)}"><span class="tag">queued</span>` +
    `<button class="unqueue" data-queued="${esc(q.id)}" title="Take this prompt back before it runs">×</button>${esc(q.text)}${thumbs(q.images)}</div>`).join("");
}

export function toolbarHtml(s: ChatState): string {
  const parts = [`<span id="status" class="agent-${s.agentStatus}">${s.busy ? "Working…" : esc(s.agentStatus)}</span>`];
  if (s.modes) parts.push(`<select id="mode" title="Mode">${s.modes.available.map((m) =>
    `<option value="${esc(m.id)}" ${m.id === s.modes!.current ? "selected" : ""}>${esc(m.name)}</option>`).join("")}</select>`);
  if (s.models) parts.push(`<select id="model" title="Model">${s.models.options.map((m) =>
    `<option value="${esc(m.value)}" ${m.value === s.models!.current ? "selected" : ""}>${esc(m.name)}</option>`).join("")}</select>`);
  if (s.efforts) parts.push(`<select id="effort" title="Effort: how much the model thinks">${s.efforts.options.map((m) =>
    `<option value="${esc(m.value)}" title="${esc(m.description ?? "")}" ${m.value === s.efforts!.current ? "selected" : ""}>Effort: ${esc(m.name)}</option>`).join("")}</select>`);
  parts.push(`<button id="follow" class="${s.follow ? "on" : "off"}" aria-pressed="${s.follow ? "true" : "false"}" title="Follow the agent: open the files it reads or edits">Follow</button>`);
  if (s.canListSessions) parts.push(`<button id="sessions" title="Past sessions">Sessions</button>`);
  parts.push(`<button id="new" title="New session">New</button>`);
  return parts.join("");
}

/** The current plan, pinned above the log and updated in place. */
export function planHtml(s: ChatState): string {
  if (!s.plan?.length) return "";
  const done = s.plan.filter((e) => e.status === "completed").length;
  return `<details class="plan" open><summary><b>Plan</b> ${done}/${s.plan.length}</summary><ul>${s.plan.map((e) => `<li class="plan-${e.status}">${esc(e.content)}</li>`).join("")}</ul></details>`;
}

/** Files Lathe changed, hunk by hunk, until the person keeps or undoes each (across turns). */
export function changesHtml(s: ChatState): string {
  if (!s.changes.length) return "";
  const off = s.busy ? " disabled" : "";
  return `<div class="changes"><b>Changed files</b>${s.changes.map((f) => `<div class="file"><a href="#" class="loc" data-path="${esc(f.path)}">${esc(f.path.split("/").pop() ?? f.path)}</a>
${f.hunks.map((h, i) => `<div class="hunk">${diffHtml(h.removed.join("\n") + (h.removed.length ? "\n" : ""), h.added.join("\n") + (h.added.length ? "\n" : "")).replace(/@@ line \d+ @@/, `@@ line ${h.newStart + 1} @@`)}
<button class="keep" data-path="${esc(f.path)}" data-index="${i}"${off}>Keep</button><button class="undo" data-path="${esc(f.path)}" data-index="${i}"${off}>Undo</button></div>`).join("")}</div>`).join("")}</div>`;
}

/** The `/` completions for what is typed, from the agent's commands (none when it sent none). */
export function completionsHtml(s: ChatState | undefined, typed: string): string {
  const m = /^\/(\S*)$/.exec(typed);
  const cmds = m && s?.commands ? s.commands.filter((c) => c.name.startsWith(m[1])) : [];
  return cmds.map((c) => `<div class="cmd" data-name="${esc(c.name)}">/${esc(c.name)} <span>${esc(c.description)}</span></div>`).join("");
}
