// Working alongside the agent, against the real lathe binary (LATHE_BIN) replaying a
// recorded model: prompts queued behind a running turn, dropped with it or taken back,
// a shell command's output live on its card, the plan-exit question and the mode it
// picks, steering the running turn, and deleting a past session.
import { after, test } from "node:test";
import * as assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LatheSession, type SessionHost } from "../src/session";
import type { ChatState, Item, ToolItem } from "../src/chatState";

const bin = process.env.LATHE_BIN;
const skip = !bin && "LATHE_BIN not set";
const made: string[] = [];
after(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));
const tempDir = (prefix: string) => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
};

const last = (parts: unknown[]) => ({ candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }] });
const line = (parts: unknown[]) => JSON.stringify({ method: "generateContentStream", response: [last(parts)] });
const call = (name: string, args: unknown) => line([{ functionCall: { name, args } }]);
const say = (text: string) => line([{ text }]);

/** A session on the real binary with the recorded model `lines`; files are read and written on disk. */
function start(lines: string[], extraArgs: string[] = []) {
  const dir = tempDir("lathe-alongside-");
  const home = tempDir("lathe-alongside-home-"); // Lathe's state (sessions, plans) outside the workspace
  const rec = path.join(dir, "model.jsonl");
  fs.writeFileSync(rec, lines.join("\n") + "\n");
  const events = new EventEmitter();
  const errors: string[] = [];
  const host: SessionHost = {
    launchOptions: () => ({ command: bin!, args: ["--fake-responses", rec, ...extraArgs], cwd: dir, log: () => {}, trace: false,
      env: { HOME: home, GEMINI_CLI_HOME: home, XDG_STATE_HOME: path.join(home, "state") } }),
    readText: async (p) => fs.readFileSync(p, "utf8"),
    currentText: async (p) => (fs.existsSync(p) ? fs.readFileSync(p, "utf8") : undefined),
    writeText: async (p, t) => { fs.mkdirSync(path.dirname(p), { recursive: true }); fs.writeFileSync(p, t); },
    folders: () => [dir],
    changed: (state) => events.emit("change", state),
    showError: (m) => { errors.push(m); events.emit("change"); },
  };
  const session = new LatheSession(host);
  // Resolves at the first state after which check() holds; fails after 20 s without one.
  const until = (check: () => boolean, what: string) => new Promise<void>((resolve, reject) => {
    if (check()) return resolve();
    const look = () => { if (check()) { clearTimeout(guard); events.off("change", look); resolve(); } };
    const guard = setTimeout(() => { events.off("change", look); reject(new assert.AssertionError({ message: `${what}: ${JSON.stringify(session.state.items)}` })); }, 20_000);
    events.on("change", look);
  });
  return { dir, session, errors, events, until };
}

const texts = (items: Item[]) => items.filter((i) => i.kind !== "tool" && i.kind !== "question" && i.kind !== "compaction")
  .map((i) => `${i.kind}:${(i as { text: string }).text}`);
const prompt = (s: LatheSession, text: string) => s.prompt([{ type: "text", text }], text);
const held = (s: LatheSession) => {
  const asked: string[] = [];
  s.broker.onRequest = ((show) => (id: string, request: Parameters<typeof show>[1]) => { asked.push(id); show(id, request); })(s.broker.onRequest);
  return asked;
};

test("alongside: a prompt sent while a turn runs is pending until its turn starts, then the person's message, once", { skip }, async () => {
  const { session, errors, until } = start([call("write_file", { file_path: "a.txt", content: "x\n" }), say("First done."), say("Second done.")]);
  const asked = held(session);
  try {
    await session.start();
    const first = prompt(session, "write a");
    await until(() => asked.length === 1, "the write's question");
    const second = prompt(session, "then say hi");
    assert.deepEqual(session.state.queued?.map((q) => q.text), ["then say hi"], "shown as pending");
    assert.deepEqual(texts(session.state.items), ["user:write a"], "not in the chat yet");
    assert.equal(session.state.busy, true);
    session.broker.answerKind(asked[0], ["allow_once"]);
    await first;
    await second;
    assert.deepEqual(texts(session.state.items), ["user:write a", "agent:First done.", "user:then say hi", "agent:Second done."]);
    assert.equal(session.state.queued, undefined);
    assert.equal(session.state.busy, false);
    assert.deepEqual(errors, []);
  } finally {
    session.dispose();
  }
});

test("alongside: × takes one queued prompt back; Stop ends the turn and drops the rest; the next prompt runs", { skip }, async () => {
  const { session, errors, until } = start([call("write_file", { file_path: "a.txt", content: "x\n" }), say("Later.")]);
  const asked = held(session);
  try {
    await session.start();
    const first = prompt(session, "write a");
    await until(() => asked.length === 1, "the write's question");
    const second = prompt(session, "queued one");
    const third = prompt(session, "queued two");
    const two = session.state.queued!.find((q) => q.text === "queued two")!;
    session.withdrawQueued(two.id);
    await third;
    assert.deepEqual(session.state.queued?.map((q) => q.text), ["queued one"], "only the one taken back went");
    assert.equal(session.state.busy, true, "the turn goes on");
    await session.cancel();
    assert.equal(session.state.queued, undefined, "Stop drops the pending entries at once");
    await first;
    await second;
    assert.equal(session.state.busy, false);
    assert.deepEqual(texts(session.state.items), ["user:write a", "notice:Stopped: cancelled"], "nothing of the dropped prompts, one Stopped");
    await prompt(session, "again");
    assert.deepEqual(texts(session.state.items).slice(-2), ["user:again", "agent:Later."]);
    assert.deepEqual(errors, []);
  } finally {
    session.dispose();
  }
});

test("alongside: a shell command's output streams onto its card as it runs, with its cwd and exit code", { skip }, async () => {
  const { dir, session, events, errors } = start([
    call("run_shell_command", { command: "printf 'hello\\n'; sleep 1; printf 'world\\n'; exit 3" }), say("Ran it.")]);
  session.broker.onRequest = (id) => setImmediate(() => session.broker.answerKind(id, ["allow_once"]));
  const seen: string[] = [];
  events.on("change", (state?: ChatState) => {
    const t = (state?.items.find((i) => i.kind === "tool") as ToolItem | undefined)?.terminal;
    if (t && !t.exit) seen.push(t.output);
  });
  try {
    await session.start();
    await prompt(session, "run it");
    const card = session.state.items.find((i): i is ToolItem => i.kind === "tool")!;
    assert.equal(card.terminal?.cwd, dir);
    assert.equal(card.terminal?.output, "hello\nworld\n");
    assert.deepEqual(card.terminal?.exit, { code: 3, signal: null });
    assert.ok(seen.includes("hello\n"), `the first line was shown before the command ended: ${JSON.stringify(seen)}`);
    assert.ok(!card.text.some((t) => t.includes("hello")), "the output is not repeated as text");
    assert.ok(session.state.items.some((i) => i.kind === "agent" && i.text === "Ran it."));
    assert.deepEqual(errors, []);
  } finally {
    session.dispose();
  }
});

test("alongside: exit_plan_mode asks with the plan's text and Lathe's options; the mode picked shows in the picker", { skip }, async () => {
  const { session, errors, until } = start([
    call("write_file", { file_path: "feature-x.md", content: "# Plan\n1. Change src.txt\n" }),
    call("exit_plan_mode", { plan_filename: "feature-x.md" }),
    say("Carrying it out.")], ["--approval-mode", "plan"]);
  const asked = held(session);
  try {
    await session.start();
    assert.equal(session.state.modes?.current, "plan");
    const turn = prompt(session, "plan it");
    await until(() => asked.length === 1, "the plan's question");
    const card = session.state.items.find((i): i is ToolItem => i.kind === "tool" && !!i.permission)!;
    assert.match(card.text.join("\n"), /1\. Change src\.txt/);
    assert.deepEqual(card.permission?.options.map((o) => o.optionId), ["autoEdit", "default", "reject_once"]);
    session.broker.answer(asked[0], "autoEdit");
    await turn;
    assert.equal(session.state.modes?.current, "autoEdit", "the mode picker follows current_mode_update");
    assert.ok(session.state.items.some((i) => i.kind === "agent" && i.text === "Carrying it out."));
    assert.deepEqual(errors, []);
  } finally {
    session.dispose();
  }
});

test("alongside: Steer adds the person's words to the running turn, shown in the chat as theirs", { skip }, async () => {
  const { session, errors, until } = start([call("write_file", { file_path: "a.txt", content: "x\n" }), say("Adjusted: tabs.")]);
  const asked = held(session);
  try {
    await session.start();
    assert.equal(session.state.canSteer, true, "Lathe advertises _meta.steering.supported");
    const turn = prompt(session, "write a");
    await until(() => asked.length === 1, "the write's question");
    await session.steer("use tabs, not spaces");
    session.broker.answerKind(asked[0], ["allow_once"]);
    await turn;
    const steered = session.state.items.find((i) => i.kind === "user" && i.steered);
    assert.equal(steered && "text" in steered && steered.text, "use tabs, not spaces");
    assert.deepEqual(texts(session.state.items), ["user:write a", "user:use tabs, not spaces", "agent:Adjusted: tabs."]);
    assert.deepEqual(errors, []);
  } finally {
    session.dispose();
  }
});

test("alongside: a past session is deleted and the list forgets it; it cannot be reopened", { skip }, async () => {
  const { session, errors } = start([say("One."), say("Two."), say("Three.")]);
  try {
    await session.start();
    assert.equal(session.state.canDeleteSession, true, "Lathe offers session/delete");
    await prompt(session, "keep me");
    const kept = (session as unknown as { sessionId: string }).sessionId;
    await session.newSession();
    await prompt(session, "delete me");
    const doomed = (session as unknown as { sessionId: string }).sessionId;
    await session.newSession();
    await prompt(session, "the open one");
    await session.listSessions();
    assert.deepEqual(new Set(session.state.sessions?.map((s) => s.sessionId)), new Set([kept, doomed]));
    await session.deleteSession(doomed);
    assert.deepEqual(session.state.sessions?.map((s) => s.sessionId), [kept]);
    await session.listSessions();
    assert.deepEqual(session.state.sessions?.map((s) => s.sessionId), [kept], "Lathe forgot it too");
    await session.loadSession(doomed);
    assert.ok(session.state.items.some((i) => i.kind === "error" && i.text.includes(doomed)), "reopening it says it is gone");
    assert.deepEqual(errors, []);
  } finally {
    session.dispose();
  }
});
