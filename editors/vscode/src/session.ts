// One Lathe process and its current session: the prompt turn, cancel, modes,
// restarts. Turns ACP traffic into ChatState; the view renders it.
import * as acp from "@agentclientprotocol/sdk";
import { AgentProcess, type ClientHandlers, type LaunchOptions } from "./agentProcess";
import { applyChildUpdate, applyUpdate, authenticateParams, childOf, commandChanges, dropQueued, emptyState, findTool, loginChoices, queuePrompt, setConfigOptions, setModes, staleChildren, upsertTool, type ChatState, type HunkView, type LoginAnswer, type LoginChoice, type QuestionItem, type Transcript } from "./chatState";
import { ElicitationBroker, type FormValues } from "./elicitation";
import { PermissionBroker } from "./permissions";
import { ChangeTracker } from "./changes";

export interface SessionHost {
  launchOptions(): LaunchOptions;
  readText(path: string, line?: number | null, limit?: number | null): Promise<string>;
  writeText(path: string, content: string): Promise<void>;
  currentText(path: string): Promise<string | undefined>;
  /** The workspace root and the other folders (multi-root). */
  folders(): string[];
  changed(state: ChatState): void;
  showError(message: string): void;
  /** Where the agent is reading or editing now (the host opens it when the person asked to follow). */
  follow?(path: string, line?: number | null): void;
  /** Asks the person for one of the agent's logins and what it needs; undefined when they cancel. */
  login?(choices: LoginChoice[]): Promise<LoginAnswer | undefined>;
  /** Opens a URL the agent asked the person to visit (a URL elicitation they accepted, such as Log in with Google's page). */
  openUrl?(url: string): void;
}

/** ACP's "authentication required": for Lathe, no usable credentials. */
const AUTH_REQUIRED = -32000;
const isAuthRequired = (e: unknown) => (e as { code?: number }).code === AUTH_REQUIRED;

interface Queued { id: string; withdraw: AbortController; started: boolean }

export class LatheSession {
  state: ChatState = emptyState();
  readonly broker = new PermissionBroker();
  readonly questions = new ElicitationBroker();
  readonly changes: ChangeTracker;
  private process?: AgentProcess;
  private init?: acp.InitializeResponse;
  private sessionId?: string;
  private stopping = false;
  private loading = false;
  private restarts: number[] = [];
  /** The prompt turns awaiting their answer: the running one and those queued behind it. */
  private turns = new Set<symbol>();
  /** Each queued prompt by its pending entry's id: what withdraws it ($/cancel_request), and whether its turn started. */
  private queue = new Map<string, Queued>();
  private nextQueued = 1;

  constructor(private host: SessionHost) {
    this.changes = new ChangeTracker((p) => host.currentText(p));
    this.broker.onRequest = (id, request) => {
      const tool = upsertTool(this.transcriptOf(request.sessionId), request.toolCall);
      tool.permission = { requestId: id, options: request.options.map((o) => ({ optionId: o.optionId, name: o.name, kind: o.kind })) };
      this.emit();
    };
    this.questions.onRequest = (id, request, fields) => {
      const link = request.mode === "url" ? (request as { url: string; elicitationId: string }) : undefined;
      this.state.items.push({ kind: "question", id, message: request.message, fields, state: "open",
        ...(link ? { url: link.url, elicitationId: link.elicitationId } : {}) });
      this.emit();
    };
    this.questions.onSettled = (id, how, summary) => {
      const q = this.question(id);
      if (q) {
        q.state = how;
        q.summary = summary;
        q.problem = undefined;
      }
      this.emit();
    };
    this.broker.onSettled = (_id, request, optionId) => {
      const tool = findTool(this.transcriptOf(request.sessionId), request.toolCall.toolCallId);
      if (tool) {
        tool.permission = undefined;
        tool.answer = request.options.find((o) => o.optionId === optionId)?.name ?? "Cancelled";
      }
      this.emit();
    };
  }

  private emit(): void { this.host.changed(this.state); }

  /** Where a session's items go: the chat, or the nested view of one of its sub-agents. */
  private transcriptOf(sessionId: string): Transcript {
    return sessionId === this.sessionId ? this.state : childOf(this.state, sessionId) ?? this.state;
  }

  private question(id: string): QuestionItem | undefined {
    return this.state.items.find((i): i is QuestionItem => i.kind === "question" && i.id === id);
  }

  /** The person's answer to a question: Submit (accept, the form's values), Decline or Cancel. */
  answerQuestion(id: string, action: "accept" | "decline" | "cancel", values: FormValues = {}): void {
    const q = this.question(id);
    if (action === "decline") return this.questions.decline(id);
    if (action === "cancel") return this.questions.cancel(id);
    const problem = this.questions.accept(id, values);
    if (problem && q) {
      q.problem = problem;
      this.emit();
    } else if (q?.url) {
      this.host.openUrl?.(q.url);
    }
  }

  /** A live tool call's first location goes to the host (a replayed history's do not). */
  private followUpdate(u: acp.SessionUpdate): void {
    if (this.loading || (u.sessionUpdate !== "tool_call" && u.sessionUpdate !== "tool_call_update")) return;
    const at = u.locations?.[0];
    if (at) this.host.follow?.(at.path, at.line);
  }

  /**
   * The files a shell command changed on disk (the diffs on its final update) come under
   * review as Lathe's writes do, listed when the turn ends. A replayed history's do not:
   * what was still under review then is still tracked.
   */
  private trackCommand(transcript: Transcript | undefined, u: acp.SessionUpdate): void {
    if (this.loading || !transcript || u.sessionUpdate !== "tool_call_update") return;
    for (const c of commandChanges(findTool(transcript, u.toolCallId), u)) this.changes.commandWrote(c.path, c.oldText, c.newText);
  }

  /** A fresh state for another session; what Lathe offers and the files still under review carry over. */
  private freshState(): void {
    const keep = this.state;
    this.state = emptyState();
    this.state.agentStatus = "ready";
    this.state.canListSessions = keep.canListSessions;
    this.state.canLoadSession = keep.canLoadSession;
    this.state.canDeleteSession = keep.canDeleteSession;
    this.state.canSteer = keep.canSteer;
    this.state.changes = keep.changes;
    this.state.follow = keep.follow;
    this.state.canLogout = keep.canLogout;
  }

  /** session/close of a session left behind, when Lathe supports it: leaving a chat frees it in Lathe. */
  private async close(id: string | undefined): Promise<void> {
    if (!this.process || !id || this.init?.agentCapabilities?.sessionCapabilities?.close == null) return;
    try {
      await this.process.agent.request("session/close", { sessionId: id });
    } catch (e) {
      this.host.showError(`Could not close the previous session: ${(e as Error).message}`);
    }
  }

  private handlers(): ClientHandlers {
    return {
      update: (n) => {
        if (n.sessionId !== this.sessionId) {
          // A sub-agent's child session: shown nested under the call that started it.
          if (applyChildUpdate(this.state, n.sessionId, n.update)) {
            this.trackCommand(childOf(this.state, n.sessionId), n.update as acp.SessionUpdate);
            this.emit();
          }
          return;
        }
        const waiting = this.state.queued?.[0]?.id;
        applyUpdate(this.state, n.update);
        this.trackCommand(this.state, n.update as acp.SessionUpdate);
        // Lathe echoed the oldest queued prompt: its turn started.
        if (waiting && this.state.queued?.[0]?.id !== waiting) { const q = this.queue.get(waiting); if (q) q.started = true; }
        this.emit();
        this.followUpdate(n.update as acp.SessionUpdate);
      },
      permission: (p, signal) => this.broker.request(p, signal),
      elicit: (p, signal) => this.questions.request(p, signal),
      elicitationComplete: (n) => {
        const done = this.state.items.find((i): i is QuestionItem => i.kind === "question" && i.elicitationId === n.elicitationId);
        if (done) {
          done.summary = "Opened; the server says it is done";
          this.emit();
        }
      },
      read: async (p) => {
        try {
          return { content: await this.host.readText(p.path, p.line, p.limit) };
        } catch (e) {
          // ACP's "resource not found", so that Lathe can go on to create the file.
          if ((await this.host.currentText(p.path)) === undefined) throw acp.RequestError.resourceNotFound(p.path);
          throw e;
        }
      },
      write: async (p) => {
        await this.changes.before(p.path);
        this.changes.expect(p.path, p.content);
        await this.host.writeText(p.path, p.content);
        return {};
      },
    };
  }

  /** Starts Lathe (again) and opens a new session. */
  async start(): Promise<void> {
    this.stopping = false;
    this.sessionId = undefined; // a session of a previous Lathe process is gone with it
    const options = this.host.launchOptions();
    const proc = new AgentProcess(options, this.handlers());
    this.process = proc;
    void proc.exited.then((code) => this.onExit(proc, code));
    this.state.agentStatus = "starting";
    this.emit();
    try {
      // A process that dies before answering (missing binary, bad flags) must not hang the start.
      const died = proc.exited.then((code) => { throw new Error(`lathe exited (${code}) before it answered`); });
      this.init = await Promise.race([proc.initialize(), died]);
      this.state.canListSessions = this.init.agentCapabilities?.sessionCapabilities?.list != null;
      this.state.canLoadSession = this.init.agentCapabilities?.loadSession === true;
      this.state.canDeleteSession = this.init.agentCapabilities?.sessionCapabilities?.delete != null;
      const meta = this.init._meta as { steering?: { supported?: unknown } } | null | undefined;
      this.state.canSteer = meta?.steering?.supported === true;
      this.state.canLogout = this.init.agentCapabilities?.auth?.logout != null;
      await this.newSession();
    } catch (e) {
      if (proc === this.process && !this.stopping) this.fail(`Could not start Lathe (${options.command}): ${(e as Error).message}`);
    }
  }

  /** An error said in the chat. */
  error(message: string): void {
    this.state.items.push({ kind: "error", text: message });
    this.emit();
  }

  private fail(message: string): void {
    this.state.agentStatus = "error";
    this.state.items.push({ kind: "error", text: message });
    this.emit();
    this.host.showError(message);
  }

  private async onExit(proc: AgentProcess, code: string): Promise<void> {
    if (proc !== this.process || this.stopping) return;
    this.broker.cancelAll();
    this.questions.cancelAll();
    this.endTurns();
    const now = Date.now();
    this.restarts = this.restarts.filter((t) => now - t < 60_000);
    const missing = code.startsWith("error: spawn") || code.includes("ENOENT");
    if (missing || this.restarts.length >= 3) {
      this.fail(missing
        ? `Lathe was not found (${this.host.launchOptions().command}). Set "lathe.path" to the lathe binary.`
        : `Lathe exited (${code}) three times in a minute; not restarting. See the Lathe output channel.`);
      return;
    }
    this.restarts.push(now);
    await this.start();
    // Said after the restart: the new session starts with an empty chat.
    this.state.items.push({ kind: "error", text: `Lathe exited (${code}); restarted it with a new session.` });
    this.emit();
  }

  async newSession(): Promise<void> {
    if (!this.process || !this.init) return;
    if (this.state.busy) await this.cancel();
    const [cwd, ...others] = this.host.folders();
    const extra = this.init.agentCapabilities?.sessionCapabilities?.additionalDirectories != null ? others : [];
    const request: acp.NewSessionRequest = { cwd, mcpServers: [] };
    if (extra.length) request.additionalDirectories = extra;
    const left = this.sessionId;
    this.sessionId = undefined; // its late updates are not the new chat's
    await this.close(left);
    let response: acp.NewSessionResponse;
    try {
      response = await this.process.agent.request("session/new", request);
    } catch (e) {
      // The previous session is closed: an empty chat that says why, not a dead one.
      this.freshState();
      if (isAuthRequired(e) && this.canLogIn()) {
        this.emit();
        if (await this.logIn()) return this.newSession();
        return; // the login said why: cancelled, or Lathe's refusal
      }
      const next = isAuthRequired(e) ? ' Set it in your environment or in the "lathe.env" setting, then run "Lathe: New Session".'
        : ' Run "Lathe: New Session" to try again.';
      const text = `Could not start a new session: ${(e as Error).message.replace(/\.$/, "")}.${next}`;
      this.error(text);
      if (isAuthRequired(e)) this.host.showError(text); // nothing works until then
      return;
    }
    this.sessionId = response.sessionId;
    this.freshState();
    setModes(this.state, response.modes);
    setConfigOptions(this.state, response.configOptions);
    this.emit();
  }

  /** Past sessions, when Lathe advertises `session/list` (the view hides it otherwise). */
  async listSessions(): Promise<void> {
    if (!this.process || !this.state.canListSessions) return;
    const response = await this.process.agent.request("session/list", { cwd: this.host.folders()[0] });
    this.state.sessions = response.sessions
      .filter((x) => x.sessionId !== this.sessionId) // the open one is not a past session
      .map((x) => ({ sessionId: x.sessionId, title: x.title, cwd: x.cwd }));
    this.emit();
  }

  /**
   * Deletes a past session (session/delete, when Lathe offers it): its record is gone and
   * the list forgets it. Never the open one. A refusal (open in another Lathe) is thrown.
   */
  async deleteSession(sessionId: string): Promise<void> {
    if (!this.process || !this.state.canDeleteSession || sessionId === this.sessionId) return;
    await this.process.agent.request("session/delete", { sessionId });
    this.state.sessions = this.state.sessions?.filter((x) => x.sessionId !== sessionId);
    this.emit();
  }

  /** Reopens a past session; Lathe replays its history as session updates. A failure is said in the chat. */
  async loadSession(sessionId: string): Promise<void> {
    if (!this.process || !this.init?.agentCapabilities?.loadSession || this.state.busy) return;
    const previous = { state: this.state, sessionId: this.sessionId };
    this.freshState();
    this.sessionId = sessionId; // the replay arrives before the answer
    this.loading = true;
    this.emit();
    const [cwd] = this.host.folders();
    try {
      const response = await this.process.agent.request("session/load", { sessionId, cwd, mcpServers: [] });
      setModes(this.state, response.modes);
      setConfigOptions(this.state, response.configOptions);
      staleChildren(this.state); // replayed children are history: none is running now
      // Left for the one reopened; closed only now, so a failed load leaves it usable.
      if (previous.sessionId !== sessionId) await this.close(previous.sessionId);
    } catch (e) {
      this.state = previous.state;
      this.sessionId = previous.sessionId;
      this.state.sessions = undefined;
      this.state.items.push({ kind: "error", text: `Could not reopen the session ${sessionId}: ${(e as Error).message}` });
    } finally {
      this.loading = false;
      this.emit();
    }
  }

  /**
   * Sends a prompt. While a turn runs Lathe queues it: it shows as pending (queued) until
   * Lathe echoes it where its turn starts, and is answered when that turn ends.
   */
  async prompt(blocks: acp.ContentBlock[], shown: string, images: string[] = []): Promise<void> {
    // No session (one refused, a login cancelled): asked for again first.
    if (this.process && this.init && !this.sessionId && !this.state.busy) await this.newSession();
    if (!this.process || !this.sessionId) return;
    const turn = Symbol("turn");
    let queued: Queued | undefined;
    if (this.state.busy) {
      queued = { id: `queued-${this.nextQueued++}`, withdraw: new AbortController(), started: false };
      this.queue.set(queued.id, queued);
      queuePrompt(this.state, { id: queued.id, text: shown, ...(images.length ? { images } : {}) });
    } else {
      this.state.items.push(images.length ? { kind: "user", text: shown, images } : { kind: "user", text: shown });
    }
    this.turns.add(turn);
    this.state.busy = true;
    this.emit();
    try {
      await this.send(blocks, queued);
    } catch (e) {
      const error = e as Error;
      // Auth-required when Lathe offers no login the editor can give.
      const hint = isAuthRequired(e) ? ' Set it in your environment or in the "lathe.env" setting, then run "Lathe: New Session".' : "";
      this.state.items.push({ kind: "error", text: error.message + hint });
      if (hint) this.host.showError(error.message + hint);
    } finally {
      if (queued) {
        this.queue.delete(queued.id);
        dropQueued(this.state, queued.id); // still pending: it never ran
      }
      this.turns.delete(turn);
      this.state.busy = this.turns.size > 0;
      this.state.changes = await this.changes.summary();
      this.emit();
    }
  }

  /**
   * Adds the person's text to the running turn (`_session/steering`, when Lathe offers it):
   * the model reads it at its next request. Shown in the chat as theirs, marked as added
   * to the turn. A turn that ended meanwhile makes it a prompt of its own.
   */
  async steer(text: string): Promise<void> {
    if (!this.process || !this.sessionId || !this.state.canSteer) return;
    const blocks: acp.ContentBlock[] = [{ type: "text", text }];
    if (!this.state.busy) return this.prompt(blocks, text);
    try {
      const r = await this.process.agent.request<{ outcome?: string }>("_session/steering",
        { sessionId: this.sessionId, prompt: blocks, _meta: { steering: { idleBehavior: "promptRequired" } } });
      if (r.outcome === "promptRequired") return this.prompt(blocks, text);
      this.state.items.push({ kind: "user", text, steered: true });
    } catch (e) {
      this.state.items.push({ kind: "error", text: `Could not add that to the turn: ${(e as Error).message}` });
    }
    this.emit();
  }

  /** Takes one queued prompt back before it runs ($/cancel_request; Lathe answers it `cancelled`). */
  withdrawQueued(id: string): void {
    this.queue.get(id)?.withdraw.abort();
  }

  /** The prompt turn; after a login on auth-required, the same prompt is sent again. */
  private async send(blocks: acp.ContentBlock[], queued?: Queued): Promise<void> {
    if (!this.process || !this.sessionId) return;
    let response: acp.PromptResponse;
    try {
      response = await this.process.agent.request("session/prompt", { sessionId: this.sessionId, prompt: blocks },
        queued ? { cancellationSignal: queued.withdraw.signal } : undefined);
    } catch (e) {
      if (!isAuthRequired(e) || !this.canLogIn()) throw e;
      if (await this.logIn()) return this.send(blocks, queued);
      return;
    }
    // A queued prompt dropped before its turn started (Stop, or taken back): its entry just goes.
    if (queued && !queued.started && response.stopReason === "cancelled") return;
    if (response.stopReason !== "end_turn") this.state.items.push({ kind: "notice", text: `Stopped: ${response.stopReason}` });
  }

  /** No turn runs any more (Lathe exited, or the session was left): nothing is pending. */
  private endTurns(): void {
    this.turns.clear();
    this.queue.clear();
    this.state.queued = undefined;
    this.state.busy = false;
  }

  private canLogIn(): boolean { return !!this.host.login && loginChoices(this.init?.authMethods).length > 0; }

  /**
   * On auth-required: the person picks one of the agent's logins and gives its key, which goes
   * to `authenticate`. True once Lathe took it; a cancel or a refusal is said in the chat.
   */
  private async logIn(): Promise<boolean> {
    if (!this.process || !this.host.login || !this.canLogIn()) return false;
    const answer = await this.host.login(loginChoices(this.init?.authMethods));
    if (!answer) {
      this.state.items.push({ kind: "notice", text: "Lathe needs a login to reach the model. Login cancelled: nothing was sent and nothing changed." });
      this.emit();
      return false;
    }
    try {
      await this.process.agent.request("authenticate", authenticateParams(answer));
      return true;
    } catch (e) {
      const message = `Could not log in: ${(e as Error).message}`;
      this.state.items.push({ kind: "error", text: message });
      this.emit();
      this.host.showError(message);
      return false;
    }
  }

  /** `logout`, when the agent advertises it: its stored credentials are removed and the next prompt asks for a login. */
  async logout(): Promise<void> {
    if (!this.process || !this.state.canLogout) return;
    try {
      await this.process.agent.request("logout", {});
      this.state.items.push({ kind: "notice", text: "Logged out of Lathe: the next prompt asks for a login." });
    } catch (e) {
      this.state.items.push({ kind: "error", text: `Could not log out: ${(e as Error).message}` });
    }
    this.emit();
  }

  /** Stops the turn; Lathe drops the prompts queued behind it, so their pending entries go now. */
  async cancel(): Promise<void> {
    if (!this.process || !this.sessionId) return;
    this.broker.cancelAll();
    this.questions.cancelAll();
    if (this.state.queued) {
      this.state.queued = undefined;
      this.emit();
    }
    await this.process.agent.notify("session/cancel", { sessionId: this.sessionId });
  }

  /** Stops one sub-agent (its child session) while the turn goes on; its open questions are answered `cancelled`. */
  async stopChild(sessionId: string): Promise<void> {
    if (!this.process || !childOf(this.state, sessionId)?.canStop) return;
    this.broker.cancelSession(sessionId);
    await this.process.agent.notify("session/cancel", { sessionId });
  }

  async setMode(modeId: string): Promise<void> {
    if (!this.process || !this.sessionId || !this.state.modes) return;
    await this.process.agent.request("session/set_mode", { sessionId: this.sessionId, modeId });
    this.state.modes.current = modeId;
    this.emit();
  }

  async setModel(value: string): Promise<void> { await this.setOption(this.state.models?.configId, value); }

  /** The effort picker (config option of category thought_level), from the next request. */
  async setEffort(value: string): Promise<void> { await this.setOption(this.state.efforts?.configId, value); }

  private async setOption(configId: string | undefined, value: string): Promise<void> {
    if (!this.process || !this.sessionId || !configId) return;
    const r = await this.process.agent.request("session/set_config_option", { sessionId: this.sessionId, configId, value });
    setConfigOptions(this.state, r.configOptions);
    this.emit();
  }

  /** Per-hunk Keep / Undo of the hunk the person saw; a hunk the file no longer has is refused. */
  async resolveHunk(path: string, hunk: HunkView, keep: boolean): Promise<void> {
    const done = keep ? await this.changes.keep(path, hunk)
      : await this.changes.undo(path, hunk, (p, text) => this.host.writeText(p, text));
    if (!done) this.state.items.push({ kind: "notice", text: `That change in ${path} is no longer in the file; nothing was kept or undone. The list now shows what is there.` });
    await this.refreshChanges();
  }

  /** A document changed: the person's edits are not Lathe's changes. Re-rendered only when the list changes. */
  async documentChanged(path: string, text: string): Promise<void> {
    if (!this.changes.tracks(path)) return;
    this.changes.edited(path, text);
    const changes = await this.changes.summary();
    if (JSON.stringify(changes) === JSON.stringify(this.state.changes)) return;
    this.state.changes = changes;
    this.emit();
  }

  private async refreshChanges(): Promise<void> {
    this.state.changes = await this.changes.summary();
    this.emit();
  }

  get promptCapabilities(): acp.PromptCapabilities | undefined { return this.init?.agentCapabilities?.promptCapabilities; }

  dispose(): void {
    this.stopping = true;
    this.broker.cancelAll();
    this.questions.cancelAll();
    this.process?.stop();
  }
}
