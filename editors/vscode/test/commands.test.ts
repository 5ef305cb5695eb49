import { test } from "node:test";
import * as assert from "node:assert/strict";
import { settingScope } from "../src/commands";

test("commands: Follow is toggled where its value comes from, the workspace's own setting included", () => {
  assert.equal(settingScope({ workspaceValue: true }), "workspace");
  assert.equal(settingScope({ workspaceValue: false }), "workspace");
  assert.equal(settingScope({}), "global");
  assert.equal(settingScope(undefined), "global");
});
