// Where the extension finds lathe: the setting, PATH, the binary a platform
// package carries, then a workspace's build output.
import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { findLathe } from "../src/launch";

function tree(): { root: string; onPath: string; bundled: string; workspace: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "lathe-launch-"));
  const onPath = path.join(root, "path");
  const bundled = path.join(root, "extension", "bin", "lathe");
  const workspace = path.join(root, "ws");
  fs.mkdirSync(onPath);
  fs.mkdirSync(path.dirname(bundled), { recursive: true });
  fs.mkdirSync(path.join(workspace, "build", "server"), { recursive: true });
  fs.writeFileSync(path.join(workspace, "build", "server", "lathe"), "", { mode: 0o755 });
  return { root, onPath, bundled, workspace };
}

test("launch: the packaged binary is used when lathe.path is empty and none is on PATH", () => {
  const t = tree();
  fs.writeFileSync(t.bundled, "", { mode: 0o644 });  // as an installer that dropped the mode bits leaves it
  assert.equal(findLathe("", [t.workspace], t.onPath, t.bundled), t.bundled);
  assert.ok(fs.statSync(t.bundled).mode & 0o100, "made executable");
  fs.writeFileSync(path.join(t.onPath, "lathe"), "", { mode: 0o755 });
  assert.equal(findLathe("", [t.workspace], t.onPath, t.bundled), path.join(t.onPath, "lathe"));
  assert.equal(findLathe("/opt/lathe", [t.workspace], t.onPath, t.bundled), "/opt/lathe");
  fs.rmSync(t.root, { recursive: true, force: true });
});

test("launch: without a packaged binary, a workspace's build output, then plain `lathe`", () => {
  const t = tree();
  assert.equal(findLathe("", [t.workspace], t.onPath, t.bundled), path.join(t.workspace, "build", "server", "lathe"));
  assert.equal(findLathe("", [], t.onPath, t.bundled), "lathe");
  fs.rmSync(t.root, { recursive: true, force: true });
});
