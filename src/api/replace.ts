// replace as functions: range edits and row edits planned, guarded and written atomically by the
// CLI's own building blocks, with what changed returned as data.

import { applyPlans, type FilePlan, groupRows, type Prepared, rangePlan, staleError } from '../commands/replace.js';
import type { EolMode } from '../core/edits.js';
import { Exit, LinewiseError } from '../core/errors.js';
import type { Row } from '../core/rows.js';
import { count, libraryContext, type Line, toLine } from './collect.js';
import { loadEncoding } from './encoding.js';
import type { ReadOptions } from './read.js';

export type { EolMode } from '../core/edits.js';

/** A line as it was read, for the stale-edit guard: a {@link Line} from readLines, page or grep will do. */
export interface ExpectedLine {
  /** the file; may be left out for a range edit (the file edited) */
  path?: string;
  line: number;
  /** the line as read (compared without its terminator); give `bytes` or `text` */
  bytes?: Uint8Array;
  /** the line as read, without its terminator, when `bytes` is not given */
  text?: string;
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
  /** the directory relative paths start from; default `process.cwd()` */
  cwd?: string;
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
 * Thrown by the stale-edit guard: lines given in `expect` no longer hold the text read. Nothing
 * was written. `current` holds those lines as they are now (what the CLI prints on stdout);
 * `gone` the expected lines the file no longer has. `exitCode` is 3.
 */
export class StaleEditError extends LinewiseError {
  constructor(
    message: string,
    path: string | undefined,
    readonly current: Line[],
    readonly gone: { path: string; line: number }[],
  ) {
    super('stale', message, path, Exit.stale);
    this.name = 'StaleEditError';
  }
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
export async function replace(path: string, edits: RangeEdit | readonly RangeEdit[], options: ReplaceOptions = {}): Promise<ReplaceResult> {
  const ctx = libraryContext(options.cwd);
  const list = Array.isArray(edits) ? (edits as readonly RangeEdit[]) : [edits as RangeEdit];
  const ranges = list.map((e) => {
    const start = count(e.start, 'start', 1);
    const end = e.end === undefined ? start : count(e.end, 'end');
    if (end < start - 1) throw new LinewiseError('usage', `END ${end} is before START ${start} (END = START - 1 inserts before START)`);
    return { start, end, text: bytesOf(e.text) };
  });
  const plans = rangePlan(ctx, path, ranges, expectedRows(options.expect), 'expect');
  return apply(ctx, plans, options);
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
export async function replaceRows(rows: readonly RowEdit[], options: ReplaceOptions & { path?: string } = {}): Promise<ReplaceResult> {
  const ctx = libraryContext(options.cwd);
  const parsed: Row[] = rows.map((r, i) => {
    const bytes = bytesOf(r.text);
    const nl = bytes.indexOf(10);
    if (nl !== -1 && nl !== bytes.length - 1) {
      throw new LinewiseError('bad-row', `row ${i + 1}: a row's text is one line; use replace() with a range for several`, 'rows');
    }
    return { path: r.path, line: count(r.line, `row ${i + 1}: line`, 1), bytes, rowNumber: i + 1 };
  });
  const plans = groupRows(ctx, options.path, parsed, expectedRows(options.expect));
  return apply(ctx, plans, options);
}

async function apply(ctx: ReturnType<typeof libraryContext>, plans: FilePlan[], options: ReplaceOptions): Promise<ReplaceResult> {
  if (options.encoding !== undefined) await loadEncoding(options.encoding);
  const o = { eol: options.eol ?? 'auto', dryRun: options.dryRun, binary: options.text, encoding: options.encoding };
  const prepared = await applyPlans(ctx, plans, o, (stale) => {
    throw staleEditError(stale);
  });
  const diff = options.dryRun && prepared.some((p) => p.result.changed) ? (await import('../format/diff.js')).unifiedDiff : undefined;
  return {
    dryRun: options.dryRun === true,
    files: prepared.map(({ plan, result }) => ({
      path: plan.given,
      changed: result.changed,
      written: result.changed && !options.dryRun,
      linesBefore: result.linesBefore,
      linesAfter: result.linesAfter,
      edits: result.edits.map((r) => ({ start: r.edit.start, end: r.edit.end, removed: r.removed, added: r.added, changed: r.changed })),
      ...(diff && result.changed ? { diff: diff(plan.given, result) } : {}),
    })),
  };
}

/** The CLI's exit-3 error, with the current lines as data instead of on stdout. */
function staleEditError(stale: Prepared[]): StaleEditError {
  const current: Line[] = [];
  const gone: { path: string; line: number }[] = [];
  for (const { plan, result } of stale) {
    for (const m of result.mismatches) {
      if (m.current === undefined) gone.push({ path: plan.given, line: m.line });
      else current.push(toLine(plan.given, m.line, m.current, 0, m.current.length));
    }
  }
  const e = staleError(stale, "in the error's `current`");
  return new StaleEditError(e.message, e.path, current, gone);
}

/** Expected lines as the rows `--expect` would have parsed. */
function expectedRows(expect: readonly ExpectedLine[] | undefined): Row[] {
  return (expect ?? []).map((e, i) => {
    const bytes = e.bytes !== undefined ? Buffer.from(e.bytes) : e.text !== undefined ? Buffer.from(e.text, 'utf8') : undefined;
    if (bytes === undefined) throw new LinewiseError('bad-row', `expected line ${i + 1} (line ${e.line}) has neither bytes nor text`, 'expect');
    return { path: e.path, line: count(e.line, `expected line ${i + 1}: line`, 1), bytes, rowNumber: i + 1 };
  });
}

function bytesOf(text: string | Uint8Array): Buffer {
  return typeof text === 'string' ? Buffer.from(text, 'utf8') : Buffer.from(text);
}
