// Gutter marks on the lines Lathe changed that the person has not kept or
// undone yet (the chat's "Changed files"), in every editor showing such a file.
import * as vscode from "vscode";
import type { ChangedFile } from "./chatState";

export class ChangeGutter {
  private files = new Map<string, ChangedFile>();
  private readonly type: vscode.TextEditorDecorationType;

  constructor(extensionUri: vscode.Uri) {
    this.type = vscode.window.createTextEditorDecorationType({
      gutterIconPath: vscode.Uri.joinPath(extensionUri, "media", "changed.svg"),
      gutterIconSize: "contain",
      overviewRulerColor: new vscode.ThemeColor("editorGutter.modifiedBackground"),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    });
  }

  update(changes: ChangedFile[]): void {
    const before = new Set(this.files.keys());
    this.files = new Map(changes.map((f) => [f.path, f]));
    for (const e of vscode.window.visibleTextEditors) {
      const p = e.document.uri.fsPath;
      if (this.files.has(p) || before.has(p)) this.decorate(e);
    }
  }

  /** Marks the new lines of each hunk; a hunk that only removed lines marks the line after them. */
  decorate(editor: vscode.TextEditor): void {
    if (editor.document.uri.scheme !== "file") return;
    const last = Math.max(0, editor.document.lineCount - 1);
    const ranges: vscode.Range[] = [];
    for (const h of this.files.get(editor.document.uri.fsPath)?.hunks ?? []) {
      const count = Math.max(1, h.added.length);
      for (let i = 0; i < count; i++) {
        const line = Math.min(h.newStart + i, last);
        ranges.push(new vscode.Range(line, 0, line, 0));
      }
    }
    editor.setDecorations(this.type, ranges);
  }

  dispose(): void { this.type.dispose(); }
}
