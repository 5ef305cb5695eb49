// The palette's pickers without a VS Code window: where Follow is written, what a failed list says.
import { test } from "node:test";
import * as assert from "node:assert/strict";
import { Commands, settingScope } from "../src/commands";
import type { InlineReview } from "../src/review";
import type { LatheSession } from "../src/session";

test("commands: Follow is toggled where its value comes from, the workspace's own setting included", () => {
  assert.equal(settingScope({ workspaceValue: true }), "workspace");
  assert.equal(settingScope({ workspaceValue: false }), "workspace");
  assert.equal(settingScope({}), "global");
  assert.equal(settingScope(undefined), "global");
});

test("commands: a failed list of past sessions is said in the chat, not left as an unhandled rejection", async () => {
  const said: string[] = [];
  const session = {
    state: { canListSessions: true },
    listSessions: async () => { throw new Error("Lathe is gone"); },
    error: (m: string) => said.push(m),
  } as unknown as LatheSession;
  await new Commands(session, {} as InlineReview, () => {}).pickSession();
  assert.deepEqual(said, ["Could not list past sessions: Lathe is gone"]);
});
