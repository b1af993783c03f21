// page over the scanner: a bounded page of rows (line and byte caps), then a bounded count of
// what remains, for the footer.

import { LinewiseError } from './errors.js';
import { type LineScanner, safeCut } from './lines.js';
import { LineGatherer } from './pieces.js';
import { offsetPastEnd } from './ranges.js';
import type { RowSink } from './read-range.js';
import { ANCHOR_DIGITS } from './row-fields.js';

/**
 * Bytes a row adds before line `n`'s bytes (`<n>\t`, or `<n>#<anchor>\t`): what the byte cap
 * counts besides the line.
 */
export function rowPrefixLength(n: number, anchored = false): number {
  return String(n).length + 1 + (anchored ? 1 + ANCHOR_DIGITS : 0);
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
  /**
   * Count what remains only up to this line (readlines' END), not to the end of the file; the
   * count is still bounded by `countBytes`. `left` then says how many of those lines remain.
   */
  countTo?: number | undefined;
  /** the message for an offset at or past the end, given the line count (default: page's) */
  pastEnd?: ((count: number) => string) | undefined;
  /** lines before the scanner's first byte (it may start at a checkpoint, at most `offset`); default 0 */
  linesBefore?: number | undefined;
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
  /**
   * Lines after the page, up to `countTo` (or the end): undefined when counting them stopped at
   * `countBytes`.
   */
  left: number | undefined;
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
  const linesBefore = o.linesBefore ?? 0;
  const before = linesBefore + scanner.skip(o.offset - linesBefore).lines;
  if (before < o.offset || scanner.atEnd()) {
    if (before === 0 && o.offset === 0 && o.pastEnd === undefined) return { first: 1, shown: 0, total: 0, nextOffset: 0, left: 0 };
    throw new LinewiseError('past-end', (o.pastEnd ?? ((count) => offsetPastEnd(o.offset, count)))(before));
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
  // until it is known to fit. Only lines longer than one read take this path.
  const acc = new LineGatherer(Number.isFinite(cap) ? cap : 0, () => new RangeError('page gathered past its cap'));
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
    const len = acc.length + (end - start);
    if (len <= room) {
      if (!ends) {
        acc.add(buf, start, end);
        return true;
      }
      if (acc.length === 0) {
        sink.row(n, buf, start, end, true); // the common case: a whole line, no copy
      } else {
        acc.add(buf, start, end);
        sink.row(n, acc.take(), 0, len, true);
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
    if (acc.length < keep) acc.add(buf, start, start + (keep - acc.length));
    const head = acc.take();
    const stop = safeCut(head, 0, Math.min(head.length, keep));
    sink.cutRow(n, head, 0, stop);
    cut = { line: n, shown: stop, length: ends ? len : undefined };
    shownRow(o.prefixBytes(n) + stop);
    if (ends) return false;
    measuring = len;
    return true;
  });

  // Count what remains, reading at most countBytes further; past that the total is unknown.
  let total: number | undefined;
  let left: number | undefined;
  const pending = pendingLine ? 1 : 0;
  const want = o.countTo === undefined ? Infinity : Math.max(0, o.countTo - (o.offset + shown) - pending);
  // Only to the end of the file: when more than countBytes remain the count cannot succeed.
  const tooFar = o.countTo === undefined && o.inputSize !== undefined && o.inputSize - scanner.offset > o.countBytes;
  if (!tooFar && (!cut || cut.length !== undefined)) {
    const rest = scanner.skip(want, o.countBytes);
    if (rest.eof) total = o.offset + shown + pending + rest.lines;
    if (rest.eof || rest.lines === want) left = pending + rest.lines;
  }
  return { first: o.offset + 1, shown, total, nextOffset: o.offset + shown, left, ...(cut ? { cut } : {}) };
}
