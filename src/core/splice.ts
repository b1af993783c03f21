// Content edits as line edits: each occurrence of an old text becomes lines a..b replaced by what
// precedes it on line a, the new text, and what follows it on line b, guarded by those lines as read.

import { type Unsafe, unsafeSplice } from './encoding-safe.js';
import { type EolMode, styleBreaks } from './eol.js';
import { LinewiseError } from './errors.js';
import type { Occurrence, TextPosition } from './find-text.js';
import { type Terminator, TERMINATORS, terminatorLength } from './terminators.js';

/** An occurrence to replace with `text`; `origin` names its edit in messages. */
export interface Splice extends Occurrence {
  text: Buffer;
  origin: string;
}

/** Lines `start..end` become `text`, and lines `start..end` must still read as `expect`. */
export interface SplicedRange {
  start: number;
  end: number;
  text: Buffer;
  origin: string;
  expect: { line: number; bytes: Buffer }[];
}

const LF = 10;

/**
 * The lines a set of occurrences needs read: the ones they touch, the line after each (a text that
 * runs on), and the one before (whose ending styles new line breaks where the text covers none).
 */
export function linesNeeded(occurrences: readonly Occurrence[]): number[] {
  const need = new Set<number>();
  for (const o of occurrences) for (let n = Math.max(1, o.start.line - 1); n <= o.end.line + 1; n++) need.add(n);
  return [...need].sort((a, b) => a - b);
}

const before = (a: TextPosition, b: TextPosition) => a.line < b.line || (a.line === b.line && a.col < b.col);

/**
 * Turns occurrences (of one or several edits, all found in the same file) into range edits.
 * Occurrences that share a line become one edit. `lines` holds every line {@link linesNeeded}
 * names that the file has, `count` the file's line count. Literal semantics: when an old text
 * ends with a line break and its new text does not, the next line joins the edit (the text
 * runs on into it), unless the old text ended the file. Overlapping occurrences are refused.
 * Each new text's line breaks are written under `eol` ({@link styleBreaks}); every other byte of a
 * range is the file's own, so a range is written literally and changes nothing outside the old text.
 */
export function spliceRanges(splices: readonly Splice[], lines: ReadonlyMap<number, Buffer>, count: number, eol: EolMode = 'keep'): SplicedRange[] {
  const sorted = [...splices].sort((a, b) => (before(a.start, b.start) ? -1 : before(b.start, a.start) ? 1 : 0));
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1]!;
    const b = sorted[i]!;
    if (before(b.start, a.end)) {
      const what = a.origin === b.origin ? `${a.origin} occurs twice overlapping, on line ${b.start.line}` : `${a.origin} and ${b.origin} overlap on line ${b.start.line}`;
      throw new LinewiseError('conflict', `${what}; each part of the file may be edited once per call`);
    }
  }
  const line = (n: number) => {
    const l = lines.get(n);
    if (l === undefined) throw new Error(`spliceRanges: line ${n} was not read`);
    return l;
  };
  const ranges: SplicedRange[] = [];
  let i = 0;
  while (i < sorted.length) {
    const group = [sorted[i++]!];
    let last = group[0]!.end.line;
    for (;;) {
      while (i < sorted.length && sorted[i]!.start.line <= last) {
        last = Math.max(last, sorted[i]!.end.line);
        group.push(sorted[i++]!);
      }
      const text = groupText(group, last, line, eol);
      const runsOn = text.length > 0 && text[text.length - 1] !== LF && terminatorLength(line(last), 0, line(last).length) > 0;
      if (runsOn && last < count) {
        last++;
        continue;
      }
      const first = group[0]!.start.line;
      const expect = [];
      for (let n = first; n <= last; n++) expect.push({ line: n, bytes: line(n) });
      ranges.push({ start: first, end: last, text, origin: group[0]!.origin, expect });
      break;
    }
  }
  return ranges;
}

/** Lines `group[0].start.line..last` with each occurrence replaced by its text. */
function groupText(group: readonly Splice[], last: number, line: (n: number) => Buffer, eol: EolMode): Buffer {
  const parts: Buffer[] = [];
  let at: TextPosition = { line: group[0]!.start.line, col: 0 };
  for (const s of group) {
    parts.push(...slice(at, s.start, line));
    parts.push(styleBreaks(s.text, eol, endingsIn(s, line), around(s, line), finalEnding(s, line)));
    at = s.end;
  }
  parts.push(...slice(at, { line: last, col: Infinity }, line));
  return Buffer.concat(parts);
}

/**
 * Why replacing occurrence `s` would write a guess into a line that is not UTF-8 (see
 * core/encoding-safe.ts), or undefined: the lines it touches, where it starts in them, the
 * file's bytes it removes and the new text it brings.
 */
export function unsafeOccurrence(s: Splice, lines: ReadonlyMap<number, Buffer>): Unsafe {
  const line = (n: number) => lines.get(n)!;
  const touched: Buffer[] = [];
  for (let n = s.start.line; n <= s.end.line; n++) touched.push(line(n));
  return unsafeSplice(Buffer.concat(touched), s.start.col, Buffer.concat(slice(s.start, s.end, line)), s.text);
}

/**
 * The line endings an occurrence covers, in order: each of its lines' whose terminator it
 * includes ("" for the end of an unterminated last line, which a final "\n" of the old text matches).
 */
function endingsIn(o: Occurrence, line: (n: number) => Buffer): Terminator[] {
  const out: Terminator[] = [];
  for (let n = o.start.line; n <= o.end.line; n++) {
    const l = line(n);
    const t = terminatorLength(l, 0, l.length);
    if (n < o.end.line || o.end.col > l.length - t) out.push(TERMINATORS[t]);
  }
  return out;
}

/** The ending an occurrence ends with, when it ends with one (its old text ended with a line break). */
function finalEnding(o: Occurrence, line: (n: number) => Buffer): Terminator | undefined {
  const l = line(o.end.line);
  const t = terminatorLength(l, 0, l.length);
  return o.end.col > l.length - t ? TERMINATORS[t] : undefined;
}

/** The ending new breaks take where the old text covers none: its line's, else the line before's. */
function around(o: Occurrence, line: (n: number) => Buffer): Terminator {
  const own = line(o.start.line);
  const t = terminatorLength(own, 0, own.length);
  if (t > 0 || o.start.line === 1) return TERMINATORS[t];
  const before = line(o.start.line - 1);
  return TERMINATORS[terminatorLength(before, 0, before.length)];
}

/** The file's bytes from `a` to `b`; a column past a line's text means after its terminator. */
function slice(a: TextPosition, b: TextPosition, line: (n: number) => Buffer): Buffer[] {
  const offset = (p: TextPosition) => {
    const l = line(p.line);
    const body = l.length - terminatorLength(l, 0, l.length);
    return p.col <= body ? p.col : l.length;
  };
  if (a.line === b.line) return [line(a.line).subarray(offset(a), offset(b))];
  const parts = [line(a.line).subarray(offset(a))];
  for (let n = a.line + 1; n < b.line; n++) parts.push(line(n));
  parts.push(line(b.line).subarray(0, offset(b)));
  return parts;
}
