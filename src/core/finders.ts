// Where a line may match, found in a whole block of lines before any line is decoded: the
// required literals with Buffer.indexOf (BytesFinder), or the whole pattern in one RegExp pass
// over the block (BlockFinder). The searcher (searcher.ts) tests only the lines they point at.
// The -i literal finder is in fold-case.ts.

import { isAscii } from 'node:buffer';
import { type BytePair, choosePair, pairAt } from './literal-pairs.js';
import { byteCount, pairSearch, type PairSearch } from './newlines.js';

const LF = 10;

/** Finds the next place in the current block where a line may match. */
export interface Finder {
  reset(buf: Buffer, start: number, end: number): void;
  /** the first position >= from in a line that may match, or -1 */
  next(from: number): number;
  /** a line the finder points at matches for sure (no need to test it) */
  exact: boolean;
}

/** Each byte with A-Z lower-cased: what -i's literal search compares (the "fold" kernel's map). */
export const ASCII_LOWER = Uint8Array.from({ length: 256 }, (_, b) => (b >= 0x41 && b <= 0x5a ? b | 0x20 : b));

/** Bytes of text sampled for the anchor choice: enough to tell rare bytes from common ones. */
const SAMPLE_BYTES = 1 << 16;

/**
 * Case-sensitive: Buffer.indexOf per literal, each result kept until passed.
 *
 * Each literal is searched from its rarest byte (the anchor): indexOf skips ahead with memchr on
 * a needle's first byte, so a needle that starts with a byte found on every line (`req=` in a
 * log) is searched at half the speed of one that starts with a rare one. The bytes before the
 * anchor are compared where the rest is found. The choice is made once per finder, and one finder
 * serves a whole search (every file of a tree): byte counts are sampled from the first 64 KiB of
 * text it sees, over as many blocks (files) as that takes, the anchors re-chosen after each
 * sample until then. Counting every file's first block cost more than searching a small file.
 * A literal without a rare byte is searched by two of its bytes instead, with a SIMD kernel
 * (literal-pairs.ts), where the block lives in a kernel's memory (a scanner's buffer).
 *
 * `fold` (-i, for FoldFinder): the literals are lower-case and match ignoring ASCII case. Bytes
 * are counted case-folded and every literal gets a pair, whose search and check fold case in
 * place; until then (the sample), and where a block is not in a kernel's memory, FoldFinder
 * hands it a lower-cased copy, which indexOf searches as it is.
 */
export class BytesFinder implements Finder {
  readonly exact: boolean;
  private buf!: Buffer;
  private end = 0;
  private readonly at: number[];
  /** index in each literal of the byte indexOf looks for first */
  private readonly anchors: number[];
  private tails: Buffer[];
  /** the distinct bytes of the literals: the only counts looked up */
  private readonly bytes: number[];
  /** byte counts of the text sampled so far, until SAMPLE_BYTES are (then null: the choice is made) */
  private counts: Uint32Array | null = new Uint32Array(256);
  private sampled = 0;
  /** per literal, the two bytes the SIMD pair search looks for (literal-pairs.ts), or undefined: indexOf */
  private readonly pairs: Array<BytePair | undefined>;
  /** the pair search over the current block, when it lives in a kernel's memory */
  private search: PairSearch | undefined;
  /** fold: the pairs are chosen, so a block in a kernel's memory is searched as it is (no copy) */
  private inPlace = false;

  constructor(
    private readonly literals: Buffer[],
    pure: boolean,
    private readonly fold = false,
  ) {
    this.at = literals.map(() => -2);
    this.exact = pure;
    this.anchors = literals.map(() => 0);
    this.tails = literals;
    this.pairs = literals.map(() => undefined);
    this.bytes = [...new Set(literals.flatMap((l) => [...l]))];
  }

  /** Under `fold`: a block in a kernel's memory may be handed over as it is, not lower-cased. */
  get foldsInPlace(): boolean {
    return this.inPlace;
  }

  reset(buf: Buffer, start: number, end: number): void {
    if (buf !== this.buf) this.search = pairSearch(buf);
    this.buf = buf;
    this.end = end;
    this.at.fill(-2);
    if (this.counts !== null && end > start) this.sample(buf, start, end);
  }

  /**
   * Counts the bytes of a block (up to the sample's size) and chooses each literal's rarest byte.
   * Only the literals' bytes are ever looked up. In a kernel's memory they are counted there, one
   * SIMD pass per distinct byte (and one for the upper case of a letter under fold): a loop over
   * every byte in JavaScript made V8 compile it with TurboFan, 3.5 MiB of a small grep's peak.
   */
  private sample(buf: Buffer, start: number, end: number): void {
    const counts = this.counts!;
    const stop = Math.min(end, start + (SAMPLE_BYTES - this.sampled));
    const kernel = byteCount(buf);
    if (kernel !== undefined) {
      for (const b of this.bytes) {
        counts[b]! += kernel(start, stop, b);
        if (this.fold && b >= 0x61 && b <= 0x7a) counts[b]! += kernel(start, stop, b - 0x20);
      }
    } else if (this.fold) for (let i = start; i < stop; i++) counts[ASCII_LOWER[buf[i]!]!]! += 1;
    else for (let i = start; i < stop; i++) counts[buf[i]!]! += 1;
    this.sampled += stop - start;
    for (let k = 0; k < this.literals.length; k++) {
      const lit = this.literals[k]!;
      let best = 0;
      for (let j = 1; j < lit.length; j++) if (counts[lit[j]!]! < counts[lit[best]!]!) best = j;
      this.anchors[k] = best;
    }
    this.tails = this.literals.map((lit, k) => lit.subarray(this.anchors[k]));
    if (this.sampled < SAMPLE_BYTES) return;
    // The sample is complete: a literal with no rare byte gets a pair of bytes, counted on this block.
    if (this.search !== undefined) {
      for (let k = 0; k < this.literals.length; k++) {
        this.pairs[k] = choosePair(this.literals[k]!, this.anchors[k]!, counts, this.sampled, buf, start, end, this.search, this.fold);
      }
      this.inPlace = this.fold && this.pairs.every((p) => p !== undefined);
    }
    this.counts = null;
  }

  /** Start of the first occurrence of literal k at or after `from` in the block, or -1. */
  private find(k: number, from: number): number {
    const pair = this.pairs[k];
    if (pair !== undefined && this.search !== undefined) return this.findByPair(k, pair, this.search, from);
    const lit = this.literals[k]!;
    const a = this.anchors[k]!;
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

  /** `find` by the SIMD pair search: where both bytes are in place, the whole literal is compared. */
  private findByPair(k: number, pair: BytePair, search: PairSearch, from: number): number {
    const lit = this.literals[k]!;
    const buf = this.buf;
    const last = this.end - lit.length + 1; // the literal must lie wholly in the block
    for (let q = from; q < last; q++) {
      q = pairAt(search, pair, q, last);
      if (q === -1) return -1;
      let j = 0;
      if (this.fold) while (j < lit.length && ASCII_LOWER[buf[q + j]!] === lit[j]) j++;
      else while (j < lit.length && buf[q + j] === lit[j]) j++;
      if (j === lit.length) return q;
    }
    return -1;
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
