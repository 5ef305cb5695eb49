import { test } from "node:test";
import * as assert from "node:assert/strict";
import type * as acp from "@agentclientprotocol/sdk";
import { ElicitationBroker, answerSummary, formContent, formFields } from "../src/elicitation";

// The schema server-everything's trigger-elicitation-request sends (as Lathe forwards it: enumNames as oneOf).
const schema = {
  type: "object",
  required: ["name"],
  properties: {
    name: { type: "string", title: "String", description: "Your full, legal name" },
    check: { type: "boolean", title: "Boolean" },
    email: { type: "string", format: "email", title: "Email" },
    integer: { type: "integer", title: "Integer", minimum: 1, maximum: 100, default: 42 },
    friend: { type: "string", title: "Friend", enum: ["Monica", "Rachel"], default: "Monica" },
    fish: { type: "array", title: "Fish", items: { anyOf: [{ const: "fish-1", title: "Tuna" }, { const: "fish-2", title: "Salmon" }] } },
    pet: { type: "string", title: "Pet", oneOf: [{ const: "pet-1", title: "Cats" }, { const: "pet-2", title: "Dogs" }] },
  },
};

test("elicitation: a form's fields come from its schema, in order, with their kinds", () => {
  const fields = formFields(schema);
  assert.deepEqual(fields.map((f) => [f.name, f.type, f.required]), [
    ["name", "text", true], ["check", "boolean", false], ["email", "text", false], ["integer", "integer", false],
    ["friend", "choice", false], ["fish", "multi", false], ["pet", "choice", false]]);
  assert.equal(fields[2].format, "email");
  assert.equal(fields[3].maximum, 100);
  assert.deepEqual(fields[5].options, [{ value: "fish-1", title: "Tuna" }, { value: "fish-2", title: "Salmon" }]);
  assert.deepEqual(fields[6].options?.[1], { value: "pet-2", title: "Dogs" });
});

test("elicitation: what the person gave becomes typed content; a missing or bad answer is named", () => {
  const fields = formFields(schema);
  assert.deepEqual(formContent(fields, { name: "", check: false }), { error: "String: an answer is needed" });
  assert.deepEqual(formContent(fields, { name: "Ada", integer: "400" }), { error: "Integer: at most 100" });
  assert.deepEqual(formContent(fields, { name: "Ada", integer: "4.5" }), { error: "Integer: must be a whole number" });
  const made = formContent(fields, { name: "Ada", check: true, integer: "7", friend: "Rachel", fish: ["fish-2"], pet: "" });
  assert.deepEqual(made, { content: { name: "Ada", check: true, integer: 7, friend: "Rachel", fish: ["fish-2"] } });
  if ("content" in made) assert.equal(answerSummary(fields, made.content), "String: Ada · Boolean: true · Integer: 7 · Friend: Rachel · Fish: Salmon");
});

const formRequest: acp.CreateElicitationRequest = { sessionId: "s", mode: "form", message: "Your name?", requestedSchema: schema } as acp.CreateElicitationRequest;

test("elicitation: the broker answers once, as the person chose; Lathe may withdraw a question", async () => {
  const broker = new ElicitationBroker();
  const settled: string[] = [];
  const ids: string[] = [];
  broker.onRequest = (id) => ids.push(id);
  broker.onSettled = (id, how, summary) => settled.push(`${id}:${how}${summary ? ":" + summary : ""}`);
  const first = broker.request(formRequest);
  assert.equal(broker.accept(ids[0], { name: "" }), "String: an answer is needed");  // stays open
  assert.equal(broker.accept(ids[0], { name: "Ada" }), undefined);
  assert.deepEqual(await first, { action: "accept", content: { name: "Ada", check: false } });
  assert.equal(broker.accept(ids[0], { name: "again" }), "This question is no longer open.");

  const second = broker.request(formRequest);
  broker.decline(ids[1]);
  assert.deepEqual(await second, { action: "decline" });

  const withdraw = new AbortController();
  const third = broker.request(formRequest, withdraw.signal);
  withdraw.abort();
  await assert.rejects(third);
  assert.deepEqual(settled, ["ask-1:accept:String: Ada", "ask-2:decline", "ask-3:withdrawn"]);

  const fourth = broker.request({ sessionId: "s", mode: "url", message: "Log in", url: "https://x.test", elicitationId: "e" } as acp.CreateElicitationRequest);
  broker.cancelAll();
  assert.deepEqual(await fourth, { action: "cancel" });
});
