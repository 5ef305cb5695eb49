// Makes `require("vscode")` return the in-memory mock for unit tests.
import Module from "node:module";
import * as mock from "./vscode-mock";

const mod = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const load = mod._load;
mod._load = function (request: string, ...rest: unknown[]) {
  if (request === "vscode") return mock;
  return load.call(this, request, ...rest);
};
