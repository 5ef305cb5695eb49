import { test } from "node:test";
import * as assert from "node:assert/strict";
import { imageType, promptContent } from "../src/prompt";

const png = { mimeType: "image/png", data: "iVBORw0KGgo=" };

test("prompt: an image is sent as image content when Lathe accepts images", () => {
  const c = promptContent("what is this?", [{ label: "dot.png", uri: "file:///w/dot.png", image: png }], { image: true });
  assert.deepEqual(c.blocks, [{ type: "text", text: "what is this?" }, { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=", uri: "file:///w/dot.png" }]);
  assert.deepEqual(c.images, ["data:image/png;base64,iVBORw0KGgo="]);
  assert.deepEqual(c.refused, []);
});

test("prompt: without image support a file is linked and a pasted image is refused, never dropped silently", () => {
  const c = promptContent("x", [{ label: "dot.png", uri: "file:///w/dot.png", image: png }, { label: "pasted image", image: png }], { image: false });
  assert.deepEqual(c.blocks.slice(1), [{ type: "resource_link", uri: "file:///w/dot.png", name: "dot.png" }]);
  assert.deepEqual(c.refused, ["pasted image"]);
  assert.deepEqual(c.images, []);
});

test("prompt: a selection is embedded when Lathe accepts embedded context, else linked", () => {
  const sel = { label: "a.ts:1-2", uri: "file:///w/a.ts", text: "x\ny\n", range: "1-2" };
  assert.deepEqual(promptContent("x", [sel], { embeddedContext: true }).blocks[1], { type: "resource", resource: { uri: "file:///w/a.ts#L1-2", text: "x\ny\n" } });
  assert.deepEqual(promptContent("x", [sel], {}).blocks[1], { type: "resource_link", uri: "file:///w/a.ts", name: "a.ts:1-2" });
  assert.equal(imageType("/w/Photo.JPG"), "image/jpeg");
  assert.equal(imageType("/w/notes.txt"), undefined);
});
