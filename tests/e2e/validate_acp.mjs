// Validates an ACP transcript against the ACP v1 JSON Schema.
// usage: node validate_acp.mjs SCHEMA.json TRANSCRIPT.jsonl
// Each transcript line is {"from": "agent"|"client", "message": <JSON-RPC>}.
// Requests and notifications are checked against the schema type whose
// x-method names them; responses against the response type of the request
// they answer. Extension methods (names starting with "_", as ACP's
// extensibility reserves them) have no schema type: their params and results
// must be objects. Prints every problem and exits 1 if there is any.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(process.env.LATHE_NODE_MODULES ?? import.meta.url);
const Ajv2020 = require("ajv/dist/2020").default;

const [schemaPath, transcriptPath] = process.argv.slice(2);
const schema = JSON.parse(readFileSync(schemaPath, "utf8"));
const ajv = new Ajv2020({ strict: false, validateFormats: false });
ajv.addSchema(schema, "acp");

// method -> { params: defName, result: defName }
const byMethod = {};
for (const [name, def] of Object.entries(schema.$defs)) {
  const method = def["x-method"];
  if (!method) continue;
  byMethod[method] ??= {};
  if (/Response$/.test(name)) byMethod[method].result = name;
  else byMethod[method].params = name;
}

const problems = [];
const pending = { agent: new Map(), client: new Map() };  // requests each side sent, by id
let checked = 0;

function check(defName, value, where) {
  const validate = ajv.getSchema(`acp#/$defs/${defName}`);
  if (!validate) return problems.push(`${where}: no schema type ${defName}`);
  checked++;
  if (!validate(value ?? null)) {
    problems.push(`${where}: not a valid ${defName}: ${ajv.errorsText(validate.errors, { dataVar: "value" })}`);
  }
}

const lines = readFileSync(transcriptPath, "utf8").split("\n").filter((l) => l.trim());
lines.forEach((line, index) => {
  const { from, message } = JSON.parse(line);
  const where = `line ${index + 1} (${from} ${message.method ?? "response " + JSON.stringify(message.id)})`;
  if (message.jsonrpc !== "2.0") problems.push(`${where}: jsonrpc is not "2.0"`);
  if (message.method?.startsWith("_")) {
    if (message.params !== undefined && (typeof message.params !== "object" || Array.isArray(message.params))) {
      problems.push(`${where}: extension params must be an object`);
    }
    if (message.id !== undefined) pending[from].set(JSON.stringify(message.id), message.method);
    checked++;
    return;
  }
  if (message.method) {
    const types = byMethod[message.method];
    if (!types?.params) return problems.push(`${where}: method not in ACP v1`);
    check(types.params, message.params, where);
    if (message.id !== undefined) pending[from].set(JSON.stringify(message.id), message.method);
    return;
  }
  const other = from === "agent" ? "client" : "agent";
  const method = pending[other].get(JSON.stringify(message.id));
  if (!method) return problems.push(`${where}: answers no request`);
  pending[other].delete(JSON.stringify(message.id));
  if (message.error) {
    if (typeof message.error.code !== "number" || typeof message.error.message !== "string") {
      problems.push(`${where}: malformed error`);
    }
    return;
  }
  if (method.startsWith("_")) {
    if (typeof message.result !== "object" || message.result === null || Array.isArray(message.result)) {
      problems.push(`${where}: an extension method's result must be an object`);
    }
    return;
  }
  if ("result" in message && message.result === null && byMethod[method]?.result) {
    return problems.push(`${where}: result is null (empty results must be {})`);
  }
  if (byMethod[method]?.result) check(byMethod[method].result, message.result, where);
});

if (problems.length) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log(`${checked} messages valid against the ACP v1 schema`);
