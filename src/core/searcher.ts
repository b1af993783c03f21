// grep's line searcher: takes blocks of whole lines from LineScanner.scanBlocks and hands the
// selected lines (and their context) to a sink. Pure: Buffers in, calls out.
//
// Two paths, chosen once per file:
// - candidate path (a required literal, no -v, no context): a finder (finders.ts, fold-case.ts)
//   finds the literal in the whole block, and only the line around each hit is decoded and
//   tested; line numbers are counted with indexOf("\n") between hits. Lines without the literal
//   are never looked at.
// - line path (everything else): every line is visited; the literal, when there is one, still
//   rules a line out before it is decoded.

import { countLF } from './newlines.js';
import { LinewiseError } from './errors.js';
import type { Finder } from './finders.js';
import { finderFor } from './finder-choice.js';
import { LiteralWatch } from './literal-watch.js';
import { LineGatherer } from './pieces.js';
import type { PieceVisitor } from './lines.js';
import { terminatorLength } from './terminators.js';
import { BeforeContext } from './before-context.js';
import type { CompiledPattern } from './pattern.js';

/** Receives what grep prints for one input. `[start, end)` is the line, terminator included. */
export interface MatchSink {
  /** a selected line: a match (or, under -v, a line that does not match) */
  match(line: number, buf: Buffer, start: number, end: number): void;
  /** a line of context around a selected line */
  context(line: number, buf: Buffer, start: number, end: number): void;
  /** a gap before a group of context rows (the sink prints `--` if anything came before) */
  gap(): void;
}

export interface SearchOptions {
  /** select lines that do not match (-v) */
  invert?: boolean;
  /** stop after this many selected lines (-m) */
  maxCount?: number;
  /** context lines before and after each selected line (-B, -A) */
  before?: number;
  after?: number;
  /** line numbers are not needed (-c, -l): lines are not counted where they can be skipped */
  noNumbers?: boolean;
  /** the longest line joined from pieces for matching; a longer one is skipped with a note */
  maxLine?: number;
  /** told what was not searched or shown (a line past maxLine, before-context past its cap) */
  onNote?: (message: string) => void;
  /** bytes of before-context kept at most (tests make it small) */
  maxBeforeBytes?: number;
  /**
   * The search's finder (`finderFor(pattern)`), shared by the inputs of one search so that its
   * choices (the literals' anchors) are made once, not per file; made here when not given.
   */
  finder?: Finder | undefined;
  /**
   * The gatherer of long lines (`lineGatherer(maxLine)`), shared by the inputs of one search so
   * that the buffer it keeps between lines serves every file; made at the first long line when
   * not given.
   */
  gatherer?: LineGatherer | undefined;
}

/** Lines longer than this are not matched (they would have to be whole in memory): skipped with a note. */
export const MAX_SEARCH_LINE = 32 << 20;

const LF = 10;

/** Memory the gatherer of a search keeps between long lines (LineGatherer's `keep`). */
const GATHER_KEEP = 1 << 18;

/** A gatherer of lines up to `maxLine` long for LineSearcher, made once for a search of many files. */
export function lineGatherer(maxLine = MAX_SEARCH_LINE): LineGatherer {
  return new LineGatherer(maxLine, (n) => new RangeError(`a line of ${n} bytes gathered past the bound`), GATHER_KEEP);
}

/** A line kept for before-context after its block is gone. */
interface Kept {
  line: number;
  buf: Buffer;
  start: number;
  end: number;
}

/**
 * Searches one input. Hand `visitor` to `LineScanner.scanBlocks`; it returns false once
 * nothing more can be selected (-m reached and its trailing context printed).
 */
export class LineSearcher {
  /** lines selected so far */
  selected = 0;
  /** number of the next line to be seen */
  private line = 1;
  private readonly finder: Finder | undefined;
  private readonly candidatePath: boolean;
  private readonly before: number;
  private readonly after: number;
  private readonly max: number;
  private readonly invert: boolean;
  private readonly maxLine: number;
  /** last line printed (selected or context), 0 for none */
  private lastShown = 0;
  /** context lines still to print after a selected line */
  private afterLeft = 0;
  /** the last `before` lines, when they are not in the current block */
  private readonly kept: BeforeContext;
  /** pieces of a line longer than the scanner's buffer (the search's, or made at the first such line) */
  private gatherer: LineGatherer | undefined;
  /**
   * On the candidate path, with required literals: whether the line being gathered holds one, so
   * a long line that cannot match is dropped as its pieces end, never joined (made at the first
   * such line)
   */
  private watch: LiteralWatch | undefined;
  /** the current line is longer than maxLine: its pieces are passed over */
  private skipping = false;
  private readonly onNote: ((message: string) => void) | undefined;
  readonly visitor: PieceVisitor;

  constructor(
    private readonly pattern: CompiledPattern,
    private readonly sink: MatchSink,
    o: SearchOptions = {},
  ) {
    this.invert = o.invert === true;
    this.before = o.before ?? 0;
    this.after = o.after ?? 0;
    this.max = o.maxCount ?? Infinity;
    this.maxLine = o.maxLine ?? MAX_SEARCH_LINE;
    this.onNote = o.onNote;
    this.kept = new BeforeContext(this.before, o.maxBeforeBytes);
    this.finder = o.finder ?? finderFor(pattern);
    this.gatherer = o.gatherer;
    this.gatherer?.clear(); // the line a search of the file before stopped in
    this.candidatePath = this.finder !== undefined && !this.invert && this.before === 0 && this.after === 0;
    this.countLines = o.noNumbers !== true;
    this.visitor = (buf, start, end, ends) => this.visit(buf, start, end, ends);
  }

  private readonly countLines: boolean;

  /**
   * Starts over on another input, with the same pattern, options, finder and sink: a search of a
   * tree restarts one searcher for each file rather than making one (with its context, closures
   * and options: a third of what a file of a tree search allocated, much of it promoted by the
   * scavenges into old space, where it stayed until the process ended).
   */
  restart(): void {
    this.selected = 0;
    this.line = 1;
    this.lastShown = 0;
    this.afterLeft = 0;
    this.testing = 0;
    this.skipping = false;
    this.kept.clear();
    this.gatherer?.clear();
    this.watch?.reset();
  }

  /** Number of the line being searched (for messages). */
  get currentLine(): number {
    return this.testing;
  }

  /** the line whose text the pattern is being tested on */
  private testing = 0;

  /** True when -m was reached and its trailing context is printed: reading can stop. */
  get done(): boolean {
    return this.selected >= this.max && this.afterLeft === 0;
  }

  private visit(buf: Buffer, start: number, end: number, ends: boolean): boolean {
    if (this.skipping) {
      if (ends) this.skipped();
      return !this.done;
    }
    if (!ends || (this.gatherer !== undefined && this.gatherer.length > 0)) {
      if (!this.gather(buf, start, end)) return ends ? (this.skipped(), !this.done) : true;
      if (!ends) return true;
      if (this.watch !== undefined && !this.watch.seen) {
        this.pieces.clear(); // no literal in it: it cannot match
        if (this.countLines) this.line++;
      } else {
        // a view of the gatherer's buffer: searched and printed (copied) before the next piece
        const whole = this.pieces.view();
        this.block(whole, 0, whole.length);
      }
      this.watch?.reset();
    } else this.block(buf, start, end);
    return !this.done;
  }

  private get pieces(): LineGatherer {
    // never past maxLine: gather() checks first, and passes a longer line over
    return (this.gatherer ??= lineGatherer(this.maxLine));
  }

  /** Adds a piece of a long line; false (and the line is passed over) once it is past maxLine. */
  private gather(buf: Buffer, start: number, end: number): boolean {
    if (this.pieces.length + (end - start) > this.maxLine) {
      this.skipping = true;
      this.pieces.clear();
      this.watch?.reset();
      return false;
    }
    if (this.candidatePath && this.pattern.literals !== undefined) this.watch ??= new LiteralWatch(this.pattern.literals, this.pattern.literalsFoldCase);
    this.pieces.add(buf, start, end);
    this.watch?.add(buf, start, end);
    return true;
  }

  /**
   * The line past maxLine has ended: it was not searched (a note says so) and the search goes
   * on. It is shown as no row: context stops at it, and lines before it are not context of a
   * match after it (the rows would not be adjacent).
   */
  private skipped(): void {
    this.skipping = false;
    const n = this.line++;
    // Under -c and -l lines are not counted: no number then, rather than a wrong one.
    this.onNote?.(`${this.countLines ? `line ${n}` : 'a line'} is longer than ${inUnits(this.maxLine)}: not searched (the search goes on after it)`);
    this.afterLeft = 0;
    this.kept.clear();
  }

  /** Searches bytes `[start, end)`, which hold whole lines only. */
  private block(buf: Buffer, start: number, end: number): void {
    if (this.candidatePath) this.candidates(buf, start, end);
    else this.lines(buf, start, end);
  }

  /** The candidate path: only lines holding a literal are looked at. */
  private candidates(buf: Buffer, start: number, end: number): void {
    const finder = this.finder!;
    finder.reset(buf, start, end);
    let pos = start; // start of the first line not yet passed
    let counted = start; // this.line is the number of the line starting here
    while (this.selected < this.max && pos < end) {
      if (this.countLines) {
        // counted up to where the finder starts, so a deadline message can name the line
        if (counted < pos) this.line += countLF(buf, counted, pos);
        counted = pos;
        this.testing = this.line;
      }
      const hit = finder.next(pos);
      if (hit === -1) break;
      // The line at pos first: when most lines hit, that is the one, and one indexOf finds both
      // ends. Else back from the hit. (hit may be the "\n" itself: a zero-width match at a line's end.)
      let ls = pos;
      let nl = buf.indexOf(LF, pos);
      if (nl !== -1 && nl < hit) {
        ls = buf.lastIndexOf(LF, hit - 1) + 1;
        nl = buf.indexOf(LF, hit);
      }
      const le = nl === -1 || nl >= end ? end : nl + 1;
      if (this.countLines && counted < ls) this.line += countLF(buf, counted, ls);
      if (finder.exact || this.matches(this.line, buf, ls, le)) {
        this.selected++;
        this.sink.match(this.line, buf, ls, le);
      }
      // Past this line, counted: when most lines hold the literal, no count runs at all.
      if (this.countLines && buf[le - 1] === LF) this.line++;
      counted = le;
      pos = le;
    }
    if (this.countLines) this.line += countLF(buf, counted, end) + (end > start && buf[end - 1] !== LF ? 1 : 0);
  }

  /** The line path: every line, with context and -v. */
  private lines(buf: Buffer, start: number, end: number): void {
    const finder = this.finder;
    finder?.reset(buf, start, end);
    let ls = start;
    while (ls < end) {
      const nl = buf.indexOf(LF, ls);
      const le = nl === -1 || nl >= end ? end : nl + 1;
      const n = this.line++;
      if (this.selected >= this.max) {
        // -m reached: only trailing context is left to print
        if (this.afterLeft === 0) return;
        this.showContext(n, buf, ls, le);
        this.afterLeft--;
        ls = le;
        continue;
      }
      let hit: boolean;
      this.testing = n;
      if (finder !== undefined) {
        const c = finder.next(ls);
        // a zero-width match may sit on the "\n", or just past an unterminated last line
        const last = le === end && buf[end - 1] !== LF ? le : le - 1;
        hit = c !== -1 && c <= last && (finder.exact || this.matches(n, buf, ls, le));
      } else hit = this.matches(n, buf, ls, le);
      if (hit !== this.invert) {
        const pre = this.collectBefore(n, buf, start, ls);
        const firstRow = pre.length > 0 ? pre[0]!.line : n;
        if (this.before + this.after > 0 && (this.lastShown === 0 || firstRow > this.lastShown + 1)) this.sink.gap();
        for (const l of pre) this.sink.context(l.line, l.buf, l.start, l.end);
        this.selected++;
        this.sink.match(n, buf, ls, le);
        this.lastShown = n;
        this.afterLeft = this.after;
      } else if (this.afterLeft > 0) {
        this.showContext(n, buf, ls, le);
        this.afterLeft--;
      }
      ls = le;
    }
    this.keepBefore(buf, start, end);
  }

  /** The before-context of line `n` not shown yet, oldest first: from kept lines and this block. */
  private collectBefore(n: number, buf: Buffer, blockStart: number, ls: number): Kept[] {
    if (this.before === 0) return [];
    const first = Math.max(n - this.before, this.lastShown + 1, 1);
    const lines: Kept[] = [];
    let at = ls;
    let k = n - 1;
    while (k >= first && at > blockStart) {
      const s = lineStart(buf, at, blockStart);
      lines.push({ line: k, buf, start: s, end: at });
      at = s;
      k--;
    }
    lines.reverse();
    if (k >= first) {
      // Older lines come from before this block: handed on at once, oldest first, never gathered.
      const oldest = this.kept.oldest;
      if (this.kept.dropped && (oldest === undefined || oldest > first)) {
        this.onNote?.(`the context before line ${n} is cut: at most ${inUnits(this.kept.maxBytes)} of it is kept`);
      }
      let shown = false;
      this.kept.each(first, (line, b, s, e) => {
        if (line > k) return;
        if (!shown && this.before + this.after > 0 && (this.lastShown === 0 || line > this.lastShown + 1)) this.sink.gap();
        shown = true;
        this.sink.context(line, b, s, e);
        this.lastShown = line;
      });
    }
    return lines;
  }

  private showContext(n: number, buf: Buffer, ls: number, le: number): void {
    this.sink.context(n, buf, ls, le);
    this.lastShown = n;
  }

  /** Copies the last `before` lines of a block, which is about to be overwritten. */
  private keepBefore(buf: Buffer, start: number, end: number): void {
    if (this.before === 0) return;
    this.kept.append(buf, start, end, this.line - 1);
  }

  /** Does line `[ls, le)` match? The pattern sees it without its terminator. */
  private matches(n: number, buf: Buffer, ls: number, le: number): boolean {
    this.testing = n;
    const te = le - terminatorLength(buf, ls, le);
    return this.pattern.regex.test(buf.toString('utf8', ls, te));
  }
}

/** A size for a message: "32 MiB", or bytes below one MiB. */
function inUnits(bytes: number): string {
  return bytes >= 1 << 20 ? `${bytes >> 20} MiB` : `${bytes} bytes`;
}

/** Start of the line that ends at `at` (just past its "\n", or at the end), not before `floor`. */
function lineStart(buf: Buffer, at: number, floor: number): number {
  if (at - 2 < floor) return floor;
  const p = buf.lastIndexOf(LF, at - 2);
  return p < floor ? floor : p + 1;
}
