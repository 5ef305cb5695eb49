// The chat view's state, built from ACP session updates. Pure (no vscode), so
// the webview only renders what this produces and tests can feed it updates.
// A sub-agent's child session (ACP's sub-agent sessions, unstable in SDK
// 2.4.0) is shown nested under the tool call that started it.
import type * as acp from "@agentclientprotocol/sdk";
import type * as unstable from "@agentclientprotocol/sdk/unstable";
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
  /** The sub-agent this call started, with its own transcript. */
  subagent?: SubagentView;
  /** What the person's hooks decided about this call (Lathe's `_meta.lathe.hooks`), shown apart from its output. */
  hooks?: HookNote[];
  /** The command's live output (Zed's terminal-output extension: `_meta.terminal_*`). */
  terminal?: TerminalView;
}

/** A display-only terminal of a shell call, as its updates' `_meta` stream it. */
export interface TerminalView {
  id: string;
  cwd?: string;
  /** Everything the command printed so far, as it streamed. */
  output: string;
  /** Set once the command ended (terminal_exit): its exit code, or the signal that ended it. */
  exit?: { code: number | null; signal: string | null };
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
  /** steered: text the person added to a running turn (`_session/steering`). */
  | { kind: "user"; text: string; images?: string[]; messageId?: string; steered?: boolean }
  | { kind: "agent"; text: string; messageId?: string }
  | { kind: "thought"; text: string; messageId?: string }
  | { kind: "error"; text: string }
  | { kind: "notice"; text: string; severity?: string }
  | ToolItem
  | QuestionItem
  | CompactionItem;

export interface HunkView { oldStart: number; newStart: number; removed: string[]; added: string[] }
export interface ChangedFile { path: string; hunks: HunkView[] }

/** What holds a conversation's items: the chat, or a sub-agent's nested transcript. */
export interface Transcript { items: Item[] }

/** A prompt sent while a turn runs: Lathe queues it; shown as pending until its turn starts. */
export interface QueuedPrompt { id: string; text: string; images?: string[] }

export interface ChatState {
  items: Item[];
  /** Prompts waiting behind the running turn, oldest first. */
  queued?: QueuedPrompt[];
  /** Each announced child session, by its id: the id of the tool card that shows it. */
  children?: Record<string, string>;
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
  /** Whether a listed session can be deleted (sessionCapabilities.delete). */
  canDeleteSession?: boolean;
  /** Whether text can join the running turn (the initialize response's `_meta.steering.supported`). */
  canSteer?: boolean;
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

function appendText(state: Transcript, kind: "agent" | "thought" | "user", text: string, messageId?: string | null): void {
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
  const hooks = hookNotes(fields._meta);
  if (hooks) tool.hooks = hooks;
  applyTerminalMeta(tool, fields._meta);
  if (fields.content != null) {
    tool.text = [];
    tool.diffs = [];
    // A hook's note travels as content too (for other editors); shown here apart, not twice.
    const told = new Set((tool.hooks ?? []).map((h) => h.text));
    for (const c of fields.content) {
      if (c.type === "content" && told.has(contentText(c.content))) continue;
      if (c.type === "content") tool.text.push(contentText(c.content));
      else if (c.type === "diff") tool.diffs.push({ path: c.path, oldText: c.oldText ?? null, newText: c.newText });
      // A display-only terminal is the card's terminal view; another (the editor's own) only named.
      else if (c.type === "terminal" && c.terminalId !== tool.terminal?.id) tool.text.push(`(terminal ${c.terminalId})`);
    }
  }
  return tool;
}

/** A file a shell command changed on disk, as the diff on its call's final update names it (oldText null: created). */
export interface CommandChange { path: string; oldText: string | null; newText: string }

/**
 * What a shell command (a call of kind `execute`) changed in the workspace: Lathe puts one
 * diff per changed text file on the call's final update (status completed or failed).
 * Those files were written by the command, not through fs/write_text_file, so the editor
 * learns of them only here. Empty for any other update, and for an edit's diffs (write_file,
 * replace: kind `edit`, already tracked through their fs write).
 */
export function commandChanges(tool: ToolItem | undefined, update: acp.SessionUpdate | unstable.SessionUpdate): CommandChange[] {
  if (update.sessionUpdate !== "tool_call_update" || !tool || tool.toolKind !== "execute") return [];
  if (update.status !== "completed" && update.status !== "failed") return [];
  return (update.content ?? []).flatMap((c) => c.type === "diff" && typeof c.path === "string"
    ? [{ path: c.path, oldText: c.oldText ?? null, newText: c.newText ?? "" }] : []);
}

type TerminalMeta = { terminal_id?: unknown; cwd?: unknown; data?: unknown; exit_code?: unknown; signal?: unknown };

/**
 * The terminal-output extension's `_meta` on a tool call: terminal_info starts the
 * view (with its cwd), terminal_output appends what the command printed, terminal_exit
 * says how it ended. A piece for another terminal than the card's is ignored.
 */
export function applyTerminalMeta(tool: ToolItem, meta: unknown): void {
  const m = (meta ?? {}) as Record<string, TerminalMeta | undefined>;
  const piece = (key: string): (TerminalMeta & { terminal_id: string }) | undefined => {
    const v = m[key];
    return v && typeof v === "object" && typeof v.terminal_id === "string" ? (v as TerminalMeta & { terminal_id: string }) : undefined;
  };
  const info = piece("terminal_info");
  if (info) tool.terminal = { id: info.terminal_id, output: "", ...(typeof info.cwd === "string" ? { cwd: info.cwd } : {}) };
  const view = (id: string) => (tool.terminal ??= { id, output: "" }).id === id ? tool.terminal : undefined;
  const out = piece("terminal_output");
  if (out && typeof out.data === "string") {
    const t = view(out.terminal_id);
    if (t) t.output += out.data;
  }
  const exit = piece("terminal_exit");
  if (exit) {
    const t = view(exit.terminal_id);
    if (t) t.exit = { code: typeof exit.exit_code === "number" ? exit.exit_code : null, signal: typeof exit.signal === "string" ? exit.signal : null };
  }
}

/** A prompt sent while a turn runs, shown as pending (queued) after the chat. */
export function queuePrompt(state: ChatState, prompt: QueuedPrompt): void {
  (state.queued ??= []).push(prompt);
}

/** A queued prompt that will not run (cancelled, refused): its pending entry goes. */
export function dropQueued(state: ChatState, id: string): void {
  state.queued = state.queued?.filter((q) => q.id !== id);
  if (!state.queued?.length) delete state.queued;
}

/**
 * Lathe echoes a queued prompt as the person's message when its turn starts: the
 * oldest pending entry becomes that message, as the person typed it (the echo is
 * one chunk of its text blocks only, so it is not added again). False when none waits.
 */
function startQueued(state: ChatState, messageId: string | null | undefined): boolean {
  const next = state.queued?.[0];
  if (!next) return false;
  dropQueued(state, next.id);
  state.items.push({ kind: "user", text: next.text, ...(next.images?.length ? { images: next.images } : {}), ...(messageId ? { messageId } : {}) });
  return true;
}

/** Applies one `session/update` of the session to the state. */
export function applyUpdate(state: ChatState, update: acp.SessionUpdate | unstable.SessionUpdate): void {
  if (update.sessionUpdate === "subagent_update") return applySubagent(state, update);
  if (isConversation(update)) return;
  switch (update.sessionUpdate) {
    case "agent_message_chunk": appendText(state, "agent", contentText(update.content), update.messageId); break;
    case "agent_thought_chunk": appendText(state, "thought", contentText(update.content), update.messageId); break;
    case "user_message_chunk":
      if (!startQueued(state, update.messageId)) appendText(state, "user", contentText(update.content), update.messageId);
      break;
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
    case "agent_message_chunk": appendText(view, "agent", contentText(update.content), update.messageId); break;
    case "agent_thought_chunk": appendText(view, "thought", contentText(update.content), update.messageId); break;
    case "session_message_chunk": appendText(view, "user", contentText(update.content), update.messageId); break;
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
