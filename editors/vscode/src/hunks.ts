// Line hunks between two texts, and applying or reverting one of them.
// Used by the inline review (what Lathe proposes) and by per-hunk Keep / Undo
// after a turn (what Lathe changed since the turn began).
import { diffLines } from "diff";

export interface Hunk {
  /** 0-based first line of the hunk in the old text. */
  oldStart: number;
  oldLines: string[];
  /** 0-based first line of the hunk in the new text. */
  newStart: number;
  newLines: string[];
}

function splitLines(value: string): string[] {
  const lines = value.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Hunks that turn `oldText` into `newText`, in order. */
export function computeHunks(oldText: string, newText: string): Hunk[] {
  const hunks: Hunk[] = [];
  let oldLine = 0;
  let newLine = 0;
  let open: Hunk | undefined;
  for (const change of diffLines(oldText, newText)) {
    const lines = splitLines(change.value);
    if (!change.added && !change.removed) {
      open = undefined;
      oldLine += lines.length;
      newLine += lines.length;
      continue;
    }
    if (!open) {
      open = { oldStart: oldLine, oldLines: [], newStart: newLine, newLines: [] };
      hunks.push(open);
    }
    if (change.removed) {
      open.oldLines.push(...lines);
      oldLine += lines.length;
    } else {
      open.newLines.push(...lines);
      newLine += lines.length;
    }
  }
  return hunks;
}

function replaceLines(text: string, start: number, count: number, lines: string[]): string {
  const all = text.split("\n");
  all.splice(start, count, ...lines);
  return all.join("\n");
}

/** `newText` with one hunk put back to its old lines (Undo). */
export function revertHunk(newText: string, hunk: Hunk): string {
  return replaceLines(newText, hunk.newStart, hunk.newLines.length, hunk.oldLines);
}

/** `oldText` with one hunk applied (Keep: the baseline accepts it). */
export function applyHunk(oldText: string, hunk: Hunk): string {
  return replaceLines(oldText, hunk.oldStart, hunk.oldLines.length, hunk.newLines);
}
