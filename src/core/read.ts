// The read side over the scanner: a line range (readlines) and a bounded page (page).

import { LinewiseError } from './errors.js';
import { type LineScanner, safeCut } from './lines.js';
import { type LineRange, offsetPastEnd, pastEnd, rangeProblem, withCount } from './ranges.js';

/**
 * Receives rows. Calls with the same `line` are pieces of one row, in order; the piece with
 * `ends` true completes it (its terminator included, when the line has one).
 */
export interface RowSink {
  row(line: number, buf: Buffer, start: number, end: number, ends: boolean): void;
  /** A line shown only in part: its first bytes, to be marked so that replace refuses it. */
  cutRow(line: number, buf: Buffer, start: number, end: number): void;
}

/** Counts the lines left in the input (no bound): for the messages of invalid ranges. */
export function countRest(scanner: LineScanner): number {
  return scanner.skip(Infinity).lines;
}

/**
 * Hands lines `start..end` to the sink and reads no further than the end of line `end`
 * (the scanner reads one buffer at a time, and stops at the buffer holding END's terminator).
 * Throws, naming the line count, when the range is invalid or starts past the last line.
 */
export function readRange(scanner: LineScanner, range: LineRange, sink: RowSink): { shown: number } {
  const problem = rangeProblem(range);
  if (problem) throw new LinewiseError('bad-range', withCount(problem, countRest(scanner)));
  const before = scanner.skip(range.start - 1);
  if (before.lines < range.start - 1 || scanner.atEnd()) {
    throw new LinewiseError('past-end', pastEnd(range.start, before.lines));
  }
  const last = range.end ?? Infinity;
  let n = range.start;
  let shown = 0;
  scanner.scan((buf, start, end, ends) => {
    sink.row(n, buf, start, end, ends);
    if (!ends) return true;
    shown++;
    return n++ < last;
  });
  return { shown };
}

/** What to read for a page. */
export interface PageOptions {
  /** lines skipped before the page (0-based offset) */
  offset: number;
  /** rows at most */
  limit: number;
  /** cap on the bytes of the rows printed (number, tab, line); 0 for none */
  maxBytes: number;
  /** how far past the page to read while counting the total, in bytes */
  countBytes: number;
  /** bytes a row adds before the line for line `n` (`n\t`), for the cap */
  prefixBytes: (line: number) => number;
  /**
   * The input's size in bytes, when known (a regular file read as bytes). When more than
   * `countBytes` remain after the page, the total cannot be counted within the bound, so the
   * count is not even started: a page of a huge file costs the same as one of a small file.
   */
  inputSize?: number | undefined;
}

/** What a page showed, for its footer and JSON summary. */
export interface PageResult {
  /** 1-based number of the first row (offset + 1) */
  first: number;
  shown: number;
  /** lines in the file, or undefined when the count stopped at its bound */
  total: number | undefined;
  /** the offset to read next */
  nextOffset: number;
  /** the one line shown cut, when a single line was longer than the cap */
  cut?: { line: number; shown: number; length: number | undefined };
}

/**
 * One page: skips `offset` lines, hands on up to `limit` rows within the byte cap, then counts
 * what remains within `countBytes`. A page always advances: a first line longer than the cap is
 * shown cut rather than not at all. Throws, with the line count, when the offset is at or past
 * the end (except offset 0 of an empty file, which is an empty page).
 */
export function readPage(scanner: LineScanner, o: PageOptions, sink: RowSink): PageResult {
  const before = scanner.skip(o.offset);
  if (before.lines < o.offset || scanner.atEnd()) {
    if (before.lines === 0 && o.offset === 0) return { first: 1, shown: 0, total: 0, nextOffset: 0 };
    throw new LinewiseError('past-end', offsetPastEnd(o.offset, before.lines));
  }
  const cap = o.maxBytes > 0 ? o.maxBytes : Infinity;
  let n = o.offset + 1;
  let shown = 0;
  let used = 0;
  /** a line was read (so consumed) but not shown: it counts among the remaining */
  let pendingLine = false;
  let cut: PageResult['cut'];
  /** bytes of the cut line seen so far, while its rest is consumed and measured */
  let measuring = -1;
  // A line that arrives in pieces is gathered, never beyond the room left under the cap,
  // until it is known to fit. Only lines longer than one read (1 MiB) take this path.
  let acc: Buffer = Buffer.alloc(0);
  let accLen = 0;
  const gather = (buf: Buffer, start: number, end: number) => {
    const need = accLen + (end - start);
    if (acc.length < need) {
      const grown = Buffer.allocUnsafe(Math.max(need, Math.min(need * 2, cap)));
      acc.copy(grown, 0, 0, accLen);
      acc = grown;
    }
    buf.copy(acc, accLen, start, end);
    accLen = need;
  };
  const shownRow = (rowBytes: number) => {
    used += rowBytes;
    shown++;
    n++;
  };

  scanner.scan((buf, start, end, ends) => {
    if (measuring >= 0) {
      measuring += end - start;
      if (ends) cut!.length = measuring;
      return !ends && measuring <= o.countBytes;
    }
    if (cap === Infinity) {
      // No cap: pieces stream straight through, whatever the line's length.
      sink.row(n, buf, start, end, ends);
      if (!ends) return true;
      shownRow(0);
      return shown < o.limit;
    }
    const room = cap - used - o.prefixBytes(n);
    const len = accLen + (end - start);
    if (len <= room) {
      if (!ends) {
        gather(buf, start, end);
        return true;
      }
      if (accLen === 0) {
        sink.row(n, buf, start, end, true); // the common case: a whole line, no copy
      } else {
        gather(buf, start, end);
        sink.row(n, acc, 0, len, true);
        accLen = 0;
      }
      shownRow(o.prefixBytes(n) + len);
      return shown < o.limit;
    }
    if (shown > 0) {
      // Stop before a line that would overflow the cap; it is the next page's first line.
      // Only a whole line counts here: the rest of a piece-wise one is counted by its "\n".
      pendingLine = ends;
      return false;
    }
    // A single line longer than the cap: show its first bytes, cut and marked, so paging advances.
    const keep = Math.max(0, room);
    if (accLen < keep) gather(buf, start, start + (keep - accLen));
    const stop = safeCut(acc, 0, Math.min(accLen, keep));
    sink.cutRow(n, acc, 0, stop);
    cut = { line: n, shown: stop, length: ends ? len : undefined };
    accLen = 0;
    shownRow(o.prefixBytes(n) + stop);
    if (ends) return false;
    measuring = len;
    return true;
  });

  // Count what remains, reading at most countBytes further; past that the total is unknown.
  let total: number | undefined;
  const tooFar = o.inputSize !== undefined && o.inputSize - scanner.offset > o.countBytes;
  if (!tooFar && (!cut || cut.length !== undefined)) {
    const rest = scanner.skip(Infinity, o.countBytes);
    if (rest.eof) total = o.offset + shown + (pendingLine ? 1 : 0) + rest.lines;
  }
  return { first: o.offset + 1, shown, total, nextOffset: o.offset + shown, ...(cut ? { cut } : {}) };
}
