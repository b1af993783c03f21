// Where a line may match, found in a whole block of lines before any line is decoded: the
// required literals with Buffer.indexOf (BytesFinder), or the whole pattern in one RegExp pass
// over the block (BlockFinder). The searcher (searcher.ts) tests only the lines they point at.
// The -i literal finder is in fold-case.ts.

import { isAscii } from 'node:buffer';

const LF = 10;

/** Finds the next place in the current block where a line may match. */
export interface Finder {
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
export class BytesFinder implements Finder {
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
      // past the block: the bytes there may be stale (FoldFinder's scratch buffer)
      if (p === -1 || p - a + lit.length > this.end) return -1;
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
 * The whole pattern over the block at once (pattern.block): one RegExp pass instead of one per
 * line. Only for blocks that are ASCII, where the latin1 string's positions are byte offsets;
 * any other block makes every line a candidate. Exact when the block has no "\r" (the only
 * other line terminator of m-mode an ASCII block can hold).
 */
const LONE_CR = /\r(?!\n)/;
/** Matches the empty string: a match on '' makes V8 let go of the last subject (see reset). */
const FORGET = /(?:)/;

export class BlockFinder implements Finder {
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
    // The last block's string must be garbage before this one is made: V8 keeps the subject of
    // the last successful match (for RegExp.lastMatch), so without the empty match every block's
    // string survived a scavenge, the young generation grew to its 32 MiB, and a regex over 1 GiB
    // peaked at 78 MiB (55 MiB with this, measured; no slower).
    this.text = '';
    FORGET.test('');
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
