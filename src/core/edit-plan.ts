// Edits planned against a file's original numbering: what an edit and an expectation are, and
// which sets of edits have a single meaning (no overlaps, no duplicates).

import { LinewiseError } from './errors.js';
import { editRangeProblem } from './ranges.js';
import type { Row } from './parse-rows.js';
import { fnv1a } from './row-guard.js';
import { bodyOf } from './terminators.js';

/** One edit: lines `start..end` (1-based, inclusive) become `lines`; `end = start - 1` inserts before `start`. */
export interface Edit {
  start: number;
  end: number;
  /** the new lines, each with its own terminator if it has one (ignored except under `keep`) */
  lines: Buffer[];
  /** where the edit came from, for messages: "row 3", "lines 2-4" */
  origin: string;
  /**
   * Written byte for byte whatever the call's `--eol` (a content edit: the file's own bytes
   * around the new text, whose line breaks were styled already; see core/splice.ts).
   */
  literal?: boolean;
  /**
   * The edit is a row fed back: when it replaces a last line that had no terminator, a final
   * "\n" is the separator the reader printed after the row, not part of the line (so a lone
   * "\r" at the end of that line survives).
   */
  row?: boolean;
}

/**
 * A line the caller read earlier and expects unchanged: the row's bytes (compared without
 * terminator), or the anchor of an anchored row (a prefix of the hash of the line's text).
 */
export interface Expectation {
  line: number;
  bytes?: Buffer;
  anchor?: string;
  /** the FNV-1a of the line's text as read, from a reader's guard trailer (core/row-guard.ts) */
  fnv?: number;
  origin: string;
}

/**
 * Edits or expectations in file order, read by index: a sorted array will do, or the rows of a
 * file kept compactly (core/plan-rows.ts), made objects one at a time. `at` gives undefined past
 * the end, and for an index that holds none (a row without an anchor, read as an expectation).
 */
export interface Sorted<T> {
  readonly length: number;
  at(index: number): T | undefined;
}

/** A row fed back as an edit: it replaces its own line with exactly one line. */
export function rowEdit(r: Row, shift = 0): Edit {
  return { start: r.line + shift, end: r.line + shift, lines: [r.bytes], origin: `row ${r.rowNumber}`, row: true };
}

/** A row as it was read, as an expectation: its line's text without its terminator. */
export function rowExpectation(r: Row, origin = 'expected row', shift = 0): Expectation {
  return { line: r.line + shift, bytes: r.bytes, origin: `${origin} ${r.rowNumber}` };
}

/** The anchor of an anchored row fed back as an edit: it guards the line its row replaces. */
export function rowAnchor(r: Row, shift = 0): Expectation | undefined {
  return r.anchor === undefined ? undefined : { line: r.line + shift, anchor: r.anchor, origin: `row ${r.rowNumber}` };
}

/** The guard of a row from a reader's output with its trailer: the hash of its line as read. */
export function rowGuard(r: Row, fnv: number, shift = 0): Expectation {
  return { line: r.line + shift, fnv, origin: `row ${r.rowNumber}` };
}

/** Rows fed back as edits (see rowEdit). */
export function rowEdits(rows: readonly Row[]): Edit[] {
  return rows.map((r) => rowEdit(r));
}

/** Rows as they were read, as expectations (see rowExpectation). */
export function rowExpectations(rows: readonly Row[], origin = 'expected row'): Expectation[] {
  return rows.map((r) => rowExpectation(r, origin));
}

/**
 * Whether expectation `x` holds for the line `current` (terminator included): its bytes compare
 * as {@link sameLine}; its anchor is a prefix of `hash` of the line's text.
 */
export function expectationHolds(x: Expectation, current: Buffer, hash: ((body: Uint8Array) => string) | undefined): boolean {
  if (x.bytes !== undefined) return sameLine(x.bytes, current);
  if (x.fnv !== undefined && fnv1a(bodyOf(current)) !== x.fnv) return false;
  if (x.anchor === undefined) return true;
  if (hash === undefined) throw new Error('an anchored expectation needs a hash function');
  return hash(bodyOf(current)).startsWith(x.anchor);
}

/**
 * Whether a row as read still matches the line as it is now, compared without terminators
 * (so a CRLF row whose "\r" a tool dropped still matches). A line without terminator also
 * matches its row followed by the "\n" a reader prints to separate it from what follows.
 */
export function sameLine(row: Buffer, current: Buffer): boolean {
  const body = bodyOf(current);
  if (bodyOf(row).equals(body)) return true;
  return body.length === current.length && row.length === body.length + 1 && row[body.length] === 10 && row.subarray(0, body.length).equals(body);
}

export const isInsert = (e: Edit): boolean => e.end === e.start - 1;

function describe(e: Edit): string {
  if (isInsert(e)) return `${e.origin} (insert before line ${e.start})`;
  return e.start === e.end ? `${e.origin} (line ${e.start})` : `${e.origin} (lines ${e.start}-${e.end})`;
}

/**
 * Sorts edits into file order and refuses what has no single meaning: a range that is not one,
 * two edits of the same line, overlapping ranges, two inserts at the same place, an insert
 * inside a replaced range. An insert before line N and an edit of line N are fine (the insert
 * comes first). Whether lines exist is checked while the file is read (see the patcher).
 */
export function planEdits(edits: readonly Edit[]): Edit[] {
  for (const e of edits) {
    const problem = !Number.isSafeInteger(e.start) || !Number.isSafeInteger(e.end) ? 'line numbers must be whole numbers' : editRangeProblem(e.start, e.end);
    if (problem !== undefined) throw new LinewiseError('bad-range', `${e.origin}: ${problem}`);
  }
  // Inserts before replacements at the same start: that is the order they apply in.
  const plan = [...edits].sort((a, b) => a.start - b.start || Number(isInsert(b)) - Number(isInsert(a)));
  for (let i = 1; i < plan.length; i++) {
    const a = plan[i - 1]!;
    const b = plan[i]!;
    const clash = isInsert(b) ? (isInsert(a) ? a.start === b.start : b.start <= a.end) : b.start <= a.end;
    if (clash) {
      const what = a.start === b.start && a.end === b.end ? 'both edit the same lines' : 'overlap';
      throw new LinewiseError('conflict', `${describe(a)} and ${describe(b)} ${what}; every line may be edited once per call`);
    }
  }
  return plan;
}
