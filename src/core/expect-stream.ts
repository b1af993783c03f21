// The expectations of one patch (the stale-edit guard) merged from sorted sources into one stream
// in line order: one per line, the strongest of those that agree, read as the file streams by,
// so the guard of millions of anchored rows needs no map of them.

import type { Expectation, Sorted } from './edit-plan.js';
import { LinewiseError } from './errors.js';

export class ExpectStream {
  private readonly pos: number[];
  private readonly heads: (Expectation | undefined)[];

  /**
   * `sources` each sorted by line (for one line, the first source's come first); `agree` tells
   * whether two expectations of one line can both hold.
   */
  constructor(
    private readonly sources: readonly Sorted<Expectation>[],
    private readonly agree: (a: Expectation, b: Expectation) => boolean,
  ) {
    this.pos = sources.map(() => -1);
    this.heads = sources.map((_, s) => this.advance(s));
  }

  /** The first line with an expectation not yet taken; Infinity when none is left. */
  peek(): number {
    let line = Infinity;
    for (const h of this.heads) if (h !== undefined && h.line < line) line = h.line;
    return line;
  }

  /** The next expectation in line order as it is (none folded), or undefined at the end. */
  next(): Expectation | undefined {
    const line = this.peek();
    if (line === Infinity) return undefined;
    const s = this.heads.findIndex((h) => h?.line === line);
    const x = this.heads[s]!;
    this.heads[s] = this.advance(s);
    return x;
  }

  /**
   * The expectations of line `peek()` as one: the text itself if one gives it, else the longest
   * anchor with a trailer's hash beside it. Throws (exit 2) when two of them cannot both hold.
   */
  take(): Expectation {
    const line = this.peek();
    let seen: Expectation | undefined;
    for (let s = 0; s < this.sources.length; s++) {
      for (let x = this.heads[s]; x !== undefined && x.line === line; x = this.heads[s]) {
        if (seen && !this.agree(seen, x)) {
          throw new LinewiseError('conflict', `${seen.origin} and ${x.origin} expect different text for line ${x.line}`);
        }
        seen = seen === undefined ? x : stronger(seen, x);
        this.heads[s] = this.advance(s);
      }
    }
    return seen!;
  }

  /** Passes over the lines before `n` (nothing there is guarded: the caller checked). */
  skipBefore(n: number): void {
    while (this.peek() < n) this.take();
  }

  /** Checks that every line's expectations agree, reading them all (as the guard will). */
  static check(sources: readonly Sorted<Expectation>[], agree: (a: Expectation, b: Expectation) => boolean): void {
    const all = new ExpectStream(sources, agree);
    while (all.peek() !== Infinity) all.take();
  }

  /** The next expectation of source `s`, past the indexes that hold none. */
  private advance(s: number): Expectation | undefined {
    const src = this.sources[s]!;
    let i = this.pos[s]!;
    let x: Expectation | undefined;
    while (x === undefined && ++i < src.length) x = src.at(i);
    this.pos[s] = i;
    return x;
  }
}

/**
 * Two expectations of one line that agree, as one: the text, which says everything; else the
 * longer anchor, and a trailer's hash (core/row-guard.ts) kept beside it, since an anchor and a
 * hash cannot be compared with each other and both must hold.
 */
function stronger(a: Expectation, b: Expectation): Expectation {
  if (a.bytes !== undefined) return a;
  if (b.bytes !== undefined) return b;
  const anchor = (a.anchor?.length ?? 0) >= (b.anchor?.length ?? 0) ? a.anchor : b.anchor;
  const fnv = a.fnv ?? b.fnv;
  const base = anchor === a.anchor ? a : b;
  return { ...base, ...(anchor !== undefined ? { anchor } : {}), ...(fnv !== undefined ? { fnv } : {}) };
}
