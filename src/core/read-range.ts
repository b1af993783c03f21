// readlines over the scanner: lines START..END handed to a row sink, reading no further than END.

import { LinewiseError } from './errors.js';
import type { LineScanner } from './lines.js';
import { type LineRange, pastEnd, rangeProblem, withCount } from './ranges.js';

/**
 * Receives rows. Calls with the same `line` are pieces of one row, in order; the piece with
 * `ends` true completes it (its terminator included, when the line has one).
 */
export interface RowSink {
  row(line: number, buf: Buffer, start: number, end: number, ends: boolean): void;
  /**
   * A line shown only in part: its bytes from byte `from` (0: its first bytes) up to where the
   * budget stopped, to be marked so that replace refuses it (`N[cut]`, `N[@from,cut]`).
   */
  cutRow(line: number, buf: Buffer, start: number, end: number, from?: number): void;
  /**
   * The rest of a line from its byte `from` to its end (a budget cut it before, and a footer's
   * cursor pointed here): pieces as row() takes them, marked so that replace refuses it (`N[@from]`).
   */
  partRow?(line: number, from: number, buf: Buffer, start: number, end: number, ends: boolean): void;
  /**
   * Called before a read that may wait (a pipe, a terminal): rows buffered so far should go out
   * now, so a reader of `tail -f log | linewise ...` sees each row as soon as its line is complete.
   */
  flush?(): void;
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

