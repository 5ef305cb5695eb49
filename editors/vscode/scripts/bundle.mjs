// Bundles the extension (with the ACP SDK) for VS Code's node host and the chat
// webview (with markdown-it and highlight.js) for the browser, so the .vsix
// needs no node_modules.
import { build } from "esbuild";
await build({ entryPoints: ["src/extension.ts"], bundle: true, platform: "node", format: "cjs", target: "node20",
  external: ["vscode"], outfile: "dist/extension.js", sourcemap: true, logLevel: "warning" });
await build({ entryPoints: ["src/webview/main.ts"], bundle: true, platform: "browser", format: "iife", target: "es2022",
  outfile: "media/webview.js", logLevel: "warning" });
