// grep's JSON Lines printer, in ripgrep's shapes: begin, match, context, end, summary.

import { isUtf8 } from 'node:buffer';
import type { MatchSink } from '../core/searcher.js';
import type { GrepCutOff } from '../engine/grep-budget.js';
import type { Output } from '../io/output.js';
import { hasRawBytes, pathToBytes } from '../core/path-names.js';
import type { RangesFn } from './grep-rows.js';
import { lineFields, writeRecord } from './json.js';
import { type AnchorFn, anchorField } from './rows.js';

/** Text of bytes as JSON wants it: `{"text"}`, or `{"bytes"}` (base64) when not UTF-8. */
function data(b: Buffer): { text: string } | { bytes: string } {
  return isUtf8(b) ? { text: b.toString('utf8') } : { bytes: b.toString('base64') };
}

/** A path as JSON wants it: `{"text"}`, or `{"bytes"}` (base64) for a name that is not UTF-8, as rg does. */
function pathData(path: string): { text: string } | { bytes: string } {
  return hasRawBytes(path) ? { bytes: pathToBytes(path).toString('base64') } : { text: path };
}

/** Totals for the final summary record. */
export interface GrepStats {
  searches: number;
  searches_with_match: number;
  matched_lines: number;
  matches: number;
}

/**
 * ripgrep-shaped JSON Lines, field for field where rg has the field: `lines` holds the line with
 * its terminator, as text (or base64 `bytes` when it is not UTF-8), and each submatch its byte
 * range in the line. Extra: `terminator` beside `lines`, `cut` on a row the byte budget cut,
 * `errors` in the summary's stats and `cut_off` in its data. Left out: rg's timings, byte counts
 * and `absolute_offset`.
 */
export class JsonGrep implements MatchSink {
  private path = '';
  private begun = false;
  private fileLines = 0;
  private fileMatches = 0;
  readonly stats: GrepStats = { searches: 0, searches_with_match: 0, matched_lines: 0, matches: 0 };

  constructor(
    private readonly out: Output,
    /** ranges of matches; undefined under -v (selected lines hold no match) */
    private readonly ranges: RangesFn | undefined,
    /** add each line's `anchor` (`--anchor`) */
    private readonly anchor?: AnchorFn,
  ) {}

  file(path: string): void {
    this.path = path;
    this.begun = false;
    this.fileLines = 0;
    this.fileMatches = 0;
    this.stats.searches++;
  }

  private begin(): void {
    if (this.begun) return;
    this.begun = true;
    this.stats.searches_with_match++;
    writeRecord(this.out, { type: 'begin', data: { path: pathData(this.path) } });
  }

  match(line: number, buf: Buffer, start: number, end: number): void {
    this.begin();
    this.fileLines++;
    this.stats.matched_lines++;
    const submatches = (this.ranges ? this.ranges(buf, start, end) : []).map(([s, e]) => ({
      match: data(buf.subarray(start + s, start + e)),
      start: s,
      end: e,
    }));
    this.stats.matches += submatches.length;
    this.fileMatches += submatches.length;
    this.record('match', line, buf, start, end, submatches);
  }

  context(line: number, buf: Buffer, start: number, end: number): void {
    this.begin();
    this.record('context', line, buf, start, end, []);
  }

  gap(): void {}

  private record(type: string, line: number, buf: Buffer, start: number, end: number, submatches: object[], extra: object = {}): void {
    const { terminator } = lineFields(buf, start, end);
    writeRecord(this.out, {
      type,
      data: { path: pathData(this.path), lines: data(buf.subarray(start, end)), line_number: line, ...(this.anchor ? { anchor: anchorField(this.anchor, buf, start, end).slice(1) } : {}), submatches, terminator, ...extra },
    });
  }

  /** A row the byte budget cut: its first bytes, no terminator, and `cut` with what was shown. */
  cutRow(kind: 'match' | 'context', line: number, buf: Buffer, start: number, end: number, length: number, from = 0): void {
    this.begin();
    if (kind === 'match' && from === 0) {
      this.fileLines++;
      this.stats.matched_lines++;
    }
    this.record(kind, line, buf, start, end, [], { cut: { shown: end - start, length, ...(from > 0 ? { from } : {}) } });
  }

  /** The rest of a row from its byte `from` (a cursor inside it): those bytes, and `from`. */
  restRow(kind: 'match' | 'context', line: number, from: number, buf: Buffer, start: number, end: number): void {
    this.begin();
    this.record(kind, line, buf, start, end, [], { from });
  }

  /** Ends the current file: an `end` record if it printed anything. */
  endFile(): void {
    if (!this.begun) return;
    const stats = { searches: 1, searches_with_match: 1, matched_lines: this.fileLines, matches: this.fileMatches };
    writeRecord(this.out, { type: 'end', data: { path: pathData(this.path), binary_offset: null, stats } });
  }

  /** The last record: totals, errors, and what a budget left out (`cut_off`, the footer as data). */
  summary(errors: number, cutOff?: GrepCutOff): void {
    writeRecord(this.out, { type: 'summary', data: { stats: { ...this.stats, errors }, ...(cutOff ? { cut_off: cutOffRecord(cutOff) } : {}) } });
  }
}

/**
 * The budget's cut-off as JSON: its names snake_case like every other field (the library's
 * object is camelCase), and `null`, as page's `total`, for a count that stopped at its bound.
 */
function cutOffRecord(c: GrepCutOff): Record<string, unknown> {
  const extra = { ...(c.cut ? { cut: c.cut } : {}), ...(c.matches ? { matches: c.matches } : {}) };
  return { rows: c.rows, shown: c.shown, total: c.total ?? null, files: c.files, total_files: c.totalFiles ?? null, after: c.after, ...extra };
}
