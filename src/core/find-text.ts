// Finds a text in a file as its lines stream by, line-ending-agnostic: the text and the file are
// both read with every terminator as "\n", so a text written with "\n" finds CRLF and mixed lines;
// many texts in one pass (text-matchers.ts), each occurrence placed by line and column.

import { terminatorLength } from './terminators.js';
import { AhoCorasick, KmpMatcher, MANY_NEEDLES, type StreamMatcher } from './text-matchers.js';

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

/** What a {@link TextSearch} hands on for each occurrence of needle `k`: offsets in the normalised text. */
export interface TextMatch {
  needle: number;
  /** offset of its first byte, and just past its last, in the text read with "\n" for "\r\n" */
  start: number;
  end: number;
}

/**
 * Finds every place (overlapping ones too) where each of `needles` (normalised) occurs in the
 * lines handed to {@link block} as `LineScanner.scanBlocks` hands them on, in one pass and in
 * time linear in the file whatever the needles (text-matchers.ts): one KMP matcher per needle, or
 * one Aho-Corasick automaton for many. Each occurrence goes to `sink` with its offsets; its
 * lines and columns are {@link position}, valid during that call. Memory: the needles, one
 * block, and the offsets of the line breaks in the last longest-needle bytes. A last line
 * without a terminator still ends where a needle's final "\n" may match it: a line is a line
 * with or without one.
 */
export class TextSearch {
  private readonly matchers: StreamMatcher[];
  private readonly lengths: number[];
  /** per needle: its line breaks before its last byte, and the index of the last of them (-1) */
  private readonly breaks: number[];
  private readonly lastBreak: number[];
  private readonly longest: number;
  /** normalised bytes fed so far: every occurrence ending within them has been handed on */
  fed = 0;
  /** offsets of the "\n"s kept (ascending), from `head`; `dropped` were let go, the last at `droppedAt` */
  private lf = new Float64Array(1024);
  private head = 0;
  private tail = 0;
  private dropped = 0;
  private droppedAt = -1;
  /** the last byte fed was a terminator (or nothing was fed) */
  private atLineStart = true;
  /** the virtual "\n" of `finish`: no occurrence starts at it */
  private virtualAt = -1;

  constructor(
    needles: readonly Buffer[],
    private readonly sink: (m: TextMatch) => void,
  ) {
    if (needles.some((n) => n.length === 0)) throw new RangeError('TextSearch: empty needle');
    this.lengths = needles.map((n) => n.length);
    this.longest = Math.max(0, ...this.lengths);
    this.breaks = needles.map((n) => count(n, LF, 0, n.length - 1));
    this.lastBreak = needles.map((n) => (n.length > 1 ? n.lastIndexOf(LF, n.length - 2) : -1));
    this.matchers = needles.length > MANY_NEEDLES ? [new AhoCorasick(needles)] : needles.map((n, k) => new KmpMatcher(n, k));
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
    if (!this.atLineStart && this.lengths.length > 0) {
      this.virtualAt = this.fed;
      this.search(Buffer.from('\n'), false);
    }
  }

  /** Where an occurrence handed to the sink starts and ends: lines, and columns in them. */
  position(m: TextMatch): Occurrence {
    const s = m.start;
    // "\n"s before s: those let go, and the kept ones below s (a binary search)
    let lo = this.head;
    let hi = this.tail;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.lf[mid]! < s) lo = mid + 1;
      else hi = mid;
    }
    const line = this.dropped + (lo - this.head) + 1;
    const lineStart = (lo > this.head ? this.lf[lo - 1]! : this.droppedAt) + 1;
    const k = m.needle;
    const endLine = line + this.breaks[k]!;
    const endLineStart = this.breaks[k]! > 0 ? s + this.lastBreak[k]! + 1 : lineStart;
    return { start: { line, col: s - lineStart }, end: { line: endLine, col: m.end - endLineStart } };
  }

  private search(block: Buffer, real = true): void {
    const base = this.fed;
    if (real) this.keepBreaks(block, base);
    const emit = (k: number, end: number) => {
      const start = end - this.lengths[k]!;
      // The virtual "\n" ends a needle; it never starts one (it is no byte of the file).
      if (start === this.virtualAt) return;
      this.sink({ needle: k, start, end });
    };
    for (const m of this.matchers) m.feed(block, base, emit);
    this.fed += block.length;
  }

  /** Records the block's "\n"s, letting go of those no occurrence ending in it or later can need. */
  private keepBreaks(block: Buffer, base: number): void {
    const keepFrom = base - this.longest;
    while (this.head < this.tail && this.lf[this.head]! < keepFrom) {
      this.droppedAt = this.lf[this.head++]!;
      this.dropped++;
    }
    for (let nl = block.indexOf(LF); nl !== -1; nl = block.indexOf(LF, nl + 1)) {
      if (this.tail === this.lf.length) {
        const live = this.tail - this.head;
        // Full: move the kept ones down, into a buffer twice the size when they fill half.
        if (live * 2 > this.lf.length) {
          const grown = new Float64Array(this.lf.length * 2);
          grown.set(this.lf.subarray(this.head, this.tail));
          this.lf = grown;
        } else this.lf.copyWithin(0, this.head, this.tail);
        this.head = 0;
        this.tail = live;
      }
      this.lf[this.tail++] = base + nl;
    }
  }
}

/** One needle's occurrences: the first `keep` of them with their places, and how many in all. */
export class TextFinder {
  /** occurrences found, the first `keep` of them */
  readonly found: Occurrence[] = [];
  /** occurrences found in all */
  count = 0;
  private readonly search: TextSearch;

  constructor(
    readonly needle: Buffer,
    private readonly keep = Infinity,
  ) {
    if (needle.length === 0) throw new RangeError('TextFinder: empty needle');
    this.search = new TextSearch([needle], (m) => {
      this.count++;
      if (this.found.length < this.keep) this.found.push(this.search.position(m));
    });
  }

  block(buf: Buffer, start: number, end: number, ends: boolean): void {
    this.search.block(buf, start, end, ends);
  }

  finish(): void {
    this.search.finish();
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
