// The unified diff `replace --dry-run` prints, built from the lines around each edit only (the
// patcher keeps those), so a dry run of a one-line edit in a huge file stays small in memory.

import { structuredPatch } from 'diff';
import type { EditResult } from '../core/edit-results.js';
import type { PatchResult } from '../core/patcher.js';

/** Lines of context around each change, as diff -u shows. */
const CONTEXT = 3;

/**
 * A unified diff (`--- PATH`, `+++ PATH`, `@@` hunks) of one patched file, as bytes.
 * Lines are compared as latin1 strings, one char per byte, so any bytes (CRLF, invalid UTF-8)
 * come out exactly as they are in the file. `mark`: the file's UTF-8 byte order mark (kept by
 * the edit), shown as line 1's first bytes, as diff -u of the file shows it.
 */
export function unifiedDiff(displayPath: string, result: PatchResult, mark?: Buffer): Buffer {
  const count = result.linesBefore;
  const edits = result.edits;
  const old = (n: number) => result.kept.get(n)?.toString('latin1') ?? '';
  let text = '';
  let delta = 0; // lines added minus removed by the edits before the current region
  const changes = Array.from({ length: edits.length }, (_, m) => {
    const e = edits.at(m)!.edit;
    return { first: e.start, last: Math.max(e.end, e.start - 1) };
  });
  for (const { from: i, to: j, lo, hi } of contextGroups(count, changes)) {
    // The region as lines marked ' ' (kept), '-' (an edit's old line) and '+' (its new line).
    const marked: string[] = [];
    const added = (r: EditResult) => {
      for (const l of linesOf(r.output.toString('latin1'))) marked.push(`+${l}`);
    };
    let k = i;
    for (let n = lo; n <= hi; n++) {
      let replaced = false;
      while (k < j && edits.at(k)!.edit.start === n) {
        const r = edits.at(k)!;
        k++;
        if (r.removed > 0) {
          for (let m = n; m <= r.edit.end; m++) marked.push(`-${old(m)}`);
          added(r);
          n = r.edit.end;
          replaced = true;
          break;
        }
        added(r);
      }
      if (!replaced) marked.push(` ${old(n)}`);
    }
    for (; k < j; k++) added(edits.at(k)!); // appended after the last line
    const newLo = lo + delta;
    for (let m = i; m < j; m++) delta += edits.at(m)!.added - edits.at(m)!.removed;
    text += regionHunks(marked, lo, newLo, mark && { old: mark, new: mark });
  }
  if (text === '') return Buffer.alloc(0);
  return Buffer.concat([Buffer.from(`--- ${displayPath}\n+++ ${displayPath}\n`, 'utf8'), Buffer.from(text, 'latin1')]);
}

/**
 * Changes grouped as a unified diff groups them: consecutive ones whose CONTEXT windows touch or
 * overlap, each group as the changes `[from, to)` and the old lines `lo..hi` it shows. A change is
 * its first and last old line (an insertion's last is its first less one); `count`: the old
 * file's lines. Shared by replace's dry run and patch's.
 */
export function contextGroups(count: number, changes: readonly { first: number; last: number }[]): { from: number; to: number; lo: number; hi: number }[] {
  const groups: { from: number; to: number; lo: number; hi: number }[] = [];
  for (let i = 0; i < changes.length; ) {
    const lo = Math.max(1, changes[i]!.first - CONTEXT);
    let hi = Math.min(count, changes[i]!.last + CONTEXT);
    let j = i + 1;
    while (j < changes.length && changes[j]!.first - CONTEXT <= hi + 1) hi = Math.min(count, Math.max(hi, changes[j++]!.last + CONTEXT));
    groups.push({ from: i, to: j, lo, hi });
    i = j;
  }
  return groups;
}

/**
 * Edits changing more lines than this in one region are shown as they were made (every old line
 * removed, every new line added) instead of through the minimal diff, whose cost grows with the
 * product of the region's length and its changes: 20,000 one-line edits took 325 s.
 */
const MINIMAL_UP_TO = 2000;

/**
 * A file's byte order mark on each side of a diff (empty: none): diff -u of the files shows it as
 * the first bytes of line 1, where linewise keeps it apart from the lines.
 */
export interface Marks {
  old: Buffer;
  new: Buffer;
}

/**
 * The hunks of one region (its lines marked by unifiedDiff), the old starting at line `lo`, the
 * new at `newLo`; `marks` put on line 1 of each side.
 */
export function regionHunks(given: readonly string[], lo: number, newLo: number, marks?: Marks): string {
  const marked = marks === undefined ? given : withMarks(given, lo, newLo, marks);
  const changed = marked.reduce((n, l) => n + (l[0] === ' ' ? 0 : 1), 0);
  const side = (skip: string) => marked.filter((l) => l[0] !== skip).map((l) => l.slice(1)).join('');
  const patch = changed <= MINIMAL_UP_TO ? structuredPatch('', '', side('+'), side('-'), '', '', { context: CONTEXT }) : undefined;
  let text = '';
  if (patch !== undefined) {
    for (const h of patch.hunks) {
      const oldStart = h.oldLines === 0 ? h.oldStart + lo - 2 : h.oldStart + lo - 1;
      const newStart = h.newLines === 0 ? h.newStart + newLo - 2 : h.newStart + newLo - 1;
      text += `@@ -${oldStart},${h.oldLines} +${newStart},${h.newLines} @@\n`;
      for (const line of h.lines) text += `${line}\n`;
    }
    return text;
  }
  // One hunk, the region itself: its edits are within 2 × CONTEXT lines of each other, as a
  // unified diff's hunks merge. A line without "\n" (the file's last) is marked as diff marks it.
  const oldLines = marked.length - marked.filter((l) => l[0] === '+').length;
  const newLines = marked.length - marked.filter((l) => l[0] === '-').length;
  text += `@@ -${oldLines === 0 ? lo - 1 : lo},${oldLines} +${newLines === 0 ? newLo - 1 : newLo},${newLines} @@\n`;
  for (const l of marked) text += l.endsWith('\n') ? l : `${l}\n\\ No newline at end of file\n`;
  return text;
}

/**
 * The region's lines with each side's mark on its line 1 (when the region starts there). A kept
 * line that is line 1 on both sides and so gets two different marks (one taken away or given), or
 * that is line 1 on one side only (lines added above it), becomes its old line removed and its new
 * line added, as the bytes of the two files differ there.
 */
function withMarks(marked: readonly string[], lo: number, newLo: number, marks: Marks): string[] {
  const oldMark = lo === 1 ? marks.old.toString('latin1') : '';
  const newMark = newLo === 1 ? marks.new.toString('latin1') : '';
  if (oldMark === '' && newMark === '') return [...marked];
  const firstOld = marked.findIndex((l) => l[0] !== '+');
  const firstNew = marked.findIndex((l) => l[0] !== '-');
  const out: string[] = [];
  // a side with no lines at line 1 is a file of its mark alone: diff shows the mark as a line
  // without a terminator
  if (firstOld === -1 && oldMark !== '') out.push(`-${oldMark}`);
  if (firstNew === -1 && newMark !== '') out.push(`+${newMark}`);
  marked.forEach((l, i) => {
    const body = l.slice(1);
    const o = i === firstOld ? oldMark + body : body;
    const n = i === firstNew ? newMark + body : body;
    if (l[0] === ' ') {
      if (o === n) out.push(` ${o}`);
      else out.push(`-${o}`, `+${n}`);
    } else out.push(l[0] === '-' ? `-${o}` : `+${n}`);
  });
  return out;
}

/** The lines of `s`, each with its "\n" (the last without one if `s` does not end in it). */
function linesOf(s: string): string[] {
  const out: string[] = [];
  let at = 0;
  while (at < s.length) {
    const nl = s.indexOf('\n', at);
    const end = nl === -1 ? s.length : nl + 1;
    out.push(s.slice(at, end));
    at = end;
  }
  return out;
}
