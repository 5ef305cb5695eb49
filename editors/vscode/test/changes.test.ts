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
