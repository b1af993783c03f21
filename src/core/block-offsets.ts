// Where a block of expected lines went: the offsets at which every expected line reads, unchanged,
// at its number plus the offset (an insert or a formatter above moved them all alike).

import { type Expectation, sameLine } from './edit-plan.js';

/**
 * Fed every line of a file in order, finds each offset `d` such that line `e.line + d` holds the
 * text of every expected line `e`. Memory: the expected lines and the candidates still open (at
 * most one per line of the block's span).
 */
export class BlockLocator {
  private readonly expect: Expectation[];
  /** open candidates: offset -> index of the next expected line to check */
  private readonly open = new Map<number, number>();
  /** offsets where the whole block matched */
  readonly offsets: number[] = [];
  /** the longest expected line: longer lines cannot match */
  readonly maxLine: number;

  constructor(expect: readonly Expectation[]) {
    if (expect.length === 0) throw new RangeError('BlockLocator: no expected lines');
    // One expectation per line (the patcher has refused two different ones for a line).
    this.expect = [...new Map([...expect].sort((a, b) => a.line - b.line).map((e) => [e.line, e])).values()];
    this.maxLine = Math.max(...this.expect.map((e) => e.bytes.length)) + 2;
  }

  /** Line `n` of the file (terminator included), or undefined when it is longer than {@link maxLine}. */
  line(n: number, bytes: Buffer | undefined): void {
    for (const [d, i] of this.open) {
      const e = this.expect[i]!;
      if (e.line + d !== n) continue;
      if (bytes === undefined || !sameLine(e.bytes, bytes)) this.open.delete(d);
      else if (i + 1 === this.expect.length) {
        this.open.delete(d);
        this.offsets.push(d);
      } else this.open.set(d, i + 1);
    }
    const first = this.expect[0]!;
    if (bytes !== undefined && sameLine(first.bytes, bytes)) {
      const d = n - first.line;
      if (this.expect.length === 1) this.offsets.push(d);
      else this.open.set(d, 1);
    }
  }
}
