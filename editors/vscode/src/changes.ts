// What the agent changed: the text of each file before its first write,
// compared with its text now. It lasts across turns and sessions until the
// person decides: Keep moves the baseline; Undo reverts the hunk in the document.
import { applyHunk, computeHunks, revertHunk } from "./hunks";
import type { ChangedFile } from "./chatState";

export class ChangeTracker {
  private baselines = new Map<string, string>();

  constructor(private current: (path: string) => Promise<string | undefined>) {}

  /** Records the text before the agent's first write of `path` not yet reviewed. */
  async before(path: string): Promise<void> {
    if (!this.baselines.has(path)) this.baselines.set(path, (await this.current(path)) ?? "");
  }

  async summary(): Promise<ChangedFile[]> {
    const files: ChangedFile[] = [];
    for (const [path, base] of this.baselines) {
      const hunks = computeHunks(base, (await this.current(path)) ?? "");
      if (hunks.length) files.push({ path, hunks: hunks.map((h) => ({ oldStart: h.oldStart, newStart: h.newStart, removed: h.oldLines, added: h.newLines })) });
    }
    return files;
  }

  async keep(path: string, index: number): Promise<void> {
    const base = this.baselines.get(path);
    if (base === undefined) return;
    const hunk = computeHunks(base, (await this.current(path)) ?? "")[index];
    if (hunk) this.baselines.set(path, applyHunk(base, hunk));
  }

  async undo(path: string, index: number, write: (path: string, text: string) => Promise<void>): Promise<void> {
    const base = this.baselines.get(path);
    const now = await this.current(path);
    if (base === undefined || now === undefined) return;
    const hunk = computeHunks(base, now)[index];
    if (hunk) await write(path, revertHunk(now, hunk));
  }
}
