// The unified diff `replace --dry-run` prints, built from the lines around each edit only (the
// patcher keeps those), so a dry run of a one-line edit in a huge file stays small in memory.

import { structuredPatch } from 'diff';
import type { PatchResult } from '../core/patcher.js';

const CONTEXT = 3;

/**
 * A unified diff (`--- PATH`, `+++ PATH`, `@@` hunks) of one patched file, as bytes.
 * Lines are compared as latin1 strings, one char per byte, so any bytes (CRLF, invalid UTF-8)
 * come out exactly as they are in the file.
 */
export function unifiedDiff(displayPath: string, result: PatchResult): Buffer {
  const count = result.linesBefore;
  const edits = result.edits;
  const old = (n: number) => result.kept.get(n)?.toString('latin1') ?? '';
  let text = '';
  let delta = 0; // lines added minus removed by the edits before the current region
  for (let i = 0; i < edits.length; ) {
    // A region: edits whose context windows touch, and the lines around them.
    const lo = Math.max(1, edits.at(i)!.edit.start - CONTEXT);
    let hi = Math.min(count, Math.max(edits.at(i)!.edit.end, edits.at(i)!.edit.start - 1) + CONTEXT);
    let j = i + 1;
    while (j < edits.length && edits.at(j)!.edit.start - CONTEXT <= hi + 1) {
      hi = Math.min(count, Math.max(hi, edits.at(j)!.edit.end + CONTEXT));
      j++;
    }
    let before = '';
    let after = '';
    let k = i;
    for (let n = lo; n <= hi; n++) {
      before += old(n);
      let replaced = false;
      while (k < j && edits.at(k)!.edit.start === n) {
        const r = edits.at(k)!;
        after += r.output.toString('latin1');
        k++;
        if (r.removed > 0) {
          // the old lines of the edit: in `before`, not in `after`
          for (let m = n + 1; m <= r.edit.end; m++) before += old(m);
          n = r.edit.end;
          replaced = true;
          break;
        }
      }
      if (!replaced) after += old(n);
    }
    for (; k < j; k++) after += edits.at(k)!.output.toString('latin1'); // appended after the last line
    const newLo = lo + delta;
    for (let m = i; m < j; m++) delta += edits.at(m)!.added - edits.at(m)!.removed;
    for (const h of structuredPatch('', '', before, after, '', '', { context: CONTEXT }).hunks) {
      const oldStart = h.oldLines === 0 ? h.oldStart + lo - 2 : h.oldStart + lo - 1;
      const newStart = h.newLines === 0 ? h.newStart + newLo - 2 : h.newStart + newLo - 1;
      text += `@@ -${oldStart},${h.oldLines} +${newStart},${h.newLines} @@\n`;
      for (const line of h.lines) text += `${line}\n`;
    }
    i = j;
  }
  if (text === '') return Buffer.alloc(0);
  return Buffer.concat([Buffer.from(`--- ${displayPath}\n+++ ${displayPath}\n`, 'utf8'), Buffer.from(text, 'latin1')]);
}
