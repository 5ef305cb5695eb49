import { test } from "node:test";
import * as assert from "node:assert/strict";
import type * as acp from "@agentclientprotocol/sdk";
import { PermissionBroker } from "../src/permissions";

const request: acp.RequestPermissionRequest = {
  sessionId: "s",
  toolCall: { toolCallId: "c1", content: [{ type: "diff", path: "/w/a.txt", oldText: "a", newText: "b" }] },
  options: [
    { optionId: "yes", name: "Allow once", kind: "allow_once" },
    { optionId: "always", name: "Always", kind: "allow_always" },
    { optionId: "no", name: "Reject", kind: "reject_once" },
  ],
};

test("permissions: nothing is answered until the person picks an option", async () => {
  const broker = new PermissionBroker();
  let id = "";
  broker.onRequest = (i) => { id = i; };
  let settled = false;
  const answer = broker.request(request).then((r) => { settled = true; return r; });
  await new Promise((r) => setImmediate(r));  // everything already settled has run by now
  assert.equal(settled, false);
  assert.equal(broker.answer(id, "not-offered"), false);
  assert.equal(broker.answer(id, "no"), true);
  assert.deepEqual(await answer, { outcome: { outcome: "selected", optionId: "no" } });
  assert.equal(broker.answer(id, "yes"), false, "answered once");
});

test("permissions: Accept picks the agent's allow-once option; cancel answers cancelled", async () => {
  const broker = new PermissionBroker();
  const ids: string[] = [];
  broker.onRequest = (i) => ids.push(i);
  const first = broker.request(request);
  const second = broker.request(request);
  assert.equal(broker.answerKind(ids[0], ["allow_once", "allow_always"]), true);
  assert.deepEqual(await first, { outcome: { outcome: "selected", optionId: "yes" } });
  broker.cancelAll();
  assert.deepEqual(await second, { outcome: { outcome: "cancelled" } });
});
