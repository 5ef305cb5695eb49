import { test } from "node:test";
import * as assert from "node:assert/strict";
import { hideKeys } from "../src/agentProcess";

test("trace: a key sent to authenticate is hidden, the rest of the line kept", () => {
  const line = '{"jsonrpc":"2.0","id":3,"method":"authenticate","params":{"methodId":"gemini-api-key","_meta":{"api-key":"sk-\\"x\\"-1"}}}';
  assert.equal(hideKeys(line), '{"jsonrpc":"2.0","id":3,"method":"authenticate","params":{"methodId":"gemini-api-key","_meta":{"api-key":"(hidden)"}}}');
  assert.equal(hideKeys('{"method":"session/prompt"}'), '{"method":"session/prompt"}');
});
