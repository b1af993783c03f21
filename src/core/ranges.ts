// Line-number arguments and range arithmetic: what is a valid range, and what to say when it is not.

import { LinewiseError, plural, quoted } from './errors.js';

/**
 * Parses a line-number or count argument: decimal digits only, at most 2^53 - 1.
 * `what` names the argument in the message ("START", "--limit").
 */
export function parseCount(text: string, what: string, min = 0): number {
  if (!/^[0-9]+$/.test(text)) {
    throw new LinewiseError('bad-number', `${what} must be a whole number${min > 0 ? ` from ${min}` : ''}, not ${quoted(text, 40)}`);
  }
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new LinewiseError('bad-number', `${what} ${text.length > 40 ? `${text.slice(0, 40)}... (${text.length} digits)` : text} is too large`);
  if (n < min) throw new LinewiseError('bad-number', `${what} must be at least ${min}, not ${n}`);
  return n;
}

/** A 1-based inclusive range; `end` undefined means "to the end of the file". */
export interface LineRange {
  start: number;
  end: number | undefined;
}

/**
 * Checks a range that needs no file to judge (START < 1, END < START) and returns a reason, or
 * undefined when only the file's length can decide. Callers count the lines to name them.
 */
export function rangeProblem(r: LineRange): string | undefined {
  if (r.start < 1) return `START must be at least 1, not ${r.start}`;
  if (r.end !== undefined && r.end < r.start) return `END ${r.end} is before START ${r.start}`;
  return undefined;
}

/**
 * Checks the range of an edit, where `end = start - 1` is an insert before `start`; returns a
 * reason, or undefined. Whether the lines exist is for the file to say (see the patcher).
 */
export function editRangeProblem(start: number, end: number): string | undefined {
  if (start < 1) return `START must be at least 1, not ${start}`;
  if (end < start - 1) return `END ${end} is before START ${start} (END = START - 1 inserts before START)`;
  return undefined;
}

/** The message for a range that starts past the last line. */
export function pastEnd(start: number, count: number): string {
  return `line ${start} is past the end: the file has ${plural(count)}`;
}

/** The message for a page offset at or past the end. */
export function offsetPastEnd(offset: number, count: number): string {
  return `offset ${offset} is at or past the end: the file has ${plural(count)} (an offset is the number of lines skipped: --offset ${Math.max(0, count - 1)} shows the last line)`;
}

/** Appends the line count to a range problem: "... (the file has 5 lines)". */
export function withCount(problem: string, count: number): string {
  return `${problem} (the file has ${plural(count)})`;
}
