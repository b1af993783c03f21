// replace as operations: range edits and row edits planned, guarded and written atomically as one
// transaction, with what changed returned as data (the CLI prints it; the library returns it).

import { EOL_MODES, type EolMode } from '../core/eol.js';
import { LinewiseError } from '../core/errors.js';
import type { Row } from '../core/parse-rows.js';
import { ANCHOR_PATTERN } from '../core/row-fields.js';
import { editRangeProblem } from '../core/ranges.js';
import type { WriteFn } from '../io/temp-file.js';
import { loadEncoding } from './encodings.js';
import { type FilePlan, rangePlan, rowPlans } from './plans.js';
import { inputSource, type ReadOptions } from './read.js';
import { type Prepared, runTransaction } from './transaction.js';
import * as v from './validate.js';

export type { EolMode } from '../core/eol.js';

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

/** How {@link replace} and {@link replaceRows} write; every field has the CLI's default. */
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
  /** cancels the edit before anything is renamed; the files stay as they were */
  signal?: AbortSignal;
}

/** Options of the CLI's calls beyond the library's. */
export interface EditRunOptions extends ReplaceOptions {
  /** the expected rows as parsed (with what `expect` cannot say: another reading of a row); wins over `expect` */
  expectRows?: readonly Row[];
  /** how messages name the expected rows' input */
  expectSource?: string;
  /** where the stale error says the current lines are */
  staleShown?: string;
  /** for tests: how temporary files are written */
  writeFn?: WriteFn;
}

/** One range edit: lines `start..end` become `text`. */
export interface RangeEdit {
  /** first line replaced (1-based); `count + 1` appends */
  start: number;
  /** last line replaced; default `start`; `start - 1` inserts before `start` */
  end?: number;
  /** the new lines (a final newline is optional); empty deletes the range */
  text: string | Uint8Array;
}

/** One row edit: line `line` (of `path`) becomes `text`, as `replace --rows` applies a row. */
export interface RowEdit {
  /** the file; may be left out when {@link replaceRows} is given a `path` */
  path?: string;
  line: number;
  /** the line's new text: one line, its terminator optional (under `eol: 'auto'` the line keeps its own) */
  text: string | Uint8Array;
  /** its number in the caller's input of rows, for messages; default its index + 1 */
  rowNumber?: number;
  /**
   * The line's anchor as read (a {@link Line}'s `anchor`, 4 to 16 lowercase hex digits): the
   * row is applied only if the line still has it; else nothing is written (StaleEditError).
   */
  anchor?: string;
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
}

/** The files one call edited, all or nothing. */
export interface ReplaceResult {
  files: FileChange[];
  dryRun: boolean;
}

/**
 * Replaces lines of the file at `path`, as `linewise replace FILE START [END]` does: each edit's
 * lines `start..end` become its `text`; empty text deletes, `end = start - 1` inserts before
 * `start`, `start = count + 1` appends. Several edits address the file as it was before the
 * call and must not overlap. The file is written atomically (a temporary file beside it, flushed,
 * renamed over it; mode, owner and symbolic links kept), or not at all.
 *
 * @throws {@link StaleEditError} (exit code 3) when `expect` does not hold;
 * {@link LinewiseError} with exit code 2 for a range past the end, overlapping edits, a binary
 * file, text the encoding cannot represent; exit code 3 when the file changed while the edit
 * was being prepared. Nothing is written in any of these cases.
 *
 * @example
 * ```ts
 * const [old] = readLines('app.ts', 12, 12);
 * await replace('app.ts', { start: 12, text: 'const x = 2;' }, { expect: [old] });
 * ```
 */
export async function replace(path: string, edits: RangeEdit | readonly RangeEdit[], options: EditRunOptions = {}): Promise<ReplaceResult> {
  const o = v.options<EditRunOptions>(options, 'options');
  const file = v.string(path, 'path');
  const list: readonly RangeEdit[] = Array.isArray(edits) ? edits : [v.options<RangeEdit>(edits, 'edit') as RangeEdit];
  const ranges = list.map((e, i) => {
    const what = list.length === 1 ? '' : `edit ${i + 1}: `;
    const start = v.count(e?.start, `${what}start`, 1);
    const end = e.end === undefined ? start : v.count(e.end, `${what}end`);
    const problem = editRangeProblem(start, end);
    if (problem !== undefined) throw new LinewiseError('bad-range', `${what}${problem}`);
    return { start, end, text: v.textBytes(e.text, `${what}text`) };
  });
  const source = inputSource(o);
  const plans = rangePlan(source.cwd, file, ranges, o.expectRows ?? expectedRows(o.expect), o.expectSource);
  return apply(plans, o);
}

/**
 * Applies row edits, as `linewise replace [FILE] --rows` does: each row replaces its own line
 * with one line. Rows with paths may edit several files in one call: all are written, or none.
 * With `options.path`, every row is for that file. Lines read with readLines, page or grep can
 * be fed back with a new `text`: `{ ...line, text: 'new' }`.
 *
 * @throws as {@link replace}; a row whose text holds more than one line is refused (exit code 2).
 *
 * @example
 * ```ts
 * const { lines } = await grep('oldName', ['src'], { fixedStrings: true });
 * await replaceRows(lines.map((l) => ({ ...l, text: l.text!.replaceAll('oldName', 'newName') })), { expect: lines });
 * ```
 */
export async function replaceRows(rows: readonly RowEdit[], options: EditRunOptions & { path?: string } = {}): Promise<ReplaceResult> {
  const o = v.options<EditRunOptions & { path?: string }>(options, 'options');
  if (!Array.isArray(rows)) throw new LinewiseError('bad-option', 'rows must be an array of { path?, line, text }');
  const parsed: Row[] = rows.map((r: RowEdit, i) => {
    const rowNumber = r?.rowNumber ?? i + 1;
    const bytes = v.textBytes(r?.text, `row ${rowNumber}: text`);
    const nl = bytes.indexOf(10);
    if (nl !== -1 && nl !== bytes.length - 1) {
      throw new LinewiseError('bad-row', `row ${rowNumber}: a row's text is one line; use replace() with a range for several`, 'rows');
    }
    const anchor = v.optionalString(r.anchor, `row ${rowNumber}: anchor`);
    if (anchor !== undefined && !ANCHOR_PATTERN.test(anchor)) throw new LinewiseError('bad-option', `row ${rowNumber}: anchor must be 4 to 16 lowercase hex digits, not "${anchor}"`);
    return { path: v.optionalString(r.path, `row ${rowNumber}: path`), line: v.count(r.line, `row ${rowNumber}: line`, 1), bytes, rowNumber, ...(anchor !== undefined ? { anchor } : {}) };
  });
  return replaceParsedRows(parsed, o);
}

/** {@link replaceRows} for rows as `replace --rows` parsed them (checked there, one line each). */
export async function replaceParsedRows(rows: readonly Row[], options: EditRunOptions & { path?: string }): Promise<ReplaceResult> {
  const o = v.options<EditRunOptions & { path?: string }>(options, 'options');
  const source = inputSource(o);
  const plans = rowPlans(source.cwd, v.optionalString(o.path, 'path'), rows, o.expectRows ?? expectedRows(o.expect), o.expectSource);
  return apply(plans, o);
}

async function apply(plans: FilePlan[], o: EditRunOptions): Promise<ReplaceResult> {
  const encoding = v.optionalString(o.encoding, 'encoding');
  if (encoding !== undefined) await loadEncoding(encoding);
  const dryRun = v.optionalBoolean(o.dryRun, 'dryRun') === true;
  const prepared = await runTransaction(plans, {
    eol: o.eol === undefined ? 'auto' : v.oneOf(o.eol, 'eol', EOL_MODES),
    dryRun,
    binary: v.optionalBoolean(o.text, 'text'),
    encoding,
    source: inputSource(o),
    signal: v.optionalSignal(o.signal),
    ...(o.staleShown !== undefined ? { staleShown: o.staleShown } : {}),
    ...(o.writeFn !== undefined ? { writeFn: o.writeFn } : {}),
  });
  // Loaded only for a dry run that changes something, so no other call pays for it.
  const diff = dryRun && prepared.some((p) => p.result.changed) ? (await import('../format/diff.js')).unifiedDiff : undefined;
  return { dryRun, files: prepared.map((p) => fileChange(p, dryRun, diff)) };
}

function fileChange({ plan, result }: Prepared, dryRun: boolean, diff: typeof import('../format/diff.js').unifiedDiff | undefined): FileChange {
  return {
    path: plan.given,
    changed: result.changed,
    written: result.changed && !dryRun,
    linesBefore: result.linesBefore,
    linesAfter: result.linesAfter,
    edits: result.edits.map((r) => ({ start: r.edit.start, end: r.edit.end, removed: r.removed, added: r.added, changed: r.changed })),
    ...(diff && result.changed ? { diff: diff(plan.given, result) } : {}),
  };
}

/** Expected lines as the rows `--expect` would have parsed. */
function expectedRows(expect: readonly ExpectedLine[] | undefined): Row[] {
  if (expect === undefined) return [];
  if (!Array.isArray(expect)) throw new LinewiseError('bad-option', 'expect must be an array of { path?, line, bytes or text }');
  return expect.map((e: ExpectedLine, i) => {
    const rowNumber = e?.rowNumber ?? i + 1;
    const bytes = e.bytes !== undefined ? v.textBytes(e.bytes, `expected line ${rowNumber}: bytes`) : e.text !== undefined ? v.textBytes(e.text, `expected line ${rowNumber}: text`) : undefined;
    if (bytes === undefined) throw new LinewiseError('bad-row', `expected line ${rowNumber} (line ${e.line}) has neither bytes nor text`, 'expect');
    return { path: v.optionalString(e.path, `expected line ${rowNumber}: path`), line: v.count(e.line, `expected line ${rowNumber}: line`, 1), bytes, rowNumber };
  });
}
