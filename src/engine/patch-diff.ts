// The unified diff a patch's dry run shows for one file: a created or deleted file's from its
// whole text, a changed file's from the places its hunks landed (latin1 strings, one char a byte,
// so CRLF and bytes that are not UTF-8 come out as they are).

import { structuredPatch } from 'diff';
import type { FileLines } from '../core/patch/file-lines.js';
import type { Hunk, HunkLine } from '../core/patch/types.js';
import { CONTEXT, regionHunks } from './diff.js';

/** Where a hunk landed, as HunkResult gives it (the line before for no lines, as unified diffs do). */
interface Landed {
  status: 'applied' | 'already';
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
}

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

/**
 * The diff of a changed file from its hunks' places alone: each applied hunk's lines before and
 * after, marked by the hunk's own kinds (a context line the patch kept is context, unless its
 * bytes changed), CONTEXT lines around, regions that touch merged (as a unified diff merges hunks
 * whose context meets), each region's hunks made as replace --dry-run makes them. Every line
 * outside the hunks is the same before and after, but for a neighbour whose terminator the patch
 * changed (lines added after a last line without one give it one): a hunk's span takes such
 * neighbours in. So this is the whole file's diff without diffing either whole: a dry run of a
 * two-hunk patch of a 256 MiB log took 10.6 s and 2.5 GB that way.
 */
export function landedDiff(oldName: string, newName: string, before: FileLines, after: FileLines, landed: readonly Landed[], hunks: readonly Hunk[]): Buffer {
  const line = (f: FileLines, n: number) => f.text.toString('latin1', f.start(n - 1), f.start(n));
  const same = (a: number, b: number) => line(before, a) === line(after, b);
  // each applied hunk's first old and new line (an insertion's or deletion's is the line after),
  // its line counts, and its kinds
  const spans = landed
    .map((h, k) => ({ h, ops: hunks[k]?.lines ?? [] }))
    .filter(({ h }) => h.status === 'applied')
    .map(({ h, ops }) => ({ s: h.oldLines === 0 ? h.oldStart + 1 : h.oldStart, n: h.oldLines, t: h.newLines === 0 ? h.newStart + 1 : h.newStart, m: h.newLines, ops, pre: 0, post: 0 }))
    .sort((a, b) => a.s - b.s);
  let end = 0; // the last old line of the span before
  for (const [i, sp] of spans.entries()) {
    while (sp.s - 1 > end && sp.t > 1 && !same(sp.s - 1, sp.t - 1)) {
      sp.s--;
      sp.t--;
      sp.n++;
      sp.m++;
      sp.pre++;
    }
    const next = spans[i + 1]?.s ?? before.length + 1;
    while (sp.s + sp.n < next && sp.s + sp.n <= before.length && sp.t + sp.m <= after.length && !same(sp.s + sp.n, sp.t + sp.m)) {
      sp.n++;
      sp.m++;
      sp.post++;
    }
    end = sp.s + sp.n - 1;
  }
  let text = '';
  for (let i = 0; i < spans.length; ) {
    const first = spans[i]!;
    const lo = Math.max(1, first.s - CONTEXT);
    let hi = Math.min(before.length, first.s + first.n - 1 + CONTEXT);
    let j = i + 1;
    while (j < spans.length && spans[j]!.s - CONTEXT <= hi + 1) hi = Math.min(before.length, Math.max(hi, spans[j]!.s + spans[j++]!.n - 1 + CONTEXT));
    const marked: string[] = [];
    let n = lo;
    for (let k = i; k < j; k++) {
      const sp = spans[k]!;
      for (; n < sp.s; n++) marked.push(` ${line(before, n)}`);
      markSpan(marked, sp, (x) => line(before, x), (x) => line(after, x), same);
      n = sp.s + sp.n;
    }
    for (; n <= hi; n++) marked.push(` ${line(before, n)}`);
    // the lines before the first hunk are unchanged: their new numbers differ by its own
    text += regionHunks(marked, lo, lo + (first.t - first.s));
    i = j;
  }
  const head = `--- a/${oldName}\n+++ b/${newName}\n`;
  return Buffer.concat([Buffer.from(head, 'utf8'), Buffer.from(text, 'latin1')]);
}

interface Span {
  s: number;
  n: number;
  t: number;
  m: number;
  ops: readonly HunkLine[];
  pre: number;
  post: number;
}

/**
 * A span's lines marked: the neighbours it took in as changed, then the hunk's lines by their
 * kinds. Kinds that do not add up to the span's counts (never expected) mark every old line
 * removed and every new line added, which is still a true diff.
 */
function markSpan(marked: string[], sp: Span, old: (n: number) => string, now: (n: number) => string, same: (a: number, b: number) => boolean): void {
  const changed = (a: number, b: number, count: number) => {
    for (let x = 0; x < count; x++) marked.push(`-${old(a + x)}`);
    for (let x = 0; x < count; x++) marked.push(`+${now(b + x)}`);
  };
  const kept = sp.ops.filter((l) => l.op === ' ').length;
  const removed = sp.ops.filter((l) => l.op === '-').length;
  if (kept + removed !== sp.n - sp.pre - sp.post || sp.ops.length - removed !== sp.m - sp.pre - sp.post) {
    for (let x = 0; x < sp.n; x++) marked.push(`-${old(sp.s + x)}`);
    for (let x = 0; x < sp.m; x++) marked.push(`+${now(sp.t + x)}`);
    return;
  }
  changed(sp.s, sp.t, sp.pre);
  let a = sp.s + sp.pre;
  let b = sp.t + sp.pre;
  for (const l of sp.ops) {
    if (l.op === '-') marked.push(`-${old(a++)}`);
    else if (l.op === '+') marked.push(`+${now(b++)}`);
    else if (same(a, b)) {
      marked.push(` ${old(a++)}`);
      b++;
    } else changed(a++, b++, 1);
  }
  changed(a, b, sp.post);
}
