// page --last N under a byte cap: the page always ends at the last line, so when the cap cannot
// hold N rows it holds the last rows that fit, and says how many of the N it dropped at the top.

import { type LineScanner, safeCut } from './lines.js';
import type { RowSink } from './read-range.js';

/** What to read: the last `want` of `total` lines, within `maxBytes` (more than 0) of rows. */
export interface LastOptions {
  total: number;
  want: number;
  maxBytes: number;
  /** bytes a row adds before line `n`'s bytes (`n\t`) */
  prefixBytes: (line: number) => number;
  /** lines before the scanner's first byte (it may start at a checkpoint, not at the top); default 0 */
  linesBefore?: number;
}

/** What the page showed: its first line, the rows, and the lines of the N asked that did not fit. */
export interface LastResult {
  first: number;
  shown: number;
  /** lines of the last `want` left out at the top, to fit the cap */
  dropped: number;
  /** the last line, shown cut when it alone is longer than the cap */
  cut?: { line: number; shown: number; length: number; from: number };
}

const EMPTY = Buffer.alloc(0);

interface Kept {
  line: number;
  bytes: Buffer;
  cost: number;
}

/**
 * The first line that can matter: every row costs at least 3 bytes (`n`, a tab, one byte), so
 * no more than `maxBytes / 3 + 1` of the last `want` lines can fit.
 */
export function lastFirstLine(o: Pick<LastOptions, 'total' | 'want' | 'maxBytes'>): number {
  return o.total - Math.min(o.want, o.total, Math.floor(o.maxBytes / 3) + 1) + 1;
}

/**
 * Hands the last rows that fit to `sink`, in order. One pass over the tail, from
 * `lastFirstLine`: the lines are read and kept while they fit (a queue of at most `maxBytes`
 * bytes), dropping the oldest as newer ones arrive. A last line longer than the cap alone is
 * shown cut, as page does. Memory: the bytes of the rows that fit, so at most about `maxBytes`.
 */
export function readLast(scanner: LineScanner, o: LastOptions, sink: RowSink): LastResult {
  const want = Math.min(o.want, o.total);
  let n = lastFirstLine(o);
  scanner.skip(n - 1 - (o.linesBefore ?? 0));
  const kept: Kept[] = [];
  let head = 0; // kept[head..] are the rows that fit
  let used = 0;
  let parts: Buffer[] = [];
  let gathered = 0; // bytes of the current line held (at most maxBytes)
  let length = 0; // its full length
  let last = { line: 0, bytes: EMPTY, length: 0 };
  scanner.scan((buf, start, end, ends) => {
    length += end - start;
    const take = Math.min(end - start, o.maxBytes - gathered);
    if (take > 0) {
      parts.push(Buffer.from(buf.subarray(start, start + take)));
      gathered += take;
    }
    if (!ends) return true;
    const bytes = Buffer.concat(parts);
    const row = { line: n, bytes, cost: o.prefixBytes(n) + length };
    last = { line: n, bytes, length };
    kept.push(row);
    used += row.cost;
    while (head < kept.length && used > o.maxBytes) {
      used -= kept[head]!.cost;
      kept[head++]!.bytes = EMPTY; // what no longer fits is let go at once: memory stays within the cap
    }
    if (head > 1024 && head * 2 > kept.length) {
      kept.splice(0, head);
      head = 0;
    }
    parts = [];
    gathered = 0;
    length = 0;
    n++;
    return true;
  });
  if (head < kept.length) {
    for (let i = head; i < kept.length; i++) sink.row(kept[i]!.line, kept[i]!.bytes, 0, kept[i]!.bytes.length, true);
    const shown = kept.length - head;
    return { first: kept[head]!.line, shown, dropped: want - shown };
  }
  // The last line alone is longer than the cap: its first bytes, marked cut.
  const stop = safeCut(last.bytes, 0, Math.max(0, Math.min(last.bytes.length, o.maxBytes - o.prefixBytes(last.line))));
  sink.cutRow(last.line, last.bytes, 0, stop);
  return { first: last.line, shown: 1, dropped: want - 1, cut: { line: last.line, shown: stop, length: last.length, from: 0 } };
}
