// Where the lathe binary is and how to run it, from the `lathe.*` settings.
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { LaunchOptions } from "./agentProcess";

/**
 * `lathe.path`, else `lathe` on PATH, else the binary a platform package
 * carries (`bundled`: <extension>/bin/lathe), else the project's build output.
 */
export function findLathe(setting: string, folders: string[], envPath = process.env.PATH ?? "", bundled = ""): string {
  if (setting) return setting;
  for (const dir of envPath.split(path.delimiter)) {
    const candidate = path.join(dir, "lathe");
    if (dir && fs.existsSync(candidate)) return candidate;
  }
  if (bundled && fs.existsSync(bundled)) {
    // Some installers drop the mode bits a .vsix carries.
    try { fs.accessSync(bundled, fs.constants.X_OK); } catch { fs.chmodSync(bundled, 0o755); }
    return bundled;
  }
  for (const folder of folders) {
    const candidate = path.join(folder, "build", "server", "lathe");
    if (fs.existsSync(candidate)) return candidate;
  }
  return "lathe";
}

export function launchOptions(folders: string[], log: (line: string) => void, extensionPath = ""): LaunchOptions {
  const config = vscode.workspace.getConfiguration("lathe");
  const bundled = extensionPath ? path.join(extensionPath, "bin", "lathe") : "";
  return {
    command: findLathe(config.get<string>("path", ""), folders, process.env.PATH ?? "", bundled),
    args: config.get<string[]>("args", []),
    env: config.get<Record<string, string>>("env", {}),
    cwd: folders[0] ?? process.cwd(),
    log,
    trace: config.get<boolean>("traceProtocol", false),
  };
}
