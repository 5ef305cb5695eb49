// The chat view's state, built from ACP session updates. Pure (no vscode), so
// the webview only renders what this produces and tests can feed it updates.
// A sub-agent's child session (ACP's sub-agent sessions, unstable in SDK
// 2.4.0) is shown nested under the tool call that started it.
import type * as acp from "@agentclientprotocol/sdk";
import type * as unstable from "@agentclientprotocol/sdk/unstable";

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
  /** The sub-agent this call started, with its own transcript. */
  subagent?: SubagentView;
}

/** A child session of a sub-agent, as its parent's tool card shows it. */
export interface SubagentView {
  sessionId: string;
  title: string;
  /** What it was asked to do. */
  task?: string;
  /** running, requires_action, idle or unknown (no longer observed, e.g. after a reload). */
  state: string;
  stopReason?: string;
  error?: string;
  /** The agent lets the person stop this child alone (capabilities.cancel). */
  canStop: boolean;
  items: Item[];
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

/** What holds a conversation's items: the chat, or a sub-agent's nested transcript. */
export interface Transcript { items: Item[] }

export interface ChatState {
  items: Item[];
  /** Each announced child session, by its id: the id of the tool card that shows it. */
  children?: Record<string, string>;
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

/** One of the agent's ways to log in (ACP authMethods), as the picker lists it. */
export interface LoginChoice { id: string; name: string; description: string }

/**
 * The methods the editor can log in with through `authenticate`, each asking for a key
 * (sent in `_meta["api-key"]`). A "terminal" method runs the agent's own login UI, which
 * this client does not offer, so it is left out.
 */
export function loginChoices(methods: readonly acp.AuthMethod[] | null | undefined): LoginChoice[] {
  return (methods ?? [])
    .filter((m) => !("type" in m) || m.type !== "terminal")
    .map((m) => ({ id: m.id, name: m.name, description: m.description ?? "" }));
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

function appendText(state: Transcript, kind: "agent" | "thought" | "user", text: string): void {
  const last = state.items[state.items.length - 1];
  if (last && last.kind === kind) last.text += text;
  else state.items.push({ kind, text });
}

export function findTool(state: Transcript, id: string): ToolItem | undefined {
  for (let i = state.items.length - 1; i >= 0; i--) {
    const item = state.items[i];
    if (item.kind === "tool" && item.id === id) return item;
  }
  return undefined;
}

type ToolFields = acp.ToolCallUpdate;

/** Creates or updates the card of one tool call; the agent's fields win. */
export function upsertTool(state: Transcript, fields: ToolFields): ToolItem {
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

/** Applies one `session/update` of the session to the state. */
export function applyUpdate(state: ChatState, update: acp.SessionUpdate | unstable.SessionUpdate): void {
  if (update.sessionUpdate === "subagent_update") return applySubagent(state, update);
  if (isConversation(update)) return;
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

type Conversation = Extract<unstable.SessionUpdate, { sessionUpdate: "session_message" | "session_message_chunk" }>;
function isConversation(update: acp.SessionUpdate | unstable.SessionUpdate): update is Conversation {
  return update.sessionUpdate === "session_message" || update.sessionUpdate === "session_message_chunk";
}

/** The card a child session is nested in: the tool call Lathe names in `_meta.lathe.toolCallId`, else a card of its own. */
function applySubagent(state: ChatState, update: unstable.SubagentUpdate): void {
  state.children ??= {};
  const meta = update._meta as { lathe?: { toolCallId?: string } } | null | undefined;
  const cardId = state.children[update.sessionId] ?? meta?.lathe?.toolCallId ?? `subagent:${update.sessionId}`;
  state.children[update.sessionId] = cardId;
  const tool = findTool(state, cardId) ?? upsertTool(state, { toolCallId: cardId, title: update.title ?? "Sub-agent", kind: "think" });
  const view = tool.subagent ??= { sessionId: update.sessionId, title: "Sub-agent", state: "unknown", canStop: false, items: [] };
  if (update.title != null) view.title = update.title;
  if (update.description != null) view.task = update.description;
  if (update.capabilities !== undefined) view.canStop = update.capabilities?.cancel != null;
  if (update.state != null) {
    const s = update.state as { state: string; stopReason?: string | null; error?: { message?: string } | null };
    view.state = s.state;
    view.stopReason = s.stopReason ?? undefined;
    view.error = s.error?.message ?? undefined;
  }
}

/** The nested view of a child session, when it belongs to this chat. */
export function childOf(state: ChatState, sessionId: string): SubagentView | undefined {
  const cardId = state.children?.[sessionId];
  return cardId === undefined ? undefined : findTool(state, cardId)?.subagent;
}

/** Applies an update of a child session to its nested view; false when the child is not this chat's. */
export function applyChildUpdate(state: ChatState, sessionId: string, update: acp.SessionUpdate | unstable.SessionUpdate): boolean {
  const view = childOf(state, sessionId);
  if (!view) return false;
  switch (update.sessionUpdate) {
    case "agent_message_chunk": appendText(view, "agent", contentText(update.content)); break;
    case "agent_thought_chunk": appendText(view, "thought", contentText(update.content)); break;
    case "session_message_chunk": appendText(view, "user", contentText(update.content)); break;
    case "tool_call": upsertTool(view, update); break;
    case "tool_call_update": upsertTool(view, update); break;
    default: break;
  }
  return true;
}

/**
 * After a reload the children's last states are history, not live work: one
 * that was still running or waiting is shown as no longer running.
 */
export function staleChildren(state: ChatState): void {
  const visit = (items: Item[]) => {
    for (const item of items) {
      if (item.kind !== "tool" || !item.subagent) continue;
      const view = item.subagent;
      if (view.state !== "idle") view.state = "unknown";
      view.canStop = false;
      visit(view.items);
    }
  };
  visit(state.items);
}
