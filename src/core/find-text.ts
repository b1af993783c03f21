// Finds a text in a file as its lines stream by, line-ending-agnostic: the text and the file are
// both read with every terminator as "\n", so a text written with "\n" finds CRLF and mixed lines.

import { terminatorLength } from './terminators.js';

/** A place in the file: line `line` (1-based), `col` bytes into it (its "\n" terminator counts as one byte). */
export interface TextPosition {
  line: number;
  col: number;
}

/** One occurrence: where it starts, and where it ends (exclusive, on the line of its last byte). */
export interface Occurrence {
  start: TextPosition;
  end: TextPosition;
}

const LF = 10;
const CR = 13;

/** The text with every "\r\n" read as "\n" (a lone "\r" is content, as in a line). */
export function normaliseText(text: Uint8Array): Buffer {
  const b = Buffer.from(text.buffer, text.byteOffset, text.byteLength);
  if (b.indexOf('\r\n') === -1) return b;
  return Buffer.from(b.toString('latin1').replaceAll('\r\n', '\n'), 'latin1');
}

/**
 * Finds every place (overlapping ones too) where `needle` (normalised) occurs in the lines handed
 * to {@link block} as `LineScanner.scanBlocks` hands them on. Memory: the needle, one block, and
 * the positions kept (at most `keep`; {@link count} counts all). A last line without a terminator
 * still ends where a needle's final "\n" may match it: a line is a line with or without one.
 */
export class TextFinder {
  /** occurrences found, the first `keep` of them */
  readonly found: Occurrence[] = [];
  /** occurrences found in all */
  count = 0;
  /** the last needle-length-minus-one normalised bytes seen, for occurrences across blocks */
  private carry: Buffer = Buffer.alloc(0);
  /** line number and start (as an index into the window) of the line the carry begins in */
  private carryLine = 1;
  private carryLineStart = 0;
  /** the last byte fed was a terminator (or nothing was fed) */
  private atLineStart = true;

  constructor(
    readonly needle: Buffer,
    private readonly keep = Infinity,
  ) {
    if (needle.length === 0) throw new RangeError('TextFinder: empty needle');
  }

  /** Takes a run of whole lines (`ends`) or a piece of a long line, as scanBlocks hands them on. */
  block(buf: Buffer, start: number, end: number, ends: boolean): void {
    if (end <= start) return;
    this.search(normaliseBlock(buf, start, end, ends));
    const t = ends ? terminatorLength(buf, start, end) : 0;
    this.atLineStart = t > 0;
  }

  /** Ends the input: a needle ending in "\n" may end at the end of an unterminated last line. */
  finish(): void {
    if (!this.atLineStart && this.needle[this.needle.length - 1] === LF) this.search(Buffer.from('\n'), true);
    this.carry = Buffer.alloc(0);
  }

  private search(block: Buffer, virtual = false): void {
    const m = this.needle.length;
    const window = this.carry.length === 0 ? block : Buffer.concat([this.carry, block]);
    // The cursor walks forward through the window, counting lines up to each occurrence.
    let line = this.carryLine;
    let lineStart = this.carryLineStart;
    let at = 0;
    const advance = (to: number) => {
      for (let nl = window.indexOf(LF, at); nl !== -1 && nl < to; nl = window.indexOf(LF, nl + 1)) {
        line++;
        lineStart = nl + 1;
      }
      at = to;
    };
    for (let i = window.indexOf(this.needle); i !== -1; i = window.indexOf(this.needle, i + 1)) {
      // The virtual "\n" ends a needle; it never starts one (it is no byte of the file).
      if (virtual && i === window.length - 1) break;
      advance(i);
      const start = { line, col: i - lineStart };
      const last = i + m - 1;
      const endLine = line + count(window, LF, i, last);
      const endLineStart = endLine === line ? lineStart : window.lastIndexOf(LF, last - 1) + 1;
      this.count++;
      if (this.found.length < this.keep) this.found.push({ start, end: { line: endLine, col: last + 1 - endLineStart } });
    }
    const keepFrom = Math.max(0, window.length - (m - 1));
    advance(keepFrom);
    this.carry = Buffer.from(window.subarray(keepFrom));
    this.carryLine = line;
    this.carryLineStart = lineStart - keepFrom;
  }
}

/** Bytes `[start, end)` with the "\r" of every "\r\n" terminator dropped (a copy). */
function normaliseBlock(buf: Buffer, start: number, end: number, ends: boolean): Buffer {
  const out = Buffer.allocUnsafe(end - start);
  let n = 0;
  let from = start;
  // In a run of whole lines every "\n" ends a line; a piece of a long line holds none, and the
  // scanner never cuts it between the "\r" and "\n" of a terminator.
  for (let nl = ends ? buf.indexOf(LF, from) : -1; nl !== -1 && nl < end; nl = buf.indexOf(LF, nl + 1)) {
    const cut = nl > from && buf[nl - 1] === CR ? nl - 1 : nl;
    n += buf.copy(out, n, from, cut);
    out[n++] = LF;
    from = nl + 1;
  }
  n += buf.copy(out, n, from, end);
  return out.subarray(0, n);
}

function count(b: Buffer, byte: number, from: number, to: number): number {
  let n = 0;
  for (let i = b.indexOf(byte, from); i !== -1 && i < to; i = b.indexOf(byte, i + 1)) n++;
  return n;
}
