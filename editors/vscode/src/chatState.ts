// The chat view's state, built from ACP session updates. Pure (no vscode), so
// the webview only renders what this produces and tests can feed it updates.
import type * as acp from "@agentclientprotocol/sdk";

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
}

export type Item =
  | { kind: "user"; text: string; images?: string[] }
  | { kind: "agent"; text: string }
  | { kind: "thought"; text: string }
  | { kind: "error"; text: string }
  | { kind: "notice"; text: string }
  | ToolItem;

export interface HunkView { oldStart: number; newStart: number; removed: string[]; added: string[] }
export interface ChangedFile { path: string; hunks: HunkView[] }

export interface ChatState {
  items: Item[];
  busy: boolean;
  plan?: { content: string; status: string; priority: string }[];
  usage?: { used: number; size: number };
  modes?: { current: string; available: { id: string; name: string; description?: string | null }[] };
  models?: { configId: string; current: string; options: { value: string; name: string }[] };
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

function appendText(state: ChatState, kind: "agent" | "thought" | "user", text: string): void {
  const last = state.items[state.items.length - 1];
  if (last && last.kind === kind) last.text += text;
  else state.items.push({ kind, text });
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
  if (fields.content != null) {
    tool.text = [];
    tool.diffs = [];
    for (const c of fields.content) {
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
    case "agent_message_chunk": appendText(state, "agent", contentText(update.content)); break;
    case "agent_thought_chunk": appendText(state, "thought", contentText(update.content)); break;
    case "user_message_chunk": appendText(state, "user", contentText(update.content)); break;
    case "tool_call": upsertTool(state, update); break;
    case "tool_call_update": upsertTool(state, update); break;
    case "plan": state.plan = update.entries.map((e) => ({ content: e.content, status: e.status, priority: e.priority })); break;
    case "available_commands_update":
      state.commands = update.availableCommands.map((c) => ({ name: c.name, description: c.description }));
      break;
    case "current_mode_update":
      if (state.modes) state.modes.current = update.currentModeId;
      break;
    case "usage_update": state.usage = { used: update.used, size: update.size }; break;
    case "config_option_update": setConfigOptions(state, update.configOptions); break;
    default: break; // Kinds this view does not show yet are ignored, not guessed at.
  }
}

/** Modes from `session/new` (hidden when the agent offers none). */
export function setModes(state: ChatState, modes: acp.SessionModeState | null | undefined): void {
  state.modes = modes
    ? { current: modes.currentModeId, available: modes.availableModes.map((m) => ({ id: m.id, name: m.name, description: m.description })) }
    : undefined;
}

/** The model picker, from a config option of category `model` when offered. */
export function setConfigOptions(state: ChatState, options: acp.SessionConfigOption[] | null | undefined): void {
  const model = (options ?? []).find((o) => o.category === "model" && o.type === "select");
  if (!model || model.type !== "select") { state.models = undefined; return; }
  const flat: { value: string; name: string }[] = [];
  for (const entry of model.options as unknown as Array<Record<string, unknown>>) {
    if (Array.isArray(entry.options)) for (const o of entry.options as { value: string; name: string }[]) flat.push({ value: o.value, name: o.name });
    else flat.push({ value: String(entry.value), name: String(entry.name) });
  }
  state.models = { configId: model.id, current: String(model.currentValue), options: flat };
}
