// Copies a byte range of the file being edited by offset: the fast lane for the lines an edit
// does not touch, with no per-line work (the scanner only counts them).

import * as fs from 'node:fs';
import { LinewiseError } from '../core/errors.js';
import type { Terminator } from '../core/terminators.js';
import { checkpoint, YIELD_BYTES } from './checkpoint.js';
import { changedError, type EditTarget, openTarget } from './edit-target.js';
import { fileError } from './input.js';

const CHUNK = 1 << 20;
const CRLF = Buffer.from('\r\n');

/** What a copied range ended with, and (when asked) how many "\r\n" it held. */
export interface RangeCopy {
  last: Terminator;
  crlf: number;
}

/** A second descriptor on the target, for reads by offset. */
export class RangeReader {
  private readonly buf = Buffer.allocUnsafe(CHUNK);

  private constructor(
    private readonly fd: number,
    private readonly target: EditTarget,
    /** the file ends with "\n" (or is empty): line-ending counts are never needed */
    readonly endsWithNewline: boolean,
  ) {}

  /** Opens the target again; it must be the very file examined (same device and inode). */
  static open(target: EditTarget): RangeReader {
    const fd = openTarget(target);
    try {
      const size = Number(target.stat.size);
      const one = Buffer.alloc(1);
      const ends = size === 0 || (fs.readSync(fd, one, 0, 1, size - 1) === 1 && one[0] === 10);
      return new RangeReader(fd, target, ends);
    } catch (e) {
      fs.closeSync(fd);
      throw e instanceof LinewiseError ? e : fileError(e, target.given);
    }
  }

  /**
   * Copies bytes `[from, to)` to `write` (none in a dry run), with a checkpoint every few MiB. Counts
   * "\r\n" only when `count` (the patcher needs counts only for a file without final newline).
   */
  async copy(
    from: number,
    to: number,
    count: boolean,
    write: ((b: Buffer, start: number, end: number) => void) | undefined,
    signal?: AbortSignal,
  ): Promise<RangeCopy> {
    let crlf = 0;
    let pos = write || count ? from : Math.max(from, to - 2); // a dry run needs only the ending
    let prev = -1; // the byte before the current chunk
    let last = -1;
    let beforeLast = -1;
    let sinceYield = 0;
    while (pos < to) {
      const n = this.read(pos, Math.min(CHUNK, to - pos));
      if (count) {
        if (prev === 13 && this.buf[0] === 10) crlf++;
        const view = this.buf.subarray(0, n);
        for (let at = view.indexOf(CRLF); at !== -1; at = view.indexOf(CRLF, at + 2)) crlf++;
      }
      write?.(this.buf, 0, n);
      beforeLast = n >= 2 ? this.buf[n - 2]! : last;
      last = this.buf[n - 1]!;
      prev = last;
      pos += n;
      sinceYield += n;
      if (sinceYield >= YIELD_BYTES) {
        sinceYield = 0;
        await checkpoint(signal);
      }
    }
    return { last: last !== 10 ? '' : beforeLast === 13 ? '\r\n' : '\n', crlf };
  }

  private read(pos: number, length: number): number {
    let n: number;
    try {
      n = fs.readSync(this.fd, this.buf, 0, length, pos);
    } catch (e) {
      throw fileError(e, this.target.given);
    }
    if (n <= 0) throw changedError(this.target); // shorter than when the scanner read it
    return n;
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}
