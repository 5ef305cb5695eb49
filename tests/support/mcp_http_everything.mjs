// Runs @modelcontextprotocol/server-everything in one of its HTTP modes
// (streamableHttp or sse) on 127.0.0.1 only: the server itself listens on
// every interface, so listen() is pinned to loopback before it loads.
// Usage: PORT=<port> node mcp_http_everything.mjs <everything dist/index.js> <mode>
import http from "node:http";
import { pathToFileURL } from "node:url";

const listen = http.Server.prototype.listen;
http.Server.prototype.listen = function (port, ...rest) {
  const callback = rest.find((arg) => typeof arg === "function");
  return listen.call(this, port, "127.0.0.1", callback);
};
const [entry, mode] = process.argv.slice(2);
process.argv.splice(2, 2, mode);  // the server reads its mode from argv[2]
await import(pathToFileURL(entry).href);
