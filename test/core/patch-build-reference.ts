// The one-buffer build patch used before its content became pieces, kept verbatim as the oracle
// the pieces are compared with (test/core/patch-build.test.ts): the same bytes, landings and count.

import { dominantEnding } from '../../src/core/eol.js';
import { type FileLines, lineKey } from '../../src/core/patch/file-lines.js';
import type { Applied, Landed } from '../../src/core/patch/build.js';
import type { Terminator } from '../../src/core/terminators.js';

interface Built {
  content: Buffer;
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
 * Hunks found already applied are not passed. Written into one buffer: the file's own lines a
 * stretch at a time, the added lines as they come (no view or buffer per piece).
 */
export function buildOneBuffer(file: FileLines, hunks: readonly Applied[]): Built {
  const src = file.text;
  // at most: the file, each added line with a two-byte terminator, and a terminator given to a
  // last line that is no longer last
  let size = src.length + 2;
  // indexed loops, not for-of: without TurboFan each step of an iterator is an object
  for (let h = 0; h < hunks.length; h++) {
    const lines = hunks[h]!.hunk.lines;
    size += 2;
    for (let k = 0; k < lines.length; k++) if (lines[k]!.op === '+') size += lines[k]!.text.length + 2;
  }
  const out = Buffer.allocUnsafe(size);
  let pos = 0;
  const landed: Landed[] = [];
  let dominant: Terminator | undefined;
  // an empty file has no style of its own: the patch's lines give it
  const style = () => (dominant ??= fileEnding(file, hunks.some((h) => h.hunk.lines.some((l) => l.op === '+' && l.crlf)) ? '\r\n' : '\n'));
  const n = file.length;
  const lastEnding = n === 0 ? '\n' : file.terminator(n - 1);
  let written = 0; // lines written so far
  let open = false; // what was written last ends without a terminator
  const terminate = (t: Terminator) => {
    if (t === '\r\n') out[pos++] = CR;
    if (t !== '') out[pos++] = LF;
  };
  /** the file's lines `[from, to)` */
  const putLines = (from: number, to: number) => {
    if (from >= to) return;
    const s = file.start(from);
    const e = file.start(to);
    // a line without a terminator (the file's last) that is no longer last gets one
    if (open) terminate(style());
    src.copy(out, pos, s, e);
    pos += e - s;
    open = src[e - 1] !== LF;
  };
  /** an added line: its text as compared, then `eol` */
  const putAdded = (key: string, eol: Terminator) => {
    if (key.length === 0 && eol === '') return;
    if (open) terminate(style());
    pos += out.write(key, pos, 'latin1');
    terminate(eol);
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
  return { content: out.subarray(0, pos), landed, linesAfter: written };
}

