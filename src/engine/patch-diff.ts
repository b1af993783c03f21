// The unified diff a patch's dry run shows for one file: a created or deleted file's from its
// whole text, a changed file's from the places its hunks landed (latin1 strings, one char a byte,
// so CRLF and bytes that are not UTF-8 come out as they are).

import { lineStarts } from '../core/line-starts.js';
import type { LineSource } from '../core/patch/content.js';
import type { Hunk, HunkLine } from '../core/patch/types.js';
import { contextGroups, type Marks, regionHunks } from './diff.js';

/** Where a hunk landed, as HunkResult gives it (the line before for no lines, as unified diffs do). */
interface Landed {
  status: 'applied' | 'already';
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
}

/**
 * The diff of a file created (`oldName` null) or deleted (`newName` null): every line of `text`
 * added or removed, in one hunk, as `diff -u` against /dev/null writes it. Written as bytes from
 * the text's line starts, not through a diff of the two sides (a dry run creating a 64 MiB file
 * took 3.9 s and 860 MB that way).
 */
export function wholeFileDiff(oldName: string | null, newName: string | null, text: Buffer): Buffer {
  const head = Buffer.from(`--- ${oldName === null ? '/dev/null' : `a/${oldName}`}\n+++ ${newName === null ? '/dev/null' : `b/${newName}`}\n`, 'utf8');
  if (text.length === 0) return head;
  const starts = lineStarts(text);
  const count = starts.length - 1;
  const open = text[text.length - 1] !== 0x0a;
  const hunk = Buffer.from(oldName === null ? `@@ -0,0 +1,${count} @@\n` : `@@ -1,${count} +0,0 @@\n`, 'latin1');
  const mark = oldName === null ? 0x2b : 0x2d;
  const out = Buffer.allocUnsafe(head.length + hunk.length + text.length + count + (open ? 1 + NO_NEWLINE.length : 0));
  let at = head.copy(out, 0);
  at += hunk.copy(out, at);
  for (let i = 0; i < count; i++) {
    out[at++] = mark;
    at += text.copy(out, at, starts[i]!, starts[i + 1]!);
  }
  // the last line had no "\n": it gets one here, and diff's mark says it had none
  if (open) {
    out[at++] = 0x0a;
    at += NO_NEWLINE.copy(out, at);
  }
  return out;
}

const NO_NEWLINE = Buffer.from('\\ No newline at end of file\n', 'latin1');

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
export function landedDiff(oldName: string, newName: string, before: LineSource, after: LineSource, landed: readonly Landed[], hunks: readonly Hunk[], marks?: Marks): Buffer {
  const line = (f: LineSource, n: number) => f.line(n - 1).toString('latin1');
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
  for (const { from: i, to: j, lo, hi } of contextGroups(before.length, spans.map((sp) => ({ first: sp.s, last: sp.s + sp.n - 1 })))) {
    const first = spans[i]!;
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
    text += regionHunks(marked, lo, lo + (first.t - first.s), marks);
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
