// One edit call carried out: its plans run as a transaction (moved first when `relocate` finds the
// lines read elsewhere), and what changed returned as data: diffs, receipts, relocations.

import { EOL_MODES } from '../core/eol.js';
import type { Row, RowTable } from '../core/parse-rows.js';
import { RECEIPT_CONTEXT, type ReceiptEdit, receiptOf, type Shift } from '../core/receipt-regions.js';
import { pinTarget, unpinTarget } from '../io/edit-target.js';
import type { WriteFn } from '../io/temp-file.js';
import { loadEncoding } from './encodings.js';
import type { FilePlan } from './plans.js';
import { inputSource, type ReadOptions } from './read.js';
import { relocatePlans, type Relocation } from './relocate.js';
import { receiptRegions, RowAllowance, type ReceiptSpan, regionOf } from './receipt-rows.js';
import type { Line } from './results.js';
import { StaleEditError } from './stale.js';
import { type Prepared, runTransaction, type TransactionOptions } from './transaction.js';
import type { EolMode } from '../core/eol.js';
import * as v from './validate.js';

export type { Relocation } from './relocate.js';
export type { ReceiptEdit, Shift } from '../core/receipt-regions.js';
export type { ReceiptSpan } from './receipt-rows.js';

/** A line as it was read, for the stale-edit guard: a Line from readLines, page or grep will do. */
export interface ExpectedLine {
  /** the file; may be left out for a range edit (the file edited) */
  path?: string;
  line: number;
  /** the line as read (compared without its terminator); give `bytes` or `text` */
  bytes?: Uint8Array;
  /** the line as read, without its terminator, when `bytes` is not given */
  text?: string;
  /** its number in the caller's input of rows, for messages; default its index + 1 */
  rowNumber?: number;
}

/** How the edit functions write; every field has the CLI's default. */
export interface ReplaceOptions extends ReadOptions {
  /**
   * Line endings of the new text (`--eol`): `auto` (default) gives new lines the endings of the
   * lines they replace (inserts: of their neighbours) and ends the last new line as the last
   * replaced one ended (so no final newline stays none); `keep` writes the text literally;
   * `lf` and `crlf` force.
   */
  eol?: EolMode;
  /** check and compute everything, write nothing; each changed file gets its unified `diff` */
  dryRun?: boolean;
  /**
   * The stale-edit guard (`--expect`): the lines as they were read. If any no longer holds that
   * text, nothing is written and a {@link StaleEditError} (exit code 3) is thrown.
   */
  expect?: readonly ExpectedLine[];
  /**
   * With `expect`: when the lines read no longer hold at their numbers but occur unchanged, as
   * one block, exactly once elsewhere, the line edits move with them (`relocated` says where).
   */
  relocate?: boolean;
  /** after a write, each file's `receipt`: its edited regions as they now are, and the shifts */
  receipt?: boolean;
  /**
   * With `receipt`: the most bytes of rows the receipts of this call make, shared by its files in
   * order, a row counted as its number, a tab and its bytes. Past it no row is made: each
   * receipt's `spans` still say where every region is (the MCP server shows 64 KiB of rows and
   * holds no more). Default: no bound, every row.
   */
  receiptBytes?: number;
  /** cancels the edit before anything is renamed; the files stay as they were */
  signal?: AbortSignal;
}

/** Options of the CLI's calls beyond the library's. */
export interface EditRunOptions extends ReplaceOptions {
  /** the expected rows as parsed (with what `expect` cannot say: another reading of a row); wins over `expect` */
  expectRows?: readonly Row[] | RowTable;
  /** how messages name the expected rows' input */
  expectSource?: string;
  /** where the stale error says the current lines are */
  staleShown?: string;
  /**
   * Each file's `edits` list (default true). The CLI asks for it only when it prints it
   * (`--json`): for a million rows it is a million objects.
   */
  reportEdits?: boolean;
  /** how a message says to pass the file's encoding, with an example (default: the CLI's option) */
  encodingAdvice?: string;
  /** for tests: how temporary files are written */
  writeFn?: WriteFn;
}

/** The lines an edit left, to chain the next edit from without reading the file again. */
export interface FileReceipt {
  /**
   * Each edited region with up to two lines of context, as the lines now are. Under a budget
   * (`receiptBytes`) only the rows made before it ran out: `regions[i]` holds the first rows of
   * `spans[i]` (or all), and the regions after the cut are left out.
   */
  regions: Line[][];
  /** every edited region as line numbers, its rows made or not: one per region, in order */
  spans: ReceiptSpan[];
  /** each edit's lines before and after */
  edits: ReceiptEdit[];
  /** how the numbering below each edit moved */
  shifts: Shift[];
}

/** What an edit did to one file (the CLI's `--json` record). */
export interface FileChange {
  /** the file, as given */
  path: string;
  /** some byte differs; an unchanged file is never rewritten */
  changed: boolean;
  /** the new content was renamed over the file (false in a dry run or when unchanged) */
  written: boolean;
  linesBefore: number;
  linesAfter: number;
  /** each edit in file order: lines removed and added, and whether its bytes differ */
  edits: { start: number; end: number; removed: number; added: number; changed: boolean }[];
  /** in a dry run, the unified diff `--dry-run` prints, when the file would change */
  diff?: Buffer;
  /** with `receipt` (not in a dry run) */
  receipt?: FileReceipt;
  /** with `relocate`, when the lines read were found elsewhere and the edit moved with them */
  relocated?: Relocation;
  /** the file did not exist and was created (createFile) */
  created?: boolean;
  /**
   * The guard (`expect`) failed because the file already holds the edit: each edit's new lines
   * are where it would put them, and the other expected lines where they would have moved. The
   * file was left alone, and this is no error (running an edit twice is harmless).
   */
  alreadyApplied?: true;
}

/** The files one call edited, all or nothing. */
export interface ReplaceResult {
  files: FileChange[];
  dryRun: boolean;
}

/** Runs the plans of one call; see {@link ReplaceOptions} for what the options do. */
export async function applyPlans(plans: FilePlan[], o: EditRunOptions): Promise<ReplaceResult> {
  const encoding = v.optionalString(o.encoding, 'encoding');
  if (encoding !== undefined) await loadEncoding(encoding);
  const dryRun = v.optionalBoolean(o.dryRun, 'dryRun') === true;
  const receipt = v.optionalBoolean(o.receipt, 'receipt') === true && !dryRun;
  const allow = new RowAllowance(v.optionalCount(o.receiptBytes, 'receiptBytes'));
  const source = inputSource(o);
  const topts: TransactionOptions = {
    eol: o.eol === undefined ? 'auto' : v.oneOf(o.eol, 'eol', EOL_MODES),
    dryRun,
    binary: v.optionalBoolean(o.text, 'text'),
    encoding,
    source,
    signal: v.optionalSignal(o.signal),
    context: dryRun ? 3 : receipt ? RECEIPT_CONTEXT : 0,
    ...(o.staleShown !== undefined ? { staleShown: v.string(o.staleShown, 'staleShown') } : {}),
    ...(o.encodingAdvice !== undefined ? { encodingAdvice: v.string(o.encodingAdvice, 'encodingAdvice') } : {}),
    ...(o.writeFn !== undefined ? { writeFn: v.optionalFunction<WriteFn>(o.writeFn, 'writeFn')! } : {}),
  };
  let prepared: Prepared[];
  let moved = new Map<FilePlan, Relocation>();
  try {
    // Confined (a server): each file's directory is held open and checked, and the edit's files
    // and renames go through it, so a directory swapped under the path cannot redirect them.
    if (source.confine !== undefined) for (const p of plans) pinTarget(p.target, source.confine);
    try {
      prepared = await runTransaction(plans, topts);
    } catch (e) {
      if (!(e instanceof StaleEditError) || v.optionalBoolean(o.relocate, 'relocate') !== true) throw e;
      const r = relocatePlans(plans, e, source, { allowBinary: topts.binary, encoding });
      moved = r.moved;
      prepared = await runTransaction(r.plans, topts);
    }
  } finally {
    for (const p of plans) unpinTarget(p.target);
  }
  // Loaded only for a dry run that changes something, so no other call pays for it.
  const diff = dryRun && prepared.some((p) => p.result.changed) ? (await import('./diff.js')).unifiedDiff : undefined;
  const report = v.optionalBoolean(o.reportEdits, 'reportEdits') !== false;
  return {
    dryRun,
    files: prepared.map((p, i) => {
      const relocated = moved.get(plans[i]!);
      return {
        ...fileChange(p, dryRun, diff, receipt ? allow : undefined, report),
        ...(relocated && relocated.from[0] !== relocated.to[0] ? { relocated } : {}),
      };
    }),
  };
}

/** One file's change; `receipt`: its receipt is made, with rows while the call's budget lasts. */
function fileChange({ plan, result, applied, mark }: Prepared, dryRun: boolean, diff: typeof import('./diff.js').unifiedDiff | undefined, receipt: RowAllowance | undefined, report: boolean): FileChange {
  if (applied) return { path: plan.given, changed: false, written: false, linesBefore: result.linesBefore, linesAfter: result.linesBefore, edits: [], alreadyApplied: true };
  return {
    path: plan.given,
    changed: result.changed,
    written: result.changed && !dryRun,
    linesBefore: result.linesBefore,
    linesAfter: result.linesAfter,
    edits: report ? result.edits.map((r) => ({ start: r.edit.start, end: r.edit.end, removed: r.removed, added: r.added, changed: r.changed })) : [],
    ...(diff && result.changed ? { diff: diff(plan.given, result, mark) } : {}),
    ...(receipt ? { receipt: fileReceipt(plan.given, result, receipt) } : {}),
  };
}

function fileReceipt(path: string, result: Prepared['result'], allow: RowAllowance): FileReceipt {
  const r = receiptOf(result);
  const made = r.regions.map((g) => regionOf(path, g.first, g.text, allow));
  return { ...receiptRegions(made), edits: r.edits, shifts: r.shifts };
}
