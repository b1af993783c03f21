// One file's new content from its located hunks: untouched lines and kept lines are the file's own
// bytes; removed lines go; added lines take the terminator of the lines around them (as
// `replace --eol auto` gives new text), and the file's last line ends as the patch says.

import type { Terminator } from '../terminators.js';
import { type FileLines, lineKey } from './file-lines.js';
import type { Hunk } from './types.js';
import { dominantEnding } from '../eol.js';
import { NewLines, Pieces } from './content.js';

/** A hunk to apply at `at` (the index of the first old line it covers). */
export interface Applied {
  hunk: Hunk;
  at: number;
  /** old lines it covers */
  length: number;
}

/** Where each applied hunk's lines landed, for reports: 1-based, in the old and the new numbering. */
export interface Landed {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
}

/** The new content and where each hunk landed. */
export interface Built {
  /** views of the file's own bytes and of the added lines, in order (see core/patch/content.ts) */
  content: Pieces;
  /** its lines by index, for a dry run's diff and a receipt (found without splitting it) */
  lines: NewLines;
  landed: Landed[];
  linesAfter: number;
}

const LF = 0x0a;
const CR = 0x0d;

/** The style new lines take where nothing nearer says: the file's most frequent terminator (`fallback` if none). */
function fileEnding(file: FileLines, fallback: Terminator): Terminator {
  const n = file.length;
  const text = file.text;
  // no "\r" at all: every line but an unterminated last one ends "\n" (one search, not a look per line)
  if (text.indexOf(CR) === -1) return dominantEnding(0, n > 0 && text[text.length - 1] !== LF ? n - 1 : n, fallback);
  let crlf = 0;
  let lf = 0;
  for (let i = 0; i < n; i++) {
    const t = file.terminator(i);
    if (t === '\r\n') crlf++;
    else if (t === '\n') lf++;
  }
  return dominantEnding(crlf, lf, fallback);
}

/**
 * Builds the file's new content: `file` its lines, `hunks` sorted by place and not overlapping.
 * Hunks found already applied are not passed. The content is pieces, not one buffer: each
 * stretch of the file's own lines a view of its bytes (the stretches that meet, one view), the
 * added lines (and a terminator given to a last line that is no longer last) written into one
 * buffer of their own size. A two-hunk patch of a 256 MiB file had copied all of it into a second
 * buffer of 270 MB before writing it.
 */
export function buildContent(file: FileLines, hunks: readonly Applied[]): Built {
  const src = file.text;
  // at most: each added line with a two-byte terminator, and a terminator given to a last line
  // that is no longer last
  let size = 2;
  // indexed loops, not for-of: without TurboFan each step of an iterator is an object
  for (let h = 0; h < hunks.length; h++) {
    const lines = hunks[h]!.hunk.lines;
    size += 2;
    for (let k = 0; k < lines.length; k++) if (lines[k]!.op === '+') size += lines[k]!.text.length + 2;
  }
  const adds = Buffer.allocUnsafe(size);
  let pos = 0; // bytes of `adds` written
  const content = new Pieces();
  const newLines = new NewLines(file, adds);
  // the piece being grown: [from, to) of `of`, pushed when the next range does not continue it
  let of: Buffer | undefined;
  let from = 0;
  let to = 0;
  const take = (b: Buffer, s: number, e: number) => {
    if (s === e) return;
    if (of === b && to === s) {
      to = e;
      return;
    }
    if (of !== undefined) content.push(of.subarray(from, to));
    of = b;
    from = s;
    to = e;
  };
  const landed: Landed[] = [];
  let dominant: Terminator | undefined;
  // an empty file has no style of its own: the patch's lines give it
  const style = () => (dominant ??= fileEnding(file, hunks.some((h) => h.hunk.lines.some((l) => l.op === '+' && l.crlf)) ? '\r\n' : '\n'));
  const n = file.length;
  const lastEnding = n === 0 ? '\n' : file.terminator(n - 1);
  let written = 0; // lines written so far
  let open = false; // what was written last ends without a terminator
  /** a terminator into `adds` (not yet taken) */
  const terminate = (t: Terminator) => {
    if (t === '\r\n') adds[pos++] = CR;
    if (t !== '') adds[pos++] = LF;
  };
  /** the file's lines `[from, to)` */
  const putLines = (first: number, end: number) => {
    if (first >= end) return;
    const s = file.start(first);
    const e = file.start(end);
    // a line without a terminator (the file's last) that is no longer last gets one
    if (open) {
      const at = pos;
      terminate(style());
      take(adds, at, pos);
      newLines.terminated(at, pos);
    }
    take(src, s, e);
    newLines.old(first, end);
    open = src[e - 1] !== LF;
  };
  /** an added line: its text as compared, then `eol` */
  const putAdded = (key: string, eol: Terminator) => {
    if (key.length === 0 && eol === '') return;
    const at = pos;
    if (open) {
      terminate(style());
      newLines.terminated(at, pos);
    }
    const s = pos;
    pos += adds.write(key, pos, 'latin1');
    terminate(eol);
    take(adds, at, pos);
    newLines.added(s, pos);
    open = eol === '';
  };
  let next = 0; // the next file line not yet written
  for (const { hunk, at, length } of hunks) {
    // untouched lines before the hunk: one stretch
    putLines(next, at);
    written += Math.max(0, at - next);
    const newStart = written + 1;
    let i = at;
    const lines = hunk.lines;
    let added = 0;
    let lastKept = lines.length - 1; // the hunk's last line on the new side
    while (lastKept >= 0 && lines[lastKept]!.op === '-') lastKept--;
    for (let k = 0; k < lines.length; ) {
      const l = lines[k]!;
      if (l.op === ' ') {
        // a run of kept lines: one stretch
        let run = 1;
        while (k + run < lines.length && lines[k + run]!.op === ' ') run++;
        putLines(i, i + run);
        i += run;
        written += run;
        added += run;
        k += run;
        continue;
      }
      // a block of changes: its removed lines, then its added ones
      const removed: Terminator[] = [];
      let j = k;
      for (; j < lines.length && lines[j]!.op !== ' '; j++) if (lines[j]!.op === '-') removed.push(file.terminator(i + removed.length));
      const before: Terminator = i > 0 ? file.terminator(i - 1) : '';
      i += removed.length;
      const after: Terminator = i < n ? file.terminator(i) : '';
      const around = (t: Terminator | undefined): Terminator | undefined => (t === '' ? undefined : t);
      let m = 0;
      for (; k < j; k++) {
        const a = lines[k]!;
        if (a.op !== '+') continue;
        let eol: Terminator = around(removed[m]) ?? around(removed[removed.length - 1]) ?? around(before) ?? around(after) ?? style();
        m++;
        // the file's new last line: ends as the patch says (or as the old last line did)
        const last = i === n && k === lastKept;
        if (last) {
          if (hunk.newNoNewline) eol = '';
          else if (!hunk.oldNoNewline && lastEnding === '' && (removed.length > 0 || at + length === n)) eol = '';
        }
        putAdded(lineKey(a.text), eol);
        written++;
        added++;
      }
    }
    next = at + length;
    landed.push({ oldStart: length === 0 ? at : at + 1, oldLines: length, newStart: added === 0 ? newStart - 1 : newStart, newLines: added });
  }
  putLines(next, n);
  written += Math.max(0, n - next);
  if (of !== undefined) content.push(of.subarray(from, to));
  return { content, lines: newLines, landed, linesAfter: written };
}

/**
 * A new file's content: each added line with the ending it has in the patch; the last without one
 * when marked so. Written into one buffer, as buildContent writes (a Buffer per line and per
 * ending, then a concat, took 0.7 s and most of the collector's time for a 64 MiB new file).
 */
export function newFileContent(hunks: readonly Hunk[]): Buffer {
  let size = 0;
  for (let h = 0; h < hunks.length; h++) {
    const lines = hunks[h]!.lines;
    for (let k = 0; k < lines.length; k++) if (lines[k]!.op !== '-') size += lines[k]!.text.length + (lines[k]!.crlf ? 2 : 1);
  }
  const out = Buffer.allocUnsafe(size);
  let pos = 0;
  // the file's last line: of the last hunk, its last line on the new side
  const lastHunk = hunks[hunks.length - 1];
  let lastLine = -1;
  if (lastHunk !== undefined) for (let k = 0; k < lastHunk.lines.length; k++) if (lastHunk.lines[k]!.op !== '-') lastLine = k;
  for (let h = 0; h < hunks.length; h++) {
    const hunk = hunks[h]!;
    const lines = hunk.lines;
    for (let k = 0; k < lines.length; k++) {
      const l = lines[k]!;
      if (l.op === '-') continue;
      pos += out.write(l.text, pos, 'latin1');
      if (hunk === lastHunk && k === lastLine && hunk.newNoNewline) continue;
      if (l.crlf) out[pos++] = CR;
      out[pos++] = LF;
    }
  }
  return out.subarray(0, pos);
}
