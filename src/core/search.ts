// grep's matching core: takes blocks of whole lines from LineScanner.scanBlocks and hands the
// selected lines (and their context) to a sink. Pure: Buffers in, calls out.
//
// Two paths, chosen once per file:
// - candidate path (a required literal, no -v, no context): Buffer.indexOf finds the literal in
//   the whole block, and only the line around each hit is decoded and tested; line numbers are
//   counted with indexOf("\n") between hits. Lines without the literal are never looked at.
// - line path (everything else): every line is visited; the literal, when there is one, still
//   rules a line out before it is decoded.

import { isAscii } from 'node:buffer';
import { asciiFolder, type AsciiFolder, countLF, FOLD_SIZE, foldUser } from './newlines.js';
import { BeforeContext } from './before-context.js';
import { terminatorLength, type PieceVisitor } from './lines.js';
import type { CompiledPattern } from './pattern.js';
import { byteOffsets } from './utf8.js';

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
}

/** Lines longer than this are not matched (they would have to be whole in memory): skipped with a note. */
export const MAX_SEARCH_LINE = 32 << 20;

const LF = 10;

/** Finds the next place in the current block where a line may match. */
interface Finder {
  reset(buf: Buffer, start: number, end: number): void;
  /** the first position >= from in a line that may match, or -1 */
  next(from: number): number;
  /** a line the finder points at matches for sure (no need to test it) */
  exact: boolean;
}

/**
 * Case-sensitive: Buffer.indexOf per literal, each result kept until passed.
 *
 * Each literal is searched from its rarest byte in the file's first block (the anchor): indexOf
 * skips ahead with memchr on a needle's first byte, so a needle that starts with a byte found on
 * every line (`req=` in a log) is searched at half the speed of one that starts with a rare one.
 * The bytes before the anchor are compared where the rest is found.
 */
class BytesFinder implements Finder {
  readonly exact: boolean;
  private buf!: Buffer;
  private end = 0;
  private readonly at: number[];
  /** index in each literal of the byte indexOf looks for first; undefined until a block is seen */
  private anchors: number[] | undefined;
  private tails: Buffer[] = [];

  constructor(
    private readonly literals: Buffer[],
    pure: boolean,
  ) {
    this.at = literals.map(() => -2);
    this.exact = pure;
  }

  reset(buf: Buffer, start: number, end: number): void {
    this.buf = buf;
    this.end = end;
    this.at.fill(-2);
    if (this.anchors === undefined) this.chooseAnchors(buf, start, end);
  }

  private chooseAnchors(buf: Buffer, start: number, end: number): void {
    const counts = new Uint32Array(256);
    for (let i = start; i < end; i++) counts[buf[i]!]! += 1;
    this.anchors = this.literals.map((lit) => {
      let best = 0;
      for (let j = 1; j < lit.length; j++) if (counts[lit[j]!]! < counts[lit[best]!]!) best = j;
      return best;
    });
    this.tails = this.literals.map((lit, k) => lit.subarray(this.anchors![k]));
  }

  /** Start of the first occurrence of literal k at or after `from` in the block, or -1. */
  private find(k: number, from: number): number {
    const lit = this.literals[k]!;
    const a = this.anchors![k]!;
    const tail = this.tails[k]!;
    const buf = this.buf;
    for (let p = from + a; ; p++) {
      p = buf.indexOf(tail, p);
      if (p === -1 || p - a >= this.end) return -1;
      const s = p - a;
      let j = 0;
      while (j < a && buf[s + j] === lit[j]) j++;
      if (j === a) return s;
    }
  }

  next(from: number): number {
    let best = -1;
    for (let i = 0; i < this.literals.length; i++) {
      let p = this.at[i]!;
      if (p === -1) continue;
      if (p < from) {
        p = this.find(i, from);
        this.at[i] = p;
        if (p === -1) continue;
      }
      if (best === -1 || p < best) best = p;
    }
    return best;
  }
}

/**
 * ASCII case-insensitive. With WebAssembly SIMD: the block is copied into a scratch buffer, its
 * ASCII letters lower-cased there by a SIMD kernel, and the lower-cased literals found with
 * Buffer.indexOf (from their rarest byte, as BytesFinder): positions are the block's own.
 * Without it, or for a block larger than the scratch buffer (a long line): the block read as
 * latin1 (one character per byte) and a non-Unicode `gi` RegExp of the literals, which folds
 * ASCII only. The literals are ASCII without k or s (pattern.ts, foldSafe).
 */
class FoldFinder implements Finder {
  readonly exact = false;
  private text = '';
  private start = 0;
  private end = 0;
  private at = -2;
  private readonly re: RegExp;
  private readonly lower: BytesFinder;
  private buf!: Buffer;
  /** the block is in the folder (not in `text`) */
  private folded = false;

  constructor(literals: Buffer[]) {
    this.re = new RegExp(literals.map((l) => l.toString('latin1').replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')).join('|'), 'gi');
    this.lower = new BytesFinder(
      literals.map((l) => Buffer.from(l.toString('latin1').toLowerCase(), 'latin1')),
      false,
    );
  }

  reset(buf: Buffer, start: number, end: number): void {
    this.buf = buf;
    this.start = start;
    this.end = end;
    this.at = -2;
    const folder = end - start <= FOLD_SIZE ? asciiFolder() : undefined;
    this.folded = folder !== undefined;
    if (folder !== undefined) {
      this.text = '';
      this.load(folder);
    } else this.text = buf.toString('latin1', start, end);
  }

  /** Copies the block into the folder and lower-cases it; the folder's offsets are `start`-based. */
  private load(folder: AsciiFolder): void {
    folder.buffer.set(this.buf.subarray(this.start, this.end), 0);
    folder.fold(0, this.end - this.start);
    foldUser.current = this;
    this.lower.reset(folder.buffer, 0, this.end - this.start);
  }

  next(from: number): number {
    if (this.at === -1 || this.at >= from) return this.at;
    if (this.folded) {
      if (foldUser.current !== this) this.load(asciiFolder()!); // another search used the scratch
      const p = this.lower.next(from - this.start);
      this.at = p === -1 ? -1 : p + this.start;
      return this.at;
    }
    this.re.lastIndex = from - this.start;
    const m = this.re.exec(this.text);
    this.at = m ? m.index + this.start : -1;
    return this.at;
  }
}

/**
 * The whole pattern over the block at once (pattern.block): one RegExp pass instead of one per
 * line. Only for blocks that are ASCII, where the latin1 string's positions are byte offsets;
 * any other block makes every line a candidate. Exact when the block has no "\r" (the only
 * other line terminator of m-mode an ASCII block can hold).
 */
const LONE_CR = /\r(?!\n)/;

class BlockFinder implements Finder {
  exact = false;
  private text = '';
  private start = 0;
  private at = -2;
  private usable = false;

  /**
   * `fallback` (the literal prefilter, when the pattern has one) finds the candidates in a block
   * the RegExp cannot run over (one that is not ASCII): without it every line of such a block
   * would be decoded and tested, ten times slower on a log with a few accented words.
   */
  constructor(
    private readonly re: RegExp,
    private readonly fallback: Finder | undefined,
    /** the pattern matches ASCII only: any block may be read as latin1 (pattern.blockAnyBytes) */
    private readonly anyBytes = false,
  ) {}

  reset(buf: Buffer, start: number, end: number): void {
    this.start = start;
    this.at = -2;
    this.usable = this.anyBytes || isAscii(buf.subarray(start, end));
    this.text = this.usable ? buf.toString('latin1', start, end) : '';
    // No "\r": exact. Only "\r\n": a superset (m-mode ^ also matches between "\r" and "\n"),
    // so lines are tested. A lone "\r" (text, where "." must match it): not usable.
    this.exact = this.usable && this.text.indexOf('\r') === -1;
    if (this.usable && !this.exact && LONE_CR.test(this.text)) this.usable = false;
    if (!this.usable && this.fallback !== undefined) {
      this.text = '';
      this.fallback.reset(buf, start, end);
    }
  }

  next(from: number): number {
    if (!this.usable) return this.fallback === undefined ? from : this.fallback.next(from); // from: every line is a candidate
    if (this.at === -1 || this.at >= from) return this.at;
    const re = this.re;
    re.lastIndex = from - this.start;
    const m = re.exec(this.text);
    // A match at the very end of a block that ends with "\n" is on no line (there is no phantom line).
    if (m === null || (m.index === this.text.length && (m.index === 0 || this.text.charCodeAt(m.index - 1) === LF))) this.at = -1;
    else this.at = m.index + this.start;
    return this.at;
  }
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
  /** pieces of a line longer than the scanner's buffer */
  private acc: Buffer | null = null;
  private accLen = 0;
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
    // A pure literal is fastest with indexOf; else one RegExp pass per block when that is exact
    // enough; else the literal prefilter; else every line is tested.
    const lits = pattern.literals;
    if (lits !== undefined && pattern.pureLiteral) this.finder = new BytesFinder(lits, true);
    else {
      const literal = lits === undefined ? undefined : pattern.literalsFoldCase ? new FoldFinder(lits) : new BytesFinder(lits, false);
      if (pattern.block === undefined) this.finder = literal;
      else this.finder = new BlockFinder(pattern.block, literal, pattern.blockAnyBytes);
    }
    this.candidatePath = this.finder !== undefined && !this.invert && this.before === 0 && this.after === 0;
    this.countLines = o.noNumbers !== true;
    this.visitor = (buf, start, end, ends) => this.visit(buf, start, end, ends);
  }

  private readonly countLines: boolean;

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
    if (!ends || this.accLen > 0) {
      if (!this.gather(buf, start, end)) return ends ? (this.skipped(), !this.done) : true;
      if (!ends) return true;
      const acc = this.acc!;
      const len = this.accLen;
      this.accLen = 0;
      if (acc.length > 1 << 22) this.acc = null; // do not keep a huge buffer alive
      this.block(acc, 0, len);
    } else this.block(buf, start, end);
    return !this.done;
  }

  /** Adds a piece of a long line; false (and the line is passed over) once it is past maxLine. */
  private gather(buf: Buffer, start: number, end: number): boolean {
    const need = this.accLen + (end - start);
    if (need > this.maxLine) {
      this.skipping = true;
      this.accLen = 0;
      this.acc = null;
      return false;
    }
    if (this.acc === null || this.acc.length < need) {
      const grown = Buffer.allocUnsafe(Math.min(Math.max(need * 2, 1 << 16), this.maxLine));
      if (this.acc !== null) this.acc.copy(grown, 0, 0, this.accLen);
      this.acc = grown;
    }
    buf.copy(this.acc, this.accLen, start, end);
    this.accLen = need;
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

/**
 * The byte ranges, relative to `start`, of every match of `pattern` in line `[start, end)`
 * (terminator excluded from matching), for highlighting and --json submatches.
 */
export function matchRanges(pattern: CompiledPattern, buf: Buffer, start: number, end: number): Array<[number, number]> {
  const te = end - terminatorLength(buf, start, end);
  const text = buf.toString('utf8', start, te);
  const re = pattern.all;
  re.lastIndex = 0;
  const idx: number[] = [];
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    idx.push(m.index, m.index + m[0].length);
    if (m[0].length === 0) {
      if (re.lastIndex >= text.length) break;
      re.lastIndex += (text.codePointAt(re.lastIndex) ?? 0) > 0xffff ? 2 : 1;
    }
  }
  const bytes = byteOffsets(buf, start, te, idx);
  const out: Array<[number, number]> = [];
  for (let i = 0; i < bytes.length; i += 2) out.push([bytes[i]!, bytes[i + 1]!]);
  return out;
}
