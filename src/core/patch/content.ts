// A patched file's new content as pieces: views of the old file's bytes for what the patch leaves
// alone and small buffers for what it adds, written in turn, never copied into one buffer.

import { type LineStarts, lineStarts } from '../line-starts.js';

/**
 * The new content as an ordered list of pieces. Pieces are views: the old file's buffer (or the
 * added lines' buffer) must not change while they are in use.
 */
export class Pieces {
  /** the pieces in order, none empty */
  readonly parts: Buffer[] = [];
  /** their total length in bytes */
  length = 0;

  /** Appends `b` (kept as it is, not copied); an empty buffer is left out. */
  push(b: Buffer): this {
    if (b.length > 0) {
      this.parts.push(b);
      this.length += b.length;
    }
    return this;
  }

  /**
   * The content holds exactly the bytes of `b`. Compared piece by piece in place; a piece that
   * is `b`'s own bytes at the same place (an untouched stretch of the old file) is not compared.
   */
  equals(b: Uint8Array): boolean {
    if (b.length !== this.length) return false;
    let at = 0;
    for (let i = 0; i < this.parts.length; i++) {
      const p = this.parts[i]!;
      const same = p.buffer === b.buffer && p.byteOffset === b.byteOffset + at;
      if (!same && Buffer.compare(p, b.subarray(at, at + p.length)) !== 0) return false;
      at += p.length;
    }
    return true;
  }

  /** The content as one buffer: the only piece itself, else a copy of them all (for a caller that needs one). */
  join(): Buffer {
    if (this.parts.length === 1) return this.parts[0]!;
    return Buffer.concat(this.parts, this.length);
  }

  /** Pieces of one buffer. */
  static of(...bufs: Buffer[]): Pieces {
    const p = new Pieces();
    for (const b of bufs) p.push(b);
    return p;
  }
}

const EMPTY = Buffer.alloc(0);

/** Lines by index (0-based), each with its terminator: the file read, or the new content. */
export interface LineSource {
  readonly length: number;
  line(i: number): Buffer;
}

/**
 * A stretch of the new content's lines, from its line `at` (0-based): `count` of the file's lines
 * from its line `old`; or (`old` -1) `count` added lines that follow one another, bytes `[s, e)`
 * of the added lines' buffer (where each starts found when one is first asked for). An old
 * stretch whose last line was the file's last, without a terminator, and is given one: that
 * terminator at `[s, e)`.
 */
interface Run {
  at: number;
  count: number;
  old: number;
  s: number;
  e: number;
  starts?: LineStarts;
}

/**
 * The new content's lines, found from how it was built (one run per stretch of the file's lines
 * and per stretch of added lines), not by splitting the content: a dry run's diff and a receipt
 * look at the lines around the hunks only, and the untouched lines are the file's, whose starts
 * are known. No object per added line: a hunk adding a million lines, a run each, took 90 MB more.
 */
export class NewLines implements LineSource {
  private readonly runs: Run[] = [];
  /** lines so far */
  length = 0;

  constructor(
    private readonly file: { readonly text: Buffer; start(i: number): number },
    private readonly adds: Buffer,
  ) {}

  /** The file's lines `[first, end)` come next. */
  old(first: number, end: number): void {
    this.runs.push({ at: this.length, count: end - first, old: first, s: -1, e: -1 });
    this.length += end - first;
  }

  /** An added line comes next: bytes `[s, e)` of the added lines' buffer. */
  added(s: number, e: number): void {
    this.length++;
    const r = this.runs[this.runs.length - 1];
    // right after the added line before it (which ended with a terminator, or was given one)
    if (r !== undefined && r.old === -1 && r.e === s) {
      r.count++;
      r.e = e;
      return;
    }
    this.runs.push({ at: this.length - 1, count: 1, old: -1, s, e });
  }

  /** The line that came last, which had no terminator, is given the one at `[s, e)` of the added lines' buffer. */
  terminated(s: number, e: number): void {
    const r = this.runs[this.runs.length - 1]!;
    // an added line's terminator follows it in the buffer
    if (r.old !== -1) r.s = s;
    r.e = e;
  }

  /** line `i`; none (an empty buffer) past the last, as a line a hunk counts but wrote no byte of */
  line(i: number): Buffer {
    if (i < 0 || i >= this.length) return EMPTY;
    const runs = this.runs;
    let lo = 0;
    let hi = runs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (runs[mid]!.at <= i) lo = mid;
      else hi = mid - 1;
    }
    const r = runs[lo]!;
    if (r.old === -1) {
      // added lines end with "\n" but the content's last, which may end with none
      const starts = (r.starts ??= lineStarts(this.adds.subarray(r.s, r.e)));
      const k = i - r.at;
      return this.adds.subarray(r.s + starts[k]!, r.s + starts[k + 1]!);
    }
    const k = r.old + (i - r.at);
    const bytes = this.file.text.subarray(this.file.start(k), this.file.start(k + 1));
    return r.s !== -1 && i === r.at + r.count - 1 ? Buffer.concat([bytes, this.adds.subarray(r.s, r.e)]) : bytes;
  }
}
