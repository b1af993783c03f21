// A search's rows recorded as bytes, to be replayed in turn: what a worker thread hands back for
// a file it searched, or what a file searched out of turn holds until its turn. Pure: the rows,
// notes and block ends a MatchSink saw, in one growing buffer, and read back in the same order.

import type { MatchSink } from './searcher.js';

const MATCH = 1;
const CONTEXT = 2;
const GAP = 3;
const NOTE = 4;
const VISIT = 5;

/** Where a log is replayed: a MatchSink, plus the searcher's notes and the end of each visit. */
export interface LogTarget extends MatchSink {
  note(message: string): void;
  /**
   * The searcher was handed `bytes` more and said whether it wants more (`more`, false once -m
   * is reached): a replay stops when this returns false, as the search would have.
   */
  visited(bytes: number, more: boolean): boolean;
}

/** Records what a search reports. Hand it to LineSearcher as its sink, and `visited` after each visit. */
export class RowLog implements LogTarget {
  private buf = Buffer.allocUnsafe(1 << 12);
  private len = 0;

  /** The bytes recorded so far (a view: valid until the next write). */
  bytes(): Buffer {
    return this.buf.subarray(0, this.len);
  }

  /** Forgets what was recorded, keeping the buffer for the next file. */
  clear(): void {
    this.len = 0;
    // a log that once held a huge file gives its memory back
    if (this.buf.length > 1 << 22) this.buf = Buffer.allocUnsafe(1 << 12);
  }

  match(line: number, buf: Buffer, start: number, end: number): void {
    this.row(MATCH, line, buf, start, end);
  }

  context(line: number, buf: Buffer, start: number, end: number): void {
    this.row(CONTEXT, line, buf, start, end);
  }

  gap(): void {
    this.room(1);
    this.buf[this.len++] = GAP;
  }

  note(message: string): void {
    const n = Buffer.byteLength(message);
    this.room(5 + n);
    this.buf[this.len] = NOTE;
    this.buf.writeUInt32LE(n, this.len + 1);
    this.buf.write(message, this.len + 5, 'utf8');
    this.len += 5 + n;
  }

  visited(bytes: number, more: boolean): boolean {
    this.room(10);
    this.buf[this.len] = VISIT;
    this.buf.writeDoubleLE(bytes, this.len + 1);
    this.buf[this.len + 9] = more ? 1 : 0;
    this.len += 10;
    return true;
  }

  private row(kind: number, line: number, buf: Buffer, start: number, end: number): void {
    const n = end - start;
    this.room(13 + n);
    const b = this.buf;
    b[this.len] = kind;
    b.writeDoubleLE(line, this.len + 1);
    b.writeUInt32LE(n, this.len + 9);
    buf.copy(b, this.len + 13, start, end);
    this.len += 13 + n;
  }

  private room(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + n));
    this.buf.copy(grown, 0, 0, this.len);
    this.buf = grown;
  }
}

/**
 * Replays a log into `into`, in the order it was recorded; the rows are views of `log`. Returns
 * false when `into.visited` asked to stop, true when the log was replayed to its end.
 */
export function replayLog(log: Uint8Array, into: LogTarget): boolean {
  const b = Buffer.from(log.buffer, log.byteOffset, log.byteLength);
  let at = 0;
  while (at < b.length) {
    const kind = b[at]!;
    if (kind === MATCH || kind === CONTEXT) {
      const line = b.readDoubleLE(at + 1);
      const n = b.readUInt32LE(at + 9);
      if (kind === MATCH) into.match(line, b, at + 13, at + 13 + n);
      else into.context(line, b, at + 13, at + 13 + n);
      at += 13 + n;
    } else if (kind === GAP) {
      into.gap();
      at += 1;
    } else if (kind === NOTE) {
      const n = b.readUInt32LE(at + 1);
      into.note(b.toString('utf8', at + 5, at + 5 + n));
      at += 5 + n;
    } else if (kind === VISIT) {
      if (!into.visited(b.readDoubleLE(at + 1), b[at + 9] === 1)) return false;
      at += 10;
    } else throw new Error(`row log: unknown record ${kind} at ${at}`);
  }
  return true;
}
