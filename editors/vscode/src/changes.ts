// What the agent changed: the text of each file before the agent's first write
// (its baseline), compared with its text now. A shell command's changes count
// too: the diffs on its call's final update say what it wrote on disk. It lasts
// across turns and sessions until the person decides: Keep moves the baseline,
// Undo reverts the hunk in the document. The person's own edits outside
// Lathe's hunks move into the baseline too, so only Lathe's changes are offered
// for review; a file with nothing left to review is forgotten.
import { applyHunk, computeHunks, revertHunk, type Hunk } from "./hunks";
import type { ChangedFile, HunkView } from "./chatState";

interface Tracked {
  /** The text the agent's changes are measured against. */
  base: string;
  /** The text last seen (Lathe's write or the person's edit): the person's next edit is measured from it. */
  seen: string;
  /**
   * A command Lathe ran wrote `seen` on disk: an open document may not show it yet, so
   * until it does, a document still equal to the baseline does not end the review.
   */
  onDisk?: boolean;
}

/** The last document change taken as the person's edit of a tracked file: the baseline and text before it, and the text after. */
interface Fold { base: string; seen: string; text: string }

const view = (h: Hunk): HunkView => ({ oldStart: h.oldStart, newStart: h.newStart, removed: h.oldLines, added: h.newLines });
const same = (h: Hunk, v: HunkView) =>
  JSON.stringify([h.oldStart, h.newStart, h.oldLines, h.newLines]) === JSON.stringify([v.oldStart, v.newStart, v.removed, v.added]);

/** Whether lines [s, e) of a text touch the lines one of `lathe`'s hunks put there. */
function touches(lathe: Hunk[], s: number, e: number): boolean {
  return lathe.some((h) => {
    const a = h.newStart, b = h.newStart + h.newLines.length;
    if (a === b) return s < a && e > a; // a deletion: only an edit across the gap touches it
    return s === e ? s > a && s < b : s < b && e > a;
  });
}

/** `base` with the person's edits from `prev` to `now` that leave Lathe's hunks alone. */
export function foldEdits(base: string, prev: string, now: string): string {
  const lathe = computeHunks(base, prev);
  const edits = computeHunks(prev, now);
  let out = base;
  for (const p of edits.reverse()) { // from the end, so earlier lines keep their numbers
    const s = p.oldStart, e = p.oldStart + p.oldLines.length;
    if (touches(lathe, s, e)) continue;
    const shift = lathe.filter((h) => h.newStart + h.newLines.length <= s)
      .reduce((n, h) => n + h.newLines.length - h.oldLines.length, 0);
    out = applyHunk(out, { oldStart: s - shift, oldLines: p.oldLines, newStart: p.newStart, newLines: p.newLines });
  }
  return out;
}

export class ChangeTracker {
  private files = new Map<string, Tracked>();
  /** Per file, the last document change taken as the person's edit, until Lathe writes the file again. */
  private folds = new Map<string, Fold>();

  constructor(private current: (path: string) => Promise<string | undefined>) {}

  tracks(path: string): boolean { return this.files.has(path); }

  /** Records the text before the agent's first write of `path` not yet reviewed. */
  async before(path: string): Promise<void> {
    this.folds.delete(path);
    if (this.files.has(path)) return;
    const text = (await this.current(path)) ?? "";
    this.files.set(path, { base: text, seen: text });
  }

  /** Lathe (or Undo) is about to write `text`: that change is not the person's. */
  expect(path: string, text: string): void {
    this.folds.delete(path);
    const t = this.files.get(path);
    if (t) t.seen = text;
  }

  /**
   * A shell command Lathe ran changed `path` on disk from `oldText` (null: it created the
   * file) to `newText`, as the diff on its call's final update says. The file is under
   * review from `oldText`, unless it already is: then its baseline stays. When VS Code
   * reloaded an open document before the diff came, that reload was taken for the
   * person's edit: it is taken back, the command's change is Lathe's.
   */
  commandWrote(path: string, oldText: string | null, newText: string): void {
    const fold = this.folds.get(path);
    this.folds.delete(path);
    const before = oldText ?? "";
    if (fold && fold.seen === before && fold.text === newText) this.files.set(path, { base: fold.base, seen: newText });
    const t = this.files.get(path);
    if (t) {
      t.seen = newText;
      t.onDisk = true;
    } else if (before !== newText) {
      this.files.set(path, { base: before, seen: newText, onDisk: true });
    }
  }

  /** The document of `path` now holds `text`: the person's edits move into the baseline. */
  edited(path: string, text: string): void {
    const t = this.files.get(path);
    if (!t) return;
    if (text === t.seen) { t.onDisk = false; return; }
    this.folds.set(path, { base: t.base, seen: t.seen, text });
    t.base = foldEdits(t.base, t.seen, text);
    t.seen = text;
    t.onDisk = false;
    if (t.base === text) this.files.delete(path);
  }

  private async hunks(path: string): Promise<{ t: Tracked; now: string; hunks: Hunk[] } | undefined> {
    const t = this.files.get(path);
    if (!t) return undefined;
    const now = (await this.current(path)) ?? "";
    const hunks = computeHunks(t.base, now);
    if (t.onDisk && now === t.seen) t.onDisk = false; // the document shows what the command wrote
    if (!hunks.length && !t.onDisk) this.files.delete(path); // nothing left to review
    return { t, now, hunks };
  }

  async summary(): Promise<ChangedFile[]> {
    const out: ChangedFile[] = [];
    for (const path of [...this.files.keys()]) {
      const hunks = (await this.hunks(path))?.hunks ?? [];
      if (hunks.length) out.push({ path, hunks: hunks.map(view) });
    }
    return out;
  }

  /** Keeps the hunk shown; false when the file no longer has it (the list was stale). */
  async keep(path: string, shown: HunkView): Promise<boolean> {
    const found = await this.hunks(path);
    const hunk = found?.hunks.find((h) => same(h, shown));
    if (!found || !hunk) return false;
    found.t.base = applyHunk(found.t.base, hunk);
    if (found.t.base === found.now) this.files.delete(path);
    return true;
  }

  /** Reverts the hunk shown in the document; false when the file no longer has it. */
  async undo(path: string, shown: HunkView, write: (path: string, text: string) => Promise<void>): Promise<boolean> {
    const found = await this.hunks(path);
    const hunk = found?.hunks.find((h) => same(h, shown));
    if (!found || !hunk) return false;
    const text = revertHunk(found.now, hunk);
    this.expect(path, text);
    await write(path, text);
    await this.hunks(path);
    return true;
  }
}
