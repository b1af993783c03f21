// The streaming patcher: applies planned edits while the scanner reads the file, in one pass.
// Untouched bytes pass through, edited lines are rendered under the --eol policy (eol.ts), and
// expectations (the stale-edit guard) are checked. Pure: Buffers in, bytes out through a callback.

import { isUtf8 } from 'node:buffer';
import { type Edit, type Expectation, expectationHolds, isInsert, planEdits, type Sorted } from './edit-plan.js';
import { type EditResult, EditResults } from './edit-results.js';
import { unsafeLineChange } from './encoding-safe.js';
import { dominantEnding, type EolMode, type ReplacedEndings, renderLine, replacementEnding } from './eol.js';
import { LinewiseError } from './errors.js';
import { ExpectStream } from './expect-stream.js';
import { MAX_LINE_BYTES } from './limits.js';
import { LineGatherer } from './pieces.js';
import { pastEnd } from './ranges.js';
import { bodyOf, type Terminator, TERMINATORS, terminatorLength, terminatorOf } from './terminators.js';

/** Receives output bytes `[start, end)` of `buf`; only valid during the call. */
export type Emit = (buf: Uint8Array, start: number, end: number) => void;

/** A line of the file as it is now, where it differs from what the caller expected. */
export interface Mismatch {
  line: number;
  origin: string;
  /** the current line, terminator included; undefined when the file no longer has that line */
  current: Buffer | undefined;
}

/** A row whose text is UTF-8 (not ASCII) for a line that is not UTF-8: the rows were likely decoded. */
export interface Undecoded {
  line: number;
  origin: string;
  /** the line as it is, terminator included */
  current: Buffer;
  /** the row's text */
  text: Buffer;
}

export type { EditResult } from './edit-results.js';

/** The outcome of a patch. */
export interface PatchResult {
  /** lines in the file before */
  linesBefore: number;
  linesAfter: number;
  /** some byte of the output differs from the input */
  changed: boolean;
  /** what each edit did (its bytes only with `context`: a diff or a receipt shows them) */
  edits: EditResults;
  /** expectations that did not hold (then the output must be thrown away) */
  mismatches: Mismatch[];
  /** with `checkDecoding`: the first row whose UTF-8 text replaces a line that is not UTF-8 */
  undecoded: Undecoded[];
  /**
   * With `checkDecoding`: the first row whose text is UTF-8 beyond ASCII for a line that is
   * ASCII, where nothing in the line tells whether the file is UTF-8 (the caller looks at the
   * whole file). One is enough to tell; a list would grow with the rows.
   */
  intoAscii: { line: number; origin: string }[];
  /** with `guardGuesses`: the first row edit into a line that is not UTF-8 that core/encoding-safe.ts refuses */
  guesses: { line: number; origin: string; why: string }[];
  /** old lines kept for a diff (see PatcherOptions.context), by line number */
  kept: Map<number, Buffer>;
}

export interface PatcherOptions {
  eol: EolMode;
  emit: Emit;
  expect?: readonly Expectation[];
  /** more expectations, each source sorted by line (rows kept compactly: core/plan-rows.ts) */
  expectSorted?: readonly Sorted<Expectation>[];
  /**
   * The terminator of line 1, when an insert goes before it: the patcher meets the insert
   * before line 1's end, so the caller looks ahead. Undefined: the file is empty or line 1 is
   * its only, unterminated line.
   */
  firstLineEol?: Terminator;
  /** keep old lines within this many lines of an edit (for a diff); 0 (default) keeps none */
  context?: number;
  /** longest line kept whole for comparisons and diffs */
  maxLine?: number;
  /** the hash anchors are prefixes of (hex), of a line's text; needed when an expectation has an anchor */
  anchorOf?: (body: Uint8Array) => string;
  /**
   * The file is read as its own bytes (no decoding): report, in `undecoded`, each row whose text
   * is UTF-8 beyond ASCII while the line it replaces is not UTF-8.
   */
  checkDecoding?: boolean;
  /**
   * The file is read as its own bytes and no -a was given: a row edit into a line that is not
   * valid UTF-8 must be safe whatever the encoding (core/encoding-safe.ts), else it is reported
   * in `guesses` (the rows came through a decoding that replaced bytes, or edit part of a character).
   */
  guardGuesses?: boolean;
}

const EMPTY = Buffer.alloc(0);

/** The old lines of the edit in progress: what rendering and change detection need of them. */
interface Active extends ReplacedEndings {
  edit: Edit;
  index: number;
  /** old bytes, kept only up to what could still equal the new output */
  old: Buffer[];
  oldLen: number;
  oldOverflow: boolean;
}

/**
 * Applies planned edits while the file streams through, in one pass: call {@link piece} with
 * every piece the scanner hands on, then {@link finish}. Untouched lines go to `emit` verbatim
 * and without a copy; memory holds only the edits, the lines expected, and the lines of
 * the edit in progress that could still be unchanged. Edits and expectations are read in line
 * order by index, so they may be rows kept compactly (then a byte an edit is all that grows).
 */
export class Patcher {
  private readonly plan: Sorted<Edit>;
  private readonly emit: Emit;
  private readonly mode: EolMode;
  /** the expectations ahead, in line order */
  private readonly expect: ExpectStream;
  private readonly context: number;
  private readonly maxLine: number;
  private readonly results: EditResults;
  private readonly mismatches: Mismatch[] = [];
  private readonly undecoded: Undecoded[] = [];
  private readonly intoAscii: { line: number; origin: string }[] = [];
  private readonly guesses: { line: number; origin: string; why: string }[] = [];
  private readonly kept = new Map<number, Buffer>();

  /** the line whose pieces arrive now (1-based) */
  private line = 1;
  /** a piece of the current line has arrived */
  private inLine = false;
  /** index in `plan` of the next edit not yet applied */
  private next = 0;
  private active: Active | undefined;
  /** terminator of the previous line of the original */
  private prevEol: Terminator | undefined;
  private lf = 0;
  private crlf = 0;
  /** the output so far ends with a line that has no terminator */
  private outOpen = false;
  private changed = false;
  /** gathers the current line when it must be compared or kept */
  private readonly gatherer: LineGatherer;
  private gathering = false;
  /** lines before this one are copied verbatim without further checks */
  private quietUntil = 1;
  /** the fast path has handed on part of a line */
  private partial = false;

  /** `plan`: edits as given (an array: sorted and checked here), or already planned (sorted and checked). */
  constructor(plan: readonly Edit[] | Sorted<Edit>, private readonly opts: PatcherOptions) {
    this.plan = Array.isArray(plan) ? planEdits(plan) : plan;
    this.emit = opts.emit;
    this.mode = opts.eol;
    this.context = opts.context ?? 0;
    this.maxLine = opts.maxLine ?? MAX_LINE_BYTES;
    this.results = new EditResults(this.plan, this.context > 0);
    this.gatherer = new LineGatherer(this.maxLine, () => new LinewiseError('line-too-long', `line ${this.line} is longer than ${this.maxLine} bytes, too long to compare or show`));
    const sources = [[...(opts.expect ?? [])].sort((a, b) => a.line - b.line), ...(opts.expectSorted ?? [])];
    const agree = (a: Expectation, b: Expectation) => this.agree(a, b);
    // Expectations that cannot all hold are refused before the file is read. One check per line
    // suffices when they agree: the text itself, else the longest anchor (ExpectStream.take).
    ExpectStream.check(sources, agree);
    this.expect = new ExpectStream(sources, agree);
    this.quietUntil = this.quietFrom(1);
  }

  /** Two expectations of one line can both hold: the same text, anchors one a prefix of the other, or text of that anchor. */
  private agree(a: Expectation, b: Expectation): boolean {
    if (a.bytes !== undefined && b.bytes !== undefined) return bodyOf(a.bytes).equals(bodyOf(b.bytes));
    if (a.bytes !== undefined || b.bytes !== undefined) {
      const [text, hashed] = a.bytes !== undefined ? [a, b] : [b, a];
      return expectationHolds(hashed, bodyOf(text.bytes!), this.opts.anchorOf);
    }
    // a trailer's hash beside an anchor: no text to compare them by, so both are kept and checked
    if (a.fnv !== undefined && b.fnv !== undefined && a.fnv !== b.fnv) return false;
    if (a.anchor === undefined || b.anchor === undefined) return true;
    return a.anchor.startsWith(b.anchor) || b.anchor.startsWith(a.anchor);
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
      this.prevEol = TERMINATORS[t];
      this.outOpen = t === 0;
      this.line++;
      return;
    }
    if (!this.inLine) this.beginLine();
    this.inLine = true;
    const a = this.active;
    if (a) this.keepOld(a, buf, start, end);
    else this.out(buf, start, end, ends ? terminatorLength(buf, start, end) === 0 : false);
    if (this.gathering) this.gatherer.add(buf, start, end);
    if (ends) this.endLine(buf, start, end);
  }

  private beginLine(): void {
    const n = this.line;
    // Inserts before this line come first.
    let e: Edit | undefined;
    while ((e = this.plan.at(this.next)) !== undefined && e.start === n && isInsert(e)) {
      this.applyInsert(e, n === 1 ? this.opts.firstLineEol || this.dominant() : this.prevEol!, false);
      this.next++;
    }
    if (!this.active && e !== undefined && e.start === n) {
      this.active = { edit: e, index: this.next, eols: [], lastEol: '', beforeLastEol: '', removed: 0, old: [], oldLen: 0, oldOverflow: false, before: this.prevEol };
      this.next++;
    }
    this.gathering = this.expect.peek() === n || (this.context > 0 && this.nearEdit(n)) || this.suspectRow(n) !== undefined || this.guardedRow(n) !== undefined;
  }

  /** With `checkDecoding`: the text of a row edit of line `n` that is UTF-8 beyond ASCII. */
  private suspectRow(n: number): Buffer | undefined {
    const e = this.active?.edit;
    if (!this.opts.checkDecoding || e?.row !== true || e.start !== n) return undefined;
    const text = bodyOf(e.lines[0] ?? EMPTY);
    return text.some((c) => c >= 0x80) && isUtf8(text) ? text : undefined;
  }

  /** With `guardGuesses`: the row edit of line `n`, while no guess has been found yet. */
  private guardedRow(n: number): Edit | undefined {
    const e = this.active?.edit;
    return this.opts.guardGuesses && this.guesses.length === 0 && e?.row === true && e.start === n ? e : undefined;
  }

  private endLine(buf: Buffer, start: number, end: number): void {
    const n = this.line;
    // The terminator is whole in the completing piece (the scanner never splits "\r\n").
    const eol = terminatorOf(buf, start, end);
    if (eol === '\n') this.lf++;
    else if (eol === '\r\n') this.crlf++;
    if (this.gathering) {
      const whole = this.gatherer.take(); // a buffer of its own: kept past the next line
      const x = this.expect.peek() === n ? this.expect.take() : undefined;
      if (x && !expectationHolds(x, whole, this.opts.anchorOf)) this.mismatches.push({ line: n, origin: x.origin, current: whole });
      const suspect = this.undecoded.length === 0 ? this.suspectRow(n) : undefined;
      if (suspect) {
        const body = bodyOf(whole);
        if (!isUtf8(body)) this.undecoded.push({ line: n, origin: this.active!.edit.origin, current: whole, text: suspect });
        else if (this.intoAscii.length === 0 && !body.some((c) => c >= 0x80)) this.intoAscii.push({ line: n, origin: this.active!.edit.origin });
      }
      const row = this.guardedRow(n);
      const why = row && unsafeLineChange(bodyOf(whole), bodyOf(row.lines[0] ?? EMPTY));
      if (why) this.guesses.push({ line: n, origin: row.origin, why });
      if (this.context > 0) this.kept.set(n, whole);
      this.gathering = false;
    }
    const a = this.active;
    if (a) {
      if (a.removed < a.edit.lines.length) a.eols.push(eol);
      a.beforeLastEol = a.lastEol;
      a.lastEol = eol;
      a.removed++;
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
  skipped(lines: number, last: Terminator, crlf: number): void {
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
    const e = this.plan.at(this.next);
    if (e !== undefined) q = e.start - this.context;
    this.expect.skipBefore(n);
    const x = this.expect.peek();
    if (x < q) q = x;
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
    const parts: Buffer[] = [];
    const mode = e.literal ? 'keep' : this.mode;
    for (let j = 0; j < k; j++) {
      // the last new line ends as the last old line did: without a terminator if it had none
      const open = j === k - 1 && a.lastEol === '';
      parts.push(...renderLine(e.lines[j]!, mode, open ? '' : replacementEnding(a, j, this.dominant()), open, open && e.row === true));
    }
    const output = Buffer.concat(parts);
    const changed = a.oldOverflow || !output.equals(Buffer.concat(a.old, a.oldLen));
    this.record(a.removed, k, output, changed);
    this.active = undefined;
  }

  /** An insert: every new line ends with a terminator unless `appendOpen` (after an unterminated last line). */
  private applyInsert(e: Edit, style: Terminator, appendOpen: boolean): void {
    const parts: Buffer[] = [];
    const k = e.lines.length;
    // Appending after a last line without a terminator: that line gets one, so the new text
    // starts a line of its own, and the new text ends without one (the file keeps no final newline).
    const open = appendOpen && this.outOpen && this.mode !== 'keep' && k > 0;
    if (open) parts.push(renderLine(EMPTY, this.mode, style, false)[1]!);
    for (let j = 0; j < k; j++) parts.push(...renderLine(e.lines[j]!, this.mode, style, open && j === k - 1));
    const output = Buffer.concat(parts);
    this.record(0, k, output, output.length > 0);
  }

  /** The plan's next edit did this (the results read the edit back from the plan). */
  private record(removed: number, added: number, output: Buffer, changed: boolean): void {
    if (output.length > 0) this.out(output, 0, output.length, terminatorLength(output, 0, output.length) === 0);
    this.results.push(removed, added, output, changed);
    if (changed) this.changed = true;
  }

  private out(buf: Uint8Array, start: number, end: number, open: boolean): void {
    if (end > start) {
      this.emit(buf, start, end);
      this.outOpen = open;
    }
  }

  /** The file's most common terminator so far ("\n" on a tie or when it has none). */
  private dominant(): Terminator {
    return dominantEnding(this.crlf, this.lf);
  }

  private nearEdit(n: number): boolean {
    const c = this.context;
    // Edits are few and sorted; the ones near n are around `next`.
    for (let i = Math.max(0, this.next - 2); i < this.plan.length; i++) {
      const e = this.plan.at(i)!;
      if (e.start - c > n) break;
      if (n >= e.start - c && n <= Math.max(e.end, e.start - 1) + c) return true;
    }
    return false;
  }

  /**
   * Ends the patch: applies appends, then checks every edit and expectation addressed lines
   * that exist. Throws (exit 2) for a line past the end, unless an expectation failed;
   * mismatches are returned, not thrown, so the caller can print the current lines.
   */
  finish(): PatchResult {
    if (this.inLine) throw new Error('Patcher.finish() inside a line: the scanner did not complete it');
    const count = this.line - 1;
    // every line up to `count` took its expectation as it went by: the rest are past the end
    while (this.expect.peek() !== Infinity) {
      const x = this.expect.take();
      if (x.line > count) this.mismatches.push({ line: x.line, origin: x.origin, current: undefined });
    }
    // A failed guard outranks a range past the end: the file is not the one that was read (it
    // shrank), which is a stale edit (exit 3, the lines as they are now), not a wrong range.
    if (this.mismatches.length === 0) {
      if (this.active) throw pastEndError(this.active.edit, count);
      let e: Edit | undefined;
      while ((e = this.plan.at(this.next)) !== undefined && e.start === count + 1 && isInsert(e)) {
        const style = this.prevEol || this.dominant();
        this.applyInsert(e, style, true);
        this.next++;
      }
      if (e !== undefined) throw pastEndError(e, count);
    }
    this.mismatches.sort((a, b) => a.line - b.line);
    return {
      linesBefore: count,
      linesAfter: count + this.results.delta,
      changed: this.changed,
      edits: this.results,
      mismatches: this.mismatches,
      undecoded: this.undecoded,
      intoAscii: this.intoAscii,
      guesses: this.guesses,
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
  // A range past the end names the append form: `3 2` (END = START - 1) inserts after line 2.
  const append = e.row ? '' : ` (START ${count + 1} END ${count} appends after the last line: END = START - 1 inserts)`;
  const where = isInsert(e) ? `${pastEnd(line, count)} (append with START ${count + 1})` : `${pastEnd(e.start > count ? e.start : line, count)}${e.start > count ? append : ''}`;
  // A row says which row; a range is the command line's own, and readlines words it the same way.
  return new LinewiseError('past-end', e.row ? `${e.origin}: ${where}` : where);
}
