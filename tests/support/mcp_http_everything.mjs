// Runs @modelcontextprotocol/server-everything in one of its HTTP modes
// (streamableHttp or sse) on 127.0.0.1 only: the server itself listens on
// every interface, so listen() is pinned to loopback before it loads.
// It tells the test on stdout, one line each, when it listens and when a
// session's start-up is over: the "Roots updated" message is sent and every
// POST (the client's roots answer among them) has been answered.
// Usage: PORT=<port> node mcp_http_everything.mjs <everything dist/index.js> <mode>
import http from "node:http";
import { pathToFileURL } from "node:url";

const say = (event) => process.stdout.write(`mcp_http_everything: ${event}\n`);
const listen = http.Server.prototype.listen;
http.Server.prototype.listen = function (port, ...rest) {
  const callback = rest.find((arg) => typeof arg === "function");
  this.once("listening", () => say("listening"));
  return listen.call(this, port, "127.0.0.1", callback);
};
let rootsSent = false;
let postsOpen = 0;
const settle = () => {
  if (rootsSent && postsOpen === 0) {
    rootsSent = false;
    say("roots synced");
  }
};
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, req, res, ...rest) {
  if (event === "request" && req.method === "POST") {
    postsOpen++;
    res.once("close", () => {
      postsOpen--;
      settle();
    });
  }
  return emit.call(this, event, req, res, ...rest);
};
const write = http.ServerResponse.prototype.write;
http.ServerResponse.prototype.write = function (chunk, ...rest) {
  const written = write.call(this, chunk, ...rest);
  if (chunk && Buffer.from(chunk).toString().includes("Roots updated")) {
    rootsSent = true;
    settle();
  }
  return written;
};
const [entry, mode] = process.argv.slice(2);
process.argv.splice(2, 2, mode);  // the server reads its mode from argv[2]
await import(pathToFileURL(entry).href);
