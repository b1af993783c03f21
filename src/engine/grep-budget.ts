// What a budget on grep's output is (--max-rows, --max-bytes), what it left out (the footer as
// data), and the cursor (--after PATH:LINE) that goes on from there.

import { LinewiseError } from '../core/errors.js';

/**
 * Where a search resumes: after line `line` of the input named `path`, or after all of it; with
 * `byte`, inside line `line`, from that byte of its row (a budget cut the row there).
 */
export interface GrepCursor {
  path: string;
  line: number | 'end';
  byte?: number;
}

/**
 * Parses a cursor as the footer prints it, `PATH:LINE`, `PATH:LINE@BYTE` or `PATH:end`: the path
 * is everything before the last colon, so a path holding colons needs no quoting.
 */
export function parseCursor(text: string): GrepCursor {
  const m = /^(.+):(?:([0-9]+)(?:@([0-9]+))?|end)$/s.exec(text);
  const line = m && m[2] === undefined ? 'end' : Number(m?.[2]);
  const byte = m?.[3] === undefined ? undefined : Number(m[3]);
  if (!m || (line !== 'end' && !Number.isSafeInteger(line)) || (byte !== undefined && (!Number.isSafeInteger(byte) || byte < 1 || line === 0))) {
    throw new LinewiseError('bad-option', `--after takes PATH:LINE, PATH:LINE@BYTE or PATH:end, as a footer prints it, not ${JSON.stringify(text)}`);
  }
  return { path: m[1]!, line, ...(byte !== undefined ? { byte } : {}) };
}

/** The cursor of a row, as `parseCursor` reads it. */
export function formatCursor(c: GrepCursor): string {
  return `${c.path}:${c.line}${c.byte !== undefined ? `@${c.byte}` : ''}`;
}

/** A budget on what one search prints; the defaults (undefined) are no bound. */
export interface GrepBudget {
  /** rows at most, across all files */
  maxRows?: number | undefined;
  /** bytes of rows at most, across all files (0: no bound) */
  maxBytes?: number | undefined;
  /** once the budget is spent, how many more bytes to search to count what was left out */
  countBytes: number;
}

/** What a budget left out, and where to go on: the footer as data. */
export interface GrepCutOff {
  /** rows shown (lines, context, -o parts, or file rows under -c and -l) */
  rows: number;
  /** selected lines shown (file rows under -c and -l) */
  shown: number;
  /** selected lines (file rows) from the cursor on, or undefined when counting them stopped at its bound */
  total: number | undefined;
  /** files with a selected line shown (lines only) */
  files: number;
  /** files with a selected line from the cursor on (lines only), undefined when not counted */
  totalFiles: number | undefined;
  /** the cursor after the last row shown: pass it as `after` to go on */
  after: string;
  /** the row shown cut, when a single row was longer than the byte budget: bytes shown from byte `from` of `length` */
  cut?: { path: string; line: number; shown: number; length: number; from?: number };
  /** -o: a line whose matches did not all fit, as the first rows of a call: how many were shown */
  matches?: { path: string; line: number; shown: number; total: number };
}
