// The receipt of a write: each edited region as its lines now are, with a little context, and how
// the numbering moved, so the next edit can be made without reading the file again.

import { isInsert } from './edit-plan.js';
import type { PatchResult } from './patcher.js';

/**
 * Lines of the file as it now is, numbered from `first`: their bytes, split into lines by the
 * caller only as far as it shows them (the engine's receipt budget).
 */
export interface ReceiptRegion {
  first: number;
  text: Buffer;
}

/** One edit, in the numbering before (`start..end`; `end = start - 1` for an insert) and after. */
export interface ReceiptEdit {
  start: number;
  end: number;
  /** its lines now: `newStart..newEnd` (`newEnd = newStart - 1` when it left none) */
  newStart: number;
  newEnd: number;
}

/** From old line `after + 1` on (up to the next shift), lines moved by `by`. */
export interface Shift {
  after: number;
  by: number;
}

export interface Receipt {
  regions: ReceiptRegion[];
  edits: ReceiptEdit[];
  shifts: Shift[];
}

/** Context lines a receipt shows around each edit. */
export const RECEIPT_CONTEXT = 2;

/**
 * The receipt of a patch made with `context >= RECEIPT_CONTEXT` (the patcher kept the old lines
 * around each edit): regions that touch are merged, and their bytes are those written, so split
 * into lines anew a line that gained a terminator (an append) reads as it now is.
 */
export function receiptOf(result: PatchResult, context = RECEIPT_CONTEXT): Receipt {
  const edits: ReceiptEdit[] = [];
  const shifts: Shift[] = [];
  let delta = 0;
  for (const r of result.edits) {
    const newStart = r.edit.start + delta;
    edits.push({ start: r.edit.start, end: r.edit.end, newStart, newEnd: newStart + r.added - 1 });
    delta += r.added - r.removed;
    if (r.added !== r.removed) shifts.push({ after: Math.max(r.edit.end, r.edit.start - 1), by: delta });
  }
  return { regions: regions(result, context), edits, shifts };
}

function regions(result: PatchResult, context: number): ReceiptRegion[] {
  const count = result.linesBefore;
  const out: ReceiptRegion[] = [];
  const list = result.edits;
  let delta = 0;
  for (let i = 0; i < list.length; ) {
    const lo = Math.max(1, list.at(i)!.edit.start - context);
    let hi = Math.min(count, last(list.at(i)!.edit) + context);
    let j = i + 1;
    while (j < list.length && list.at(j)!.edit.start - context <= hi + 1) hi = Math.min(count, Math.max(hi, last(list.at(j++)!.edit) + context));
    const parts: Buffer[] = [];
    let k = i;
    for (let n = lo; n <= hi; n++) {
      let replaced = false;
      while (k < j && list.at(k)!.edit.start === n) {
        const r = list.at(k++)!;
        parts.push(r.output);
        if (!isInsert(r.edit)) {
          n = r.edit.end;
          replaced = true;
          break;
        }
      }
      if (!replaced) parts.push(result.kept.get(n) ?? Buffer.alloc(0));
    }
    for (; k < j; k++) parts.push(list.at(k)!.output); // appended after the last line
    out.push({ first: lo + delta, text: Buffer.concat(parts) });
    for (let m = i; m < j; m++) delta += list.at(m)!.added - list.at(m)!.removed;
    i = j;
  }
  return out;
}

const last = (e: { start: number; end: number }) => Math.max(e.end, e.start - 1);
