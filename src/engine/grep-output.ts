// grep's output stage, between the searcher and the reporter: the rows as they will be printed
// (-o parts, --replace), the resume cursor (--after), the budgets (--max-rows, --max-bytes), and
// once a budget is spent, a bounded count of what was left out, for the footer.

import { advancingCut } from '../core/lines.js';
import type { CompiledPattern } from '../core/pattern.js';
import { matchRanges, noteMatch } from '../core/match-ranges.js';
import type { MatchSink } from '../core/searcher.js';
import { eachReplacement, replaceLine, type Template } from '../core/substitute.js';
import { formatCursor, type GrepBudget, type GrepCutOff } from './grep-budget.js';

/**
 * How a search reports: rows of lines (`lines`), a count per file (`counts`; `matching-counts`
 * only for files with a selected line, the CLI's -c -l, as rg's -c), the names of files with a
 * selected line (`files`, -l) or without one (`files-without`), or nothing at all (`quiet`, -q:
 * the search stops at the first selected line). Only `lines` calls match and context.
 */
export type GrepReport = 'lines' | 'counts' | 'matching-counts' | 'files' | 'files-without' | 'quiet';

/** Each file counted past the budget costs at least this many bytes of the count's bound. */
const FILE_COST = 4096;

/** Where rows go: the reporter's calls for what the stage forwards. */
export interface RowTarget extends MatchSink {
  /** a part of a selected line (-o): `column` is its 1-based byte offset in the line */
  part?(line: number, column: number, buf: Buffer, start: number, end: number): void;
  /** a row shown cut by the byte budget: its first bytes only, of `length` */
  cutRow?(kind: 'match' | 'context', line: number, buf: Buffer, start: number, end: number, length: number, column?: number, from?: number): void;
  /** the rest of a row from its byte `from` (a budget cut it there before): `N[@from]`, refused by replace */
  restRow?(kind: 'match' | 'context', line: number, from: number, buf: Buffer, start: number, end: number): void;
  /** under -c and -l: the row of one file */
  fileRow?(display: string, selected: number): void;
  /**
   * --replace: a selected line shown as `buf` (its matches replaced); `original` is the line as
   * the file holds it, whose anchor the row must carry, since replace --rows checks the file.
   */
  replacedMatch?(line: number, buf: Buffer, start: number, end: number, original: Buffer): void;
}

export interface OutputOptions {
  report: GrepReport;
  withPath: boolean;
  pattern: CompiledPattern;
  /** print each match apart (-o), as `part` rows */
  onlyMatching: boolean;
  /** replace each match (--replace) */
  template: Template | undefined;
  budget: GrepBudget;
  /** the search resumes after a cursor (rows up to it are hidden in its file) */
  resumes: boolean;
}

/** Decimal digits of a whole number, without making its string (this runs once per row). */
function digits(n: number): number {
  let d = 1;
  for (let k = n; k >= 10; k = Math.floor(k / 10)) d++;
  return d;
}

/**
 * Receives the searcher's rows and forwards what fits the budget. `state` says whether rows are
 * still shown, only counted (the budget is spent), or whether the search should stop (-q found
 * a line, or counting reached its bound).
 */
export class GrepOutput implements MatchSink {
  state: 'showing' | 'counting' | 'done' = 'showing';
  /** a line was selected (a file listed, under --files-without-match) after the cursor */
  found = false;
  private display = '';
  private prefix = 0;
  private hideUpTo = 0;
  private rows = 0;
  private bytes = 0;
  private shown = 0;
  private left = 0;
  private files = 0;
  private totalFiles = 0;
  private fileShown = false;
  private fileSelected = false;
  private countLeft: number;
  private counted = true;
  /** the last row shown: its input and line (0: the whole input, a row of -c or -l) */
  private lastPath: string | undefined;
  private lastLine = 0;
  private cut: GrepCutOff['cut'];
  /** the row the cursor is inside of, and the byte of it to go on from */
  private rest: { line: number; byte: number } | undefined;
  private matches: GrepCutOff['matches'];
  private stopped = false;
  private readonly maxRows: number;
  private readonly maxBytes: number;
  /**
   * Nothing for this stage to do on a row (rows of lines, no budget, no cursor, no -o, no
   * --replace): the searcher then hands rows straight to the reporter, the hot path of a search
   * with many matches, and only `endFile` is heard here.
   */
  readonly direct: boolean;

  constructor(
    private readonly target: RowTarget,
    private readonly o: OutputOptions,
  ) {
    this.maxRows = o.budget.maxRows ?? Infinity;
    this.maxBytes = o.budget.maxBytes || Infinity;
    this.countLeft = o.budget.countBytes;
    this.direct = o.report === 'lines' && !o.onlyMatching && o.template === undefined && !o.resumes && this.maxRows === Infinity && this.maxBytes === Infinity;
  }

  /** Where the searcher hands its rows. */
  get sink(): MatchSink {
    return this.direct ? this.target : this;
  }

  /**
   * The next rows are from `display`; rows of lines up to `hideUpTo` were shown before (the
   * cursor), and with `rest`, the row of line `rest.line` up to its byte `rest.byte`.
   */
  beginFile(display: string, hideUpTo = 0, rest?: { line: number; byte: number }): void {
    this.rest = rest;
    this.display = display;
    this.prefix = this.o.withPath ? Buffer.byteLength(display) + 1 : 0;
    this.hideUpTo = hideUpTo;
    this.fileShown = false;
    this.fileSelected = false;
  }

  match(line: number, buf: Buffer, start: number, end: number): void {
    if (line <= this.hideUpTo && line > 0) return;
    this.fileSelected = true;
    if (this.o.report === 'quiet') {
      this.found = true;
      this.state = 'done';
      return;
    }
    if (this.o.report !== 'lines') return; // file rows come at endFile
    this.found = true;
    let shown = false;
    if (this.state === 'showing') {
      if (this.o.onlyMatching) shown = this.parts(line, buf, start, end);
      else if (this.o.template !== undefined) {
        const replaced = replaceLine(this.o.pattern, this.o.template, buf, start, end);
        shown = this.row('match', line, replaced, 0, replaced.length, buf.subarray(start, end));
      } else shown = this.row('match', line, buf, start, end);
    }
    if (shown) this.shown++;
    else this.left++;
  }

  context(line: number, buf: Buffer, start: number, end: number): void {
    if ((line <= this.hideUpTo && line > 0) || this.state !== 'showing') return;
    this.row('context', line, buf, start, end);
  }

  gap(): void {
    // a separator only between rows shown in this call, never before the first row after the cursor
    if (this.state === 'showing' && this.rows > 0) this.target.gap();
  }

  /** Shows one row of a line if it fits, or as the very first row shows it cut; else stops. */
  private row(kind: 'match' | 'context', line: number, buf: Buffer, start: number, end: number, original?: Buffer): boolean {
    if (this.rest !== undefined && this.rest.line === line) return this.restOf(kind, line, buf, start, end, this.rest.byte);
    const cost = this.prefix + digits(line) + 1 + (end - start);
    const fit = this.fits(1, cost);
    if (fit === 'no') return this.stop();
    if (fit === 'cut') return this.cutRow(kind, line, buf, start, end, cost - (end - start) + '[cut]'.length + 1);
    this.take(cost, line, kind);
    if (kind === 'context') this.target.context(line, buf, start, end);
    else if (original !== undefined && this.target.replacedMatch) this.target.replacedMatch(line, buf, start, end, original);
    else this.target.match(line, buf, start, end);
    return true;
  }

  /**
   * The row the cursor is inside of, from its byte `from` (issue 24.4: a budget never strands
   * bytes): shown whole if it fits, else cut again with the cursor moved on. An empty rest (the
   * line is shorter now) shows nothing.
   */
  private restOf(kind: 'match' | 'context', line: number, buf: Buffer, start: number, end: number, from: number): boolean {
    this.rest = undefined;
    if (from >= end - start) return true;
    const overhead = this.prefix + digits(line) + `[@${from}]`.length + 1;
    const fit = this.fits(1, overhead + (end - start - from));
    if (fit === 'no') return this.stop();
    if (fit === 'cut') return this.cutRow(kind, line, buf, start + from, end, overhead + ',cut'.length, undefined, from);
    this.take(overhead + (end - start - from), line, kind);
    this.target.restRow?.(kind, line, from, buf, start + from, end);
    return true;
  }

  /**
   * -o: each match of the line its own row. The parts of one line are shown together or not at
   * all, except as the first rows of a call, where as many as fit are shown (the first cut if
   * it alone is too long) and the footer says how many: the cursor is per line, so the rest of
   * that line is read with readlines, as a cut row is. Empty matches print nothing.
   */
  private parts(line: number, buf: Buffer, start: number, end: number): boolean {
    // Walked twice (what they cost, then each shown), never gathered: a 4 MB line of 4 million
    // matches held one object and one Buffer per match, a gigabyte.
    const template = this.o.template;
    const ranges = template === undefined ? matchRanges(this.o.pattern, buf, start, end) : undefined;
    /** each non-empty part as (column, bytes, from, to); `visit` returns false to stop */
    const each = (visit: (column: number, b: Buffer, from: number, to: number) => boolean) => {
      if (ranges !== undefined) {
        for (let k = 0; k < ranges.length; k += 2) if (ranges[k + 1]! > ranges[k]! && !visit(ranges[k]! + 1, buf, start + ranges[k]!, start + ranges[k + 1]!)) return;
      } else eachReplacement(this.o.pattern, template!, buf, start, end, (r) => r.end <= r.start || visit(r.start + 1, r.text, 0, r.text.length));
    };
    const costOf = (column: number, bytes: number) => this.prefix + digits(line) + 1 + digits(column) + 1 + bytes + 1;
    let count = 0;
    let total = 0;
    each((column, _b, from, to) => {
      count++;
      total += costOf(column, to - from);
      return true;
    });
    if (count === 0) return true; // only empty matches: a selected line, with no row to print
    if (this.rows > 0 && this.fits(count, total) !== 'yes') return this.stop();
    let k = 0;
    each((column, b, from, to) => {
      const cost = costOf(column, to - from);
      const fit = this.fits(1, cost); // 'yes' or 'cut' for the first (rows is 0 then), 'yes' or 'no' after
      if (fit === 'yes') {
        noteMatch();
        this.take(cost, line, 'match');
        this.target.part?.(line, column, b, from, to);
        k++;
        return true;
      }
      if (fit === 'cut') this.cutRow('match', line, b, from, to, cost - (to - from) + '[cut]'.length, column);
      else this.stop();
      if (count > 1) this.matches = { path: this.display, line, shown: Math.max(k, 1), total: count };
      return false;
    });
    return true;
  }

  private fits(rows: number, cost: number): 'yes' | 'no' | 'cut' {
    if (this.rows + rows > this.maxRows) return 'no';
    if (this.bytes + cost > this.maxBytes) return this.rows === 0 ? 'cut' : 'no';
    return 'yes';
  }

  private take(cost: number, line: number, kind: 'match' | 'context'): void {
    this.rows++;
    this.bytes += cost;
    this.lastPath = this.display;
    this.lastLine = line;
    if (kind === 'match') this.fileShown = true;
  }

  /** The first row, longer than the whole byte budget: its first bytes, then the output stops. */
  private cutRow(kind: 'match' | 'context', line: number, buf: Buffer, start: number, end: number, overhead: number, column?: number, from = 0): true {
    const keep = Math.max(0, Math.min(end - start, this.maxBytes - overhead));
    // a row always advances (a character at least), so following the cursors ends
    const stop = advancingCut(buf, start, end, keep);
    if ((stop === start || stop === end) && end > start && column === undefined) {
      // all that is left is the terminator: the row's last part, whatever the budget
      this.take(overhead + (end - start), line, kind);
      if (from > 0) this.target.restRow?.(kind, line, from, buf, start, end);
      else if (kind === 'context') this.target.context(line, buf, start, end);
      else this.target.match(line, buf, start, end);
      this.stop();
      return true;
    }
    this.take(overhead + (stop - start), line, kind);
    this.target.cutRow?.(kind, line, buf, start, stop, from + end - start, column, from);
    this.cut = { path: this.display, line, shown: stop - start, length: from + end - start, ...(from > 0 ? { from } : {}) };
    this.stop();
    return true;
  }

  /** The budget is spent: from now on rows are counted (within the bound), not shown. */
  private stop(): false {
    this.stopped = true;
    this.state = this.o.budget.countBytes > 0 ? 'counting' : 'done';
    if (this.state === 'done') this.counted = false;
    return false;
  }

  /** An input was searched to its end; `selected` lines were selected in it. */
  endFile(display: string, selected: number): void {
    if (this.o.report === 'lines') {
      if (this.direct && selected > 0) this.found = true;
      if (this.fileSelected) this.totalFiles++;
      if (this.fileShown) this.files++;
      return;
    }
    if (this.o.report === 'quiet') return;
    const r = this.o.report;
    const hasRow = r === 'counts' || (r === 'files-without' ? selected === 0 : selected > 0);
    if (r === 'files-without' ? hasRow : selected > 0) this.found = true;
    if (!hasRow) return;
    if (this.state !== 'showing') {
      this.left++;
      return;
    }
    const cost = r === 'files' || r === 'files-without' ? Buffer.byteLength(display) + 1 : this.prefix + digits(selected) + 1;
    if (this.fits(1, cost) === 'no') {
      this.stop();
      this.left++;
      return;
    }
    this.rows++;
    this.bytes += cost;
    this.shown++;
    this.lastPath = display;
    this.lastLine = 0;
    this.target.fileRow?.(display, selected);
  }

  /** Bytes searched while counting; false when the count reached its bound (the search stops). */
  scanned(bytes: number): boolean {
    if (this.state !== 'counting') return true;
    this.countLeft -= bytes;
    if (this.countLeft >= 0) return true;
    this.state = 'done';
    this.counted = false;
    return false;
  }

  /** Before a file is searched while counting: false when it would take the count past its bound. */
  chargeFile(size: number | undefined): boolean {
    if (this.state !== 'counting') return true;
    if (FILE_COST + (size ?? 0) > this.countLeft) {
      this.state = 'done';
      this.counted = false;
      return false;
    }
    this.countLeft -= FILE_COST; // its bytes are charged as they are searched
    return true;
  }

  /** What the budget left out, when it left something out. */
  cutOff(): GrepCutOff | undefined {
    if (!this.stopped || this.lastPath === undefined) return undefined;
    const lines = this.o.report === 'lines';
    return {
      rows: this.rows,
      shown: this.shown,
      total: this.counted ? this.shown + this.left : undefined,
      files: lines ? this.files : this.shown,
      totalFiles: this.counted && lines ? this.totalFiles : undefined,
      // a row cut inside: the cursor points at its next byte, so no byte of it is left behind
      after: formatCursor({
        path: this.lastPath,
        line: this.lastLine === 0 ? 'end' : this.lastLine,
        ...(this.cut && this.cut.line === this.lastLine && !this.o.onlyMatching && this.cut.shown + (this.cut.from ?? 0) < this.cut.length ? { byte: (this.cut.from ?? 0) + this.cut.shown } : {}),
      }),
      ...(this.cut ? { cut: this.cut } : {}),
      ...(this.matches ? { matches: this.matches } : {}),
    };
  }
}
