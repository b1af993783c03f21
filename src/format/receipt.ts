// A receipt as text: the rows of each edited region as they now are (regions apart by "--", as
// grep's groups), then a blank line and one footer saying how the numbering moved.

import type { ReceiptEdit, Shift } from '../core/receipt-regions.js';
import { quotePath, quoteRowPath } from '../core/path-names.js';
import type { Output } from '../io/output.js';
import { type AnchorFn, TextRows } from './rows.js';
import type { Style } from './style.js';

/** What a receipt prints for one file; plain data, so the library's results print too. */
export interface ReceiptText {
  path: string;
  /** rows carry the path first (the edit came from rows with paths) */
  pathRows: boolean;
  /** each region's lines: number and bytes, terminator included (under a budget, the first rows made) */
  regions: readonly (readonly { line: number; bytes: Buffer }[])[];
  /** every region's count of lines, when `regions` may hold fewer (the engine's `receiptBytes`) */
  spans?: readonly { lines: number }[];
  edits: readonly ReceiptEdit[];
  shifts: readonly Shift[];
  relocated?: { from: readonly [number, number]; to: readonly [number, number] };
}

/** Footers start so; `replace --rows` skips such a line, so a receipt feeds back as it is. */
export const RECEIPT_FOOTER_START = '[Edited ';

/**
 * A bound on the bytes of receipts' rows, shared by the files of one answer (the MCP server's:
 * a patch of 500 files answered 1.6 MB of rows), and what it left out.
 */
export interface ReceiptBudget {
  /** bytes still to print (rows, with their numbers, paths and tabs, and the files' footers) */
  left: number;
  /** rows not printed */
  rowsLeftOut: number;
  /** files none of whose rows was printed (nor their footer) */
  filesLeftOut: number;
}

/**
 * Prints the receipt's rows with `style` through the readers' own row printer, anchored when
 * `anchor` is given (`replace --receipt --anchor`) as the readers' are, then its footer with
 * `noteStyle`. With a `budget`, rows stop where it runs out (a file cut inside still gets its
 * footer, which says how its numbering moved); a file reached after it ran out prints nothing.
 */
export function writeReceipt(out: Output, r: ReceiptText, style: Style, noteStyle: Style, anchor?: AnchorFn, budget?: ReceiptBudget): void {
  // each region's lines, shown or not: rows the engine did not make are counted from its spans
  const counts = r.spans?.map((s) => s.lines) ?? r.regions.map((g) => g.length);
  if (budget !== undefined && budget.left <= 0) {
    budget.filesLeftOut++;
    for (const n of counts) budget.rowsLeftOut += n;
    return;
  }
  const rows = new TextRows(out, style, anchor);
  const path = r.pathRows ? quoteRowPath(r.path) : undefined;
  const pathBytes = path === undefined ? 0 : Buffer.byteLength(path) + 1;
  counts.forEach((count, i) => {
    if (budget !== undefined && budget.left <= 0) {
      budget.rowsLeftOut += count;
      return;
    }
    const region = r.regions[i] ?? [];
    for (const [k, l] of region.entries()) {
      if (budget !== undefined) {
        const size = String(l.line).length + 1 + l.bytes.length + pathBytes;
        if (size > budget.left) {
          budget.rowsLeftOut += count - k;
          budget.left = 0;
          return;
        }
        budget.left -= size;
      }
      if (k === 0 && i > 0) out.text(`${noteStyle.note('--')}\n`);
      if (path !== undefined) out.text(`${style.path(path)}\t`);
      rows.row(l.line, l.bytes, 0, l.bytes.length, true);
    }
    // rows not made (a budget of the engine's smaller than this one): the cut is here
    if (budget !== undefined && region.length < count) {
      budget.rowsLeftOut += count - region.length;
      budget.left = 0;
    }
  });
  const footer = receiptFooter(r);
  // a file of thousands of edits lists them all in its footer: that counts too
  if (budget !== undefined) budget.left -= Buffer.byteLength(footer) + 2;
  out.text(`\n${noteStyle.note(footer)}\n`);
}

/**
 * The footer: `[Edited f.txt: lines 40-42 -> 40-43; lines after 42 shifted by +1.]`. Numbers left
 * of `->` and after "after" are the old numbering; right of `->`, the new.
 */
export function receiptFooter(r: Pick<ReceiptText, 'path' | 'edits' | 'shifts' | 'relocated'>): string {
  const span = (a: number, b: number) => (a === b ? `${a}` : `${a}-${b}`);
  const moved = r.relocated ? `relocated lines ${span(...r.relocated.from)} to ${span(...r.relocated.to)}; ` : '';
  const edits = r.edits
    .map((e) => {
      const before = e.end === e.start - 1 ? `insert before ${e.start}` : `${e.start === e.end ? 'line' : 'lines'} ${span(e.start, e.end)}`;
      const after = e.newEnd < e.newStart ? 'deleted' : span(e.newStart, e.newEnd);
      return `${before} -> ${after}`;
    })
    .join(', ');
  const shifts =
    r.shifts.length === 0
      ? 'no other line moved'
      : `lines after ${r.shifts.map((s, i) => `${s.after}${i === 0 ? ' shifted' : ''} by ${s.by > 0 ? '+' : ''}${s.by}`).join(', after ')}`;
  return `${RECEIPT_FOOTER_START}${quotePath(r.path)}: ${moved}${edits}; ${shifts}.]`;
}
