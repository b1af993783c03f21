// Which finder a search uses (finderFor), and for a regex with literals, which one it looks for
// and whether that literal or the whole pattern runs over each block of lines: chosen once per
// search, from a sample of the text searched.
//
// Why: the longest literal is not the rarest. `ERROR svc=api-1[0-9] req=ff` requires both
// "ERROR svc=api-1" (on 6 % of a log's lines) and " req=ff" (0.4 %); looking for the second
// rules out 15 times more lines before any is decoded. And once candidates are rare, testing
// each one's line beats running the RegExp over the whole block read as a string (a copy of
// every byte into a string and the garbage it leaves).

import { BlockFinder, BytesFinder, type Finder } from './finders.js';
import { FoldFinder } from './fold-case.js';
import type { CompiledPattern } from './pattern.js';

/**
 * Where lines may match, for a pattern: a pure literal is found as it is (BytesFinder, exact); a
 * regex with required literals by the literal chosen on a sample, or the whole pattern per block
 * (ChosenFinder); a regex without by the whole pattern per block when it may run over one; else
 * none (every line is tested). One finder serves one input at a time: it is reset on every block.
 */
export function finderFor(pattern: CompiledPattern): Finder | undefined {
  const lits = pattern.literals;
  if (lits !== undefined && pattern.pureLiteral) return new BytesFinder(lits, true);
  // which literal, and the literal or the whole pattern per block: chosen on a sample of the text
  if (lits !== undefined) return new ChosenFinder(pattern);
  return pattern.block === undefined ? undefined : new BlockFinder(pattern.block, undefined, pattern.blockAnyBytes);
}

/** Bytes of text the choice is made on (the first ones searched, over one block or several). */
const SAMPLE_BYTES = 1 << 16;
/**
 * Candidates per 64 KiB at most for the literal to be searched alone, each candidate line then
 * decoded and tested; more, and the pattern runs over each whole block. Measured on a log of
 * 110-byte lines (600 per 64 KiB): the literal alone was faster with a candidate on one line in
 * ten (0.75 × the block pass's time) and on one in five (0.93 ×), slower with one on every line (1.9 ×).
 */
const MAX_CANDIDATES = 128;

/** A finder for `literals`: case-sensitive, or folding ASCII case (-i). */
function literalFinder(literals: Buffer[], foldCase: boolean): Finder {
  return foldCase ? new FoldFinder(literals) : new BytesFinder(literals, false);
}

/**
 * The finder of a pattern that is not a pure literal but requires some (`literalChoices`). Until
 * SAMPLE_BYTES are seen it works as before the choice: the whole pattern over each block (when it
 * may run over one) with the longest literals as the fallback, or the longest literals alone.
 * Then each branch's rarest literal in the sample is chosen, and the literals alone search the
 * rest when the sample found few enough candidates. Any choice finds every line that matches:
 * each literal is in every match of its branch.
 */
export class ChosenFinder implements Finder {
  private current: Finder;
  /** per branch, the occurrences of each of its literals in the sample; null once chosen */
  private counts: number[][] | null;
  private sampled = 0;
  private readonly choices: Buffer[][];

  constructor(private readonly pattern: CompiledPattern) {
    this.choices = pattern.literalChoices ?? pattern.literals!.map((l) => [l]);
    const longest = literalFinder(pattern.literals!, pattern.literalsFoldCase);
    this.current = pattern.block === undefined ? longest : new BlockFinder(pattern.block, longest, pattern.blockAnyBytes);
    this.counts = this.choices.every((c) => c.length === 1) && pattern.block === undefined ? null : this.choices.map((c) => c.map(() => 0));
  }

  get exact(): boolean {
    return this.current.exact;
  }

  reset(buf: Buffer, start: number, end: number): void {
    if (this.counts !== null && end > start) this.sample(buf, start, end);
    this.current.reset(buf, start, end);
  }

  next(from: number): number {
    return this.current.next(from);
  }

  /** Counts each literal in the block's first bytes (up to the sample's size); chooses once it is full. */
  private sample(buf: Buffer, start: number, end: number): void {
    const counts = this.counts!;
    const stop = Math.min(end, start + (SAMPLE_BYTES - this.sampled));
    this.sampled += stop - start;
    const fold = this.pattern.literalsFoldCase;
    // Under -i the literals hold ASCII-foldable characters only: one latin1 character per byte.
    const text = fold ? buf.toString('latin1', start, stop).toLowerCase() : undefined;
    const bytes = buf.subarray(start, stop);
    this.choices.forEach((lits, b) =>
      lits.forEach((lit, k) => {
        counts[b]![k]! += text === undefined ? occurrences(bytes, lit) : occurrences(text, lit.toString('latin1').toLowerCase());
      }),
    );
    if (this.sampled >= SAMPLE_BYTES) this.choose(counts);
  }

  private choose(counts: number[][]): void {
    this.counts = null;
    let candidates = 0;
    const chosen = this.choices.map((lits, b) => {
      let best = 0;
      counts[b]!.forEach((n, k) => {
        if (n < counts[b]![best]!) best = k;
      });
      candidates += counts[b]![best]!;
      return lits[best]!;
    });
    const unique = [...new Map(chosen.map((l) => [l.toString('latin1'), l])).values()];
    const literal = literalFinder(unique, this.pattern.literalsFoldCase);
    const block = this.pattern.block;
    this.current = block === undefined || candidates <= MAX_CANDIDATES ? literal : new BlockFinder(block, literal, this.pattern.blockAnyBytes);
  }
}

/** How many times `needle` occurs in `hay` (overlaps counted: only an estimate is needed). */
function occurrences<T>(hay: { indexOf(needle: T, from?: number): number }, needle: T): number {
  let n = 0;
  for (let at = hay.indexOf(needle); at !== -1; at = hay.indexOf(needle, at + 1)) n++;
  return n;
}
