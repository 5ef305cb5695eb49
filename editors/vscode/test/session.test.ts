// The permission flow through the official SDK against the real lathe binary
// (LATHE_BIN) replaying a recorded model: a rejected edit writes nothing, an
// accepted one arrives through fs/write_text_file.
import { after, test } from "node:test";
import * as assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LatheSession, type SessionHost } from "../src/session";
import type { LoginAnswer, LoginChoice, QuestionItem, ToolItem } from "../src/chatState";
import { fakeGemini } from "./fakeGemini";

// Temporary folders of this file, removed when its tests are done.
const made: string[] = [];
const tempDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
};
after(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

const bin = process.env.LATHE_BIN;
const last = (parts: unknown[]) => ({ candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }] });
const line = (parts: unknown[]) => JSON.stringify({ method: "generateContentStream", response: [last(parts)] });

test("session: reject then accept an edit, with the agent's own options", { skip: !bin && "LATHE_BIN not set" }, async () => {
  const dir = tempDir("lathe-session-");
  const file = path.join(dir, "a.txt");
  fs.writeFileSync(file, "hello world\n");
  const replace = { functionCall: { name: "replace", args: { file_path: file, old_string: "world", new_string: "lathe", instruction: "x" } } };
  const rec = path.join(dir, "model.jsonl");
  fs.writeFileSync(rec, [line([replace]), line([{ text: "Left alone." }]), line([replace]), line([{ text: "Done." }])].join("\n") + "\n");
  const buffer = new Map<string, string>([[file, "hello world\n"]]);
  const writes: string[] = [];
  const host: SessionHost = {
    launchOptions: () => ({ command: bin!, args: ["--fake-responses", rec], env: {}, cwd: dir, log: () => {}, trace: false }),
    readText: async (p) => buffer.get(p) ?? fs.readFileSync(p, "utf8"),
    currentText: async (p) => buffer.get(p),
    writeText: async (p, t) => { writes.push(t); buffer.set(p, t); },
    folders: () => [dir],
    changed: () => {},
    showError: (m) => assert.fail(m),
  };
  const session = new LatheSession(host);
  const answers = ["reject_once", "allow_once"];
  session.broker.onRequest = ((show) => (id: string, request: Parameters<typeof show>[1]) => {
    show(id, request);
    const kind = answers.shift()!;
    setImmediate(() => session.broker.answerKind(id, [kind as "allow_once"]));
  })(session.broker.onRequest);
  try {
    await session.start();
    assert.ok(session.state.modes?.available.length, "Lathe offers modes");
    await session.prompt([{ type: "text", text: "edit" }], "edit");
    assert.deepEqual(writes, []);
    const rejected = session.state.items.find((i) => i.kind === "tool") as ToolItem;
    assert.equal(rejected.status, "failed");
    assert.equal(rejected.answer, "Reject");
    await session.prompt([{ type: "text", text: "edit" }], "edit");
    assert.deepEqual(writes, ["hello lathe\n"]);
    assert.deepEqual(session.state.changes.map((c) => c.hunks.length), [1]);
    assert.ok(session.state.items.some((i) => i.kind === "agent" && i.text === "Done."));
  } finally {
    session.dispose();
  }
});

// Every quiet host's state changes and errors, for until() to wait on.
const hostEvents = new EventEmitter();

function quietHost(command: string, dir: string, errors: string[], rec?: string): SessionHost {
  return {
    launchOptions: () => ({ command, args: rec ? ["--fake-responses", rec] : [], env: {}, cwd: dir, log: () => {}, trace: false }),
    readText: async (p) => fs.readFileSync(p, "utf8"),
    currentText: async () => undefined,
    writeText: async () => {},
    folders: () => [dir],
    changed: () => hostEvents.emit("change"),
    showError: (m) => {
      errors.push(m);
      hostEvents.emit("change");
    },
  };
}

// Resolves at the first change after which check() holds; fails after 20 s
// without one.
async function until(check: () => boolean, what: string): Promise<void> {
  if (check()) return;
  await new Promise<void>((resolve, reject) => {
    const look = () => {
      if (!check()) return;
      clearTimeout(guard);
      hostEvents.off("change", look);
      resolve();
    };
    const guard = setTimeout(() => {
      hostEvents.off("change", look);
      reject(new assert.AssertionError({ message: what }));
    }, 20_000);
    hostEvents.on("change", look);
  });
}

test("session: a missing binary gives a clear message, not a hang", async () => {
  const dir = tempDir("lathe-missing-");
  const errors: string[] = [];
  const session = new LatheSession(quietHost(path.join(dir, "no-such-lathe"), dir, errors));
  try {
    await session.start();
    await until(() => errors.some((e) => e.includes("was not found")), `a not-found message (got ${JSON.stringify(errors)})`);
    assert.equal(session.state.agentStatus, "error");
  } finally {
    session.dispose();
  }
});

test("session: when lathe dies it is restarted and the chat says so", { skip: !bin && "LATHE_BIN not set" }, async () => {
  const dir = tempDir("lathe-restart-");
  const errors: string[] = [];
  const traffic: string[] = [];
  const host = quietHost(bin!, dir, errors);
  const base = host.launchOptions();
  // A key, so that session/new opens (no model request is made).
  host.launchOptions = () => ({ ...base, env: { GEMINI_API_KEY: "restart-test-key" }, trace: true, log: (l) => traffic.push(l) });
  const session = new LatheSession(host);
  try {
    await session.start();
    assert.equal(session.state.agentStatus, "ready");
    const first = (session as unknown as { process: { child: { pid: number; kill(): void } } }).process.child;
    first.kill();
    await until(() => session.state.items.some((i) => i.kind === "error" && i.text.includes("restarted it")), "a restart notice");
    await until(() => session.state.agentStatus === "ready", "ready again");
    const second = (session as unknown as { process: { child: { pid: number } } }).process.child;
    assert.notEqual(second.pid, first.pid);
    // Settings changed: the extension stops Lathe and starts it again.
    session.dispose();
    await session.start();
    assert.equal(session.state.agentStatus, "ready");
    assert.ok(!traffic.some((l) => l.startsWith("-> ") && l.includes('"session/close"')), "no session/close of a dead process's session");
    assert.deepEqual(errors, []);
  } finally {
    session.dispose();
  }
});

test("session: past sessions list the one prompted before, never the open one", { skip: !bin && "LATHE_BIN not set" }, async () => {
  const dir = tempDir("lathe-list-");
  const rec = path.join(dir, "model.jsonl");
  fs.writeFileSync(rec, line([{ text: "Noted." }]) + "\n");
  const errors: string[] = [];
  const first = new LatheSession(quietHost(bin!, dir, errors, rec));
  try {
    await first.start();
    await first.prompt([{ type: "text", text: "remember PELICAN" }], "remember PELICAN");
    await first.listSessions();
    assert.deepEqual(first.state.sessions, []);
  } finally {
    first.dispose();
  }
  const second = new LatheSession(quietHost(bin!, dir, errors, rec));
  try {
    await second.start();
    await second.listSessions();
    assert.deepEqual(second.state.sessions?.map((s) => s.title), ["remember PELICAN"]);
    assert.deepEqual(errors, []);
  } finally {
    second.dispose();
  }
});

test("session: in a multi-root workspace the other folders are additional directories", { skip: !bin && "LATHE_BIN not set" }, async () => {
  const dir = tempDir("lathe-root1-");
  const other = tempDir("lathe-root2-");
  const file = path.join(other, "b.txt");
  fs.writeFileSync(file, "second root\n");
  const rec = path.join(dir, "model.jsonl");
  const replace = { functionCall: { name: "replace", args: { file_path: file, old_string: "second", new_string: "other", instruction: "x" } } };
  fs.writeFileSync(rec, [line([replace]), line([{ text: "Done." }])].join("\n") + "\n");
  const writes: string[] = [];
  const host = quietHost(bin!, dir, [], rec);
  host.folders = () => [dir, other];
  host.writeText = async (_p, t) => { writes.push(t); };
  const session = new LatheSession(host);
  session.broker.onRequest = (id) => setImmediate(() => session.broker.answerKind(id, ["allow_once"]));
  try {
    await session.start();
    await session.prompt([{ type: "text", text: "edit the other root" }], "edit");
    assert.deepEqual(writes, ["other root\n"]);
  } finally {
    session.dispose();
  }
});

test("session: without an API key the person is told how to set one", { skip: !bin && "LATHE_BIN not set" }, async () => {
  const dir = tempDir("lathe-nokey-");
  const errors: string[] = [];
  const host = quietHost(bin!, dir, errors);
  const base = host.launchOptions();
  host.launchOptions = () => ({ ...base, env: { GEMINI_API_KEY: "", GOOGLE_API_KEY: "", HOME: dir } });
  const session = new LatheSession(host);
  try {
    await session.start(); // session/new is auth-required: said at once
    assert.equal(errors.length, 1, JSON.stringify(errors));
    assert.match(errors[0], /GEMINI_API_KEY/);
    assert.match(errors[0], /lathe\.env/);
  } finally {
    session.dispose();
  }
});

test("session: a new file is created through fs/write_text_file", { skip: !bin && "LATHE_BIN not set" }, async () => {
  const dir = tempDir("lathe-newfile-");
  const file = path.join(dir, "fresh.txt");
  const rec = path.join(dir, "model.jsonl");
  const write = { functionCall: { name: "write_file", args: { file_path: file, content: "fresh\n" } } };
  fs.writeFileSync(rec, [line([write]), line([{ text: "Created." }])].join("\n") + "\n");
  const writes: string[] = [];
  const host = quietHost(bin!, dir, [], rec);
  host.readText = async (p) => fs.readFileSync(p, "utf8"); // throws ENOENT, as VS Code's fs does
  host.writeText = async (p, t) => { writes.push(`${path.basename(p)}:${t}`); };
  const session = new LatheSession(host);
  session.broker.onRequest = (id) => setImmediate(() => session.broker.answerKind(id, ["allow_once"]));
  try {
    await session.start();
    await session.prompt([{ type: "text", text: "create it" }], "create");
    assert.deepEqual(writes, ["fresh.txt:fresh\n"]);
    assert.ok(session.state.items.some((i) => i.kind === "agent" && i.text === "Created."));
  } finally {
    session.dispose();
  }
});

test("session: New closes the open session, and the past chat is reopened with its history", { skip: !bin && "LATHE_BIN not set" }, async () => {
  const dir = tempDir("lathe-back-");
  const rec = path.join(dir, "model.jsonl");
  fs.writeFileSync(rec, [line([{ text: "Noted PELICAN." }]), line([{ text: "Fresh start." }]), line([{ text: "Still here." }])].join("\n") + "\n");
  const errors: string[] = [];
  const traffic: string[] = [];
  const host = quietHost(bin!, dir, errors, rec);
  const base = host.launchOptions();
  host.launchOptions = () => ({ ...base, trace: true, log: (l) => traffic.push(l) });
  const session = new LatheSession(host);
  try {
    await session.start();
    await session.prompt([{ type: "text", text: "remember PELICAN" }], "remember PELICAN");
    const first = (session as unknown as { sessionId: string }).sessionId;
    await session.newSession();
    assert.ok(traffic.some((l) => l.startsWith("-> ") && l.includes('"session/close"') && l.includes(first)), "session/close of the first session");
    assert.equal(session.state.items.length, 0, "the new chat is empty");
    await session.prompt([{ type: "text", text: "something else" }], "something else");
    await session.listSessions();
    assert.ok(session.state.sessions?.some((s) => s.sessionId === first), JSON.stringify(session.state.sessions));
    await session.loadSession(first);
    const texts = session.state.items.map((i) => ("text" in i && i.kind !== "tool" ? `${i.kind}:${i.text}` : i.kind));
    assert.deepEqual(texts, ["user:remember PELICAN", "agent:Noted PELICAN."]);
    assert.equal((session as unknown as { sessionId: string }).sessionId, first);
    await session.prompt([{ type: "text", text: "still there?" }], "still there?");
    assert.ok(session.state.items.some((i) => i.kind === "agent" && i.text === "Still here."), JSON.stringify(session.state.items));
    assert.deepEqual(errors, []);
  } finally {
    session.dispose();
  }
});

test("session: a session that cannot be reopened says why in the chat and keeps the open one", { skip: !bin && "LATHE_BIN not set" }, async () => {
  const dir = tempDir("lathe-badload-");
  const rec = path.join(dir, "model.jsonl");
  fs.writeFileSync(rec, line([{ text: "Kept." }]) + "\n");
  const session = new LatheSession(quietHost(bin!, dir, [], rec));
  try {
    await session.start();
    assert.ok(session.state.canLoadSession, "Lathe can load sessions");
    await session.prompt([{ type: "text", text: "first" }], "first");
    const open = (session as unknown as { sessionId: string }).sessionId;
    await session.loadSession("no-such-session");
    const error = session.state.items.find((i) => i.kind === "error");
    assert.ok(error?.kind === "error" && error.text.includes("no-such-session"), JSON.stringify(session.state.items));
    assert.ok(session.state.items.some((i) => i.kind === "agent" && i.text === "Kept."), "the open chat is still shown");
    assert.equal((session as unknown as { sessionId: string }).sessionId, open);
  } finally {
    session.dispose();
  }
});

test("session: the agent's tool locations go to the host to follow, live only", { skip: !bin && "LATHE_BIN not set" }, async () => {
  const dir = tempDir("lathe-follow-");
  const file = path.join(dir, "a.txt");
  fs.writeFileSync(file, "one\ntwo\n");
  const rec = path.join(dir, "model.jsonl");
  const read = { functionCall: { name: "read_file", args: { file_path: file } } };
  fs.writeFileSync(rec, [line([read]), line([{ text: "Read it." }])].join("\n") + "\n");
  const followed: string[] = [];
  const host = quietHost(bin!, dir, [], rec);
  host.follow = (p) => followed.push(p);
  const session = new LatheSession(host);
  try {
    await session.start();
    await session.prompt([{ type: "text", text: "read a.txt" }], "read");
    assert.ok(followed.length > 0 && followed.every((p) => p === file), JSON.stringify(followed));
    // A replayed history carries the same locations: they are not followed.
    const first = (session as unknown as { sessionId: string }).sessionId;
    const live = followed.length;
    await session.newSession();
    await session.loadSession(first);
    const replayed = session.state.items.filter((i): i is ToolItem => i.kind === "tool");
    assert.ok(replayed.some((t) => t.locations.some((l) => l.path === file)), JSON.stringify(session.state.items));
    assert.equal(followed.length, live, "nothing followed during the replay");
  } finally {
    session.dispose();
  }
});

test("session: a New that Lathe refuses leaves an empty chat that says why, not a dead one", { skip: !bin && "LATHE_BIN not set" }, async () => {
  const dir = tempDir("lathe-badnew-");
  const rec = path.join(dir, "model.jsonl");
  fs.writeFileSync(rec, line([{ text: "First." }]) + "\n");
  const host = quietHost(bin!, dir, [], rec);
  const session = new LatheSession(host);
  try {
    await session.start();
    await session.prompt([{ type: "text", text: "first" }], "first");
    host.folders = () => [path.join(dir, "no-such-folder")];
    await session.newSession();
    const texts = session.state.items.map((i) => ("text" in i && i.kind !== "tool" ? `${i.kind}:${i.text}` : i.kind));
    assert.equal(texts.length, 1, JSON.stringify(texts));
    assert.match(texts[0], /^error:Could not start a new session: .*Lathe: New Session/);
  } finally {
    session.dispose();
  }
});

/** A host without a key in the environment, answering logins from `answers` (undefined: the person cancels). */
function loginHost(dir: string, errors: string[], env: Record<string, string>, answers: (LoginAnswer | undefined)[], offered: string[][]): SessionHost {
  const host = quietHost(bin!, dir, errors);
  const base = host.launchOptions();
  host.launchOptions = () => ({ ...base, env: { GEMINI_API_KEY: "", GOOGLE_API_KEY: "", GOOGLE_CLOUD_PROJECT: "", HOME: dir, XDG_STATE_HOME: path.join(dir, "state"), ...env } });
  host.login = async (choices: LoginChoice[]) => { offered.push(choices.map((c) => c.id)); return answers.shift(); };
  return host;
}

const allLogins = ["oauth-personal", "gemini-api-key", "vertex-ai", "gateway"];

test("session: without credentials the login is asked for at session/new; the key reaches the model; after logout a prompt asks again", { skip: !bin && "LATHE_BIN not set" }, async () => {
  const dir = tempDir("lathe-login-");
  const model = await fakeGemini("Logged in and answering.");
  const errors: string[] = [];
  const offered: string[][] = [];
  const session = new LatheSession(loginHost(dir, errors, { GOOGLE_GEMINI_BASE_URL: model.url }, [{ methodId: "gemini-api-key", key: "unit-key" }, undefined], offered));
  try {
    await session.start();
    assert.deepEqual(offered, [allLogins], "asked when the session opened, before any prompt");
    assert.equal(session.state.canLogout, true);
    await session.prompt([{ type: "text", text: "hi" }], "hi");
    assert.deepEqual(errors, []);
    assert.equal(offered.length, 1);
    assert.deepEqual(model.prompts().map((r) => r.key), ["unit-key"]);
    assert.ok(session.state.items.some((i) => i.kind === "agent" && i.text === "Logged in and answering."));
    assert.equal(session.state.items.filter((i) => i.kind === "user").length, 1, "the prompt is shown once");
    await session.logout();
    assert.ok(session.state.items.some((i) => i.kind === "notice" && i.text.startsWith("Logged out")));
    await session.prompt([{ type: "text", text: "again" }], "again");
    assert.equal(offered.length, 2, "a login is asked for again");
    assert.equal(model.prompts().length, 1, "nothing reached the model without a login");
    assert.ok(session.state.items.some((i) => i.kind === "notice" && i.text.includes("Login cancelled")));
    assert.equal(session.state.busy, false);
    assert.deepEqual(errors, []);
  } finally {
    session.dispose();
    await model.close();
  }
});

test("session: a gateway's base URL and headers, as the person entered them, are what Lathe uses", { skip: !bin && "LATHE_BIN not set" }, async () => {
  const dir = tempDir("lathe-login-gateway-");
  const model = await fakeGemini("Through the gateway.");
  const errors: string[] = [];
  const offered: string[][] = [];
  const answer = { methodId: "gateway", gateway: { baseUrl: model.url, headers: { Authorization: "Bearer gw-token" } } };
  const session = new LatheSession(loginHost(dir, errors, { GOOGLE_GEMINI_BASE_URL: "" }, [answer], offered));
  try {
    await session.start();
    await session.prompt([{ type: "text", text: "hi" }], "hi");
    assert.deepEqual(errors, []);
    assert.deepEqual(model.prompts().map((r) => [r.authorization, r.key]), [["Bearer gw-token", undefined]]);
    assert.ok(session.state.items.some((i) => i.kind === "agent" && i.text === "Through the gateway."));
  } finally {
    session.dispose();
    await model.close();
  }
});

test("session: keyless Vertex AI uses the project and the credentials of Lathe's environment", { skip: !bin && "LATHE_BIN not set" }, async () => {
  const dir = tempDir("lathe-login-vertex-");
  const model = await fakeGemini("From Vertex AI.");
  const adc = path.join(dir, "adc.json");
  fs.writeFileSync(adc, JSON.stringify({ type: "authorized_user", client_id: "c", client_secret: "s", refresh_token: "r", token_uri: `${model.url}/token` }));
  const errors: string[] = [];
  const env = { GOOGLE_CLOUD_PROJECT: "my-project", GOOGLE_VERTEX_BASE_URL: model.url, GOOGLE_APPLICATION_CREDENTIALS: adc };
  const session = new LatheSession(loginHost(dir, errors, env, [{ methodId: "vertex-ai" }], []));
  try {
    await session.start();
    await session.prompt([{ type: "text", text: "hi" }], "hi");
    assert.deepEqual(errors, []);
    const turns = model.prompts();
    assert.equal(turns.length, 1);
    assert.match(turns[0].path, /^\/v1\/projects\/my-project\/locations\/us-central1\/publishers\/google\/models\//);
    assert.equal(turns[0].authorization, "Bearer access-1");
  } finally {
    session.dispose();
    await model.close();
  }
});

test("session: Log in with Google: the login page the agent gives is a question in the chat, opened on the person's word, then the session opens", { skip: !bin && "LATHE_BIN not set" }, async () => {
  const dir = tempDir("lathe-login-google-");
  const google = await fakeGemini("Hello through Code Assist.");
  const errors: string[] = [];
  const env = { CODE_ASSIST_ENDPOINT: google.url, LATHE_GOOGLE_TOKEN_URL: `${google.url}/token`, LATHE_GOOGLE_AUTH_URL: "https://accounts.invalid/auth" };
  const host = loginHost(dir, errors, env, [{ methodId: "oauth-personal" }], []);
  const opened: string[] = [];
  host.openUrl = (url) => {
    opened.push(url);
    // The browser: Google sends it back to Lathe's loopback address with a code.
    const page = new URL(url);
    const back = new URL(page.searchParams.get("redirect_uri")!);
    back.searchParams.set("code", "from-google");
    back.searchParams.set("state", page.searchParams.get("state")!);
    void fetch(back).then((r) => r.text());
  };
  const session = new LatheSession(host);
  try {
    const started = session.start();
    await until(() => session.state.items.some((i) => i.kind === "question" && !!i.url), "the login page in the chat");
    const question = session.state.items.find((i): i is QuestionItem => i.kind === "question")!;
    assert.ok(question.url!.startsWith("https://accounts.invalid/auth?"), question.url);
    assert.equal(opened.length, 0, "nothing opens before the person says so");
    session.answerQuestion(question.id, "accept");
    await started;
    assert.deepEqual(opened, [question.url]);
    await session.prompt([{ type: "text", text: "hi" }], "hi");
    assert.deepEqual(errors, []);
    assert.deepEqual(google.prompts().map((r) => [r.path.split("?")[0], r.authorization]), [["/v1internal:streamGenerateContent", "Bearer access-1"]]);
    assert.ok(fs.existsSync(path.join(dir, ".gemini", "oauth_creds.json")));
    assert.ok(session.state.items.some((i) => i.kind === "agent" && i.text === "Hello through Code Assist."));
  } finally {
    session.dispose();
    await google.close();
  }
});

test("session: declining the login page leaves nothing logged in", { skip: !bin && "LATHE_BIN not set" }, async () => {
  const dir = tempDir("lathe-login-google-no-");
  const errors: string[] = [];
  const host = loginHost(dir, errors, { CODE_ASSIST_ENDPOINT: "http://127.0.0.1:9" }, [{ methodId: "oauth-personal" }], []);
  const session = new LatheSession(host);
  try {
    const started = session.start();
    await until(() => session.state.items.some((i) => i.kind === "question" && !!i.url), "the login page in the chat");
    session.answerQuestion(session.state.items.find((i): i is QuestionItem => i.kind === "question")!.id, "decline");
    await started;
    assert.equal(errors.length, 1, JSON.stringify(errors));
    assert.match(errors[0], /^Could not log in: .*cancelled/);
    assert.equal(fs.existsSync(path.join(dir, ".gemini", "oauth_creds.json")), false);
  } finally {
    session.dispose();
  }
});

test("session: a login Lathe refuses is shown with Lathe's message, and nothing is sent", { skip: !bin && "LATHE_BIN not set" }, async () => {
  const dir = tempDir("lathe-login-refused-");
  const errors: string[] = [];
  const session = new LatheSession(loginHost(dir, errors, { GOOGLE_GEMINI_BASE_URL: "" }, [{ methodId: "gateway", gateway: { baseUrl: "", headers: {} } }], []));
  try {
    await session.start();
    assert.equal(errors.length, 1, JSON.stringify(errors));
    assert.match(errors[0], /^Could not log in: .*base URL/);
    assert.ok(session.state.items.some((i) => i.kind === "error" && i.text === errors[0]));
    // A prompt asks for a session again: the login asked once more (cancelled now), nothing sent.
    await session.prompt([{ type: "text", text: "hi" }], "hi");
    assert.equal(errors.length, 1, JSON.stringify(errors));
    assert.ok(session.state.items.some((i) => i.kind === "notice" && i.text.includes("Login cancelled")));
  } finally {
    session.dispose();
  }
});

test("session: a sub-agent's work and question are nested under its call, and Stop stops it alone", { skip: !bin && "LATHE_BIN not set" }, async () => {
  const dir = tempDir("lathe-subagent-");
  const rec = path.join(dir, "model.jsonl");
  const call = (name: string, args: unknown) => ({ functionCall: { name, args } });
  fs.writeFileSync(rec, [
    line([call("invoke_agent", { agent_name: "generalist", prompt: "Run the slow check" })]),
    line([call("run_shell_command", { command: "touch started && sleep 30" })]),
    line([{ text: "Stopped it." }]),
  ].join("\n") + "\n");
  const errors: string[] = [];
  const host = quietHost(bin!, dir, errors, rec);
  const base = host.launchOptions();
  host.launchOptions = () => ({ ...base, env: { HOME: dir, GEMINI_CLI_HOME: dir } });
  const session = new LatheSession(host);
  session.broker.onRequest = ((show) => (id: string, request: Parameters<typeof show>[1]) => {
    show(id, request);
    setImmediate(() => session.broker.answerKind(id, ["allow_once"]));
  })(session.broker.onRequest);
  try {
    await session.start();
    const turn = session.prompt([{ type: "text", text: "check" }], "check");
    const card = () => session.state.items.find((i) => i.kind === "tool" && i.subagent) as ToolItem | undefined;
    const shell = () => card()?.subagent?.items.find((i) => i.kind === "tool") as ToolItem | undefined;
    await until(() => shell()?.status === "in_progress", "the child's command running, nested under the call");
    const child = card()!.subagent!;
    assert.equal(child.sessionId, `${(session as unknown as { sessionId: string }).sessionId}.call_1`);
    assert.equal(child.title, "Generalist Agent");
    assert.equal(child.task, "Run the slow check");
    assert.equal(shell()!.answer, "Allow once", "the child's question was answered in its nested card");
    assert.ok(session.state.items.every((i) => i.kind !== "tool" || i.subagent), "nothing of the child in the chat itself");
    await session.stopChild(child.sessionId);
    await turn;
    assert.deepEqual({ state: child.state, stopReason: child.stopReason }, { state: "idle", stopReason: "cancelled" });
    assert.ok(session.state.items.some((i) => i.kind === "agent" && i.text.includes("Stopped it.")), "the parent went on");
    assert.deepEqual(errors, []);
  } finally {
    session.dispose();
  }
});

test("session: a hook that blocks a call shows on its card, with the real binary", { skip: !bin && "LATHE_BIN not set" }, async () => {
  const dir = tempDir("lathe-hook-");
  const home = tempDir("lathe-hook-home-");
  const file = path.join(dir, "kept-out.txt");
  fs.mkdirSync(path.join(home, ".gemini"));
  fs.writeFileSync(path.join(home, ".gemini", "settings.json"), JSON.stringify({ hooks: { BeforeTool: [{ matcher: "write_file",
    hooks: [{ type: "command", name: "guard", command: "cat >/dev/null; echo '{\"decision\":\"deny\",\"reason\":\"not in this folder\"}'" }] }] } }));
  const rec = path.join(dir, "model.jsonl");
  const write = { functionCall: { name: "write_file", args: { file_path: file, content: "x\n" } } };
  fs.writeFileSync(rec, [line([write]), line([{ text: "Blocked, as the hook said." }])].join("\n") + "\n");
  const writes: string[] = [];
  const host = quietHost(bin!, dir, [], rec);
  const base = host.launchOptions();
  host.launchOptions = () => ({ ...base, args: [...base.args, "--yolo"], env: { HOME: home, GEMINI_CLI_HOME: home } });
  host.writeText = async (p, t) => { writes.push(t); };
  const session = new LatheSession(host);
  try {
    await session.start();
    await session.prompt([{ type: "text", text: "write it" }], "write");
    assert.deepEqual(writes, []);
    const card = session.state.items.find((i) => i.kind === "tool") as ToolItem;
    assert.equal(card.status, "failed");
    assert.deepEqual(card.hooks?.map((h) => [h.hook, h.event, h.decision, h.message]), [["guard", "BeforeTool", "blocked", "not in this folder"]]);
    assert.ok(!card.text.some((t) => t.startsWith("Hook guard")), "the note is not repeated among the output");
  } finally {
    session.dispose();
  }
});

test("session: ask_user's form is answered in the chat; the meter shows the cost; the effort picker sets the effort",
  { skip: !bin && "LATHE_BIN not set" }, async () => {
    const dir = tempDir("lathe-ask-");
    const rec = path.join(dir, "model.jsonl");
    const usage = { promptTokenCount: 1000, candidatesTokenCount: 100, totalTokenCount: 1100 };
    const priced = (parts: unknown[]) => JSON.stringify({ method: "generateContentStream", response: [{ ...last(parts), usageMetadata: usage }] });
    const ask = { functionCall: { name: "ask_user", args: { questions: [{ question: "Which login?", header: "Auth", type: "choice",
      options: [{ label: "OAuth", description: "standard" }, { label: "Keys", description: "simple" }] }] } } };
    fs.writeFileSync(rec, [priced([ask]), priced([{ text: "OAuth then." }])].join("\n") + "\n");
    const errors: string[] = [];
    const session = new LatheSession(quietHost(bin!, dir, errors, rec));
    try {
      await session.start();
      assert.ok(session.state.efforts, "gemini-2.5-pro offers an effort");
      await session.setEffort("high");
      assert.equal(session.state.efforts?.current, "high");
      const turn = session.prompt([{ type: "text", text: "log me in" }], "log me in");
      await until(() => session.state.items.some((i) => i.kind === "question"), "the question in the chat");
      const q = session.state.items.find((i) => i.kind === "question");
      if (q?.kind !== "question") throw new Error("no question");
      assert.deepEqual(q.fields.map((f) => [f.name, f.type]), [["q1", "choice"], ["q1_other", "text"]]);
      session.answerQuestion(q.id, "accept", { q1: "OAuth" });
      await turn;
      assert.equal(q.state, "accept");
      const card = session.state.items.find((i): i is ToolItem => i.kind === "tool");
      assert.match(card?.text.join("\n") ?? "", /\*\*Auth\*\* → OAuth/);
      assert.ok(session.state.items.some((i) => i.kind === "agent" && i.text === "OAuth then."));
      // gemini-2.5-pro: 1,000 prompt tokens at $1.25 and 100 output at $10 per million, twice.
      assert.equal(session.state.usage?.cost?.currency, "USD");
      assert.ok(Math.abs((session.state.usage?.cost?.amount ?? 0) - 0.0045) < 1e-9, JSON.stringify(session.state.usage));
      assert.deepEqual(errors, []);
    } finally {
      session.dispose();
    }
  });

test("session: files a shell command changed are listed from its diffs: Undo puts b.txt back, Keep keeps the created c.txt", { skip: !bin && "LATHE_BIN not set" }, async () => {
  const dir = tempDir("lathe-shell-diffs-");
  fs.writeFileSync(path.join(dir, "b.txt"), "old\n");
  const rec = path.join(dir, "model.jsonl");
  const run = { functionCall: { name: "run_shell_command", args: { command: "echo new > b.txt && echo made > c.txt", description: "change files" } } };
  fs.writeFileSync(rec, [line([run]), line([{ text: "Changed them." }])].join("\n") + "\n");
  const host = quietHost(bin!, dir, [], rec);
  host.currentText = async (p) => { try { return fs.readFileSync(p, "utf8"); } catch { return undefined; } };
  host.writeText = async (p, t) => fs.writeFileSync(p, t);
  const session = new LatheSession(host);
  session.broker.onRequest = (id) => setImmediate(() => session.broker.answerKind(id, ["allow_once"]));
  const b = fs.realpathSync(dir) + "/b.txt", c = fs.realpathSync(dir) + "/c.txt";
  try {
    await session.start();
    await session.prompt([{ type: "text", text: "change the files" }], "change the files");
    assert.ok(session.state.items.some((i) => i.kind === "agent" && i.text === "Changed them."), JSON.stringify(session.state.items));
    const card = session.state.items.find((i): i is ToolItem => i.kind === "tool" && i.toolKind === "execute");
    assert.deepEqual(card?.diffs.map((d) => [d.path, d.oldText, d.newText]), [[b, "old\n", "new\n"], [c, null, "made\n"]]);
    assert.deepEqual(session.state.changes, [
      { path: b, hunks: [{ oldStart: 0, newStart: 0, removed: ["old"], added: ["new"] }] },
      { path: c, hunks: [{ oldStart: 0, newStart: 0, removed: [], added: ["made"] }] },
    ]);
    await session.resolveHunk(b, session.state.changes[0].hunks[0], false);
    assert.equal(fs.readFileSync(b, "utf8"), "old\n");
    await session.resolveHunk(c, session.state.changes[0].hunks[0], true);
    assert.equal(fs.readFileSync(c, "utf8"), "made\n");
    assert.deepEqual(session.state.changes, []);
  } finally {
    session.dispose();
  }
});
