// fs/read_text_file and fs/write_text_file against VS Code's documents: reads
// see unsaved text; a write is one WorkspaceEdit (one Ctrl+Z) and is then saved
// so that commands the agent runs see it. New files are created and opened.
import * as vscode from "vscode";

function openDocument(path: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === "file" && d.uri.fsPath === path);
}

/** Lines `line` (1-based) .. `line + limit - 1` of `text`, as ACP asks. */
export function sliceLines(text: string, line?: number | null, limit?: number | null): string {
  if (line == null && limit == null) return text;
  const lines = text.split("\n");
  const start = Math.max(0, (line ?? 1) - 1);
  const end = limit == null ? lines.length : start + limit;
  return lines.slice(start, end).join("\n");
}

export async function readText(path: string, line?: number | null, limit?: number | null): Promise<string> {
  const open = openDocument(path);
  if (open) return sliceLines(open.getText(), line, limit);
  const bytes = await vscode.workspace.fs.readFile(vscode.Uri.file(path));
  return sliceLines(new TextDecoder().decode(bytes), line, limit);
}

/** The text of `path` now: the open document's, else the disk's, else undefined. */
export async function currentText(path: string): Promise<string | undefined> {
  try { return await readText(path); } catch { return undefined; }
}

/** Returns true when the file was created. */
export async function writeText(path: string, content: string): Promise<boolean> {
  const uri = vscode.Uri.file(path);
  const edit = new vscode.WorkspaceEdit();
  let doc = openDocument(path);
  const created = !doc && (await currentText(path)) === undefined;
  if (created) {
    edit.createFile(uri, { ignoreIfExists: true });
    edit.insert(uri, new vscode.Position(0, 0), content);
  } else {
    doc = doc ?? (await vscode.workspace.openTextDocument(uri));
    const all = new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length));
    edit.replace(uri, all, content);
  }
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`VS Code refused the edit of ${path}`);
  doc = await vscode.workspace.openTextDocument(uri);
  await doc.save();
  return created;
}
