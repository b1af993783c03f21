// `replace FILE START [END]`, `replace [FILE] --rows [ROWSFILE|-]`, `replace FILE --old/--edits/
// --create`: the new text, rows, edits and expected rows read from argv, files and standard input;
// the edit through the engine; the outcome printed (a diff, JSON records, a receipt, or the current
// lines of a stale edit).

import { Exit, type ExitCode, LinewiseError } from '../core/errors.js';
import { parseRows, type Row } from '../core/parse-rows.js';
import { parseCount } from '../core/ranges.js';
import { type EditRunOptions, type ExpectedLine, replace as replaceRange, replaceRows, type ReplaceResult, TextNotFoundError } from '../engine/edit.js';
import type { EolMode } from '../core/eol.js';
import { StaleEditError } from '../engine/stale.js';
import { printEditRecords, printNear, printReceipts, printStale } from '../format/edit-report.js';
import { contentMode, editsOrText, stdinUsers } from './replace-content.js';
import { readOptionInput } from '../io/option-input.js';
import type { WriteFn } from '../io/temp-file.js';
import type { Context } from './context.js';

export interface ReplaceArgs {
  /** the new text, given on the command line */
  text?: string;
  /** a file holding the new text ("-": standard input) */
  from?: string;
  /** rows to apply: a file, "-" or true (standard input) */
  rows?: string | boolean;
  /** rows as they were read: the stale-edit guard */
  expect?: string;
  /** a content edit: the old text, or a file holding it ("-": standard input) */
  old?: string;
  oldFrom?: string;
  /** the content edit's new text, or a file holding it */
  new?: string;
  newFrom?: string;
  /** replace every occurrence of the old text */
  all?: boolean;
  /** JSON Lines of edits: a file, or "-" */
  edits?: string;
  /** write FILE as a new file; `force` replaces an existing one whole */
  create?: boolean;
  force?: boolean;
  /** after the write, print each edited region as it now is and how the numbering moved */
  receipt?: boolean;
  /** with --expect: follow the lines read when they moved as one block */
  relocate?: boolean;
  eol: EolMode;
  dryRun?: boolean;
  json?: boolean;
  /** edit a file with NUL bytes as text (`-a`) */
  binary?: boolean;
  /** the file's encoding (`--encoding`): lines are decoded, and every line is encoded back */
  encoding?: string;
  /** for tests: how the temporary files are written (a failing writer simulates a full disk) */
  writeFn?: WriteFn;
}

export async function replace(ctx: Context, file: string | undefined, startArg: string | undefined, endArg: string | undefined, o: ReplaceArgs): Promise<ExitCode> {
  if (stdinUsers(o) > 1) throw usage('standard input can feed only one of --rows, --from, --expect, --old-from, --new-from and --edits');
  if (o.relocate && o.expect === undefined) throw usage('--relocate follows the lines given with --expect; give --expect OLDROWS');
  if (o.receipt && o.dryRun) throw usage('--receipt shows the lines after a write, and --dry-run writes nothing (its diff shows the change)');
  const expect = o.expect === undefined ? [] : expectedLines(parseRows(readOptionInput(ctx.io, o.expect, '--expect'), o.expect));
  const options: EditRunOptions = {
    eol: o.eol,
    dryRun: o.dryRun,
    text: o.binary,
    encoding: o.encoding,
    expect,
    expectSource: '--expect',
    staleShown: 'on stdout',
    receipt: o.receipt,
    relocate: o.relocate,
    cwd: ctx.io.cwd,
    stdin: ctx.io.stdin,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(o.writeFn ? { writeFn: o.writeFn } : {}),
  };
  let result: ReplaceResult;
  try {
    result = await run(ctx, file, startArg, endArg, o, options);
  } catch (e) {
    if (e instanceof StaleEditError) printStale(ctx.out, e, o.json === true);
    if (e instanceof TextNotFoundError) printNear(ctx.out, e, o.json === true);
    throw e;
  }
  for (const f of result.files) if (f.relocated) ctx.warn(`relocated lines ${f.relocated.from.join('-')} to ${f.relocated.to.join('-')}`, f.path);
  // Under --json the diff is a field of each file's record: the output is JSON Lines only.
  if (o.dryRun && !o.json) for (const f of result.files) if (f.diff) ctx.out.bytes(f.diff);
  if (o.json) printEditRecords(ctx.out, result, pathRows(file, o));
  else if (o.receipt) printReceipts(ctx.out, result, pathRows(file, o), ctx.rowStyle, ctx.noteStyle);
  return Exit.ok;
}

/** Rows of a receipt carry paths when the edit's rows did (no FILE given). */
const pathRows = (file: string | undefined, o: ReplaceArgs) => file === undefined && o.rows !== undefined && o.rows !== false;

/** The edit the arguments ask for: rows, or a range and its new text. */
async function run(ctx: Context, file: string | undefined, startArg: string | undefined, endArg: string | undefined, o: ReplaceArgs, options: EditRunOptions): Promise<ReplaceResult> {
  if (contentMode(o) !== undefined) {
    if (o.rows !== undefined && o.rows !== false) throw usage(`--rows and ${contentMode(o)} are two ways to edit: give one`);
    if (file === undefined) throw usage(`${contentMode(o)} needs FILE: linewise replace FILE ${contentMode(o)} ...`);
    if (startArg !== undefined) throw usage(`${contentMode(o)} takes no START or END: ${o.create ? 'the text is the whole file' : 'the old text or the edits say where'}`);
    return editsOrText(ctx, file, o, options, () => newText(ctx, o));
  }
  if (o.all || o.force || o.new !== undefined || o.newFrom !== undefined) {
    throw usage(o.all ? '--all goes with --old' : o.force ? '--force goes with --create' : '--new goes with --old');
  }
  if (o.rows !== undefined && o.rows !== false) {
    if (startArg !== undefined) throw usage('--rows takes no START or END: each row names its line');
    if (o.text !== undefined || o.from !== undefined) throw usage('--rows brings its own text; --text and --from apply to a range');
    const source = o.rows === true ? '-' : o.rows;
    const rows = parseRows(readOptionInput(ctx.io, source, '--rows'), source === '-' ? '<stdin>' : source);
    if (rows.length === 0) ctx.warn('no rows to apply; nothing written');
    return replaceRows(
      rows.map((r) => ({ ...(r.path !== undefined ? { path: r.path } : {}), line: r.line, text: r.bytes, rowNumber: r.rowNumber })),
      { ...options, ...(file !== undefined ? { path: file } : {}) },
    );
  }
  if (file === undefined || startArg === undefined) {
    throw usage('give FILE START [END] and the new text, or --rows (see linewise help replace)');
  }
  const start = parseCount(startArg, 'START', 1);
  const end = endArg === undefined ? start : parseCount(endArg, 'END');
  return replaceRange(file, { start, end, text: newText(ctx, o) }, options);
}

/** Rows as read, for the guard. */
function expectedLines(rows: readonly Row[]): ExpectedLine[] {
  return rows.map((r) => ({ ...(r.path !== undefined ? { path: r.path } : {}), line: r.line, bytes: r.bytes, rowNumber: r.rowNumber }));
}

function usage(message: string): LinewiseError {
  return new LinewiseError('usage', message);
}

/** The new text of a range edit: --text, --from, or standard input (not a terminal). */
function newText(ctx: Context, o: ReplaceArgs): Buffer {
  if (o.text !== undefined && o.from !== undefined) throw usage('give the new text once: --text or --from, not both');
  if (o.text !== undefined) return Buffer.from(o.text, 'utf8');
  if (o.from !== undefined) return readOptionInput(ctx.io, o.from, '--from');
  if (ctx.io.stdinIsTTY) {
    throw usage('no new text: give --text TEXT, --from FILE, or pipe it on standard input (--text "" deletes)');
  }
  return readOptionInput(ctx.io, '-', '--from');
}
