// The part of the `vscode` API the extension's logic uses, in memory, so unit
// tests run under node's test runner. Documents live in `docs`; disk is real.
import * as fs from "node:fs";

export class Uri {
  private constructor(readonly scheme: string, readonly path: string) {}
  static file(p: string): Uri { return new Uri("file", p); }
  get fsPath(): string { return this.path; }
  toString(): string { return `${this.scheme}://${this.path}`; }
}
export class Position { constructor(readonly line: number, readonly character: number) {} }
export class Range {
  readonly start: Position; readonly end: Position;
  constructor(a: Position | number, b: Position | number, c?: number, d?: number) {
    this.start = typeof a === "number" ? new Position(a, b as number) : a;
    this.end = typeof a === "number" ? new Position(c!, d!) : (b as Position);
  }
}

export class MockDocument {
  saves = 0;
  constructor(readonly uri: Uri, public text: string, public isDirty = false) {}
  getText(): string { return this.text; }
  get lineCount(): number { return this.text.split("\n").length; }
  offsetAt(p: Position): number {
    const lines = this.text.split("\n");
    let o = 0;
    for (let i = 0; i < p.line; i++) o += lines[i].length + 1;
    return o + p.character;
  }
  positionAt(offset: number): Position {
    const before = this.text.slice(0, offset).split("\n");
    return new Position(before.length - 1, before[before.length - 1].length);
  }
  async save(): Promise<boolean> { fs.writeFileSync(this.uri.fsPath, this.text); this.isDirty = false; this.saves++; return true; }
}

type Op = { kind: "replace" | "insert"; uri: Uri; range: Range; text: string } | { kind: "create"; uri: Uri };
export class WorkspaceEdit {
  ops: Op[] = [];
  replace(uri: Uri, range: Range, text: string): void { this.ops.push({ kind: "replace", uri, range, text }); }
  insert(uri: Uri, at: Position, text: string): void { this.ops.push({ kind: "insert", uri, range: new Range(at, at), text }); }
  createFile(uri: Uri): void { this.ops.push({ kind: "create", uri }); }
}

export const docs: MockDocument[] = [];
export const applied: WorkspaceEdit[] = [];
function docFor(uri: Uri): MockDocument | undefined { return docs.find((d) => d.uri.fsPath === uri.fsPath); }

export const workspace = {
  get textDocuments() { return docs; },
  async applyEdit(edit: WorkspaceEdit): Promise<boolean> {
    applied.push(edit);
    for (const op of edit.ops) {
      if (op.kind === "create") { docs.push(new MockDocument(op.uri, "", true)); continue; }
      const d = docFor(op.uri)!;
      const s = d.offsetAt(op.range.start), e = d.offsetAt(op.range.end);
      d.text = d.text.slice(0, s) + op.text + d.text.slice(e);
      d.isDirty = true;
    }
    return true;
  },
  async openTextDocument(uri: Uri): Promise<MockDocument> {
    let d = docFor(uri);
    if (!d) { d = new MockDocument(uri, fs.readFileSync(uri.fsPath, "utf8")); docs.push(d); }
    return d;
  },
  fs: { async readFile(uri: Uri): Promise<Uint8Array> { return fs.readFileSync(uri.fsPath); } },
  getConfiguration() { return { get: <T>(_k: string, d: T) => d }; },
};
// Tests set what they use (pickers, messages) on it.
export const window: Record<string, unknown> = {};
export class ThemeIcon { constructor(readonly id: string) {} }
