// What a finished (or refused) edit prints: the current lines of a stale edit, the near matches of
// an old text not found, receipts, and the --json records; shared by the CLI and the MCP server.

import { isUtf8 } from 'node:buffer';
import { LinewiseError } from '../core/errors.js';
import { fnv1a, GuardLog } from '../core/row-guard.js';
import { bodyOf, terminatorOf } from '../core/terminators.js';
import { quoteRowPath } from '../core/path-names.js';
import type { ReplaceResult, TextNotFoundError } from '../engine/edit.js';
import type { StaleEditError } from '../engine/stale.js';
import type { Output } from '../io/output.js';
import { fileChangeRecord, lineFields, writeRecord } from './json.js';
import type { Printing } from './printing.js';
import { type ReceiptBudget, receiptFooter, writeReceipt } from './receipt.js';
import { type AnchorFn, anchorField, endRow } from './rows.js';
import type { Style } from './style.js';

/**
 * Prints the current lines of every stale file as rows (or JSON records), anchored when the
 * caller's rows were, or `always` (`replace --anchor`): `anchor` computes an anchor (the CLI
 * passes the engine's anchorOf).
 */
export function printStale(out: Output, e: StaleEditError, json: boolean, anchor?: AnchorFn, always = false): void {
  // Rows that came with a guard trailer are shown with one: edited and fed back, they are guarded again.
  const guard = new GuardLog();
  for (const f of e.files) {
    for (const m of f.mismatches) {
      const a = (f.anchored || always) && anchor && m.current ? anchorField(anchor, m.current, 0, m.current.length) : '';
      if (json) {
        writeRecord(out, { type: 'stale', path: f.path, line_number: m.line, ...(m.current ? lineFields(m.current, 0, m.current.length) : { gone: true }), ...(a ? { anchor: a.slice(1) } : {}) });
        continue;
      }
      if (m.current === undefined) continue;
      if (f.pathRows) out.text(`${quoteRowPath(f.path)}\t`);
      out.text(`${m.line}${a}\t`);
      out.bytes(m.current);
      endRow(out, m.current, 0, m.current.length);
      if (f.guarded && !a) guard.add(f.path, m.line, fnv1a(bodyOf(m.current)));
    }
  }
  guard.write((piece) => out.text(piece));
}

/** Prints the lines that nearly hold the old text as rows (or JSON records). */
export function printNear(out: Output, e: TextNotFoundError, json: boolean): void {
  for (const l of e.near) {
    if (json) {
      writeRecord(out, { type: 'near', path: l.path, line_number: l.line, difference: e.difference, ...lineFields(l.bytes, 0, l.bytes.length) });
      continue;
    }
    out.text(`${l.line}\t`);
    out.bytes(l.bytes);
    endRow(out, l.bytes, 0, l.bytes.length);
  }
}

/** The receipt of each written file: its edited regions as rows, then how the numbering moved. */
export function printReceipts(out: Output, result: ReplaceResult, withPaths: boolean, rowStyle: Style, noteStyle: Style, anchor?: AnchorFn, budget?: ReceiptBudget): void {
  for (const f of result.files) {
    if (f.receipt === undefined) continue;
    writeReceipt(out, { ...f.receipt, path: f.path, pathRows: withPaths, regions: f.receipt.regions, ...(f.relocated ? { relocated: f.relocated } : {}) }, rowStyle, noteStyle, anchor, budget);
  }
}

/**
 * `--json` of an edit: a record per file (with its receipt, relocation, dry run's diff), then a
 * summary. `regionsOnly`: a receipt's regions as `[first, last]` line numbers, not its rows (the
 * MCP server's records: its text holds the rows, and only those its budget let the engine make).
 */
export function printEditRecords(out: Output, result: ReplaceResult, withPaths: boolean, anchor?: AnchorFn, regionsOnly = false): void {
  for (const f of result.files) {
    const record = fileChangeRecord(f);
    if (f.relocated) record.relocated = f.relocated;
    if (f.created !== undefined) record.created = f.created;
    // a dry run's diff: text, or base64 `diff_bytes` when it is not UTF-8
    if (f.diff) Object.assign(record, isUtf8(f.diff) ? { diff: f.diff.toString('utf8') } : { diff_bytes: f.diff.toString('base64') });
    if (f.receipt) {
      const rows = regionsOnly
        ? {}
        : {
            rows: f.receipt.regions.map((g) =>
              g.map((l) => ({ line_number: l.line, ...lineFields(l.bytes, 0, l.bytes.length), ...(anchor ? { anchor: anchorField(anchor, l.bytes, 0, l.bytes.length).slice(1) } : {}) })),
            ),
          };
      record.receipt = {
        ...rows,
        edits: f.receipt.edits.map((x) => ({ start: x.start, end: x.end, new_start: x.newStart, new_end: x.newEnd })),
        shifts: f.receipt.shifts,
        footer: receiptFooter({ ...f.receipt, path: f.path, ...(f.relocated ? { relocated: f.relocated } : {}) }),
        path_rows: withPaths,
        // a region with no lines (a file emptied) has no first or last
        ...(regionsOnly ? { regions: f.receipt.spans.map((s) => (s.lines === 0 ? [null, null] : [s.first, s.first + s.lines - 1])) } : {}),
      };
    }
    writeRecord(out, record);
  }
  writeRecord(out, {
    type: 'summary',
    files: result.files.length,
    changed: result.files.filter((f) => f.changed).length,
    written: result.files.filter((f) => f.written).length,
    dry_run: result.dryRun,
  });
}

/** How an edit's outcome is printed. */
export interface EditPrintOptions {
  json: boolean;
  /** print each written file's receipt */
  receipt: boolean;
  /** rows of a receipt carry paths (the edit's rows did) */
  pathRows: boolean;
  /** a receipt's rows carry anchors (`replace --anchor`) */
  anchor?: AnchorFn;
  /** a bound on the receipts' rows (the MCP server's answers) */
  budget?: ReceiptBudget;
  /** records give each receipt's regions as line numbers, not its rows (the MCP server's records) */
  regionsOnly?: boolean;
}

/**
 * What a finished edit prints: relocations and "already applied" as notes, a dry run's diff, the
 * receipts, or the --json records (the diff then a field of each file's record: JSON Lines only).
 */
export function printEditOutcome(p: Printing, result: ReplaceResult, o: EditPrintOptions): void {
  for (const f of result.files) if (f.relocated) p.warn(`relocated lines ${f.relocated.from.join('-')} to ${f.relocated.to.join('-')}`, f.path);
  for (const f of result.files) {
    if (f.alreadyApplied) p.warn('already applied: the lines already hold the new text; nothing was written', f.path);
  }
  if (o.json) {
    printEditRecords(p.out, result, o.pathRows, o.anchor, o.regionsOnly === true);
    return;
  }
  if (result.dryRun) for (const f of result.files) if (f.diff) p.out.bytes(f.diff);
  if (o.receipt) printReceipts(p.out, result, o.pathRows, p.rowStyle, p.noteStyle, o.anchor, o.budget);
}

/**
 * What a refused edit prints before its message: the current lines of a stale edit (anchored
 * when the caller's rows were, or `anchorAlways`), or the lines that nearly hold an old text not
 * found (as rows, or JSON records).
 */
export function printEditRefusal(out: Output, e: unknown, json: boolean, anchor?: AnchorFn, anchorAlways = false): void {
  // By code and shape: the printers know the engine's types, not its classes.
  if (!(e instanceof LinewiseError)) return;
  if (e.code === 'stale' && Array.isArray((e as StaleEditError).files)) printStale(out, e as StaleEditError, json, anchor, anchorAlways);
  if (e.code === 'not-found' && Array.isArray((e as TextNotFoundError).near)) printNear(out, e as TextNotFoundError, json);
}
