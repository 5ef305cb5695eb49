// HTML for the chat webview, from ChatState. No DOM here, so unit tests can
// render synthetic states in node. Markdown via markdown-it (raw HTML off),
// code via highlight.js.
import MarkdownIt from "markdown-it";
import hljs from "highlight.js/lib/common";
import type { ChatState, Item, SubagentView, ToolItem } from "../chatState";
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
  return `<div class="tool status-${t.status}" data-tool="${esc(t.id)}">
<div class="tool-head"><span class="icon">${ICONS[t.toolKind] ?? "⚙"}</span><span class="title">${esc(t.title)}</span><span class="status">${esc(t.status)}</span></div>
<div class="locs">${links}</div>${child}${body}${diffs}${perm}${answer}</div>`;
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

export function itemHtml(item: Item): string {
  switch (item.kind) {
    case "user": return `<div class="user">${esc(item.text)}${(item.images ?? []).map((src) =>
      `<img class="thumb" alt="attached image" src="${esc(src)}">`).join("")}</div>`;
    case "agent": return `<div class="agent md">${markdown(item.text)}</div>`;
    case "thought": return `<details class="thought"><summary>Thinking</summary><div class="md">${markdown(item.text)}</div></details>`;
    case "error": return `<div class="error">${esc(item.text)}</div>`;
    case "notice": return `<div class="notice">${esc(item.text)}</div>`;
    case "tool": return toolHtml(item);
  }
}

export function toolbarHtml(s: ChatState): string {
  const parts = [`<span id="status" class="agent-${s.agentStatus}">${s.busy ? "Working…" : esc(s.agentStatus)}</span>`];
  if (s.modes) parts.push(`<select id="mode" title="Mode">${s.modes.available.map((m) =>
    `<option value="${esc(m.id)}" ${m.id === s.modes!.current ? "selected" : ""}>${esc(m.name)}</option>`).join("")}</select>`);
  if (s.models) parts.push(`<select id="model" title="Model">${s.models.options.map((m) =>
    `<option value="${esc(m.value)}" ${m.value === s.models!.current ? "selected" : ""}>${esc(m.name)}</option>`).join("")}</select>`);
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
