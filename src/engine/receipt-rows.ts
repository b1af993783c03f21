// A receipt's rows made only while a call's byte budget lasts (`receiptBytes`): past it, each
// region is kept as line numbers, so a server that shows 64 KiB of rows does not first hold the
// rows of every file of a 10,000-file patch.

import { lineCount } from '../core/lines.js';
import { type Line, toLine } from './results.js';

/** An edited region of a receipt as line numbers: `lines` lines from `first` (the file as it now is). */
export interface ReceiptSpan {
  first: number;
  lines: number;
}

/** One region: the rows made (the first of its lines, or all) and where it is. */
export interface MadeRegion {
  rows: Line[];
  span: ReceiptSpan;
}

/**
 * The bytes the receipts of one call may still take, shared by its files in order. A row costs
 * its number, a tab and its bytes, terminator included: what the printer counts for it, less the
 * path and the footers it also counts, so the rows made are never fewer than the rows a printer
 * holding the same budget prints (format/receipt.ts writeReceipt), and it makes the exact cut.
 */
export class RowAllowance {
  private left: number;

  /** `bytes`: the budget; undefined: no bound (every row, the library's default) */
  constructor(bytes: number | undefined) {
    this.left = bytes ?? Infinity;
  }

  /** No row can be made any more. */
  get spent(): boolean {
    return this.left <= 0;
  }

  /**
   * Whether the row of line `line` holding `size` bytes is made, its cost taken if so. The first
   * row that does not fit ends the budget, as it ends the printer's: no later row is made.
   */
  take(line: number, size: number): boolean {
    const cost = String(line).length + 1 + size;
    if (cost > this.left) {
      this.left = 0;
      return false;
    }
    this.left -= cost;
    return true;
  }
}

/**
 * A region from its bytes (`text`, the lines as they now are, the first numbered `first`): its
 * rows made while `allow` lasts, the rest only counted, with no view made per line.
 */
export function regionOf(path: string, first: number, text: Buffer, allow: RowAllowance): MadeRegion {
  const rows: Line[] = [];
  let at = 0;
  while (at < text.length && !allow.spent) {
    const nl = text.indexOf(10, at);
    const end = nl === -1 ? text.length : nl + 1;
    if (!allow.take(first + rows.length, end - at)) break;
    rows.push(toLine(path, first + rows.length, text, at, end));
    at = end;
  }
  return { rows, span: { first, lines: rows.length + lineCount(text.subarray(at)) } };
}

/**
 * A receipt's `regions` and `spans` from its regions as made: every region's rows up to the
 * budget's cut (a region cut inside keeps the rows made before it), none of those after it.
 */
export function receiptRegions(made: readonly MadeRegion[]): { regions: Line[][]; spans: ReceiptSpan[] } {
  const cut = made.findIndex((m) => m.rows.length < m.span.lines);
  const upTo = cut === -1 ? made.length : made[cut]!.rows.length > 0 ? cut + 1 : cut;
  return { regions: made.slice(0, upTo).map((m) => m.rows), spans: made.map((m) => m.span) };
}
