// The rows of one file in line order, as the patcher reads them: as edits, as the anchors that
// guard those edits, or (rows read, --expect) as expectations. Indexes into a RowSet, each row
// made an object only when it is read, so a plan of millions of rows holds no object per row.

import { type Edit, type Expectation, rowAnchor, rowEdit, rowExpectation, rowGuard, type Sorted } from './edit-plan.js';
import type { Row, RowSet } from './row-table.js';

export class PlanRows {
  private cachedAt = -1;
  private cached: Row | undefined;

  /**
   * The rows `order[0..]` of `set`, or with no `order` the run `from..from + length - 1`, in
   * line order; every line read `shift` lines further (--relocate).
   */
  private constructor(
    readonly set: RowSet,
    private readonly order: Uint32Array | undefined,
    private readonly from: number,
    readonly length: number,
    readonly shift: number,
  ) {}

  /** Rows `from..from + length - 1` of `set`, which are in line order. */
  static run(set: RowSet, from: number, length: number): PlanRows {
    return new PlanRows(set, undefined, from, length, 0);
  }

  /** The rows of `set` at `order`, which lists them in line order. */
  static ordered(set: RowSet, order: Uint32Array): PlanRows {
    return new PlanRows(set, order, 0, order.length, 0);
  }

  /** The same rows, every line `by` further. */
  shifted(by: number): PlanRows {
    return new PlanRows(this.set, this.order, this.from, this.length, this.shift + by);
  }

  /** The index in the set of the `k`th row in line order. */
  index(k: number): number {
    return this.order === undefined ? this.from + k : this.order[k]!;
  }

  /** The line of the `k`th row (shifted). */
  line(k: number): number {
    return this.set.line(this.index(k)) + this.shift;
  }

  /** The `k`th row as it was given (not shifted). */
  row(k: number): Row {
    if (k !== this.cachedAt) {
      this.cached = this.set.row(this.index(k));
      this.cachedAt = k;
    }
    return this.cached!;
  }

  /** The rows as edits, each replacing its line (in line order: planned, see planEdits). */
  edits(): Sorted<Edit> {
    return this.view((k) => rowEdit(this.row(k), this.shift));
  }

  /**
   * The guards of the rows, each of the line its row replaces: an anchored row's anchor, a row's
   * hash from the reader's trailer (core/row-guard.ts), or both.
   */
  anchors(): Sorted<Expectation> {
    // (asked first, so a row without an anchor or a trailer's hash is never made an object for this)
    return this.view((k) => {
      const i = this.index(k);
      const fnv = this.set.guard?.(i);
      if (fnv !== undefined) {
        const x = rowGuard(this.row(k), fnv, this.shift);
        return this.set.hasAnchor(i) ? { ...x, anchor: this.row(k).anchor! } : x;
      }
      return this.set.hasAnchor(i) ? rowAnchor(this.row(k), this.shift) : undefined;
    });
  }

  /** The rows as the lines read (--expect). */
  expectations(origin = 'expected row'): Sorted<Expectation> {
    return this.view((k) => rowExpectation(this.row(k), origin, this.shift));
  }

  /** Items made one at a time, the last one kept: a reader asks for the same one again and again. */
  private view<T>(make: (k: number) => T | undefined): Sorted<T> {
    const length = this.length;
    let at = -1;
    let value: T | undefined;
    return {
      length,
      at(k: number): T | undefined {
        if (k < 0 || k >= length) return undefined;
        if (k !== at) {
          value = make(k);
          at = k;
        }
        return value;
      },
    };
  }
}
