// page over the scanner: a bounded page of rows (line and byte caps), then a bounded count of
// what remains, for the footer.

import { LinewiseError } from './errors.js';
import { advancingCut, type LineScanner } from './lines.js';
import { LineGatherer } from './pieces.js';
import { offsetPastEnd } from './ranges.js';
import type { RowSink } from './read-range.js';
import { ANCHOR_DIGITS, partMark } from './row-fields.js';

/**
 * Bytes a row adds before line `n`'s bytes (`<n>\t`, or `<n>#<anchor>\t`): what the byte cap
 * counts besides the line.
 */
export function rowPrefixLength(n: number, anchored = false): number {
  return String(n).length + 1 + (anchored ? 1 + ANCHOR_DIGITS : 0);
}

/** {@link rowPrefixLength} as a page's `prefixBytes`, for rows with or without anchors. */
export const rowPrefixBytes = (anchored: boolean): ((n: number) => number) => (anchored ? anchoredPrefix : plainPrefix);
const plainPrefix = (n: number) => rowPrefixLength(n, false);
const anchoredPrefix = (n: number) => rowPrefixLength(n, true);

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
  /**
   * Bytes of the first line (line `offset + 1`) already shown: the page starts inside it, at the
   * cursor of a footer that cut it, and shows its rest as a part row (`N[@B]`). Default 0.
   */
  startByte?: number | undefined;
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
  /**
   * The one line shown cut, when a single line (or its rest) was longer than the cap: bytes
   * shown from byte `from`, and its whole length (undefined if not measured). The rest starts
   * at byte `from + shown`.
   */
  cut?: { line: number; shown: number; length: number | undefined; from: number };
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
  const first = o.offset + 1;
  /** the first line is shown from this byte (a footer's cursor inside it) */
  const from = o.startByte ?? 0;
  /** bytes of it still to pass over */
  let skip = from;
  /** what a row of line `n` adds before its bytes: `n\t`, and `[@B]` for the rest of the first line */
  const prefix = (n: number) => o.prefixBytes(n) + (n === first && from > 0 ? partMark(from, false).length : 0);
  const partOf = (n: number) => (n === first ? from : 0);
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
  // (4 bytes past the cap: a cut row shows one whole character at least, see advancingCut)
  // Made at the first such line: a page of short lines never needs one.
  let acc: LineGatherer | undefined;
  const gatherer = () => (acc ??= new LineGatherer(Number.isFinite(cap) ? cap + 4 : 0, () => new RangeError('page gathered past its cap')));
  const shownRow = (rowBytes: number) => {
    used += rowBytes;
    shown++;
    n++;
  };

  const row = (n: number, buf: Buffer, start: number, end: number, ends: boolean) => {
    if (partOf(n) > 0) {
      if (sink.partRow === undefined) throw new LinewiseError('usage', 'this reader cannot show the rest of a line from a byte');
      sink.partRow(n, partOf(n), buf, start, end, ends);
    } else sink.row(n, buf, start, end, ends);
  };

  scanner.scan((buf, start, end, ends) => {
    if (skip > 0) {
      // the bytes of the first line shown before (the cursor is inside it): passed over
      const pass = Math.min(skip, end - start);
      skip -= pass;
      start += pass;
      if (ends && start === end) {
        throw new LinewiseError('past-end', `byte ${from} is at or past the end of line ${first} (${from - skip} bytes): a cursor inside a line is one a footer printed`);
      }
      if (start === end) return true;
    }
    if (measuring >= 0) {
      measuring += end - start;
      if (ends) cut!.length = cut!.from + measuring;
      return !ends && measuring <= o.countBytes;
    }
    if (cap === Infinity) {
      // No cap: pieces stream straight through, whatever the line's length.
      row(n, buf, start, end, ends);
      if (!ends) return true;
      shownRow(0);
      return shown < o.limit;
    }
    const room = cap - used - prefix(n);
    const len = (acc === undefined ? 0 : acc.length) + (end - start);
    if (len <= room) {
      if (!ends) {
        gatherer().add(buf, start, end);
        return true;
      }
      if (acc === undefined || acc.length === 0) {
        row(n, buf, start, end, true); // the common case: a whole line, no copy
      } else {
        acc.add(buf, start, end);
        row(n, acc.take(), 0, len, true);
      }
      shownRow(prefix(n) + len);
      return shown < o.limit;
    }
    if (shown > 0) {
      // Stop before a line that would overflow the cap; it is the next page's first line.
      // Only a whole line counts here: the rest of a piece-wise one is counted by its "\n".
      pendingLine = ends;
      return false;
    }
    // A single line longer than the cap: show its first bytes, cut and marked, so paging advances;
    // the footer's cursor points at the byte after them. (The cap counts the row's number and
    // the line's bytes, as it always has; "[cut]" is the mark of a row that could not fit.)
    const keep = Math.max(0, room);
    const want = keep + 4; // a character at least (advancingCut)
    const g = gatherer();
    if (g.length < want) g.add(buf, start, Math.min(end, start + (want - g.length)));
    const head = g.take();
    const stop = advancingCut(head, 0, head.length, keep);
    if (stop === 0 || (ends && stop === len)) {
      // all that is left is the terminator, or the one character forced out is all the line
      // holds: the line's last part, whatever the cap
      row(n, head, 0, head.length, true);
      shownRow(prefix(n) + head.length);
      return false;
    }
    sink.cutRow(n, head, 0, stop, partOf(n));
    cut = { line: n, shown: stop, length: ends ? partOf(n) + len : undefined, from: partOf(n) };
    shownRow(prefix(n) + stop);
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
