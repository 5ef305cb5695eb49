import { after, test } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as mock from "./vscode-mock";
import { readText, sliceLines, writeText } from "../src/documents";
import { ChangeTracker } from "../src/changes";

// Temporary folders of this file, removed when its tests are done.
const made: string[] = [];
const tempDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
};
after(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

const dir = tempDir("lathe-docs-");

test("documents: reads answer from the open document, unsaved text included", async () => {
  const file = path.join(dir, "a.txt");
  fs.writeFileSync(file, "on disk\n");
  mock.docs.push(new mock.MockDocument(mock.Uri.file(file), "unsaved\nline two\n", true));
  assert.equal(await readText(file), "unsaved\nline two\n");
  assert.equal(await readText(file, 2, 1), "line two");
  fs.writeFileSync(path.join(dir, "closed.txt"), "x\ny\n");
  assert.equal(await readText(path.join(dir, "closed.txt")), "x\ny\n");
  assert.equal(sliceLines("a\nb\nc", 2, null), "b\nc");
});

test("documents: a write is one WorkspaceEdit on the open document, then saved", async () => {
  const file = path.join(dir, "b.txt");
  fs.writeFileSync(file, "old\n");
  const doc = new mock.MockDocument(mock.Uri.file(file), "unsaved old\n", true);
  mock.docs.push(doc);
  const editsBefore = mock.applied.length;
  assert.equal(await writeText(file, "unsaved new\n"), false);
  assert.equal(mock.applied.length - editsBefore, 1);
  assert.equal(mock.applied[mock.applied.length - 1].ops.length, 1);
  assert.equal(doc.getText(), "unsaved new\n");
  assert.equal(doc.saves, 1);
  assert.equal(fs.readFileSync(file, "utf8"), "unsaved new\n");
});

test("documents: a new file is created with its content and saved", async () => {
  const file = path.join(dir, "new.txt");
  assert.equal(await writeText(file, "fresh\n"), true);
  assert.equal(fs.readFileSync(file, "utf8"), "fresh\n");
});

test("changes: per-hunk Undo and Keep after a turn", async () => {
  const file = path.join(dir, "c.txt");
  fs.writeFileSync(file, "1\n2\n3\n4\n5\n");
  const tracker = new ChangeTracker((p) => readText(p).catch(() => undefined));
  await tracker.before(file);
  await writeText(file, "1\nTWO\n3\n4\nFIVE\n");
  await tracker.before(file); // a second write in the same turn keeps the first baseline
  await writeText(file, "1\nTWO\n3\n4\nFIVE\n");
  const [first, second] = (await tracker.summary())[0].hunks;
  assert.ok(second);
  assert.equal(await tracker.undo(file, first, async (p, t) => { await writeText(p, t); }), true);
  assert.equal(fs.readFileSync(file, "utf8"), "1\n2\n3\n4\nFIVE\n");
  assert.equal(await tracker.keep(file, (await tracker.summary())[0].hunks[0]), true);
  assert.deepEqual(await tracker.summary(), []);
  assert.equal(fs.readFileSync(file, "utf8"), "1\n2\n3\n4\nFIVE\n");
});
