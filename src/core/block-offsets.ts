// Where a block of expected lines went: the offsets at which every expected line reads, unchanged,
// at its number plus the offset (an insert or a formatter above moved them all alike).

import { type Expectation, expectationHolds } from './edit-plan.js';
import { MAX_LINE_BYTES } from './limits.js';

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

  /** `hash`: what anchored expectations are checked with (see expectationHolds) */
  constructor(
    expect: readonly Expectation[],
    private readonly hash?: (body: Uint8Array) => string,
  ) {
    if (expect.length === 0) throw new RangeError('BlockLocator: no expected lines');
    // One expectation per line (the patcher has refused two different ones for a line).
    this.expect = [...new Map([...expect].sort((a, b) => a.line - b.line).map((e) => [e.line, e])).values()];
    // An anchor says nothing of its line's length: any line that can be held may match it.
    // (a loop, not Math.max(...): spreading a long list of lines overflows the stack)
    this.maxLine = this.expect.reduce((m, e) => Math.max(m, e.bytes === undefined ? MAX_LINE_BYTES : e.bytes.length + 2), 0);
  }

  /** Line `n` of the file (terminator included), or undefined when it is longer than {@link maxLine}. */
  line(n: number, bytes: Buffer | undefined): void {
    for (const [d, i] of this.open) {
      const e = this.expect[i]!;
      if (e.line + d !== n) continue;
      if (bytes === undefined || !expectationHolds(e, bytes, this.hash)) this.open.delete(d);
      else if (i + 1 === this.expect.length) {
        this.open.delete(d);
        this.offsets.push(d);
      } else this.open.set(d, i + 1);
    }
    const first = this.expect[0]!;
    if (bytes !== undefined && expectationHolds(first, bytes, this.hash)) {
      const d = n - first.line;
      if (this.expect.length === 1) this.offsets.push(d);
      else this.open.set(d, 1);
    }
  }
}
