// Inline review of an edit Lathe asks permission for: the file opens with the
// lines it would remove marked in place and the lines it would add shown after
// them, CodeLens Accept / Reject / Side by side at each hunk. Accept and Reject
// answer the permission; Lathe then writes through fs/write_text_file.
import * as vscode from "vscode";
import { computeHunks, type Hunk } from "./hunks";

export const PROPOSED_SCHEME = "lathe-proposed";

interface Proposal { permissionId: string; path: string; newText: string; hunks: Hunk[] }

export class InlineReview implements vscode.CodeLensProvider, vscode.TextDocumentContentProvider {
  private proposals = new Map<string, Proposal>();
  private changedLenses = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changedLenses.event;
  private removed = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor("diffEditor.removedLineBackground"),
    isWholeLine: true,
    textDecoration: "line-through",
  });
  private added = vscode.window.createTextEditorDecorationType({ isWholeLine: true });

  /** Opens `path` and shows the proposal until `clear(permissionId)`. */
  async show(permissionId: string, path: string, oldText: string | null, newText: string): Promise<void> {
    const uri = vscode.Uri.file(path);
    let current = oldText ?? "";
    let editor: vscode.TextEditor | undefined;
    try {
      const doc = await vscode.workspace.openTextDocument(uri);
      current = doc.getText();
      editor = await vscode.window.showTextDocument(doc, { preview: false, preserveFocus: true });
    } catch {
      // A new file: there is nothing to open; the card and side-by-side still work.
    }
    this.proposals.set(path, { permissionId, path, newText, hunks: computeHunks(current, newText) });
    if (editor) this.decorate(editor);
    this.changedLenses.fire();
  }

  clear(permissionId: string): void {
    for (const [path, p] of this.proposals) {
      if (p.permissionId !== permissionId) continue;
      this.proposals.delete(path);
      for (const e of vscode.window.visibleTextEditors) if (e.document.uri.fsPath === path) this.decorate(e);
    }
    this.changedLenses.fire();
  }

  /** Re-applies decorations when an editor with a proposal becomes visible. */
  decorate(editor: vscode.TextEditor): void {
    // Only the file itself: the side-by-side view's right side shares its path.
    const p = editor.document.uri.scheme === "file" ? this.proposals.get(editor.document.uri.fsPath) : undefined;
    const removed: vscode.DecorationOptions[] = [];
    const added: vscode.DecorationOptions[] = [];
    for (const h of p?.hunks ?? []) {
      for (let i = 0; i < h.oldLines.length; i++) removed.push({ range: new vscode.Range(h.oldStart + i, 0, h.oldStart + i, 0) });
      if (h.newLines.length) {
        // Added lines show after the last removed line, or after the line before the insertion.
        const last = h.oldLines.length ? h.oldStart + h.oldLines.length - 1 : h.oldStart - 1;
        const anchor = Math.max(0, Math.min(editor.document.lineCount - 1, last));
        added.push({
          range: new vscode.Range(anchor, 0, anchor, 0),
          hoverMessage: new vscode.MarkdownString().appendCodeblock(h.newLines.join("\n")),
          renderOptions: { after: {
            contentText: `  + ${h.newLines.join("  ⏎ ")}`,
            backgroundColor: new vscode.ThemeColor("diffEditor.insertedLineBackground"),
            color: new vscode.ThemeColor("editor.foreground"),
          } },
        });
      }
    }
    editor.setDecorations(this.removed, removed);
    editor.setDecorations(this.added, added);
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const p = this.proposals.get(document.uri.fsPath);
    if (!p) return [];
    const lenses: vscode.CodeLens[] = [];
    const hunks = p.hunks.length ? p.hunks : [{ oldStart: 0 } as Hunk];
    for (const h of hunks) {
      const range = new vscode.Range(Math.min(h.oldStart, document.lineCount - 1), 0, Math.min(h.oldStart, document.lineCount - 1), 0);
      lenses.push(
        new vscode.CodeLens(range, { title: "✓ Accept (Lathe)", command: "lathe.acceptEdit", arguments: [p.permissionId] }),
        new vscode.CodeLens(range, { title: "✗ Reject", command: "lathe.rejectEdit", arguments: [p.permissionId] }),
        new vscode.CodeLens(range, { title: "Side by side", command: "lathe.showSideBySide", arguments: [p.path] }),
      );
    }
    return lenses;
  }

  /** The proposed text, for VS Code's side-by-side diff editor. */
  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.proposals.get(uri.path)?.newText ?? "";
  }

  async sideBySide(path: string): Promise<void> {
    const left = vscode.Uri.file(path);
    const right = vscode.Uri.from({ scheme: PROPOSED_SCHEME, path });
    const name = path.split("/").pop();
    await vscode.commands.executeCommand("vscode.diff", left, right, `${name} ↔ Lathe's proposal`);
  }

  /** The permission to answer from the active editor (palette Accept / Reject). */
  activePermission(): string | undefined {
    const editor = vscode.window.activeTextEditor;
    return editor ? this.proposals.get(editor.document.uri.fsPath)?.permissionId : undefined;
  }
}
