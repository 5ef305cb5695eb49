// Where the lathe binary is and how to run it, from the `lathe.*` settings.
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { LaunchOptions } from "./agentProcess";

/** `lathe.path`, else `lathe` on PATH, else the project's build output. */
export function findLathe(setting: string, folders: string[], envPath = process.env.PATH ?? ""): string {
  if (setting) return setting;
  for (const dir of envPath.split(path.delimiter)) {
    const candidate = path.join(dir, "lathe");
    if (dir && fs.existsSync(candidate)) return candidate;
  }
  for (const folder of folders) {
    const candidate = path.join(folder, "build", "server", "lathe");
    if (fs.existsSync(candidate)) return candidate;
  }
  return "lathe";
}

export function launchOptions(folders: string[], log: (line: string) => void): LaunchOptions {
  const config = vscode.workspace.getConfiguration("lathe");
  return {
    command: findLathe(config.get<string>("path", ""), folders),
    args: config.get<string[]>("args", []),
    env: config.get<Record<string, string>>("env", {}),
    cwd: folders[0] ?? process.cwd(),
    log,
    trace: config.get<boolean>("traceProtocol", false),
  };
}
