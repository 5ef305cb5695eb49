// Runs inside the chat webview: renders the ChatState the extension posts and
// posts back what the person does.
import { usageText, type ChatState } from "../chatState";
import { changesHtml, completionsHtml, esc, itemHtml, planHtml, queueHtml, toolbarHtml } from "./render";

declare function acquireVsCodeApi(): { postMessage(m: unknown): void };
const vscode = acquireVsCodeApi();
const $ = (id: string) => document.getElementById(id)!;
let state: ChatState | undefined;
// After the person sends, the log shows the end whatever it showed before.
let toBottom = false;

function render(s: ChatState, attachments: string[]): void {
  state = s;
  $("toolbar").innerHTML = toolbarHtml(s);
  // The plan stays in view while the log scrolls; a plan the person folded stays folded.
  const folded = ($("plan").querySelector("details") as HTMLDetailsElement | null)?.open === false;
  $("plan").innerHTML = planHtml(s);
  if (folded) $("plan").querySelector("details")?.removeAttribute("open");
  const log = $("log");
  const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  // Re-rendering must not close a thought the person opened, nor open or close a sub-agent the person folded.
  const open = Array.from(log.querySelectorAll("details.thought")).map((d) => (d as HTMLDetailsElement).open);
  const childOpen = new Map(Array.from(log.querySelectorAll("details.subagent")).map((d) =>
    [(d as HTMLElement).dataset.session, (d as HTMLDetailsElement).open] as const));
  // Nor lose what the person is typing into a question.
  const typed = Array.from(log.querySelectorAll("form.q-form input")).map((i) => {
    const input = i as HTMLInputElement;
    return { name: input.name, value: input.value, checked: input.checked, type: input.type };
  });
  log.innerHTML = s.items.map(itemHtml).join("") + queueHtml(s);
  log.querySelectorAll("details.thought").forEach((d, i) => { if (open[i]) (d as HTMLDetailsElement).open = true; });
  log.querySelectorAll("details.subagent").forEach((d) => {
    const was = childOpen.get((d as HTMLElement).dataset.session);
    if (was !== undefined) (d as HTMLDetailsElement).open = was;
  });
  restoreTyped(log, typed);
  if (atBottom || toBottom) log.scrollTop = log.scrollHeight;
  toBottom = false;
  $("changes").innerHTML = changesHtml(s);
  $("usage").textContent = usageText(s.usage);
  $("attachments").innerHTML = attachments.map((a, i) => `<span class="chip">${esc(a)}<a href="#" class="detach" data-index="${i}">×</a></span>`).join("");
  ($("stop") as HTMLButtonElement).disabled = !s.busy;
  // While a turn runs the input stays open: Send queues the prompt, Steer adds it to the turn.
  $("send").textContent = s.busy ? "Queue" : "Send";
  $("send").title = s.busy ? "Send after the running turn (queued)" : "Send";
  ($("steer") as HTMLButtonElement).hidden = !(s.busy && s.canSteer);
}

type Typed = { name: string; value: string; checked: boolean; type: string };

function restoreTyped(log: HTMLElement, typed: Typed[]): void {
  for (const t of typed) {
    for (const i of Array.from(log.querySelectorAll("form.q-form input")) as HTMLInputElement[]) {
      if (i.name !== t.name || i.type !== t.type) continue;
      if (t.type === "radio" || t.type === "checkbox") { if (i.value === t.value) i.checked = t.checked; }
      else i.value = t.value;
    }
  }
}

/** What the person gave in a question's form, by field name. */
function formValues(id: string): Record<string, string | string[] | boolean> {
  const values: Record<string, string | string[] | boolean> = {};
  const form = document.querySelector(`form.q-form[data-q="${CSS.escape(id)}"]`);
  if (!form) return values;
  for (const input of Array.from(form.querySelectorAll("input[data-field]")) as HTMLInputElement[]) {
    values[input.dataset.field!] = input.type === "checkbox" ? input.checked : input.value;
  }
  for (const set of Array.from(form.querySelectorAll("fieldset[data-field]")) as HTMLFieldSetElement[]) {
    const picked = (Array.from(set.querySelectorAll("input:checked")) as HTMLInputElement[]).map((i) => i.value);
    values[set.dataset.field!] = set.dataset.type === "multi" ? picked : picked[0] ?? "";
  }
  return values;
}

function send(type: "send" | "steer" = "send"): void {
  const box = $("prompt") as HTMLTextAreaElement;
  const text = box.value.trim();
  if (!text) return;
  vscode.postMessage({ type, text });
  toBottom = true;
  box.value = "";
  completions();
}

function completions(): void {
  $("completions").innerHTML = completionsHtml(state, ($("prompt") as HTMLTextAreaElement).value);
}

document.addEventListener("click", (e) => {
  const el = (e.target as HTMLElement).closest("button, a, .cmd") as HTMLElement | null;
  if (!el) return;
  const d = el.dataset;
  if (el.id === "send") send();
  else if (el.id === "steer") send("steer");
  else if (el.classList.contains("unqueue")) vscode.postMessage({ type: "unqueue", id: d.queued });
  else if (el.id === "stop") vscode.postMessage({ type: "stop" });
  else if (el.id === "new") vscode.postMessage({ type: "newSession" });
  else if (el.id === "sessions") vscode.postMessage({ type: "listSessions" });
  else if (el.id === "attach") vscode.postMessage({ type: "attach" });
  else if (el.id === "follow") vscode.postMessage({ type: "follow" });
  else if (el.classList.contains("opt")) vscode.postMessage({ type: "permission", requestId: d.req, optionId: d.opt });
  else if (el.classList.contains("stop-child")) vscode.postMessage({ type: "stopChild", sessionId: d.session });
  else if (el.classList.contains("q-submit") || el.classList.contains("q-open")) { e.preventDefault(); vscode.postMessage({ type: "question", id: d.q, action: "accept", values: formValues(d.q!) }); }
  else if (el.classList.contains("q-decline")) vscode.postMessage({ type: "question", id: d.q, action: "decline" });
  else if (el.classList.contains("q-cancel")) vscode.postMessage({ type: "question", id: d.q, action: "cancel" });
  else if (el.classList.contains("loc")) { e.preventDefault(); vscode.postMessage({ type: "open", path: d.path, line: d.line ? Number(d.line) : undefined }); }
  else if (el.classList.contains("sbs")) vscode.postMessage({ type: "sideBySide", path: d.path });
  else if (el.classList.contains("keep") || el.classList.contains("undo")) {
    // The hunk itself, as shown: the extension refuses it if the file has changed since.
    const hunk = state?.changes.find((f) => f.path === d.path)?.hunks[Number(d.index)];
    if (hunk) vscode.postMessage({ type: "hunk", path: d.path, hunk, keep: el.classList.contains("keep") });
  }
  else if (el.classList.contains("detach")) { e.preventDefault(); vscode.postMessage({ type: "detach", index: Number(d.index) }); }
  else if (el.classList.contains("cmd")) { ($("prompt") as HTMLTextAreaElement).value = `/${d.name} `; completions(); }
});

// Enter in a question's field does not reload the view: Submit answers.
document.addEventListener("submit", (e) => e.preventDefault());

document.addEventListener("change", (e) => {
  const el = e.target as HTMLSelectElement;
  if (el.id === "mode") vscode.postMessage({ type: "mode", id: el.value });
  if (el.id === "model") vscode.postMessage({ type: "model", value: el.value });
  if (el.id === "effort") vscode.postMessage({ type: "effort", value: el.value });
});

$("prompt").addEventListener("keydown", (e) => {
  if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); send(); }
});
// A pasted image becomes an attachment (sent as image content when Lathe accepts images).
$("prompt").addEventListener("paste", (e) => {
  for (const item of Array.from((e as ClipboardEvent).clipboardData?.items ?? [])) {
    const file = item.kind === "file" && item.type.startsWith("image/") ? item.getAsFile() : null;
    if (!file) continue;
    e.preventDefault();
    const reader = new FileReader();
    reader.onload = () => {
      const data = String(reader.result).replace(/^data:[^,]*,/, "");
      vscode.postMessage({ type: "image", name: file.name || "pasted image", mimeType: file.type, data });
    };
    reader.readAsDataURL(file);
  }
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
