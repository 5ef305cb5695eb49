// Keep / Undo after a turn when the person edits too: Lathe's hunks stay
// Lathe's, the person's lines are never undone, a stale hunk is refused, and a
// file with nothing left to review is forgotten.
import { test } from "node:test";
import * as assert from "node:assert/strict";
import { ChangeTracker } from "../src/changes";
import { LatheSession, type SessionHost } from "../src/session";

const FILE = "/w/a.txt";

function tracker(text: string) {
  const doc = { text };
  const changes = new ChangeTracker(async () => doc.text);
  const write = async (_p: string, t: string) => { doc.text = t; changes.edited(FILE, t); };
  /** Lathe writes `t` as the write handler does. */
  const lathe = async (t: string) => { await changes.before(FILE); changes.expect(FILE, t); await write(FILE, t); };
  /** The person types: the document changes and VS Code reports it. */
  const person = (t: string) => { doc.text = t; changes.edited(FILE, t); };
  return { doc, changes, write, lathe, person };
}

test("changes: after the person adds a line, Undo reverts Lathe's hunk and keeps the person's line", async () => {
  const { doc, changes, write, lathe, person } = tracker("one\ntwo\nthree\n");
  await lathe("one\nTWO\nthree\n");
  const [stale] = (await changes.summary())[0].hunks;
  person("zero\none\nTWO\nthree\n");
  const files = await changes.summary();
  assert.equal(files.length, 1);
  assert.deepEqual(files[0].hunks, [{ oldStart: 2, newStart: 2, removed: ["two"], added: ["TWO"] }], "only Lathe's change is offered");
  assert.equal(await changes.undo(FILE, stale, write), false, "the hunk shown before the edit no longer matches");
  assert.equal(doc.text, "zero\none\nTWO\nthree\n", "a refused Undo changes nothing");
  assert.equal(await changes.undo(FILE, files[0].hunks[0], write), true);
  assert.equal(doc.text, "zero\none\ntwo\nthree\n", "the person's line stays, Lathe's is undone");
  assert.deepEqual(await changes.summary(), []);
  assert.equal(changes.tracks(FILE), false, "nothing left to review: forgotten");
});

test("changes: after Keep, the person's later edits are not shown as Lathe's", async () => {
  const { changes, lathe, person } = tracker("a\nb\n");
  await lathe("a\nB\n");
  const [hunk] = (await changes.summary())[0].hunks;
  assert.equal(await changes.keep(FILE, hunk), true);
  assert.equal(changes.tracks(FILE), false, "the saved text is dropped");
  person("a\nB\nc by the person\n");
  assert.deepEqual(await changes.summary(), []);
});

test("changes: the person editing Lathe's own lines leaves that hunk for review; edits elsewhere do not", async () => {
  const { changes, lathe, person } = tracker("1\n2\n3\n4\n5\n");
  await lathe("1\nTWO\n3\n4\n5\n");
  person("1\nTWO!\n3\n4\nfive\n");
  assert.deepEqual((await changes.summary())[0].hunks, [{ oldStart: 1, newStart: 1, removed: ["2"], added: ["TWO!"] }]);
  await lathe("1\nTWO!\n3\nFOUR\nfive\n");
  assert.deepEqual((await changes.summary())[0].hunks.map((h) => h.added), [["TWO!"], ["FOUR"]]);
});

test("changes: the session's list follows the document as the person edits", async () => {
  const doc = { text: "x\ny\n" };
  const seen: number[] = [];
  const host = { currentText: async () => doc.text, changed: (s: { changes: unknown[] }) => seen.push(s.changes.length) } as unknown as SessionHost;
  const session = new LatheSession(host);
  await session.changes.before(FILE);
  session.changes.expect(FILE, "x\nY\n");
  doc.text = "x\nY\n";
  await session.documentChanged(FILE, doc.text);
  assert.equal(session.state.changes.length, 1);
  const emitted = seen.length;
  doc.text = "x!\nY\n"; // typing in a line of the person's own: the list is the same, the chat is not redrawn
  await session.documentChanged(FILE, doc.text);
  assert.equal(seen.length, emitted);
  doc.text = "x\nY\n";
  await session.documentChanged(FILE, doc.text);
  doc.text = "x\ny\n"; // the person types Lathe's change away
  await session.documentChanged(FILE, doc.text);
  assert.deepEqual(session.state.changes, []);
  assert.equal(session.changes.tracks(FILE), false);
});

// Files a shell command changed on disk: the diffs on its call's final update.
function disk(files: Record<string, string>) {
  const text = new Map(Object.entries(files));
  const changes = new ChangeTracker(async (p) => text.get(p));
  const write = async (p: string, t: string) => { text.set(p, t); changes.edited(p, t); };
  return { text, changes, write };
}

test("changes: files a command changed are reviewed from their old text: Undo puts b.txt back, Keep keeps the created c.txt", async () => {
  const { text, changes, write } = disk({ "/w/b.txt": "new\n", "/w/c.txt": "made\n" });
  changes.commandWrote("/w/b.txt", "old\n", "new\n");
  changes.commandWrote("/w/c.txt", null, "made\n");
  const files = await changes.summary();
  assert.deepEqual(files, [
    { path: "/w/b.txt", hunks: [{ oldStart: 0, newStart: 0, removed: ["old"], added: ["new"] }] },
    { path: "/w/c.txt", hunks: [{ oldStart: 0, newStart: 0, removed: [], added: ["made"] }] },
  ]);
  assert.equal(await changes.undo("/w/b.txt", files[0].hunks[0], write), true);
  assert.equal(text.get("/w/b.txt"), "old\n");
  assert.equal(await changes.keep("/w/c.txt", files[1].hunks[0]), true);
  assert.equal(text.get("/w/c.txt"), "made\n");
  assert.deepEqual(await changes.summary(), []);
  assert.equal(changes.tracks("/w/b.txt") || changes.tracks("/w/c.txt"), false);
});

test("changes: a created file undone entirely is left empty, as one Lathe created through write_file is", async () => {
  const { text, changes, write } = disk({ "/w/c.txt": "made\n" });
  changes.commandWrote("/w/c.txt", null, "made\n");
  const [file] = await changes.summary();
  assert.equal(await changes.undo("/w/c.txt", file.hunks[0], write), true);
  assert.equal(text.get("/w/c.txt"), "");
  assert.equal(changes.tracks("/w/c.txt"), false);
});

test("changes: a file a command deleted is listed, and Undo writes its text back", async () => {
  const { text, changes, write } = disk({});
  changes.commandWrote("/w/gone.txt", "kept\nlines\n", "");
  const [file] = await changes.summary();
  assert.deepEqual(file.hunks, [{ oldStart: 0, newStart: 0, removed: ["kept", "lines"], added: [] }]);
  assert.equal(await changes.undo("/w/gone.txt", file.hunks[0], write), true);
  assert.equal(text.get("/w/gone.txt"), "kept\nlines\n");
});

test("changes: a command's diff of a file already under review keeps the baseline from before Lathe's first write", async () => {
  const { text, changes, write } = disk({ "/w/a.txt": "a\nb\nc\n" });
  await changes.before("/w/a.txt");
  changes.expect("/w/a.txt", "a\nB\nc\n");
  await write("/w/a.txt", "a\nB\nc\n");
  text.set("/w/a.txt", "a\nB\nc\nd\n"); // the command appends a line on disk
  changes.commandWrote("/w/a.txt", "a\nB\nc\n", "a\nB\nc\nd\n");
  const [file] = await changes.summary();
  assert.deepEqual(file.hunks.map((h) => [h.removed, h.added]), [[["b"], ["B"]], [[], ["d"]]], "both measured from the text before Lathe");
  for (const h of [...file.hunks].reverse()) assert.equal(await changes.undo("/w/a.txt", h, write), true);
  assert.equal(text.get("/w/a.txt"), "a\nb\nc\n");
});

test("changes: an open document reloaded before the command's diff came is not taken for the person's edit", async () => {
  const { text, changes, write } = disk({ "/w/a.txt": "a\nb\nc\n" });
  await changes.before("/w/a.txt");
  changes.expect("/w/a.txt", "a\nB\nc\n");
  await write("/w/a.txt", "a\nB\nc\n");
  // VS Code reloads the document from disk first: the change looks like the person's...
  await write("/w/a.txt", "a\nB\nc\nd\n");
  assert.deepEqual((await changes.summary())[0].hunks.map((h) => h.added), [["B"]]);
  // ...until the diff says the command made it.
  changes.commandWrote("/w/a.txt", "a\nB\nc\n", "a\nB\nc\nd\n");
  assert.deepEqual((await changes.summary())[0].hunks.map((h) => h.added), [["B"], ["d"]]);
});

test("changes: until the open document shows what the command wrote, the file stays under review", async () => {
  const { text, changes } = disk({ "/w/b.txt": "old\n" }); // the document, not reloaded yet
  changes.commandWrote("/w/b.txt", "old\n", "new\n");
  assert.deepEqual(await changes.summary(), []);
  assert.equal(changes.tracks("/w/b.txt"), true, "not forgotten while the document lags");
  text.set("/w/b.txt", "new\n");
  changes.edited("/w/b.txt", "new\n"); // the reload
  assert.deepEqual((await changes.summary()).map((f) => f.path), ["/w/b.txt"]);
});

test("changes: the session tracks a command's diffs from its final update, never an edit's, nor a replay's", async () => {
  const text = new Map<string, string>([["/w/a.txt", "one\n"], ["/w/b.txt", "new\n"], ["/w/c.txt", "made\n"], ["/w/r.txt", "after\n"]]);
  const host = { currentText: async (p: string) => text.get(p), writeText: async (p: string, t: string) => { text.set(p, t); },
    changed: () => {} } as unknown as SessionHost;
  const session = new LatheSession(host);
  const s = session as unknown as { sessionId: string; loading: boolean; handlers(): { update(n: unknown): void; write(p: unknown): Promise<unknown> } };
  s.sessionId = "s1";
  const h = s.handlers();
  const update = (u: unknown) => h.update({ sessionId: "s1", update: u });
  // write_file: written through fs/write_text_file, its diff on its final update says "" before.
  update({ sessionUpdate: "tool_call", toolCallId: "w", kind: "edit", status: "pending", title: "WriteFile",
    content: [{ type: "diff", path: "/w/a.txt", oldText: "", newText: "ONE\n" }] });
  await h.write({ sessionId: "s1", path: "/w/a.txt", content: "ONE\n" });
  update({ sessionUpdate: "tool_call_update", toolCallId: "w", status: "completed",
    content: [{ type: "diff", path: "/w/a.txt", oldText: "", newText: "ONE\n" }] });
  // A command: its diffs come on the final update only.
  update({ sessionUpdate: "tool_call", toolCallId: "x", kind: "execute", status: "pending", title: "echo" });
  update({ sessionUpdate: "tool_call_update", toolCallId: "x", status: "in_progress",
    content: [{ type: "diff", path: "/w/r.txt", oldText: "before\n", newText: "after\n" }] });
  assert.equal(session.changes.tracks("/w/r.txt"), false, "not the final update");
  update({ sessionUpdate: "tool_call_update", toolCallId: "x", status: "completed", content: [
    { type: "content", content: { type: "text", text: "done" } },
    { type: "diff", path: "/w/b.txt", oldText: "old\n", newText: "new\n" },
    { type: "diff", path: "/w/c.txt", oldText: null, newText: "made\n" }] });
  const files = await session.changes.summary();
  assert.deepEqual(files.map((f) => [f.path, f.hunks.map((x) => [x.removed, x.added])]), [
    ["/w/a.txt", [[["one"], ["ONE"]]]], // the baseline is the text before the write, not the diff's ""
    ["/w/b.txt", [[["old"], ["new"]]]],
    ["/w/c.txt", [[[], ["made"]]]],
  ]);
  // A reopened session's replay: history, not a change now.
  s.loading = true;
  update({ sessionUpdate: "tool_call", toolCallId: "y", kind: "execute", status: "pending", title: "old" });
  update({ sessionUpdate: "tool_call_update", toolCallId: "y", status: "completed",
    content: [{ type: "diff", path: "/w/r.txt", oldText: "before\n", newText: "after\n" }] });
  assert.equal(session.changes.tracks("/w/r.txt"), false, "a replayed command is not tracked");
  s.loading = false;
  await session.resolveHunk("/w/b.txt", files[1].hunks[0], false);
  assert.equal(text.get("/w/b.txt"), "old\n", "Undo through the session");
  await session.resolveHunk("/w/c.txt", files[2].hunks[0], true);
  assert.equal(text.get("/w/c.txt"), "made\n");
  assert.deepEqual(session.state.changes.map((f) => f.path), ["/w/a.txt"]);
});
