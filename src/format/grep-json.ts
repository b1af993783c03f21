// grep's JSON Lines printer, in ripgrep's shapes: begin, match, context, end, summary.

import { isAscii, isUtf8 } from 'node:buffer';
import type { MatchSink } from '../core/searcher.js';
import type { GrepCutOff } from '../engine/grep-budget.js';
import type { Output } from '../io/output.js';
import { hasRawBytes, pathToBytes } from '../core/path-names.js';
import { lineFields, writeRecord } from './json.js';
import { noteMatch } from '../core/match-ranges.js';
import { type AnchorFn, anchorField, type RangesFn } from './rows.js';

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

/** Up to this many submatches, a match record is made as one object; past it, written in pieces. */
const STREAMED_SUBMATCHES = 4096;
/** The key of the submatches, empty, as JSON.stringify writes it (no string value can hold it unescaped). */
const SUBMATCHES = '"submatches":[]';

function submatch(buf: Buffer, start: number, s: number, e: number): object {
  return { match: data(buf.subarray(start + s, start + e)), start: s, end: e };
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
    const ranges = this.ranges ? this.ranges(buf, start, end) : new Uint32Array(0);
    this.stats.matches += ranges.length / 2;
    this.fileMatches += ranges.length / 2;
    if (ranges.length <= 2 * STREAMED_SUBMATCHES) {
      const submatches = [];
      for (let k = 0; k < ranges.length; k += 2) submatches.push(submatch(buf, start, ranges[k]!, ranges[k + 1]!));
      this.record('match', line, buf, start, end, submatches);
      return;
    }
    // Millions of matches in one line: the record is written as its submatches come, so no
    // object (nor the whole record as one string) is made for each: the same bytes, in pieces.
    const { terminator } = lineFields(buf, start, end);
    const whole = `${JSON.stringify({ type: 'match', data: this.fields(line, buf, start, end, [], terminator) })}\n`;
    const at = whole.indexOf(SUBMATCHES) + SUBMATCHES.length - 1; // just before the "]"
    this.out.text(whole.slice(0, at));
    let piece = '';
    const ascii = isAscii(buf.subarray(start, end));
    for (let k = 0; k < ranges.length; k += 2) {
      const s = ranges[k]!;
      const e = ranges[k + 1]!;
      // (the fields as JSON.stringify writes them, without an object per match)
      const b = ascii ? undefined : buf.subarray(start + s, start + e);
      const match = b === undefined ? `{"text":${JSON.stringify(buf.toString('latin1', start + s, start + e))}}` : isUtf8(b) ? `{"text":${JSON.stringify(b.toString('utf8'))}}` : `{"bytes":"${b.toString('base64')}"}`;
      piece += `${k === 0 ? '' : ','}{"match":${match},"start":${s},"end":${e}}`;
      noteMatch();
      if (piece.length >= 1 << 16) {
        this.out.text(piece);
        piece = '';
      }
    }
    this.out.text(piece + whole.slice(at));
  }

  /** A record's `data`, its fields in the order every record has them. */
  private fields(line: number, buf: Buffer, start: number, end: number, submatches: object[], terminator: unknown, extra: object = {}): object {
    return { path: pathData(this.path), lines: data(buf.subarray(start, end)), line_number: line, ...(this.anchor ? { anchor: anchorField(this.anchor, buf, start, end).slice(1) } : {}), submatches, terminator, ...extra };
  }

  context(line: number, buf: Buffer, start: number, end: number): void {
    this.begin();
    this.record('context', line, buf, start, end, []);
  }

  gap(): void {}

  private record(type: string, line: number, buf: Buffer, start: number, end: number, submatches: object[], extra: object = {}): void {
    const { terminator } = lineFields(buf, start, end);
    writeRecord(this.out, { type, data: this.fields(line, buf, start, end, submatches, terminator, extra) });
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
