// The unified diff a patch's dry run shows for one file: computed from the file before and after
// (latin1 strings, one char a byte, so CRLF and bytes that are not UTF-8 come out as they are).

import { structuredPatch } from 'diff';

/** `--- a/NAME` / `+++ b/NAME` (or /dev/null) and the hunks turning `before` into `after`. */
export function diffOf(oldName: string | null, newName: string | null, before: Buffer, after: Buffer): Buffer {
  const patch = structuredPatch('', '', before.toString('latin1'), after.toString('latin1'), '', '', { context: 3 });
  let text = '';
  for (const h of patch.hunks) {
    const oldStart = h.oldLines === 0 ? h.oldStart - 1 : h.oldStart;
    const newStart = h.newLines === 0 ? h.newStart - 1 : h.newStart;
    text += `@@ -${oldStart},${h.oldLines} +${newStart},${h.newLines} @@\n`;
    for (const line of h.lines) text += `${line}\n`;
  }
  const head = `--- ${oldName === null ? '/dev/null' : `a/${oldName}`}\n+++ ${newName === null ? '/dev/null' : `b/${newName}`}\n`;
  return Buffer.concat([Buffer.from(head, 'utf8'), Buffer.from(text, 'latin1')]);
}
