// A scripted MCP stdio server for Lathe's tests: well-behaved by default,
// deliberately broken on request. Usage: node mcp_test_server.mjs [mode]
//   good         tools over two pages, progress, list_changed, a call that
//                never ends (until cancelled), a call that crashes the server,
//                a call that freezes it (it then answers nothing, not even ping)
//   hang-init    never answers initialize
//   garbage      prints text that is not JSON-RPC instead of answering
//   exit         exits at once with a message on stderr
//   old-version  answers initialize with a protocol version nobody knows
//   prompts      good, plus prompts over two pages (one named "help"); the
//                tool grow also adds a prompt and says prompts/list_changed
// Every message it receives is appended (one JSON per line) to $MCP_TEST_LOG
// when set, so tests can check exactly what Lathe sent.
import { appendFileSync } from "node:fs";
import { createInterface } from "node:readline";

const mode = process.argv[2] || "good";
const logFile = process.env.MCP_TEST_LOG;
const record = (entry) => { if (logFile) appendFileSync(logFile, JSON.stringify(entry) + "\n"); };
const send = (msg) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...msg }) + "\n");

if (mode === "exit") {
  process.stderr.write("mcp_test_server: refusing to start (exit mode)\n");
  process.exit(4);
}
process.stderr.write(`mcp_test_server: started in ${mode} mode\n`);
const seen = ['GEMINI_API_KEY', 'OPENAI_API_KEY', 'MCP_TEST_VISIBLE', 'GITHUB_TOKEN', 'MCP_TEST_DB_PASSWORD', 'MCP_TEST_PAT'];
record({ started: mode, pid: process.pid, env: Object.fromEntries(seen.map((name) => [name, process.env[name] ?? null])) });

let grown = false;
let frozen = false;  // after "freeze": every message is recorded, none answered
let nextId = 1000;
const tool = (name, extra = {}) => ({ name, description: `test tool ${name}`, inputSchema: { type: "object", properties: { text: { type: "string" } } }, ...extra });
const page1 = () => [
  tool("echo", { annotations: { readOnlyHint: true } }),
  tool("progress"),
  tool("slow"),
  tool("crash"),
  tool("grow"),
  tool("fail"),
  tool("image"),
  tool("mixed"),
  tool("structured"),
  tool("ask-client"),
  tool("freeze"),
];
const page2 = () => [tool("page2tool"), ...(grown ? [tool("grown")] : [])];
const pending = new Map();  // our requests to the client, by id

function result(id, content, extra = {}) { send({ id, result: { content, ...extra } }); }

function callTool(msg) {
  const { name, arguments: args } = msg.params;
  const text = JSON.stringify(args ?? null);
  switch (name) {
    case "echo": return result(msg.id, [{ type: "text", text: `echo: ${text}` }]);
    case "page2tool": return result(msg.id, [{ type: "text", text: "from page 2" }]);
    case "grown": return result(msg.id, [{ type: "text", text: "grown tool ran" }]);
    case "fail": return result(msg.id, [{ type: "text", text: "it went wrong on purpose" }], { isError: true });
    case "image": return result(msg.id, [{ type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" }]);
    case "mixed": return result(msg.id, [
      { type: "text", text: "plain text" },
      { type: "audio", mimeType: "audio/wav", data: "UklGRg==" },
      { type: "resource", resource: { uri: "test://doc", mimeType: "text/plain", text: "embedded text" } },
      { type: "resource", resource: { uri: "test://blob", mimeType: "application/zip", blob: "UEsDBA==" } },
      { type: "resource_link", uri: "test://linked", name: "linked.txt", mimeType: "text/plain" },
    ]);
    case "structured": return result(msg.id, [], { structuredContent: { temperature: 21, unit: "C" } });
    case "grow":
      grown = true;
      send({ method: "notifications/tools/list_changed" });
      if (mode === "prompts") send({ method: "notifications/prompts/list_changed" });
      return result(msg.id, [{ type: "text", text: "grew a tool" }]);
    case "progress": {
      const token = msg.params._meta?.progressToken;
      let step = 0;
      const tick = () => {
        step += 1;
        send({ method: "notifications/progress", params: { progressToken: token, progress: step, total: 3, message: `step ${step}` } });
        if (step < 3) setTimeout(tick, 400); else setTimeout(() => result(msg.id, [{ type: "text", text: "progress done" }]), 400);
      };
      return tick();
    }
    case "slow": return;  // never answers; notifications/cancelled is recorded
    case "freeze": frozen = true; return;  // hung: not even ping is answered from now on
    case "crash":
      process.stderr.write("mcp_test_server: crashing on purpose\n");
      return process.exit(3);
    case "ask-client": {
      // Asks Lathe what a client may be asked; the answers are recorded.
      for (const method of ["ping", "roots/list", "sampling/createMessage", "elicitation/create"]) {
        const id = nextId++;
        pending.set(id, method);
        send({ id, method, params: {} });
      }
      return result(msg.id, [{ type: "text", text: "asked" }]);
    }
    default: return send({ id: msg.id, error: { code: -32602, message: `no tool ${name}` } });
  }
}

function handle(msg) {
  record(msg);
  if (frozen) return;
  if (msg.id !== undefined && !msg.method) {
    record({ answerTo: pending.get(msg.id), answer: msg.result ?? null, error: msg.error ?? null });
    return;
  }
  switch (msg.method) {
    case "initialize":
      if (mode === "hang-init") return;
      if (mode === "garbage") { process.stdout.write("this is not JSON-RPC\n{\"broken\": \n"); return; }
      return send({ id: msg.id, result: {
        protocolVersion: mode === "old-version" ? "1999-01-01" : "2025-06-18",
        capabilities: mode === "prompts" ? { tools: { listChanged: true }, prompts: { listChanged: true } }
                                         : { tools: { listChanged: true } },
        serverInfo: { name: "mcp-test-server", version: "1" } } });
    case "tools/list": {
      const cursor = msg.params?.cursor;
      if (mode === "endless-pages") return send({ id: msg.id, result: { tools: [], nextCursor: "again" } });
      if (!cursor) return send({ id: msg.id, result: { tools: page1(), nextCursor: "page-2" } });
      if (cursor === "page-2") return send({ id: msg.id, result: { tools: page2() } });
      return send({ id: msg.id, error: { code: -32602, message: "bad cursor" } });
    }
    case "tools/call": return callTool(msg);
    case "prompts/list": {
      const cursor = msg.params?.cursor;
      const greet = { name: "greet", description: "Greets someone", arguments: [
        { name: "name", description: "who to greet", required: true }, { name: "greeting" }] };
      if (!cursor) return send({ id: msg.id, result: { prompts: [greet, { name: "help", title: "Server help" }], nextCursor: "p2" } });
      return send({ id: msg.id, result: { prompts: [{ name: "two words" }, ...(grown ? [{ name: "grown-prompt" }] : [])] } });
    }
    case "prompts/get": {
      const { name, arguments: args } = msg.params;
      if (name !== "greet") return send({ id: msg.id, result: { messages: [{ role: "user", content: { type: "text", text: `prompt ${name}` } }] } });
      return send({ id: msg.id, result: { messages: [
        { role: "user", content: { type: "text", text: `${args.greeting ?? "Hello"}, ${args.name}!` } },
        { role: "assistant", content: { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" } },
        { role: "user", content: { type: "resource", resource: { uri: "test://notes.txt", mimeType: "text/plain", text: "the notes" } } },
      ] } });
    }
    case "ping": return send({ id: msg.id, result: {} });
    default:
      if (msg.id !== undefined) send({ id: msg.id, error: { code: -32601, message: "Method not found" } });
  }
}

createInterface({ input: process.stdin }).on("line", (line) => {
  if (!line.trim()) return;
  try { handle(JSON.parse(line)); } catch (e) { process.stderr.write(`bad line: ${e}\n`); }
}).on("close", () => process.exit(0));
