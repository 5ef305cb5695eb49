import { test } from "node:test";
import * as assert from "node:assert/strict";
import { applyHunk, computeHunks, revertHunk } from "../src/hunks";

const before = "one\ntwo\nthree\nfour\nfive\n";
const after = "one\nTWO\nthree\nfour\nfive\nsix\n";

test("hunks: changed and added lines become separate hunks with 0-based starts", () => {
  assert.deepEqual(computeHunks(before, after), [
    { oldStart: 1, oldLines: ["two"], newStart: 1, newLines: ["TWO"] },
    { oldStart: 5, oldLines: [], newStart: 5, newLines: ["six"] },
  ]);
  assert.deepEqual(computeHunks(before, before), []);
});

test("hunks: reverting one hunk keeps the other (Undo)", () => {
  const [first, second] = computeHunks(before, after);
  assert.equal(revertHunk(after, first), "one\ntwo\nthree\nfour\nfive\nsix\n");
  assert.equal(revertHunk(after, second), "one\nTWO\nthree\nfour\nfive\n");
});

test("hunks: applying one hunk to the old text moves the baseline (Keep)", () => {
  const [first] = computeHunks(before, after);
  const base = applyHunk(before, first);
  assert.equal(base, "one\nTWO\nthree\nfour\nfive\n");
  assert.equal(computeHunks(base, after).length, 1);
});

test("hunks: a removed block", () => {
  const h = computeHunks("a\nb\nc\nd\n", "a\nd\n");
  assert.deepEqual(h, [{ oldStart: 1, oldLines: ["b", "c"], newStart: 1, newLines: [] }]);
  assert.equal(revertHunk("a\nd\n", h[0]), "a\nb\nc\nd\n");
});
