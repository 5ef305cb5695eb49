// The chat view's state, built from ACP session updates. Pure (no vscode), so
// the webview only renders what this produces and tests can feed it updates.
import type * as acp from "@agentclientprotocol/sdk";
import type { FormField } from "./elicitation";

export interface ToolItem {
  kind: "tool";
  id: string;
  title: string;
  toolKind: string;
  status: string;
  /** Text content and shell output, as Markdown. */
  text: string[];
  diffs: { path: string; oldText: string | null; newText: string }[];
  locations: { path: string; line?: number | null }[];
  /** Set while Lathe waits for the person to answer a permission request. */
  permission?: { requestId: string; options: { optionId: string; name: string; kind: string }[] };
  answer?: string;
  /** The call writes the todo list: its list is the plan pinned above the chat, not repeated here. */
  todos?: boolean;
  /** What the person's hooks decided about this call (Lathe's `_meta.lathe.hooks`), shown apart from its output. */
  hooks?: HookNote[];
}

/** One hook's part in a tool call, as Lathe sends it in the update's `_meta.lathe.hooks`. */
export interface HookNote { hook: string; event: string; decision: string; message: string; text: string }

/** The hook notes of an update's `_meta` (Lathe's), or undefined when it carries none. */
export function hookNotes(meta: unknown): HookNote[] | undefined {
  const hooks = (meta as { lathe?: { hooks?: unknown } } | null | undefined)?.lathe?.hooks;
  if (!Array.isArray(hooks)) return undefined;
  return hooks
    .filter((h): h is Record<string, unknown> => typeof h === "object" && h !== null)
    .map((h) => ({ hook: String(h.hook ?? ""), event: String(h.event ?? ""), decision: String(h.decision ?? ""),
      message: String(h.message ?? ""), text: String(h.text ?? "") }));
}

/** A question the agent asks (elicitation/create): a form, or a URL to open. */
export interface QuestionItem {
  kind: "question";
  id: string;
  message: string;
  fields: FormField[];
  /** A URL to open instead of a form, and its elicitation's id (elicitation/complete names it). */
  url?: string;
  elicitationId?: string;
  /** open until answered, declined, cancelled, or withdrawn by the agent. */
  state: "open" | "accept" | "decline" | "cancel" | "withdrawn";
  /** What was answered, once settled; or why the last submit was refused. */
  summary?: string;
  problem?: string;
}

/** One compaction of the conversation (compaction_update), with the summary it kept. */
export interface CompactionItem { kind: "compaction"; id: string; status: string; summary: string; error?: string }

/** messageId: the agent's message a chunk belongs to (a new id starts a new message). */
export type Item =
  | { kind: "user"; text: string; images?: string[]; messageId?: string }
  | { kind: "agent"; text: string; messageId?: string }
  | { kind: "thought"; text: string; messageId?: string }
  | { kind: "error"; text: string }
  | { kind: "notice"; text: string; severity?: string }
  | ToolItem
  | QuestionItem
  | CompactionItem;

export interface HunkView { oldStart: number; newStart: number; removed: string[]; added: string[] }
export interface ChangedFile { path: string; hunks: HunkView[] }

export interface ChatState {
  items: Item[];
  busy: boolean;
  plan?: { content: string; status: string; priority: string }[];
  usage?: { used: number; size: number; cost?: { amount: number; currency: string } };
  modes?: { current: string; available: { id: string; name: string; description?: string | null }[] };
  models?: { configId: string; current: string; options: { value: string; name: string; description?: string }[] };
  /** The effort picker: the config option of category thought_level, when the model offers one. */
  efforts?: { configId: string; current: string; options: { value: string; name: string; description?: string }[] };
  commands?: { name: string; description: string }[];
  changes: ChangedFile[];
  agentStatus: string;
  /** Whether the agent can list past sessions (hidden otherwise). */
  canListSessions: boolean;
  sessions?: { sessionId: string; title?: string | null; cwd: string }[];
  /** Whether a listed session can be reopened. */
  canLoadSession?: boolean;
  /** Whether the files the agent reads or edits open as it goes (lathe.followAgent). */
  follow?: boolean;
  /** Whether the agent advertises `logout` (agentCapabilities.auth.logout); "Lathe: Log out" is hidden otherwise. */
  canLogout?: boolean;
}

/**
 * What a login asks the person before `authenticate`: a key, a key that may be left out
 * (Vertex AI: empty uses the project and credentials of Lathe's environment), a gateway's
 * base URL and headers, or nothing (Log in with Google: the agent shows a page to log in at).
 */
export type LoginAsk = "key" | "optionalKey" | "gateway" | "browser";

/** One of the agent's ways to log in (ACP authMethods), as the picker lists it. */
export interface LoginChoice { id: string; name: string; description: string; ask: LoginAsk }

/** What the person gave for a login, as `authenticate` takes it in `_meta` (Gemini CLI's keys). */
export interface LoginAnswer {
  methodId: string;
  key?: string;
  gateway?: { baseUrl: string; headers: Record<string, string> };
}

function loginAsk(m: acp.AuthMethod): LoginAsk {
  const meta = (m as { _meta?: Record<string, unknown> | null })._meta ?? {};
  if (meta.gateway) return "gateway";
  if (meta["api-key"]) return "key";
  if (m.id === "vertex-ai") return "optionalKey";
  if (m.id === "oauth-personal") return "browser";
  return "key";
}

/**
 * The methods the editor can log in with through `authenticate`. A "terminal" method
 * runs the agent's own login UI, which this client does not offer, so it is left out.
 */
export function loginChoices(methods: readonly acp.AuthMethod[] | null | undefined): LoginChoice[] {
  return (methods ?? [])
    .filter((m) => !("type" in m) || m.type !== "terminal")
    .map((m) => ({ id: m.id, name: m.name, description: m.description ?? "", ask: loginAsk(m) }));
}

export function authenticateParams(answer: LoginAnswer): acp.AuthenticateRequest {
  const meta: Record<string, unknown> = {};
  if (answer.key) meta["api-key"] = answer.key;
  if (answer.gateway) meta.gateway = answer.gateway;
  return Object.keys(meta).length ? { methodId: answer.methodId, _meta: meta } : { methodId: answer.methodId };
}

/**
 * A gateway's headers as the person types them, "Name: value" separated by ";" or new
 * lines (empty: none); a string saying what is wrong with them otherwise.
 */
export function parseHeaders(text: string): Record<string, string> | string {
  const headers: Record<string, string> = {};
  for (const entry of text.split(/[;\n]/).map((e) => e.trim()).filter(Boolean)) {
    const colon = entry.indexOf(":");
    const name = colon > 0 ? entry.slice(0, colon).trim() : "";
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) return `"${entry.split(":")[0]}" is not a header name: write Name: value`;
    headers[name] = entry.slice(colon + 1).trim();
  }
  return headers;
}

export function emptyState(): ChatState {
  return { items: [], busy: false, changes: [], agentStatus: "starting", canListSessions: false };
}

function contentText(block: acp.ContentBlock): string {
  switch (block.type) {
    case "text": return block.text;
    case "resource_link": return `[${block.name}](${block.uri})`;
    case "resource": return "text" in block.resource ? block.resource.text : "";
    default: return `[${block.type}]`;
  }
}

function appendText(state: ChatState, kind: "agent" | "thought" | "user", text: string, messageId?: string | null): void {
  const last = state.items[state.items.length - 1];
  const sameMessage = !messageId || !("messageId" in (last ?? {})) || (last as { messageId?: string }).messageId === messageId;
  if (last && last.kind === kind && sameMessage) last.text += text;
  else state.items.push(messageId ? { kind, text, messageId } : { kind, text });
}

function upsertCompaction(state: ChatState, id: string): CompactionItem {
  let item = state.items.find((i): i is CompactionItem => i.kind === "compaction" && i.id === id);
  if (!item) {
    item = { kind: "compaction", id, status: "in_progress", summary: "" };
    state.items.push(item);
  }
  return item;
}

/** The meter's words: tokens in context of the window, and what the session cost so far. */
export function usageText(usage: ChatState["usage"]): string {
  if (!usage) return "";
  let text = `${usage.used.toLocaleString("en-US")} / ${usage.size.toLocaleString("en-US")} tokens`;
  if (usage.cost) {
    const { amount, currency } = usage.cost;
    const figure = amount.toFixed(amount < 1 ? 4 : 2);
    text += ` · ${currency === "USD" ? `$${figure}` : `${figure} ${currency}`}`;
  }
  return text;
}

export function findTool(state: ChatState, id: string): ToolItem | undefined {
  for (let i = state.items.length - 1; i >= 0; i--) {
    const item = state.items[i];
    if (item.kind === "tool" && item.id === id) return item;
  }
  return undefined;
}

type ToolFields = acp.ToolCallUpdate;

/** Creates or updates the card of one tool call; the agent's fields win. */
export function upsertTool(state: ChatState, fields: ToolFields): ToolItem {
  let tool = findTool(state, fields.toolCallId);
  if (!tool) {
    tool = { kind: "tool", id: fields.toolCallId, title: "", toolKind: "other", status: "pending", text: [], diffs: [], locations: [] };
    state.items.push(tool);
  }
  if (fields.title != null) tool.title = fields.title;
  const input = fields.rawInput as { todos?: unknown } | null | undefined;
  if (input && Array.isArray(input.todos)) tool.todos = true;
  if (fields.kind != null) tool.toolKind = fields.kind;
  if (fields.status != null) tool.status = fields.status;
  if (fields.locations != null) tool.locations = fields.locations.map((l) => ({ path: l.path, line: l.line }));
  const hooks = hookNotes(fields._meta);
  if (hooks) tool.hooks = hooks;
  if (fields.content != null) {
    tool.text = [];
    tool.diffs = [];
    // A hook's note travels as content too (for other editors); shown here apart, not twice.
    const told = new Set((tool.hooks ?? []).map((h) => h.text));
    for (const c of fields.content) {
      if (c.type === "content" && told.has(contentText(c.content))) continue;
      if (c.type === "content") tool.text.push(contentText(c.content));
      else if (c.type === "diff") tool.diffs.push({ path: c.path, oldText: c.oldText ?? null, newText: c.newText });
      else if (c.type === "terminal") tool.text.push(`(terminal ${c.terminalId})`);
    }
  }
  return tool;
}

/** Applies one `session/update` to the state. */
export function applyUpdate(state: ChatState, update: acp.SessionUpdate): void {
  switch (update.sessionUpdate) {
    case "agent_message_chunk": appendText(state, "agent", contentText(update.content), update.messageId); break;
    case "agent_thought_chunk": appendText(state, "thought", contentText(update.content), update.messageId); break;
    case "user_message_chunk": appendText(state, "user", contentText(update.content), update.messageId); break;
    case "tool_call": upsertTool(state, update); break;
    case "tool_call_update": upsertTool(state, update); break;
    case "plan": state.plan = update.entries.map((e) => ({ content: e.content, status: e.status, priority: e.priority })); break;
    case "available_commands_update":
      state.commands = update.availableCommands.map((c) => ({ name: c.name, description: c.description }));
      break;
    case "current_mode_update":
      if (state.modes) state.modes.current = update.currentModeId;
      break;
    case "usage_update":
      state.usage = { used: update.used, size: update.size, ...(update.cost ? { cost: { amount: update.cost.amount, currency: update.cost.currency } } : {}) };
      break;
    case "config_option_update": setConfigOptions(state, update.configOptions); break;
    case "notice":
      state.items.push({ kind: "notice", text: update.description ? `${update.title}: ${update.description}` : update.title, severity: update.severity });
      break;
    case "compaction_update": {
      const item = upsertCompaction(state, update.compactionId);
      item.status = update.status;
      if (update.error) item.error = update.error;
      break;
    }
    case "compaction_summary_chunk": upsertCompaction(state, update.compactionId).summary += contentText(update.content); break;
    default: break; // Kinds this view does not show yet are ignored, not guessed at.
  }
}

/** Modes from `session/new` (hidden when the agent offers none). */
export function setModes(state: ChatState, modes: acp.SessionModeState | null | undefined): void {
  state.modes = modes
    ? { current: modes.currentModeId, available: modes.availableModes.map((m) => ({ id: m.id, name: m.name, description: m.description })) }
    : undefined;
}

type Picker = NonNullable<ChatState["models"]>;

/** A select option of this category as a picker (grouped choices flattened), or undefined. */
function picker(options: acp.SessionConfigOption[] | null | undefined, category: string): Picker | undefined {
  const option = (options ?? []).find((o) => o.category === category && o.type === "select");
  if (!option || option.type !== "select") return undefined;
  const flat: Picker["options"] = [];
  const add = (o: Record<string, unknown>) =>
    flat.push({ value: String(o.value), name: String(o.name), ...(o.description ? { description: String(o.description) } : {}) });
  for (const entry of option.options as unknown as Array<Record<string, unknown>>) {
    if (Array.isArray(entry.options)) (entry.options as Record<string, unknown>[]).forEach(add);
    else add(entry);
  }
  return { configId: option.id, current: String(option.currentValue), options: flat };
}

/** The model and effort pickers, from config options of category `model` and `thought_level` when offered. */
export function setConfigOptions(state: ChatState, options: acp.SessionConfigOption[] | null | undefined): void {
  state.models = picker(options, "model");
  state.efforts = picker(options, "thought_level");
}
