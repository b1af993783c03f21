// Edits planned against the file's original numbering, and the streaming patcher that applies
// them piece by piece as the scanner reads: untouched bytes pass through, edited lines are
// rendered under the line-ending policy, expectations (the stale-edit guard) are checked.
//
// Pure: Buffers in, bytes out through a callback. The command layer owns files, temp files,
// encodings and signals, so everything here runs in fast unit and property tests.

import { LinewiseError } from './errors.js';
import { splitLines, terminatorLength } from './lines.js';
import { pastEnd } from './ranges.js';
import type { Row } from './rows.js';

/** A line terminator: none (only ever the file's last line), "\n" or "\r\n". */
export type Eol = '' | '\n' | '\r\n';

/**
 * How new text's line endings are written.
 * - `auto`: new lines take the endings of the lines they replace (inserts: of their
 *   neighbours, else the file's dominant one); the last new line ends as the last replaced one.
 * - `keep`: the new text is written literally, byte for byte.
 * - `lf` / `crlf`: every new line ends so; a last new line that replaces an unterminated last
 *   line still gets none (and text appended after such a line still ends without one).
 */
export type EolMode = 'auto' | 'keep' | 'lf' | 'crlf';

export const EOL_MODES: readonly EolMode[] = ['auto', 'keep', 'lf', 'crlf'];

/** One edit: lines `start..end` (1-based, inclusive) become `lines`; `end = start - 1` inserts before `start`. */
export interface Edit {
  start: number;
  end: number;
  /** the new lines, each with its own terminator if it has one (ignored except under `keep`) */
  lines: Buffer[];
  /** where the edit came from, for messages: "row 3", "lines 2-4" */
  origin: string;
  /**
   * The edit is a row fed back: when it replaces a last line that had no terminator, a final
   * "\n" is the separator the reader printed after the row, not part of the line (so a lone
   * "\r" at the end of that line survives).
   */
  row?: boolean;
}

/** A line the caller read earlier and expects unchanged: the row's bytes (compared without terminator). */
export interface Expectation {
  line: number;
  bytes: Buffer;
  origin: string;
}

/** The terminator a line ends with. */
export function eolOf(line: Uint8Array): Eol {
  return (['', '\n', '\r\n'] as const)[terminatorLength(line, 0, line.length)];
}

/** A line's bytes without its terminator. */
export function bodyOf(line: Buffer): Buffer {
  return line.subarray(0, line.length - terminatorLength(line, 0, line.length));
}

/** Rows fed back as edits: each row replaces its own line with exactly one line. */
export function rowEdits(rows: readonly Row[]): Edit[] {
  return rows.map((r) => ({ start: r.line, end: r.line, lines: [r.bytes], origin: `row ${r.rowNumber}`, row: true }));
}

/** Rows as they were read, as expectations: each line's text without its terminator. */
export function rowExpectations(rows: readonly Row[], origin = 'expected row'): Expectation[] {
  return rows.map((r) => ({ line: r.line, bytes: r.bytes, origin: `${origin} ${r.rowNumber}` }));
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

/** The new line's text: without its terminator; for a row replacing an unterminated line, without only a separating "\n". */
function newBody(line: Buffer, rowForOpenLine: boolean): Buffer {
  if (rowForOpenLine) return line.length > 0 && line[line.length - 1] === 10 ? line.subarray(0, -1) : line;
  return bodyOf(line);
}

const isInsert = (e: Edit) => e.end === e.start - 1;

function describe(e: Edit): string {
  if (isInsert(e)) return `${e.origin} (insert before line ${e.start})`;
  return e.start === e.end ? `${e.origin} (line ${e.start})` : `${e.origin} (lines ${e.start}-${e.end})`;
}

/**
 * Sorts edits into file order and refuses what has no single meaning: a range that is not one,
 * two edits of the same line, overlapping ranges, two inserts at the same place, an insert
 * inside a replaced range. An insert before line N and an edit of line N are fine (the insert
 * comes first). Whether lines exist is checked while the file is read (see {@link Patcher}).
 */
export function planEdits(edits: readonly Edit[]): Edit[] {
  for (const e of edits) {
    if (!Number.isSafeInteger(e.start) || e.start < 1) {
      throw new LinewiseError('bad-range', `${e.origin}: START must be at least 1, not ${e.start}`);
    }
    if (!Number.isSafeInteger(e.end) || e.end < e.start - 1) {
      throw new LinewiseError('bad-range', `${e.origin}: END ${e.end} is before START ${e.start} (END = START - 1 inserts)`);
    }
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

/** Receives output bytes `[start, end)` of `buf`; only valid during the call. */
export type Emit = (buf: Uint8Array, start: number, end: number) => void;

/** A line of the file as it is now, where it differs from what the caller expected. */
export interface Mismatch {
  line: number;
  origin: string;
  /** the current line, terminator included; undefined when the file no longer has that line */
  current: Buffer | undefined;
}

/** What one edit did, for `--json` and `--dry-run`. */
export interface EditResult {
  edit: Edit;
  /** lines removed and added */
  removed: number;
  added: number;
  /** the bytes written in place of the old lines */
  output: Buffer;
  /** the bytes differ from the old lines */
  changed: boolean;
}

/** The outcome of a patch. */
export interface PatchResult {
  /** lines in the file before */
  linesBefore: number;
  linesAfter: number;
  /** some byte of the output differs from the input */
  changed: boolean;
  edits: EditResult[];
  /** expectations that did not hold (then the output must be thrown away) */
  mismatches: Mismatch[];
  /** old lines kept for a diff (see PatcherOptions.context), by line number */
  kept: Map<number, Buffer>;
}

export interface PatcherOptions {
  eol: EolMode;
  emit: Emit;
  expect?: readonly Expectation[];
  /**
   * The terminator of line 1, when an insert goes before it: the patcher meets the insert
   * before line 1's end, so the caller looks ahead. Undefined: the file is empty or line 1 is
   * its only, unterminated line.
   */
  firstLineEol?: Eol;
  /** keep old lines within this many lines of an edit (for a diff); 0 (default) keeps none */
  context?: number;
  /** longest line kept whole for comparisons and diffs */
  maxLine?: number;
}

const EMPTY = Buffer.alloc(0);
const EOLS = ['', '\n', '\r\n'] as const;
const EOL_BYTES: Record<Eol, Buffer> = { '': EMPTY, '\n': Buffer.from('\n'), '\r\n': Buffer.from('\r\n') };

/** Gathers a line's pieces, refusing one longer than `max`. */
class LineBuffer {
  private chunks: Buffer[] = [];
  private len = 0;
  constructor(
    private readonly max: number,
    private readonly what: () => string,
  ) {}
  add(buf: Uint8Array, start: number, end: number): void {
    this.len += end - start;
    if (this.len > this.max) {
      throw new LinewiseError('line-too-long', `${this.what()} is longer than ${this.max} bytes, too long to compare or show`);
    }
    this.chunks.push(Buffer.from(buf.subarray(start, end)));
  }
  take(): Buffer {
    const b = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.len);
    this.chunks = [];
    this.len = 0;
    return b;
  }
}

/** The old lines of the edit in progress: what rendering and change detection need of them. */
interface Active {
  edit: Edit;
  index: number;
  /** terminators of the first old lines (as many as there are new lines) */
  eols: Eol[];
  lastEol: Eol;
  beforeLastEol: Eol;
  m: number;
  /** old bytes, kept only up to what could still equal the new output */
  old: Buffer[];
  oldLen: number;
  oldOverflow: boolean;
  /** terminator of the line before the edit's first old line, if there is one */
  before: Eol | undefined;
}

/**
 * Applies planned edits while the file streams through, in one pass: call {@link piece} with
 * every piece the scanner hands on, then {@link finish}. Untouched lines go to `emit` verbatim
 * and without a copy; memory holds only the edits, the lines expected, and the lines of
 * the edit in progress that could still be unchanged.
 */
export class Patcher {
  private readonly plan: Edit[];
  private readonly emit: Emit;
  private readonly mode: EolMode;
  private readonly expect = new Map<number, Expectation>();
  private readonly context: number;
  private readonly maxLine: number;
  private readonly results: EditResult[] = [];
  private readonly mismatches: Mismatch[] = [];
  private readonly kept = new Map<number, Buffer>();

  /** the line whose pieces arrive now (1-based) */
  private line = 1;
  /** a piece of the current line has arrived */
  private inLine = false;
  /** index in `plan` of the next edit not yet applied */
  private next = 0;
  private active: Active | undefined;
  /** terminator of the previous line of the original */
  private prevEol: Eol | undefined;
  private lf = 0;
  private crlf = 0;
  /** the output so far ends with a line that has no terminator */
  private outOpen = false;
  private changed = false;
  /** gathers the current line when it must be compared or kept */
  private gather: LineBuffer | undefined;
  /** lines before this one are copied verbatim without further checks */
  private quietUntil = 1;
  /** the fast path has handed on part of a line */
  private partial = false;
  /** the lines expected, sorted, and the index of the next one ahead */
  private expectLines: number[] = [];
  private expectAt = 0;

  constructor(plan: readonly Edit[], private readonly opts: PatcherOptions) {
    this.plan = planEdits(plan);
    this.emit = opts.emit;
    this.mode = opts.eol;
    this.context = opts.context ?? 0;
    this.maxLine = opts.maxLine ?? 64 << 20;
    for (const x of opts.expect ?? []) {
      const seen = this.expect.get(x.line);
      if (seen && !bodyOf(seen.bytes).equals(bodyOf(x.bytes))) {
        throw new LinewiseError('conflict', `${seen.origin} and ${x.origin} expect different text for line ${x.line}`);
      }
      this.expect.set(x.line, x);
    }
    this.expectLines = [...this.expect.keys()].sort((a, b) => a - b);
    this.quietUntil = this.quietFrom(1);
  }

  /** Takes one piece of the current line (`ends`: it completes the line, terminator included). */
  piece(buf: Buffer, start: number, end: number, ends: boolean): void {
    if (this.line < this.quietUntil) {
      // Fast path, for almost every line of a big file: no edit, expectation or diff context
      // here, so the bytes go straight out and only the line ending is noted.
      this.emit(buf, start, end);
      this.partial = !ends;
      if (!ends) {
        this.outOpen = false;
        return;
      }
      const t = terminatorLength(buf, start, end);
      if (t === 1) this.lf++;
      else if (t === 2) this.crlf++;
      this.prevEol = EOLS[t];
      this.outOpen = t === 0;
      this.line++;
      return;
    }
    if (!this.inLine) this.beginLine();
    this.inLine = true;
    const a = this.active;
    if (a) this.keepOld(a, buf, start, end);
    else this.out(buf, start, end, ends ? terminatorLength(buf, start, end) === 0 : false);
    this.gather?.add(buf, start, end);
    if (ends) this.endLine(buf, start, end);
  }

  private beginLine(): void {
    const n = this.line;
    // Inserts before this line come first.
    let e: Edit | undefined;
    while ((e = this.plan[this.next]) !== undefined && e.start === n && isInsert(e)) {
      this.applyInsert(e, n === 1 ? this.opts.firstLineEol || this.dominant() : this.prevEol!, false);
      this.next++;
    }
    if (!this.active && e !== undefined && e.start === n) {
      this.active = { edit: e, index: this.next, eols: [], lastEol: '', beforeLastEol: '', m: 0, old: [], oldLen: 0, oldOverflow: false, before: this.prevEol };
      this.next++;
    }
    const wanted = this.expect.has(n) || (this.context > 0 && this.nearEdit(n));
    this.gather = wanted ? new LineBuffer(this.maxLine, () => `line ${n}`) : undefined;
  }

  private endLine(buf: Buffer, start: number, end: number): void {
    const n = this.line;
    // The terminator is whole in the completing piece (the scanner never splits "\r\n").
    const eol = (['', '\n', '\r\n'] as const)[terminatorLength(buf, start, end)];
    if (eol === '\n') this.lf++;
    else if (eol === '\r\n') this.crlf++;
    if (this.gather) {
      const whole = this.gather.take();
      const x = this.expect.get(n);
      if (x && !sameLine(x.bytes, whole)) this.mismatches.push({ line: n, origin: x.origin, current: whole });
      if (this.context > 0) this.kept.set(n, whole);
      this.gather = undefined;
    }
    const a = this.active;
    if (a) {
      if (a.m < a.edit.lines.length) a.eols.push(eol);
      a.beforeLastEol = a.lastEol;
      a.lastEol = eol;
      a.m++;
      if (n === a.edit.end) this.finishActive(a);
    }
    this.prevEol = eol;
    this.line++;
    this.inLine = false;
    this.quietUntil = this.quietFrom(this.line);
  }

  /**
   * How many whole lines, from the next one, need nothing but a verbatim copy (Infinity when
   * no edit, expectation or context lies ahead). A caller that can copy bytes faster than
   * piece by piece skips them itself and reports them with {@link skipped}.
   */
  quietLines(): number {
    if (this.partial || this.inLine) return 0;
    return this.quietUntil - this.line;
  }

  /**
   * The caller copied `lines` whole lines verbatim (at most {@link quietLines}); `last` is the
   * last one's terminator, `crlf` how many of them ended in "\r\n" (the rest in "\n", but for
   * an unterminated last one). The counts only matter when the file's last line has no
   * terminator (they choose the dominant ending then); pass 0 when it is known to have one.
   */
  skipped(lines: number, last: Eol, crlf: number): void {
    if (lines <= 0) return;
    if (lines > this.quietLines()) throw new RangeError('Patcher.skipped() past a line that needs attention');
    this.crlf += crlf;
    this.lf += lines - crlf - (last === '' ? 1 : 0);
    this.prevEol = last;
    this.outOpen = last === '';
    this.line += lines;
  }

  /** The first line from `n` on that needs more than a verbatim copy. */
  private quietFrom(n: number): number {
    if (this.active || (this.context > 0 && this.nearEdit(n))) return n;
    let q = Infinity;
    const e = this.plan[this.next];
    if (e !== undefined) q = e.start - this.context;
    while (this.expectAt < this.expectLines.length && this.expectLines[this.expectAt]! < n) this.expectAt++;
    const x = this.expectLines[this.expectAt];
    if (x !== undefined && x < q) q = x;
    return Math.max(q, n);
  }

  private keepOld(a: Active, buf: Buffer, start: number, end: number): void {
    if (a.oldOverflow) return;
    a.oldLen += end - start;
    // The new output is at most its lines plus a terminator each; past that it differs anyway.
    if (a.oldLen > byteLength(a.edit.lines) + 2 * a.edit.lines.length + 2) {
      a.oldOverflow = true;
      a.old = [];
      return;
    }
    a.old.push(Buffer.from(buf.subarray(start, end)));
  }

  private finishActive(a: Active): void {
    const e = a.edit;
    const k = e.lines.length;
    const fallback = (): Eol => {
      if (a.m >= 2 && a.beforeLastEol) return a.beforeLastEol;
      if (a.before) return a.before;
      return this.dominant();
    };
    const style = (j: number): Eol => {
      if (j < a.m - 1) return a.eols[j]!;
      return a.lastEol || fallback();
    };
    const parts: Buffer[] = [];
    for (let j = 0; j < k; j++) {
      const last = j === k - 1;
      const open = last && a.lastEol === '';
      parts.push(...this.render(e.lines[j]!, open ? '' : style(j), open, open && e.row === true));
    }
    const output = Buffer.concat(parts);
    const changed = a.oldOverflow || !output.equals(Buffer.concat(a.old, a.oldLen));
    this.record(e, a.m, k, output, changed);
    this.active = undefined;
  }

  /** Writes one new line under the mode; `unterminated`: it must end without a terminator. */
  private render(line: Buffer, eol: Eol, unterminated: boolean, rowForOpenLine = false): Buffer[] {
    if (this.mode === 'keep') return [line];
    const body = newBody(line, rowForOpenLine);
    if (unterminated) return [body];
    const forced: Eol = this.mode === 'lf' ? '\n' : this.mode === 'crlf' ? '\r\n' : eol || '\n';
    return [body, EOL_BYTES[forced]];
  }

  /** An insert: every new line ends with a terminator unless `appendOpen` (after an unterminated last line). */
  private applyInsert(e: Edit, style: Eol, appendOpen: boolean): void {
    const parts: Buffer[] = [];
    const k = e.lines.length;
    // Appending after a last line without a terminator: that line gets one, so the new text
    // starts a line of its own, and the new text ends without one (the file keeps no final newline).
    const open = appendOpen && this.outOpen && this.mode !== 'keep' && k > 0;
    if (open) parts.push(this.render(EMPTY, style, false)[1]!);
    for (let j = 0; j < k; j++) parts.push(...this.render(e.lines[j]!, style, open && j === k - 1));
    const output = Buffer.concat(parts);
    this.record(e, 0, k, output, output.length > 0);
  }

  private record(edit: Edit, removed: number, added: number, output: Buffer, changed: boolean): void {
    if (output.length > 0) this.out(output, 0, output.length, terminatorLength(output, 0, output.length) === 0);
    this.results.push({ edit, removed, added, output, changed });
    if (changed) this.changed = true;
  }

  private out(buf: Uint8Array, start: number, end: number, open: boolean): void {
    if (end > start) {
      this.emit(buf, start, end);
      this.outOpen = open;
    }
  }

  /** The file's most common terminator so far ("\n" on a tie or when it has none). */
  private dominant(): Eol {
    return this.crlf > this.lf ? '\r\n' : '\n';
  }

  private nearEdit(n: number): boolean {
    const c = this.context;
    // Edits are few and sorted; the ones near n are around `next`.
    for (let i = Math.max(0, this.next - 2); i < this.plan.length; i++) {
      const e = this.plan[i]!;
      if (e.start - c > n) break;
      if (n >= e.start - c && n <= Math.max(e.end, e.start - 1) + c) return true;
    }
    return false;
  }

  /**
   * Ends the patch: applies appends, then checks every edit and expectation addressed lines
   * that exist. Throws (exit 2) for a line past the end; mismatches are returned, not thrown,
   * so the caller can print the current lines.
   */
  finish(): PatchResult {
    if (this.inLine) throw new Error('Patcher.finish() inside a line: the scanner did not complete it');
    const count = this.line - 1;
    if (this.active) throw pastEndError(this.active.edit, count);
    let e: Edit | undefined;
    while ((e = this.plan[this.next]) !== undefined && e.start === count + 1 && isInsert(e)) {
      const style = this.prevEol || this.dominant();
      this.applyInsert(e, style, true);
      this.next++;
    }
    if (e !== undefined) throw pastEndError(e, count);
    for (const x of this.expect.values()) {
      if (x.line > count) this.mismatches.push({ line: x.line, origin: x.origin, current: undefined });
    }
    this.mismatches.sort((a, b) => a.line - b.line);
    const delta = this.results.reduce((s, r) => s + r.added - r.removed, 0);
    return {
      linesBefore: count,
      linesAfter: count + delta,
      changed: this.changed,
      edits: this.results,
      mismatches: this.mismatches,
      kept: this.kept,
    };
  }
}

function byteLength(lines: readonly Buffer[]): number {
  let n = 0;
  for (const l of lines) n += l.length;
  return n;
}

function pastEndError(e: Edit, count: number): LinewiseError {
  const line = isInsert(e) ? e.start : e.end;
  const where = isInsert(e) ? `${pastEnd(line, count)} (append with START ${count + 1})` : pastEnd(e.start > count ? e.start : line, count);
  // A row says which row; a range is the command line's own, and readlines words it the same way.
  return new LinewiseError('past-end', e.row ? `${e.origin}: ${where}` : where);
}
