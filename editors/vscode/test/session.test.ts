// The permission flow through the official SDK against the real lathe binary
// (LATHE_BIN) replaying a recorded model: a rejected edit writes nothing, an
// accepted one arrives through fs/write_text_file.
import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LatheSession, type SessionHost } from "../src/session";
import type { ToolItem } from "../src/chatState";

const bin = process.env.LATHE_BIN;
const last = (parts: unknown[]) => ({ candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }] });
const line = (parts: unknown[]) => JSON.stringify({ method: "generateContentStream", response: [last(parts)] });

test("session: reject then accept an edit, with the agent's own options", { skip: !bin && "LATHE_BIN not set" }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lathe-session-"));
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
    setTimeout(() => session.broker.answerKind(id, [kind as "allow_once"]), 10);
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
