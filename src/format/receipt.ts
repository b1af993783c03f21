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
  /** each region's lines: number and bytes, terminator included */
  regions: readonly (readonly { line: number; bytes: Buffer }[])[];
  edits: readonly ReceiptEdit[];
  shifts: readonly Shift[];
  relocated?: { from: readonly [number, number]; to: readonly [number, number] };
}

/** Footers start so; `replace --rows` skips such a line, so a receipt feeds back as it is. */
export const RECEIPT_FOOTER_START = '[Edited ';

/**
 * Prints the receipt's rows with `style` through the readers' own row printer, anchored when
 * `anchor` is given (`replace --receipt --anchor`) as the readers' are, then its footer with
 * `noteStyle`.
 */
export function writeReceipt(out: Output, r: ReceiptText, style: Style, noteStyle: Style, anchor?: AnchorFn): void {
  const rows = new TextRows(out, style, anchor);
  r.regions.forEach((region, i) => {
    if (i > 0) out.text(`${noteStyle.note('--')}\n`);
    for (const l of region) {
      if (r.pathRows) out.text(`${style.path(quoteRowPath(r.path))}\t`);
      rows.row(l.line, l.bytes, 0, l.bytes.length, true);
    }
  });
  out.text(`\n${noteStyle.note(receiptFooter(r))}\n`);
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
