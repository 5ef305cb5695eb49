// Runs inside the chat webview: renders the ChatState the extension posts and
// posts back what the person does. Markdown via markdown-it, code via highlight.js.
import MarkdownIt from "markdown-it";
import hljs from "highlight.js/lib/common";
import type { ChatState, Item, ToolItem } from "../chatState";
import { computeHunks } from "../hunks";

declare function acquireVsCodeApi(): { postMessage(m: unknown): void };
const vscode = acquireVsCodeApi();
const md = new MarkdownIt({
  html: false,
  linkify: true,
  highlight: (code, lang) => {
    const html = lang && hljs.getLanguage(lang) ? hljs.highlight(code, { language: lang }).value : hljs.highlightAuto(code).value;
    return `<pre class="hljs"><code>${html}</code></pre>`;
  },
});

const $ = (id: string) => document.getElementById(id)!;
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const ICONS: Record<string, string> = { read: "📖", edit: "✏️", delete: "🗑", move: "↔", search: "🔍", execute: "▶", think: "💭", fetch: "🌐", switch_mode: "⇄", other: "⚙" };
let state: ChatState | undefined;

function diffHtml(oldText: string | null, newText: string): string {
  const rows: string[] = [];
  for (const h of computeHunks(oldText ?? "", newText)) {
    rows.push(`<div class="hunk-head">@@ line ${h.newStart + 1} @@</div>`);
    for (const l of h.oldLines) rows.push(`<div class="del">- ${esc(l)}</div>`);
    for (const l of h.newLines) rows.push(`<div class="add">+ ${esc(l)}</div>`);
  }
  return `<div class="diff">${rows.join("")}</div>`;
}

function toolHtml(t: ToolItem): string {
  const links = t.locations.map((l) =>
    `<a href="#" class="loc" data-path="${esc(l.path)}" data-line="${l.line ?? ""}">${esc(l.path.split("/").pop() ?? l.path)}${l.line ? ":" + l.line : ""}</a>`).join(" ");
  const body = t.text.map((x) => `<div class="md">${md.render(x)}</div>`).join("");
  const diffs = t.diffs.map((d) =>
    `${diffHtml(d.oldText, d.newText)}<button class="sbs" data-path="${esc(d.path)}">Side by side</button>`).join("");
  const perm = t.permission
    ? `<div class="permission">${t.permission.options.map((o) =>
        `<button class="opt ${o.kind}" data-req="${t.permission!.requestId}" data-opt="${esc(o.optionId)}">${esc(o.name)}</button>`).join("")}</div>`
    : "";
  const answer = t.answer ? `<div class="answer">${esc(t.answer)}</div>` : "";
  return `<div class="tool status-${t.status}" data-tool="${esc(t.id)}">
<div class="tool-head"><span class="icon">${ICONS[t.toolKind] ?? "⚙"}</span><span class="title">${esc(t.title)}</span><span class="status">${esc(t.status)}</span></div>
<div class="locs">${links}</div>${body}${diffs}${perm}${answer}</div>`;
}

function itemHtml(item: Item): string {
  switch (item.kind) {
    case "user": return `<div class="user">${esc(item.text)}</div>`;
    case "agent": return `<div class="agent md">${md.render(item.text)}</div>`;
    case "thought": return `<details class="thought"><summary>Thinking</summary><div class="md">${md.render(item.text)}</div></details>`;
    case "error": return `<div class="error">${esc(item.text)}</div>`;
    case "notice": return `<div class="notice">${esc(item.text)}</div>`;
    case "tool": return toolHtml(item);
  }
}

function toolbarHtml(s: ChatState): string {
  const parts = [`<span id="status" class="agent-${s.agentStatus}">${s.busy ? "Working…" : esc(s.agentStatus)}</span>`];
  if (s.modes) parts.push(`<select id="mode" title="Mode">${s.modes.available.map((m) =>
    `<option value="${esc(m.id)}" ${m.id === s.modes!.current ? "selected" : ""}>${esc(m.name)}</option>`).join("")}</select>`);
  if (s.models) parts.push(`<select id="model" title="Model">${s.models.options.map((m) =>
    `<option value="${esc(m.value)}" ${m.value === s.models!.current ? "selected" : ""}>${esc(m.name)}</option>`).join("")}</select>`);
  if (s.canListSessions) parts.push(`<button id="sessions" title="Past sessions">Sessions</button>`);
  parts.push(`<button id="new" title="New session">New</button>`);
  return parts.join("");
}

function sessionsHtml(s: ChatState): string {
  if (!s.sessions) return "";
  return `<div class="sessions"><b>Past sessions</b>${s.sessions.map((x) =>
    s.canLoadSession ? `<div><a href="#" class="load" data-id="${esc(x.sessionId)}">${esc(x.title ?? x.sessionId)}</a></div>`
      : `<div>${esc(x.title ?? x.sessionId)}</div>`).join("") || "<div>none</div>"}</div>`;
}

function planHtml(s: ChatState): string {
  if (!s.plan?.length) return "";
  return `<div class="plan"><b>Plan</b><ul>${s.plan.map((e) => `<li class="plan-${e.status}">${esc(e.content)}</li>`).join("")}</ul></div>`;
}

function changesHtml(s: ChatState): string {
  if (s.busy || !s.changes.length) return "";
  return `<div class="changes"><b>Changed files</b>${s.changes.map((f) => `<div class="file"><a href="#" class="loc" data-path="${esc(f.path)}">${esc(f.path.split("/").pop() ?? f.path)}</a>
${f.hunks.map((h, i) => `<div class="hunk">${diffHtml(h.removed.join("\n") + (h.removed.length ? "\n" : ""), h.added.join("\n") + (h.added.length ? "\n" : "")).replace(/@@ line \d+ @@/, `@@ line ${h.newStart + 1} @@`)}
<button class="keep" data-path="${esc(f.path)}" data-index="${i}">Keep</button><button class="undo" data-path="${esc(f.path)}" data-index="${i}">Undo</button></div>`).join("")}</div>`).join("")}</div>`;
}

function render(s: ChatState, attachments: string[]): void {
  state = s;
  $("toolbar").innerHTML = toolbarHtml(s);
  const log = $("log");
  const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  log.innerHTML = sessionsHtml(s) + planHtml(s) + s.items.map(itemHtml).join("");
  if (atBottom) log.scrollTop = log.scrollHeight;
  $("changes").innerHTML = changesHtml(s);
  $("usage").textContent = s.usage ? `${s.usage.used.toLocaleString()} / ${s.usage.size.toLocaleString()} tokens` : "";
  $("attachments").innerHTML = attachments.map((a, i) => `<span class="chip">${esc(a)}<a href="#" class="detach" data-index="${i}">×</a></span>`).join("");
  ($("stop") as HTMLButtonElement).disabled = !s.busy;
  ($("send") as HTMLButtonElement).disabled = s.busy;
}

function send(): void {
  const box = $("prompt") as HTMLTextAreaElement;
  const text = box.value.trim();
  if (!text || state?.busy) return;
  vscode.postMessage({ type: "send", text });
  box.value = "";
  completions();
}

function completions(): void {
  const box = $("prompt") as HTMLTextAreaElement;
  const list = $("completions");
  const m = /^\/(\S*)$/.exec(box.value);
  const cmds = m && state?.commands ? state.commands.filter((c) => c.name.startsWith(m[1])) : [];
  list.innerHTML = cmds.map((c) => `<div class="cmd" data-name="${esc(c.name)}">/${esc(c.name)} <span>${esc(c.description)}</span></div>`).join("");
}

document.addEventListener("click", (e) => {
  const el = (e.target as HTMLElement).closest("button, a, .cmd") as HTMLElement | null;
  if (!el) return;
  const d = el.dataset;
  if (el.id === "send") send();
  else if (el.id === "stop") vscode.postMessage({ type: "stop" });
  else if (el.id === "new") vscode.postMessage({ type: "newSession" });
  else if (el.id === "sessions") vscode.postMessage({ type: "listSessions" });
  else if (el.classList.contains("load")) { e.preventDefault(); vscode.postMessage({ type: "loadSession", sessionId: d.id }); }
  else if (el.classList.contains("opt")) vscode.postMessage({ type: "permission", requestId: d.req, optionId: d.opt });
  else if (el.classList.contains("loc")) { e.preventDefault(); vscode.postMessage({ type: "open", path: d.path, line: d.line ? Number(d.line) : undefined }); }
  else if (el.classList.contains("sbs")) vscode.postMessage({ type: "sideBySide", path: d.path });
  else if (el.classList.contains("keep") || el.classList.contains("undo")) vscode.postMessage({ type: "hunk", path: d.path, index: Number(d.index), keep: el.classList.contains("keep") });
  else if (el.classList.contains("detach")) { e.preventDefault(); vscode.postMessage({ type: "detach", index: Number(d.index) }); }
  else if (el.classList.contains("cmd")) { ($("prompt") as HTMLTextAreaElement).value = `/${d.name} `; completions(); }
});

document.addEventListener("change", (e) => {
  const el = e.target as HTMLSelectElement;
  if (el.id === "mode") vscode.postMessage({ type: "mode", id: el.value });
  if (el.id === "model") vscode.postMessage({ type: "model", value: el.value });
});

$("prompt").addEventListener("keydown", (e) => {
  if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); send(); }
});
$("prompt").addEventListener("input", (e) => {
  const box = e.target as HTMLTextAreaElement;
  if ((e as InputEvent).data === "@") {
    box.value = box.value.replace(/@$/, "");
    vscode.postMessage({ type: "attach" });
  }
  completions();
});

window.addEventListener("message", (e) => {
  if (e.data?.type === "state") render(e.data.state, e.data.attachments);
  if (e.data?.type === "focus") ($("prompt") as HTMLTextAreaElement).focus();
});
vscode.postMessage({ type: "ready" });
